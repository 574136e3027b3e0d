import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { ANONYMOUS } from '../../../commands/run-command.js';
import { withClientGone } from '../client-gone.js';
import { applySquads } from '../../../commands/apply-squads.js';
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
});

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
      const result = await deps.commands.run((tx) => applySquads(tx, request.body), withClientGone(ANONYMOUS, request));
      return {
        success: true as const,
        message: `${result.squadsCreated} squads applied to ${result.participantsAssigned} participants of event ${result.eventId}`,
        ...result,
      };
    },
  );
}
