/**
 * Issue 47: reference judges and the missing-judge rule of an E-panel over HTTP. The rules and
 * their sources are in test/unit/panel-rules.test.ts; here: settings through the panel PUT, the
 * rule applied in the judge's save (the stored E and final), and what the reads show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  detailRows,
  insertParticipantWithScoreRow,
  insertPanelDiscipline,
  type Competition,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { getJson, postJson, sendJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Referenzpokal');
});
afterAll(async () => {
  await server?.stop();
});

const putPanel = (discipline: PanelDiscipline, body: Record<string, unknown>) =>
  sendJson(
    'PUT',
    `${server.url}/api/disciplines/${discipline.id}/panel`,
    { judgeFieldIds: discipline.judges, aggregation: 'trimmed-mean', aggregateFieldId: discipline.aggregate, tolerance: 1, ...body },
    bearer(adminToken),
  );
const save = (scoreId: number, fieldId: number, performance: number) =>
  postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance });

async function storedValue(scoreId: number, fieldId: number): Promise<number | null> {
  const { rows } = await server.pool.query<{ value: number }>(
    `SELECT rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2 AND int_versuch = 1`,
    [scoreId, fieldId],
  );
  return rows[0]?.value ?? null;
}

async function scoreEntry(scoreId: number): Promise<Record<string, unknown>> {
  const page = await getJson(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`);
  return page.body.results.find((item: { id: number }) => item.id === scoreId);
}

/** D 5.0, E1–E5 8.1 8.3 8.4 8.5 8.9 (panel E 8.400), then the two reference values. */
async function judgeRoutine(discipline: PanelDiscipline, name: string, references: [number, number]) {
  const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: name });
  expect((await save(scoreId, discipline.difficulty, 5)).status).toBe(200);
  for (const [index, value] of [8.1, 8.3, 8.4, 8.5, 8.9].entries())
    expect((await save(scoreId, discipline.judges[index]!, value)).status).toBe(200);
  const first = await save(scoreId, discipline.references[0]!, references[0]);
  expect(first.body.panel).toEqual({ aggregate: 8.4, complete: false });
  const last = await save(scoreId, discipline.references[1]!, references[1]);
  expect(last.status).toBe(200);
  return { scoreId, last };
}

