import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { commandContext } from '../actor.js';
import { applySquads } from '../../../commands/apply-squads.js';
import { editSquads } from '../../../commands/edit-squads.js';
import { readAgeRule } from '../../../queries/app-settings.js';
import { selectSquadPlanningInput } from '../../../queries/squad-participants.js';
import { generateSquadProposals, resolveSquadCriteria, SQUAD_NAME_MAX_LENGTH, type SquadProposal } from '../../domain/squad-planner.js';
import { validationFailed } from '../../domain/errors.js';
import { Id, withErrors } from '../schemas/common.js';
import { SquadCriteriaSchema, SquadProposalSchema } from '../schemas/squads.js';

const GenerateBodySchema = Type.Object({
  eventId: Id({ description: 'The event (Veranstaltung) whose participants are planned' }),
  ...Type.Partial(SquadCriteriaSchema).properties,
});

const GenerateResponseSchema = Type.Object({
  proposals: Type.Array(SquadProposalSchema),
  eventId: Type.Integer(),
  totalParticipants: Type.Integer({ description: 'participants with a score row in a competition of the event, each once' }),
  criteria: SquadCriteriaSchema,
});

const ApplyBodySchema = Type.Object({
  eventId: Id(),
  squads: Type.Array(
    Type.Object({
      name: Type.String({ minLength: 1, maxLength: SQUAD_NAME_MAX_LENGTH, description: 'unique within the request; stored in var_riege' }),
      participantIds: Type.Array(Id(), {
        description: 'participants with a score row in a competition of the event; each in one squad only',
      }),
    }),
  ),
  clearExisting: Type.Boolean({ default: true, description: 'first remove every squad name from the score rows of the event' }),
  keepGroupAndTeamSquads: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'not in the spec: the clear leaves the squad names of group and team score rows (G1, T1…) as they are',
    }),
  ),
});

const SquadName = (description: string) => Type.String({ minLength: 1, maxLength: SQUAD_NAME_MAX_LENGTH, description });

const EventParams = Type.Object({ eventId: Id() });
const SquadParams = Type.Object({ eventId: Id(), squadName: SquadName('the squad as its score rows name it') });
const ParticipantParams = Type.Object({ eventId: Id(), participantId: Id() });

const CreateSquadBody = Type.Object(
  {
    name: SquadName('not yet used in the event'),
    participantIds: Type.Array(Id(), {
      minItems: 1,
      maxItems: 1000,
      description: 'its first gymnasts (a squad exists only as a name on score rows)',
    }),
  },
  { additionalProperties: false },
);
const RenameSquadBody = Type.Object({ name: SquadName('the new name, not yet used in the event') }, { additionalProperties: false });
const MoveBody = Type.Object(
  { squadName: Type.Union([SquadName('the squad to move to'), Type.Null()], { description: 'null: no squad' }) },
  { additionalProperties: false },
);

const SquadEditReply = Type.Object({
  eventId: Type.Integer(),
  action: Type.Union([Type.Literal('move'), Type.Literal('create'), Type.Literal('rename'), Type.Literal('delete')]),
  squadName: Type.Union([Type.String(), Type.Null()], { description: 'the squad created, moved to or renamed to; the one deleted' }),
  rowsChanged: Type.Integer({ description: 'score rows whose squad name changed' }),
});

const EDIT_ERRORS = [400, 401, 403, 404, 409, 503] as const;

const ApplyResponseSchema = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  eventId: Type.Integer(),
  squadsCreated: Type.Integer({ description: 'squads with at least one participant' }),
  participantsAssigned: Type.Integer(),
});

