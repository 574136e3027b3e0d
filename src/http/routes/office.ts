/**
 * Read endpoints of the competition-office client (/office/) that the spec does not name: the
 * competitions, groups, teams and current squads of one event, and who a pasted token belongs to.
 * Documented in docs/api-changelog.md.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { selectEventCompetitions, selectEventUnits, type UnitKind } from '../../../queries/office-event-lists.js';
import { selectEventSquads } from '../../../queries/office-squads.js';
import { ROLES } from '../auth.js';
import { notFound } from '../../domain/errors.js';
import { Id, withErrors } from '../schemas/common.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const EventParams = Type.Object({ eventId: Id() });

const CompetitionsReply = Type.Array(
  Type.Object({
    id: Type.Integer(),
    name: NullableString,
    isGroupCompetition: Type.Boolean({ description: 'bol_gruppe: group scoring is enabled' }),
    attempts: Type.Integer({ description: 'int_versuche (1 when not set): attempts per discipline' }),
    disciplineIds: Type.Array(Type.Integer(), {
      description: 'not in the spec: the devices its score rows are planned on (detail rows), in planning order',
    }),
  }),
);

const UnitsReply = (what: string) =>
  Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      startNumber: Type.Union([Type.Integer(), Type.Null()]),
      clubId: Type.Union([Type.Integer(), Type.Null()]),
      clubName: NullableString,
      squadName: NullableString,
      competitions: Type.Array(
        Type.Object({
          id: Type.Integer(),
          disciplineIds: Type.Array(Type.Integer(), {
            description:
              'Disciplines with a detail row of a group or team row of the competition, widened to their sport; empty: none recorded yet (every device applies)',
          }),
        }),
        { description: 'Competitions with a score row of this unit, by id; empty when it has none yet' },
      ),
    }),
    { description: `${what} of the event, by start number` },
  );

const SquadParticipantSchema = Type.Object({
  id: Type.Integer(),
  firstName: NullableString,
  lastName: NullableString,
  clubName: NullableString,
  gender: Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')]),
});

const SquadsReply = Type.Object({
  eventId: Type.Integer(),
  squads: Type.Array(Type.Object({ name: Type.String(), participants: Type.Array(SquadParticipantSchema) }), {
    description: 'Distinct squad names (var_riege) on the individual score rows of the event, by name',
  }),
  unassigned: Type.Array(SquadParticipantSchema, { description: 'Participants with score rows in the event, none of them naming a squad' }),
});

const SessionReply = Type.Object({
  sub: Type.String(),
  role: Type.Union(ROLES.map((role) => Type.Literal(role))),
  expiresAt: Type.Union([Type.String({ description: 'ISO 8601' }), Type.Null()]),
});

function eventList<T extends TSchema>(
  app: TypedApp,
  path: string,
  summary: string,
  reply: T,
  load: (eventId: number) => Promise<Static<T> | null>,
  publicRead = false,
): void {
  app.get(
    path,
    { config: { publicRead }, schema: { tags: ['office'], summary, params: EventParams, response: withErrors({ 200: reply }, 400, 404) } },
    async (request) => {
      const entries = await load(request.params.eventId);
      if (entries === null) throw notFound(`event ${request.params.eventId} not found`);
      return entries;
    },
  );
}

export async function officeRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const { pool } = deps;

  eventList(
    app,
    '/api/events/:eventId/competitions',
    'Competitions of an event with their attempt count',
    CompetitionsReply,
    (eventId) => selectEventCompetitions(pool, eventId),
    true,
  );
  const units: Array<[UnitKind, string]> = [
    ['groups', 'Groups'],
    ['teams', 'Teams'],
  ];
  for (const [kind, label] of units) {
    eventList(app, `/api/events/:eventId/${kind}`, `${label} of an event with club and squad`, UnitsReply(label), (eventId) =>
      selectEventUnits(pool, kind, eventId),
    );
  }

  app.get(
    '/api/events/:eventId/squads',
    {
      schema: {
        tags: ['office'],
        summary: 'Current squads of an event, read from the squad names of its score rows',
        params: EventParams,
        response: withErrors({ 200: SquadsReply }, 400, 404),
      },
    },
    async (request) => {
      const squads = await selectEventSquads(pool, request.params.eventId);
      if (squads === null) throw notFound(`event ${request.params.eventId} not found`);
      return squads;
    },
  );

  app.get(
    '/api/session',
    {
      // The office client checks a pasted token here before keeping it, so a typo or a token of
      // another installation is refused at sign-in rather than at the first admin action.
      onRequest: app.requireRole(...ROLES),
      schema: {
        tags: ['office'],
        summary: 'Who the bearer token belongs to (subject, role, expiry)',
        security: [{ bearer: [] }],
        response: withErrors({ 200: SessionReply }, 401, 403),
      },
    },
    async (request) => {
      const { sub, role, exp } = request.user as typeof request.user & { exp?: number };
      return { sub, role, expiresAt: typeof exp === 'number' ? new Date(exp * 1000).toISOString() : null };
    },
  );
}
