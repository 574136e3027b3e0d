/**
 * Issue 47: GET /api/judges-evaluation — per E-panel judge field the routines, the mean deviation
 * from the panel's aggregate, the number outside the tolerance and the largest deviations with
 * their routine; one statement whatever the number of routines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertJuryResults,
  insertParticipantWithScoreRow,
  insertParticipantsWithScoreRows,
  insertPanelDiscipline,
  type Competition,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let discipline: PanelDiscipline;

const read = (url: string, headers: Record<string, string> = {}) => sendJson('GET', url, undefined, headers);
const evaluationUrl = (eventId: number, competitionId?: number) =>
  `${server.url}/api/judges-evaluation?eventId=${eventId}${competitionId === undefined ? '' : `&competitionId=${competitionId}`}`;

async function judged(lastName: string, judges: number[], references: number[]): Promise<number> {
  const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName });
  await insertJuryResults(server.pool, scoreId, [
    ...judges.map((value, index) => [discipline.judges[index]!, value] as const),
    ...references.map((value, index) => [discipline.references[index]!, value] as const),
  ]);
  return scoreId;
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Auswertungspokal');
  discipline = await insertPanelDiscipline(server.pool, { name: 'Barren Auswertung', references: 2 });
  const put = await sendJson(
    'PUT',
    `${server.url}/api/disciplines/${discipline.id}/panel`,
    {
      judgeFieldIds: discipline.judges,
      aggregation: 'trimmed-mean',
      aggregateFieldId: discipline.aggregate,
      reference: { fieldIds: discipline.references },
    },
    bearer(adminToken),
  );
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

describe('the judges’ evaluation', () => {
  it('per judge: routines, mean deviation, outside the FIG tolerance, largest deviations with the routine', async () => {
    // Panel aggregates (trimmed mean): Anna 8.400, Bert 7.300, Carl (9.6 + 9.7 + 9.7) / 3 = 9.667.
    // FIG tolerance at the aggregate: 8.400 → 0.30, 7.300 → 0.50, 9.667 → 0.05.
    const anna = await judged('Anna', [8.1, 8.3, 8.4, 8.5, 8.9], [8.5, 8.6]);
    const bert = await judged('Bert', [7.0, 7.2, 7.3, 7.4, 8.2], [7.3, 7.3]);
    const carl = await judged('Carl', [9.5, 9.6, 9.7, 9.7, 9.8], [9.7, 9.7]);
    // An incomplete panel is not evaluated.
    await judged('Dora', [8.0], []);

    const { status, body } = await read(evaluationUrl(competition.eventId), bearer(headToken));
    expect(status).toBe(200);
    const byField = new Map(body.judges.map((judge: { fieldId: number }) => [judge.fieldId, judge]));
    expect(body.judges).toHaveLength(7);

    // E5: +0.5 (outside 0.30), +0.9 (outside 0.50), +0.133 (outside 0.05); mean 1.533 / 3.
    expect(byField.get(discipline.judges[4])).toMatchObject({
      disciplineName: 'Barren Auswertung',
      fieldName: 'E5',
      role: 'judge',
      routines: 3,
      meanDeviation: 0.511,
      meanAbsoluteDeviation: 0.511,
      outsideTolerance: 3,
      largest: [
        { scoreId: bert, lastName: 'Bert', value: 8.2, aggregate: 7.3, deviation: 0.9, tolerance: 0.5, outside: true },
        { scoreId: anna, lastName: 'Anna', deviation: 0.5, tolerance: 0.3, outside: true },
        { scoreId: carl, lastName: 'Carl', aggregate: 9.667, deviation: 0.133, tolerance: 0.05, outside: true },
      ],
    });
    // E1: −0.3 (exactly the tolerance: within), −0.3 (within 0.50), −0.167 (outside 0.05).
    expect(byField.get(discipline.judges[0])).toMatchObject({
      routines: 3,
      meanDeviation: -0.2557,
      meanAbsoluteDeviation: 0.2557,
      outsideTolerance: 1,
    });
    // E3 gave the middle value every time: 0, 0, +0.033.
    expect(byField.get(discipline.judges[2])).toMatchObject({ routines: 3, outsideTolerance: 0, meanDeviation: 0.011 });
    // Reference judges are measured against the same aggregate: R1 +0.1, 0, +0.033.
    expect(byField.get(discipline.references[0])).toMatchObject({ role: 'reference', fieldName: 'R1', routines: 3, meanDeviation: 0.0443 });
  });

  it('only the competition asked for', async () => {
    const other = await createCompetition(server.pool, 'Andere Auswertung');
    const { body } = await read(evaluationUrl(other.eventId, other.competitionId), bearer(headToken));
    expect(body).toEqual({ eventId: other.eventId, competitionId: other.competitionId, judges: [] });
    const own = await read(evaluationUrl(competition.eventId, competition.competitionId), bearer(adminToken));
    expect(own.body.judges[0].routines).toBe(3);
  });

  it('head judge or admin only; bad queries 400', async () => {
    expect((await read(evaluationUrl(competition.eventId))).status).toBe(401);
    expect((await read(evaluationUrl(competition.eventId), bearer(juryToken))).status).toBe(403);
    const bad = await read(`${server.url}/api/judges-evaluation?eventId=abc`, bearer(headToken));
    expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await read(evaluationUrl(2_000_000_000), bearer(headToken))).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const other = await createCompetition(server.pool, 'Fremd');
    const outside = await read(evaluationUrl(competition.eventId, other.competitionId), bearer(headToken));
    expect(outside).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('10 and 200 routines: the same statements', async () => {
    async function statementsFor(count: number): Promise<string[]> {
      const event = await createCompetition(server.pool, `Menge ${count}`);
      const scoreIds = await insertParticipantsWithScoreRows(server.pool, event, count, 'M');
      await server.pool.query(
        `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
         SELECT id, f.field_id, f.value, 1, 0 FROM unnest($1::int[]) AS id
         CROSS JOIN unnest($2::int[], $3::real[]) AS f(field_id, value)`,
        [scoreIds, [...discipline.judges, ...discipline.references], [8.5, 8.7, 8.4, 9.0, 8.6, 8.6, 8.7]],
      );
      const { result, statements } = await captureStatements(server.pool, () => read(evaluationUrl(event.eventId), bearer(headToken)));
      expect(result.body.judges[0].routines).toBe(count);
      return statements;
    }
    const small = await statementsFor(10);
    expect(small.filter((text) => text.includes(t.svc_panel_settings))).toHaveLength(1);
    expect(await statementsFor(200)).toEqual(small);
  });
});