export async function squadsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const { pool } = deps;

  app.post(
    '/api/squad-management/auto-assign/generate',
    {
      // onRequest rather than preHandler: 401/403 come before the body is validated.
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Squad proposals for the participants of an event (not stored)',
        description:
          "Ages follow the ageRule app setting: birth-year (default) = year of the event's start (dat_von) minus year of birth; exact = completed years on the start date. Without a start date, today's date stands in.",
        security: [{ bearer: [] }],
        body: GenerateBodySchema,
        response: withErrors({ 200: GenerateResponseSchema }, 400, 401, 403),
      },
    },
    async (request) => {
      const { eventId, ...requested } = request.body;
      const criteria = resolveSquadCriteria(requested);
      const [{ participants, eventStart }, ageRule] = await Promise.all([selectSquadPlanningInput(pool, eventId), readAgeRule(pool)]);
      if (participants.length === 0) {
        throw validationFailed(`body.eventId: event ${eventId} has no participants with a score row in one of its competitions`);
      }
      let proposals: SquadProposal[];
      try {
        // The start date keeps ages (and so age categories) stable however early squads are planned.
        proposals = generateSquadProposals(participants, criteria, { referenceDate: eventStart ?? new Date(), ageRule });
      } catch (error) {
        // The planner refuses only what cannot be named within 5 characters: the request can fix that.
        if (error instanceof RangeError)
          throw validationFailed(`${error.message} for ${participants.length} participants; raise maxParticipantsPerSquad`);
        throw error;
      }
      return { proposals, eventId, totalParticipants: participants.length, criteria };
    },
  );

  app.post(
    '/api/squad-management/auto-assign/apply',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Write the squad names of a proposal to the score rows of the event (one transaction)',
        security: [{ bearer: [] }],
        body: ApplyBodySchema,
        response: withErrors({ 200: ApplyResponseSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      const context = commandContext(request);
      const result = await deps.commands.run((tx) => applySquads(tx, request.body, context.actor), context);
      return {
        success: true as const,
        message: `${result.squadsCreated} squads applied to ${result.participantsAssigned} participants of event ${result.eventId}`,
        ...result,
      };
    },
  );

  // The squad page's edits by hand (issue 44): admin, each one transaction and one audit record.
  const edit = (params: { eventId: number }, request: Parameters<typeof commandContext>[0], change: Parameters<typeof editSquads>[2]) => {
    const context = commandContext(request);
    return deps.commands.run((tx) => editSquads(tx, params.eventId, change, context.actor), context);
  };

  app.post(
    '/api/events/:eventId/squads',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Create a squad with its first gymnasts (409 when the name is taken)',
        security: [{ bearer: [] }],
        params: EventParams,
        body: CreateSquadBody,
        response: withErrors({ 200: SquadEditReply }, ...EDIT_ERRORS),
      },
    },
    async (request) =>
      edit(request.params, request, { action: 'create', name: request.body.name, participantIds: request.body.participantIds }),
  );

  app.put(
    '/api/events/:eventId/squads/:squadName',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Rename a squad on every score row of the event that names it (409 when the new name is taken)',
        security: [{ bearer: [] }],
        params: SquadParams,
        body: RenameSquadBody,
        response: withErrors({ 200: SquadEditReply }, ...EDIT_ERRORS),
      },
    },
    async (request) => edit(request.params, request, { action: 'rename', name: request.params.squadName, newName: request.body.name }),
  );

  app.delete(
    '/api/events/:eventId/squads/:squadName',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Delete a squad: its score rows name no squad any more',
        security: [{ bearer: [] }],
        params: SquadParams,
        response: withErrors({ 200: SquadEditReply }, ...EDIT_ERRORS),
      },
    },
    async (request) => edit(request.params, request, { action: 'delete', name: request.params.squadName }),
  );

  app.put(
    '/api/events/:eventId/participants/:participantId/squad',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['squads'],
        summary: 'Move a gymnast (every score row in the event) to a squad, or out of every squad with null',
        security: [{ bearer: [] }],
        params: ParticipantParams,
        body: MoveBody,
        response: withErrors({ 200: SquadEditReply }, ...EDIT_ERRORS),
      },
    },
    async (request) =>
      edit(request.params, request, { action: 'move', participantId: request.params.participantId, squadName: request.body.squadName }),
  );
}
