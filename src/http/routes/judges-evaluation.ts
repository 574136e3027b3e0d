/**
 * The judges' evaluation (issue 47): per E-panel judge field of an event's panels, the routines
 * judged, the mean deviation from the panel's aggregate, how many lay outside the tolerance and the
 * largest deviations with their routine. The head judge's and the admin's to read (it names judges'
 * misjudgements). Documented in the changelog.
 */
import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { selectJudgesEvaluation } from '../../../queries/judges-evaluation.js';
import { HEAD_ROLES } from '../auth.js';
import { Id, withErrors } from '../schemas/common.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

const EvaluationQuery = Type.Object({ eventId: Id(), competitionId: Type.Optional(Id()) });

const DeviationSchema = Type.Object({
  scoreId: Type.Integer(),
  firstName: NullableString,
  lastName: NullableString,
  startNumber: NullableString,
  clubName: NullableString,
  value: Type.Number({ description: "The judge's value" }),
  aggregate: Type.Number({ description: "The panel's aggregate (before the reference judges)" }),
  deviation: Type.Number({ description: 'value − aggregate' }),
  tolerance: NullableNumber,
  outside: Type.Boolean({ description: '|deviation| > tolerance' }),
});

const EvaluationReply = Type.Object({
  eventId: Type.Integer(),
  competitionId: Type.Union([Type.Integer(), Type.Null()]),
  judges: Type.Array(
    Type.Object({
      disciplineId: Type.Integer(),
      disciplineName: Type.String({ description: 'The apparatus' }),
      fieldId: Type.Integer(),
      fieldName: NullableString,
      role: Type.Union([Type.Literal('judge'), Type.Literal('reference')]),
      routines: Type.Integer({ description: 'Routines with a value of this judge on a complete panel' }),
      meanDeviation: Type.Union([Type.Number(), Type.Null()], {
        description: 'Mean of value − aggregate (below 0: stricter than the panel)',
      }),
      meanAbsoluteDeviation: NullableNumber,
      outsideTolerance: Type.Integer({ description: "Routines where |deviation| exceeded the tolerance table's value at the aggregate" }),
      largest: Type.Array(DeviationSchema, { description: 'The largest deviations, largest first (at most 3)' }),
    }),
    { description: 'Per discipline (by name) the judge fields, then the reference judge fields' },
  ),
});

export async function judgesEvaluationRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/judges-evaluation',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['e-panel'],
        summary: "The judges' evaluation of an event's (or competition's) E-panels: deviations of each judge from the panel",
        querystring: EvaluationQuery,
        response: withErrors({ 200: EvaluationReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => selectJudgesEvaluation(deps.pool, request.query.eventId, request.query.competitionId ?? null),
  );
}