describe('reference judges', () => {
  let discipline: PanelDiscipline;
  beforeAll(async () => {
    discipline = await insertPanelDiscipline(server.pool, { name: 'Boden Referenz', references: 2 });
    const put = await putPanel(discipline, { reference: { fieldIds: discipline.references } });
    expect(put.status).toBe(200);
    // Without agreement and table: the service's range and the FIG table.
    expect(put.body).toMatchObject({
      reference: {
        fieldIds: discipline.references,
        agreement: 0.3,
        tolerances: expect.arrayContaining([
          { from: 9.6, tolerance: 0.05 },
          { from: 0, tolerance: 0.5 },
        ]),
      },
      missingJudge: 'fewer-values',
      absentFieldIds: [],
    });
    const { body } = await getJson(`${server.url}/api/disciplines`);
    expect(body.find((entry: { id: number }) => entry.id === discipline.id).panel).toEqual(put.body);
  });

  it('within the tolerance the E stays the panel’s', async () => {
    // Reference mean 8.550, tolerance 0.20, difference 0.15.
    const { scoreId, last } = await judgeRoutine(discipline, 'Innerhalb', [8.5, 8.6]);
    expect(last.body).toMatchObject({ panel: { aggregate: 8.4, complete: true }, finalScore: 13.4 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.4, 5);
    expect((await scoreEntry(scoreId)).panel).toMatchObject({
      aggregate: 8.4,
      panelAggregate: 8.4,
      reference: { mean: 8.55, agree: true, tolerance: 0.2, difference: 0.15, applied: false },
    });
  });

  it('outside the tolerance the E becomes the mean of panel and reference score, stored with the final', async () => {
    // Reference mean 8.950, tolerance 0.20, difference 0.55 → (8.400 + 8.950) / 2 = 8.675; D 5 + E = 13.675.
    const { scoreId, last } = await judgeRoutine(discipline, 'Ausserhalb', [8.9, 9.0]);
    expect(last.body).toMatchObject({ panel: { aggregate: 8.675, complete: true }, finalScore: 13.675 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.675, 5);
    expect((await detailRows(server.pool, scoreId))[0]!.value).toBeCloseTo(13.675, 5);
    const entry = await scoreEntry(scoreId);
    expect(entry.score).toBeCloseTo(13.675, 5);
    expect(entry.panel).toMatchObject({
      aggregate: 8.675,
      panelAggregate: 8.4,
      reference: {
        values: [
          { fieldId: discipline.references[0], value: 8.9 },
          { fieldId: discipline.references[1], value: 9 },
        ],
        mean: 8.95,
        applied: true,
      },
    });
    const jury = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(jury.body.panel).toMatchObject({ aggregate: 8.675, panelAggregate: 8.4, reference: { applied: true } });
  });

  it('reference judges disagreeing beyond the range change nothing', async () => {
    // 8.8 and 9.4 differ by 0.6 > 0.3: their mean 9.100 does not count.
    const { scoreId, last } = await judgeRoutine(discipline, 'Uneinig', [8.8, 9.4]);
    expect(last.body).toMatchObject({ panel: { aggregate: 8.4, complete: true }, finalScore: 13.4 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.4, 5);
    expect((await scoreEntry(scoreId)).panel).toMatchObject({ aggregate: 8.4, reference: { mean: 9.1, agree: false, applied: false } });
  });

  it('a reference value corrected back within the tolerance restores the panel’s E', async () => {
    const { scoreId } = await judgeRoutine(discipline, 'Korrektur', [8.9, 9.0]);
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.675, 5);
    const corrected = await save(scoreId, discipline.references[1]!, 8.6);
    // 8.9 and 8.6: mean 8.750, tolerance 0.20, difference 0.35 → still outside: (8.4 + 8.75) / 2 = 8.575.
    expect(corrected.body).toMatchObject({ panel: { aggregate: 8.575, complete: true } });
    const again = await save(scoreId, discipline.references[0]!, 8.5);
    // 8.5 and 8.6: mean 8.550, within → 8.400.
    expect(again.body).toMatchObject({ panel: { aggregate: 8.4, complete: true }, finalScore: 13.4 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.4, 5);
  });

  it('an edited table and range are stored and used', async () => {
    const edited = await insertPanelDiscipline(server.pool, { name: 'Balken Referenz', references: 2 });
    const tolerances = [
      { from: 0, tolerance: 1 },
      { from: 9, tolerance: 0.1 },
    ];
    const put = await putPanel(edited, { reference: { fieldIds: edited.references, agreement: 1, tolerances } });
    expect(put.body.reference).toEqual({ fieldIds: edited.references, agreement: 1, tolerances });
    // 8.8 and 9.4 agree within 1; mean 9.100, table 0.10, difference 0.7 → (8.4 + 9.1) / 2 = 8.750.
    const { last } = await judgeRoutine(edited, 'Tabelle', [8.8, 9.4]);
    expect(last.body).toMatchObject({ panel: { aggregate: 8.75, complete: true } });
  });

  it('adding reference judges to a panel with stored E values asks first (409 with the count)', async () => {
    const later = await insertPanelDiscipline(server.pool, { name: 'Sprung Nachtrag', references: 2 });
    expect((await putPanel(later, {})).status).toBe(200);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Nachtrag' });
    await save(scoreId, later.difficulty, 5);
    for (const [index, value] of [8.1, 8.3, 8.4, 8.5, 8.9].entries()) await save(scoreId, later.judges[index]!, value);
    expect(await storedValue(scoreId, later.aggregate)).toBeCloseTo(8.4, 5);
    const asked = await putPanel(later, { reference: { fieldIds: later.references } });
    expect(asked).toMatchObject({ status: 409, body: { code: 'CONFLICT', replaced: 1 } });
    const confirmed = await putPanel(later, { reference: { fieldIds: later.references }, replaceStoredValues: 1 });
    expect(confirmed.status).toBe(200);
    // Until the reference judges give their values the panel is provisional again.
    expect((await scoreEntry(scoreId)).panel).toMatchObject({ complete: false, aggregate: 8.4, reference: { mean: null } });
  });

  it('bad reference settings answer 400 and change nothing', async () => {
    const before = await getJson(`${server.url}/api/disciplines`);
    const cases = [
      { fieldIds: [discipline.references[0]] },
      { fieldIds: [discipline.references[0], discipline.judges[0]] },
      { fieldIds: [discipline.references[0], discipline.final] },
      { fieldIds: discipline.references, tolerances: [] },
      { fieldIds: discipline.references, agreement: -1 },
    ];
    for (const reference of cases) {
      const answer = await putPanel(discipline, { reference });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    expect((await getJson(`${server.url}/api/disciplines`)).body).toEqual(before.body);
  });
});

describe('missing judge', () => {
  it('mean of the given: the absent judge is marked, the panel complete with 4 of 5, the mean in the place', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Fehlend' });
    const put = await putPanel(discipline, { missingJudge: 'mean-of-given', absentFieldIds: [discipline.judges[2]] });
    expect(put.body).toMatchObject({ missingJudge: 'mean-of-given', absentFieldIds: [discipline.judges[2]] });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Vierrichter' });
    await save(scoreId, discipline.difficulty, 5);
    const given = [8.0, 8.2, 8.4, 8.9];
    const present = discipline.judges.filter((_, index) => index !== 2);
    let last;
    for (const [index, fieldId] of present.entries()) last = await save(scoreId, fieldId, given[index]!);
    // (8.0 + 8.2 + 8.4 + 8.9) / 4 = 8.375 for E3; trimmed: (8.2 + 8.375 + 8.4) / 3 = 8.325.
    expect(last!.body).toMatchObject({ panel: { aggregate: 8.325, complete: true }, finalScore: 13.325 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.325, 5);
    expect((await scoreEntry(scoreId)).panel).toMatchObject({
      complete: true,
      given: 4,
      missing: [discipline.judges[2]],
      missingJudge: 'mean-of-given',
      substitute: 8.375,
    });
  });

  it('fewer values: four counted, marked 4 of 5', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Reck Fehlend' });
    await putPanel(discipline, { missingJudge: 'fewer-values', absentFieldIds: [discipline.judges[2]] });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Weniger' });
    await save(scoreId, discipline.difficulty, 5);
    const given = [8.0, 8.2, 8.4, 8.9];
    const present = discipline.judges.filter((_, index) => index !== 2);
    for (const [index, fieldId] of present.entries()) await save(scoreId, fieldId, given[index]!);
    // 8.0 8.2 8.4 8.9 trimmed: (8.2 + 8.4) / 2 = 8.300.
    expect(await storedValue(scoreId, discipline.aggregate)).toBeCloseTo(8.3, 5);
    const jury = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(jury.body.panel).toMatchObject({ aggregate: 8.3, complete: true, given: 4, missing: [discipline.judges[2]], substitute: null });
    expect(jury.body.panel.values).toHaveLength(5);
  });

  it('an absent field that is no judge field is refused', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Ringe Fehlend' });
    const answer = await putPanel(discipline, { absentFieldIds: [discipline.difficulty] });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(answer.body.message).toMatch(/absentFieldIds/);
  });
});
