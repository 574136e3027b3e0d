/**
 * The day's timetable (issue 45): an event's rotation plan (read by anyone, stored and generated
 * by the admin) and the current rotation (started by the head judge or admin, read by anyone: the
 * portals and boards follow it).
 */
import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { replaceRotationPlan, startRotation } from '../../../commands/rotation-plan.js';
import { loadCurrentRotation, loadRotationPlan } from '../../../queries/rotations.js';
import { compareSquadNames, generateRotations } from '../../domain/rotation-plan.js';
import { notFound, validationFailed } from '../../domain/errors.js';
import { selectRotationScope } from '../../model/rotation-scope.js';
import { commandContext } from '../actor.js';
import { HEAD_ROLES } from '../auth.js';
import { Id, withErrors } from '../schemas/common.js';

const SquadName = Type.String({ minLength: 1, maxLength: 5, pattern: '^\\S(.*\\S)?$', description: 'var_riege, 1-5 characters' });
const DateTime = Type.String({ format: 'date-time', maxLength: 40, description: 'ISO 8601 with offset' });

const SlotSchema = Type.Object(
  {
    disciplineId: Id({ description: 'The apparatus' }),
    squadName: SquadName,
    judges: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, default: [], description: 'Judge names (optional)' }),
  },
  { additionalProperties: false },
);
const RotationSchema = Type.Object(
  {
    rotation: Type.Integer({ minimum: 1, maximum: 1000, description: 'Rotation number, 1 = first' }),
    plannedStart: DateTime,
    slots: Type.Array(SlotSchema, { maxItems: 100, description: 'Per apparatus the squad on it' }),
  },
  { additionalProperties: false },
);
const RotationReply = Type.Object({
  rotation: Type.Integer(),
  plannedStart: Type.String(),
  slots: Type.Array(Type.Object({ disciplineId: Type.Integer(), squadName: Type.String(), judges: Type.Array(Type.String()) })),
});
const EventParams = Type.Object({ eventId: Id() });

const PlanReply = Type.Object({
  eventId: Type.Integer(),
  rotations: Type.Array(RotationReply, { description: 'By rotation number; empty without a plan' }),
  currentRotation: Type.Union([Type.Integer(), Type.Null()]),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
});
const PlanBody = Type.Object({ rotations: Type.Array(RotationSchema, { maxItems: 1000 }) }, { additionalProperties: false });

