import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { loadLiveResults } from '../../../projections/live-results.js';
import { Id, withErrors } from '../schemas/common.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

const LiveResultsQuerySchema = Type.Object({
  eventId: Id(),
  disciplineId: Id(),
  competitionId: Type.Optional(Id({ description: 'Rank within one competition (age class) of the event instead of across all of them' })),
  released: Type.Optional(Type.Literal('only', { description: 'only: list (and rank) released scores only' })),
});

const LiveResultSchema = Type.Object({
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Standard competition ranking (ties share a rank, the next rank is skipped); null when out of competition',
  }),
  kind: Type.Union([Type.Literal('individual'), Type.Literal('group'), Type.Literal('team')], {
    description: 'whose score: a participant, a group or a team',
  }),
  scoreId: Type.Integer({ description: 'wertungenId' }),
  competitionId: Type.Integer(),
  participantId: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a group or team (its name is in lastName)' }),
  firstName: NullableString,
  lastName: NullableString,
  startNumber: NullableString,
  clubName: NullableString,
  squadName: NullableString,
  score: Type.Number({ description: 'Final score (detail value) of the latest attempt that has one' }),
  attempt: Type.Union([Type.Integer(), Type.Null()]),
  outOfCompetition: Type.Boolean(),
  released: Type.Boolean({ description: 'The head judge released this device (for the squad or all); false = provisional' }),
});

const LiveResultsSchema = Type.Object({
  eventId: Type.Integer(),
  disciplineId: Type.Integer(),
  disciplineName: Type.String(),
  competitionId: Type.Union([Type.Integer(), Type.Null()]),
  order: Type.Union([Type.Literal('ascending'), Type.Literal('descending')], {
    description: 'ascending for a time mask: rank 1 is the shortest time',
  }),
  seq: Type.Integer({ description: 'Last outbox seq these results include: join-competition with since = seq to follow them live' }),
  results: Type.Array(LiveResultSchema),
});

export async function liveResultsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/live-results',
    {
      config: { publicRead: true },
      schema: {
        tags: ['live results'],
        summary: 'Ranked live results of one discipline of an event: the scoreboard’s initial load before it subscribes with since',
        querystring: LiveResultsQuerySchema,
        response: withErrors({ 200: LiveResultsSchema }, 400, 404),
      },
    },
    async (request) => {
      const { released, ...query } = request.query;
      return loadLiveResults(deps.pool, { ...query, releasedOnly: released === 'only' }, () => deps.relay.status().cursor);
    },
  );
}
