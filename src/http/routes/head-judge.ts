/**
 * The head judge's console: the audit record (who changed which score, who released or reopened
 * what), completeness per device and squad, and releasing/reopening a scope. The record names the
 * judges and their old values, so it is the head judge's and the admin's to read; completeness
 * (who is still to score, who released) any judge's. Documented in the changelog.
 */
import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { changeRelease } from '../../../commands/release-scope.js';
import { loadCompleteness } from '../../../queries/completeness.js';
import { selectScopeReleases } from '../../../queries/scope-releases.js';
import { AUDIT_KINDS, selectAuditPage, selectScoreHistory } from '../../../queries/score-audit.js';
import { commandContext } from '../actor.js';
import { HEAD_ROLES, ROLES } from '../auth.js';
import { validationFailed } from '../../domain/errors.js';
import { Id, withErrors } from '../schemas/common.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const SquadName = Type.String({ minLength: 1, maxLength: 5, pattern: '^\\S(.*\\S)?$', description: 'var_riege, 1-5 characters' });

const ChangeFields = {
  id: Type.Integer({ description: 'Audit row id, increasing in the order the changes were recorded' }),
  kind: Type.Union(
    AUDIT_KINDS.map((kind) => Type.Literal(kind)),
    { description: 'change: a value; panel-confirmed: a panel deviation accepted; release / reopen: a device or squad (no score)' },
  ),
  at: Type.String({ description: 'ISO 8601' }),
  source: Type.Union([Type.Literal('api'), Type.Literal('legacy')]),
  actor: Type.String({ description: 'Token subject or judge name (api); application_name or database user (legacy)' }),
  disciplineId: Type.Integer(),
  fieldId: Type.Union([Type.Integer(), Type.Null()], { description: 'Discipline field; null for the final score' }),
  attempt: Type.Union([Type.Integer(), Type.Null()]),
  from: NullableNumber,
  to: NullableNumber,
  afterRelease: Type.Boolean({ description: 'The scope was released when the change was made' }),
};

const HistoryReply = Type.Object({
  scoreId: Type.Integer(),
  changes: Type.Array(Type.Object(ChangeFields), { description: 'Oldest first' }),
});

const AuditQuery = Type.Object({
  eventId: Id(),
  since: Type.Optional(Type.String({ format: 'date-time', maxLength: 40, description: 'Only changes at or after this moment (ISO 8601)' })),
  before: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Paging: changes older than this audit id (the previous page’s nextBefore)' }),
  ),
  competitionId: Type.Optional(Id()),
  disciplineId: Type.Optional(Id()),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
});

const AuditReply = Type.Object({
  eventId: Type.Integer(),
  changes: Type.Array(
    Type.Object({
      ...ChangeFields,
      scoreId: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a release or reopening' }),
      eventId: Type.Integer(),
      competitionId: Type.Union([Type.Integer(), Type.Null()]),
      disciplineName: NullableString,
      fieldName: NullableString,
      name: Type.Union([Type.String(), Type.Null()], { description: 'Participant, group or team' }),
      squadName: Type.Union([Type.String(), Type.Null()], {
        description: 'The score’s squad; for a release or reopening the squad it concerns, null for the whole device',
      }),
    }),
    { description: 'Newest first' },
  ),
  nextBefore: Type.Union([Type.Integer(), Type.Null()]),
});

const CompletenessQuery = Type.Object({
  eventId: Id(),
  competitionId: Id(),
  disciplineId: Type.Optional(Id()),
  squadName: Type.Optional(SquadName),
});

const ReleaseSchema = Type.Union([Type.Object({ releasedAt: Type.String(), releasedBy: Type.String() }), Type.Null()]);
const CompletenessReply = Type.Object({
  eventId: Type.Integer(),
  competitionId: Type.Integer(),
  devices: Type.Array(
    Type.Object({
      disciplineId: Type.Integer(),
      disciplineName: NullableString,
      expected: Type.Integer(),
      scored: Type.Integer(),
      release: ReleaseSchema,
      squads: Type.Array(
        Type.Object({
          squadName: Type.String({ description: 'Empty for score rows without a squad' }),
          expected: Type.Integer({ description: 'Score rows in the squad, did-not-start rows excepted' }),
          scored: Type.Integer(),
          didNotStart: Type.Integer(),
          missing: Type.Array(Type.Object({ scoreId: Type.Integer(), name: NullableString, startNumber: NullableString })),
          release: ReleaseSchema,
        }),
      ),
    }),
  ),
});

const ReleaseBody = Type.Object(
  { competitionId: Id(), disciplineId: Id(), squadName: Type.Optional(SquadName) },
  { additionalProperties: false },
);
const ReleaseReply = Type.Object({
  competitionId: Type.Integer(),
  disciplineId: Type.Integer(),
  squadName: NullableString,
  released: Type.Boolean({ description: 'State after the call; a squad stays released while its whole device is' }),
  releasedAt: NullableString,
  releasedBy: NullableString,
});

const ScopeReleasesReply = Type.Object({
  competitionId: Type.Integer(),
  releases: Type.Array(
    Type.Object({
      disciplineId: Type.Integer(),
      squadName: Type.Union([Type.String(), Type.Null()], { description: 'null: the whole device, every squad' }),
    }),
  ),
});

export async function headJudgeRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/scores/:scoreId/history',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['head judge'],
        summary: 'Every recorded change of one score, oldest first (head or admin)',
        security: [{ bearer: [] }],
        params: Type.Object({ scoreId: Id() }),
        response: withErrors({ 200: HistoryReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => selectScoreHistory(deps.pool, request.params.scoreId),
  );

  app.get(
    '/api/audit',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['head judge'],
        summary:
          'The corrections log of an event with its releases and reopenings, newest first, paged with before = nextBefore (head or admin)',
        security: [{ bearer: [] }],
        querystring: AuditQuery,
        response: withErrors({ 200: AuditReply }, 400, 401, 403, 503),
      },
    },
    async (request) => {
      const { since } = request.query;
      if (since !== undefined && Number.isNaN(Date.parse(since))) throw validationFailed('querystring.since must be an ISO 8601 date-time');
      return selectAuditPage(deps.pool, request.query);
    },
  );

  app.get(
    '/api/completeness',
    {
      onRequest: app.requireRole(...ROLES),
      schema: {
        tags: ['head judge'],
        summary: 'Per device and squad of a competition: participants expected, scored, missing (with names), release state (any role)',
        security: [{ bearer: [] }],
        querystring: CompletenessQuery,
        response: withErrors({ 200: CompletenessReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => loadCompleteness(deps.pool, request.query),
  );

  app.get(
    '/api/releases',
    {
      schema: {
        tags: ['head judge'],
        summary: 'The released devices and squads of a competition (no token: the jury portal shows them read-only)',
        querystring: Type.Object({ competitionId: Id() }, { additionalProperties: false }),
        response: withErrors({ 200: ScopeReleasesReply }, 400, 404, 503),
      },
    },
    async (request) => selectScopeReleases(deps.pool, request.query.competitionId),
  );

  for (const [method, release] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/api/releases',
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['head judge'],
        summary: release
          ? 'Release a device of a competition (every squad, or one): API writes then need the head or admin role'
          : 'Reopen a released device or squad',
        body: ReleaseBody,
        response: withErrors({ 200: ReleaseReply }, 400, 401, 403, 404, 503),
      },
      handler: async (request) => {
        const context = commandContext(request);
        return deps.commands.run((tx) => changeRelease(tx, request.body, release, context.actor ?? 'unknown'), context);
      },
    });
  }
}