const GenerateBody = Type.Object(
  {
    start: DateTime,
    minutesPerApparatus: Type.Integer({ minimum: 1, maximum: 600, description: 'Time a squad spends on an apparatus, change included' }),
    apparatusMinutes: Type.Optional(
      Type.Array(
        Type.Object({ disciplineId: Id(), minutes: Type.Integer({ minimum: 1, maximum: 600 }) }, { additionalProperties: false }),
        {
          maxItems: 100,
          description: 'Per apparatus durations; a rotation lasts as long as its longest occupied apparatus',
        },
      ),
    ),
    breaks: Type.Optional(
      Type.Array(
        Type.Object(
          { afterRotation: Type.Integer({ minimum: 1, maximum: 1000 }), minutes: Type.Integer({ minimum: 1, maximum: 600 }) },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
    disciplineIds: Type.Optional(
      Type.Array(Id(), { minItems: 1, maxItems: 100, description: "Apparatus in the order squads move on; default: the event's, by id" }),
    ),
    squadNames: Type.Optional(
      Type.Array(SquadName, { minItems: 1, maxItems: 500, description: "Squads in start order; default: the event's, by name" }),
    ),
  },
  { additionalProperties: false },
);
const GenerateReply = Type.Object({ eventId: Type.Integer(), rotations: Type.Array(RotationReply) });

const StartBody = Type.Object({ rotation: Type.Integer({ minimum: 1, maximum: 1000 }) }, { additionalProperties: false });
const StartReply = Type.Object({
  eventId: Type.Integer(),
  rotation: Type.Integer(),
  changed: Type.Boolean({ description: 'false: it already was the current rotation; no event was sent' }),
});

const CurrentReply = Type.Object({
  eventId: Type.Integer(),
  current: Type.Union([
    Type.Null(),
    Type.Object({
      rotation: Type.Integer(),
      plannedStart: Type.String(),
      startedAt: Type.String(),
      delayMinutes: Type.Integer({ description: 'Started this many minutes after the planned start (negative: before)' }),
      apparatus: Type.Array(
        Type.Object({
          disciplineId: Type.Integer(),
          disciplineName: Type.Union([Type.String(), Type.Null()]),
          squadName: Type.String(),
          judges: Type.Array(Type.String()),
          expected: Type.Integer({ description: 'Score rows of the squad in the event, did-not-start rows excepted' }),
          scored: Type.Integer({ description: 'Of those, with a final on this apparatus' }),
        }),
      ),
    }),
  ]),
  upcoming: Type.Array(
    Type.Object({
      rotation: Type.Integer(),
      plannedStart: Type.String(),
      expectedStart: Type.String({ description: 'The planned start shifted by the current delay' }),
    }),
  ),
});

/** The generator's input checked against the event: an unknown apparatus or squad is the request's error. */
function unknownNames<T>(requested: readonly T[] | undefined, known: readonly T[], what: string): string[] {
  return (requested ?? []).filter((item) => !known.includes(item)).map((item) => `body.${what}: ${String(item)} is not one of the event`);
}

export async function rotationsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const rotationPlanUrl = '/api/events/:eventId/rotation-plan';

  app.get(
    rotationPlanUrl,
    {
      schema: {
        tags: ['rotations'],
        summary: 'The rotation plan of an event: per rotation its planned start and per apparatus the squad on it',
        params: EventParams,
        response: withErrors({ 200: PlanReply }, 400, 404, 503),
      },
    },
    async (request) => loadRotationPlan(deps.pool, request.params.eventId),
  );

  app.put(
    rotationPlanUrl,
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['rotations'],
        summary:
          'Replace the rotation plan (admin). 400 and nothing stored when a squad is on two apparatus in one rotation, an apparatus has two squads, or a squad or apparatus is not one of the event',
        security: [{ bearer: [] }],
        params: EventParams,
        body: PlanBody,
        response: withErrors({ 200: PlanReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const context = commandContext(request);
      await deps.commands.run((tx) => replaceRotationPlan(tx, eventId, request.body.rotations, context.actor ?? 'admin'), context);
      return loadRotationPlan(deps.pool, eventId);
    },
  );

  app.post(
    `${rotationPlanUrl}/generate`,
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['rotations'],
        summary:
          'A proposed plan (not stored, admin): squad i starts on apparatus i and moves on in apparatus order; more squads than apparatus form groups one after another',
        security: [{ bearer: [] }],
        params: EventParams,
        body: GenerateBody,
        response: withErrors({ 200: GenerateReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const body = request.body;
      const scope = await selectRotationScope(deps.pool, eventId);
      if (!scope.eventFound) throw notFound(`No event ${eventId}`);
      const known = scope.disciplines.map((discipline) => discipline.id);
      const problems = [
        ...unknownNames(body.disciplineIds, known, 'disciplineIds'),
        ...unknownNames(
          body.apparatusMinutes?.map((entry) => entry.disciplineId),
          known,
          'apparatusMinutes',
        ),
        ...unknownNames(body.squadNames, scope.squadNames, 'squadNames'),
      ];
      if (problems.length > 0) throw validationFailed(problems.join('; '));
      const rotations = generateRotations({
        disciplineIds: [...new Set(body.disciplineIds ?? known)],
        squadNames: [...new Set(body.squadNames ?? [...scope.squadNames].sort(compareSquadNames))],
        start: new Date(body.start),
        minutesPerApparatus: body.minutesPerApparatus,
        apparatusMinutes: new Map((body.apparatusMinutes ?? []).map((entry) => [entry.disciplineId, entry.minutes])),
        breaks: body.breaks ?? [],
      });
      return { eventId, rotations };
    },
  );

  app.post(
    '/api/events/:eventId/rotations/current',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['rotations'],
        summary: 'Start a rotation of the plan (head or admin): one rotation-changed event, none when it already is the current one',
        security: [{ bearer: [] }],
        params: EventParams,
        body: StartBody,
        response: withErrors({ 200: StartReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const { rotation } = request.body;
      const context = commandContext(request);
      const changed = await deps.commands.run((tx) => startRotation(tx, eventId, rotation, context.actor ?? 'unknown'), context);
      return { eventId, rotation, changed };
    },
  );

  app.get(
    '/api/events/:eventId/rotations/current',
    {
      schema: {
        tags: ['rotations'],
        summary: 'The current rotation: per apparatus its squad, scored/expected, the delay, and the later rotations’ expected starts',
        params: EventParams,
        response: withErrors({ 200: CurrentReply }, 400, 404, 503),
      },
    },
    async (request) => loadCurrentRotation(deps.pool, request.params.eventId),
  );
}
