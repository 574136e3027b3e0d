import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { loadLiveResults } from '../../../projections/live-results.js';
import { Id, withErrors } from '../schemas/common.js';
import { competitionRanking, readAppSetting } from '../../../queries/app-settings.js';
import { RANK_NOTATIONS } from '../../domain/all-around.js';
import { ApparatusTieBreakSchema } from './results.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

const LiveResultsQuerySchema = Type.Object({
  eventId: Id(),
  disciplineId: Id(),
  competitionId: Type.Optional(Id({ description: 'Rank within one competition (age class) of the event instead of across all of them' })),
  released: Type.Optional(Type.Literal('only', { description: 'only: list (and rank) released scores only' })),
});

const NotationSchema = Type.Union(
  RANK_NOTATIONS.map((notation) => Type.Literal(notation)),
  { description: 'standard: 1, 1, 3; dense: 1, 1, 2' },
);

const LiveResultSchema = Type.Object({
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Ties share a rank (1, 1, 3, or 1, 1, 2 with rankNotation dense) unless apparatusTieBreak decides; null when out of competition',
  }),
  tieBreak: Type.Union([ApparatusTieBreakSchema, Type.Null()], {
    description: 'The apparatus rule where it ranked this entry apart from an equal score; else null',
  }),
  e: Type.Union([Type.Number(), Type.Null()], {
    description: 'E score of the routine where a rule needed it and the fields hold it; else null',
  }),
  d: Type.Union([Type.Number(), Type.Null()], { description: 'D score, likewise' }),
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
  apparatusTieBreak: ApparatusTieBreakSchema,
  rankNotation: NotationSchema,
  seq: Type.Integer({ description: 'Last outbox seq these results include: join-competition with since = seq to follow them live' }),
  scoreParts: Type.Union(
    [
      Type.Object({
        e: Type.Union([Type.Object({ fieldIds: Type.Array(Type.Integer()), deduction: Type.Boolean() }), Type.Null()]),
        d: Type.Union([Type.Object({ fieldIds: Type.Array(Type.Integer()) }), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description:
        'The fields E and D come from (deduction: E = 10 minus their mean), where a rule needed them; e null: the device has no E field and e-then-d ranks as shared',
    },
  ),
  competitions: Type.Array(
    Type.Object({ competitionId: Type.Integer(), apparatusTieBreak: ApparatusTieBreakSchema, rankNotation: NotationSchema }),
    { description: 'The rules of every competition listed (a board ranks each on its own)' },
  ),
  results: Type.Array(LiveResultSchema),
});

export async function liveResultsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/live-results',
    {
      schema: {
        tags: ['live results'],
        summary: 'Ranked live results of one discipline of an event: the scoreboard’s initial load before it subscribes with since',
        description:
          'Ranked with the competition’s apparatus tie-break rule and rank notation (PUT /api/events/:eventId/competitions/:competitionId/tie-break); without competitionId, across competitions with the general rule of the app setting results in its notation standard.',
        querystring: LiveResultsQuerySchema,
        response: withErrors({ 200: LiveResultsSchema }, 400, 404),
      },
    },
    async (request) => {
      const { released, ...query } = request.query;
      return loadLiveResults(
        deps.pool,
        { ...query, releasedOnly: released === 'only' },
        () => deps.relay.status().cursor,
        async () => {
          const setting = await readAppSetting(deps.pool, 'results');
          return (competitionId) => competitionRanking(setting, competitionId);
        },
      );
    },
  );
}
