import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { commandContext } from '../actor.js';
import { saveTeamScore } from '../../../commands/save-team-score.js';
import { listTeamScores, selectTeamExists } from '../../../queries/team-scores.js';
import { notFound, validationFailed } from '../../domain/errors.js';
import { Id, PaginationQuery, withErrors } from '../schemas/common.js';
import { AttemptSchema, CollectiveScoreBodyProperties, collectiveScoreInput, ScoreComponentSchema } from '../schemas/collective-scores.js';

/**
 * One object for both descriptions of the spec: the team-specific body names the attempt
 * `attempt`, the mirrored group body `attemptNumber` and may carry `squadName`. A union of two
 * schemas would turn every mistake into an unreadable "must match a schema in anyOf".
 */
const SaveTeamScoreBodySchema = Type.Object({
  teamId: Id(),
  ...CollectiveScoreBodyProperties,
  attempt: Type.Optional(AttemptSchema),
  attemptNumber: Type.Optional({ ...AttemptSchema, description: 'Alias of attempt (mirrored group body)' }),
});

const SaveTeamScoreResponseSchema = Type.Object({
  id: Type.Integer({ description: 'The score id (wertungenId)' }),
  message: Type.String(),
  finalScore: Type.Number({ description: 'The stored final score (given or calculated)' }),
});

const TeamScoresPageSchema = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.Integer(),
      teamId: Type.Integer(),
      competitionId: Type.Integer(),
      disciplineId: Type.Integer(),
      attempt: Type.Integer(),
      finalScore: Type.Union([Type.Number(), Type.Null()]),
      components: Type.Array(ScoreComponentSchema, {
        description: 'Detail rows joined to the fields on int_kp, by int_kp; the final field included',
      }),
      club: Type.Object({ name: Type.Union([Type.String(), Type.Null()]) }),
      discipline: Type.Object({ name: Type.String() }),
    }),
  ),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
});

const TeamScoresFilterQuery = {
  competitionId: Type.Optional(Id()),
  disciplineId: Type.Optional(Id()),
  ...PaginationQuery,
};

export async function teamsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const { pool } = deps;

  app.post(
    '/api/scores/team',
    {
      onRequest: app.requireScoreWriter,
      schema: {
        tags: ['teams'],
        summary: 'Save the score of a team for one discipline and attempt, replacing its stored values',
        body: SaveTeamScoreBodySchema,
        response: withErrors({ 201: SaveTeamScoreResponseSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.attempt !== undefined && body.attemptNumber !== undefined && body.attempt !== body.attemptNumber) {
        throw validationFailed('body.attempt and body.attemptNumber name the same attempt and must agree');
      }
      const result = await deps.commands.run(
        (tx) => saveTeamScore(tx, collectiveScoreInput(body.teamId, body.attempt ?? body.attemptNumber, body)),
        commandContext(request),
      );
      return reply.status(201).send({ id: result.scoreId, message: 'Team score saved', finalScore: result.finalScore });
    },
  );

  app.get(
    '/api/scores/team',
    {
      schema: {
        tags: ['teams'],
        summary: 'Team scores, one entry per score row, discipline and attempt',
        querystring: Type.Object({ teamId: Type.Optional(Id()), ...TeamScoresFilterQuery }),
        response: withErrors({ 200: TeamScoresPageSchema }, 400),
      },
    },
    async (request) => listTeamScores(pool, request.query),
  );

  app.get(
    '/api/scores/team/:teamId',
    {
      schema: {
        tags: ['teams'],
        summary: 'Scores of one team, same shape as GET /api/scores/team',
        params: Type.Object({ teamId: Id() }),
        querystring: Type.Object(TeamScoresFilterQuery),
        response: withErrors({ 200: TeamScoresPageSchema }, 400, 404),
      },
    },
    async (request) => {
      const { teamId } = request.params;
      if (!(await selectTeamExists(pool, teamId))) throw notFound(`team ${teamId} not found`);
      return listTeamScores(pool, { ...request.query, teamId });
    },
  );
}
