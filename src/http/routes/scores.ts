/**
 * Individual scoring and jury results (spec "Individual scores and jury results"): one area
 * module for /api/scores, /api/scores/capture, /api/scores/save-value, /api/jury-results and
 * /api/discipline-fields. Handlers live in commands/ and queries/.
 */
import type { AppDeps, TypedApp } from '../app-types.js';
import { AUTO_CALCULATION } from '../../../commands/run-command.js';
import { commandContext } from '../actor.js';
import { withClientGone } from '../client-gone.js';
import { applyFinalCorrections } from '../../../commands/apply-final-corrections.js';
import { captureScore } from '../../../commands/capture-score.js';
import { saveJuryResult } from '../../../commands/save-jury-result.js';
import { saveScoreValue } from '../../../commands/save-score-value.js';
import { selectDisciplineFields } from '../../../queries/list-discipline-fields.js';
import { listJuryResults } from '../../../queries/list-jury-results.js';
import { loadScoresPage, toScoresPage } from '../../../queries/list-scores.js';
import { StaleValueBodySchema, withErrors } from '../schemas/common.js';
import {
  CaptureBody,
  CaptureReply,
  DisciplineFieldsQuery,
  DisciplineFieldsReply,
  JuryResultsQuery,
  JuryResultsReply,
  SaveJuryResultBody,
  SaveJuryResultReply,
  SaveValueBody,
  SaveValueReply,
  ScoresPageSchema,
  ScoresQuery,
} from '../schemas/scoring.js';

const WRITE_ERRORS = [400, 401, 403, 404, 409, 503];

export async function scoresRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/scores',
    {
      schema: {
        tags: ['scores'],
        summary: 'Individual scores of an event with their jury results; completes and syncs final scores on read',
        querystring: ScoresQuery,
        response: withErrors({ 200: ScoresPageSchema }, 400, 503),
      },
    },
    async (request) => {
      const { eventId, competitionId, squadName, limit, offset } = request.query;
      const page = await loadScoresPage(
        deps.pool,
        { eventId, competitionId, squadName: squadName || undefined, limit, offset },
        request.log,
      );
      if (page.corrections.length === 0) return toScoresPage(page, []);
      const written = await deps.commands
        .run((tx) => applyFinalCorrections(tx, page.corrections), withClientGone(AUTO_CALCULATION, request))
        .catch((error: unknown) => {
          // The corrections heal data on every read; losing one to a deadlock or a lock timeout with
          // another writer must not fail the read. The page then shows the computed values.
          request.log.warn({ err: error }, 'corrections on read were not written; the page shows the computed values');
          return [];
        });
      return toScoresPage(page, written);
    },
  );

  app.post(
    '/api/scores/capture',
    {
      onRequest: app.requireScoreWriter,
      schema: {
        tags: ['scores'],
        summary: 'Store field values of a score, calculate the final score when not given, update the detail value',
        body: CaptureBody,
        response: withErrors({ 200: CaptureReply }, ...WRITE_ERRORS),
      },
    },
    async (request) => deps.commands.run((tx) => captureScore(tx, request.body, request.log), commandContext(request)),
  );

  app.post(
    '/api/scores/save-value',
    {
      onRequest: app.requireScoreWriter,
      schema: {
        tags: ['scores'],
        summary: 'Store the final score of a participant in a discipline, creating the score row when needed',
        body: SaveValueBody,
        response: { ...withErrors({ 200: SaveValueReply }, ...WRITE_ERRORS), 409: StaleValueBodySchema },
      },
    },
    async (request) => deps.commands.run((tx) => saveScoreValue(tx, request.body, request.log), commandContext(request)),
  );

  app.get(
    '/api/jury-results',
    {
      schema: {
        tags: ['scores'],
        summary: 'Saved jury results (attempt 1) of a score in a discipline, final field included',
        querystring: JuryResultsQuery,
        response: withErrors({ 200: JuryResultsReply }, 400, 404, 503),
      },
    },
    async (request) => listJuryResults(deps.pool, request.query, request.log),
  );

  app.post(
    '/api/jury-results',
    {
      onRequest: app.requireScoreWriter,
      schema: {
        tags: ['scores'],
        summary: 'Insert or update one field value of a score (attempt 1)',
        body: SaveJuryResultBody,
        response: { ...withErrors({ 200: SaveJuryResultReply }, ...WRITE_ERRORS), 409: StaleValueBodySchema },
      },
    },
    async (request) => {
      const { participantId, disciplineFieldId, performance, attempt, type, expectedPerformance } = request.body;
      const input = {
        participantId,
        disciplineFieldId,
        performance,
        attempt: attempt ?? 1,
        type: type === 1 ? (1 as const) : (0 as const),
        expectedPerformance,
      };
      return deps.commands.run((tx) => saveJuryResult(tx, input, request.log), commandContext(request));
    },
  );

  app.get(
    '/api/discipline-fields',
    {
      schema: {
        tags: ['scores'],
        summary: 'Discipline fields as a bare array, optionally of one discipline',
        querystring: DisciplineFieldsQuery,
        response: withErrors({ 200: DisciplineFieldsReply }, 400, 503),
      },
    },
    async (request) => selectDisciplineFields(deps.pool, request.query.disciplineId ?? null),
  );
}
