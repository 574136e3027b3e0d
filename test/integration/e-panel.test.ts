/**
 * Issue 21, E-panel: settings (PUT/DELETE /api/disciplines/:id/panel, `panel` in GET
 * /api/disciplines) and the panel in the reads (GET /api/scores, GET /api/jury-results). Issue 44:
 * settings over stored values answer 409 with `replaced` until the request confirms that count, GET
 * field-values, and the auto-calculation writing only the panel's own aggregate field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFinalCorrections } from '../../commands/apply-final-corrections.js';
import {
  apiScoreOutboxRows,
  createCompetition,
  detailRows,
  insertDetailRow,
  insertJuryResults,
  insertParticipantWithScoreRow,
  insertParticipantsWithScoreRows,
  juryResultRows,
  rowCounts,
  type Competition,
  insertPanelDiscipline,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { getJson, postJson, sendJson } from '../support/http.js';
import { collectEvents, commitAndAwait, joinCompetition } from '../support/realtime.js';
import { openSocket, startTestServer, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Kampfrichterpokal');
});
afterAll(async () => {
  await server?.stop();
});

const panelUrl = (disciplineId: number) => `${server.url}/api/disciplines/${disciplineId}/panel`;
const putPanel = (discipline: PanelDiscipline, body: Record<string, unknown> = {}, headers = bearer(adminToken)) =>
  sendJson(
    'PUT',
    panelUrl(discipline.id),
    { judgeFieldIds: discipline.judges, aggregation: 'trimmed-mean', aggregateFieldId: discipline.aggregate, tolerance: 0.3, ...body },
    headers,
  );

async function settingsRows(): Promise<unknown[]> {
  const { rows } = await server.pool.query(`SELECT * FROM ${t.svc_panel_settings} ORDER BY discipline_id`);
  return rows;
}

async function disciplineEntry(id: number): Promise<Record<string, unknown>> {
  const { body } = await getJson(`${server.url}/api/disciplines`);
  return (body as Array<Record<string, unknown>>).find((entry) => entry.id === id)!;
}

describe('panel settings', () => {
  it('PUT stores them, GET /api/disciplines shows them, DELETE removes them', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Boden E' });
    expect((await disciplineEntry(discipline.id)).panel).toBeNull();

    const put = await putPanel(discipline);
    const panel = {
      judgeFieldIds: discipline.judges,
      aggregation: 'trimmed-mean',
      aggregateFieldId: discipline.aggregate,
      tolerance: 0.3,
      size: 5,
      reference: null,
      missingJudge: 'fewer-values',
      absentFieldIds: [],
    };
    expect(put).toEqual({ status: 200, body: panel });
    expect((await disciplineEntry(discipline.id)).panel).toEqual(panel);

    const changed = await putPanel(discipline, { judgeFieldIds: discipline.judges.slice(0, 3), aggregation: 'median' });
    expect(changed.body).toMatchObject({ judgeFieldIds: discipline.judges.slice(0, 3), aggregation: 'median', size: 3 });

    expect(await sendJson('DELETE', panelUrl(discipline.id), undefined, bearer(adminToken))).toEqual({ status: 204, body: null });
    expect((await disciplineEntry(discipline.id)).panel).toBeNull();
    expect(await sendJson('DELETE', panelUrl(discipline.id), undefined, bearer(adminToken))).toEqual({ status: 204, body: null });
  });

  it('without a tolerance the documented default 0.5 applies', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Reck E' });
    const put = await sendJson(
      'PUT',
      panelUrl(discipline.id),
      { judgeFieldIds: discipline.judges, aggregation: 'mean', aggregateFieldId: discipline.aggregate },
      bearer(adminToken),
    );
    expect(put.body).toMatchObject({ tolerance: 0.5 });
  });

  it('needs an admin token', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Ringe E' });
    expect((await putPanel(discipline, {}, {})).status).toBe(401);
    expect((await putPanel(discipline, {}, bearer(juryToken))).status).toBe(403);
    expect((await sendJson('DELETE', panelUrl(discipline.id), undefined, bearer(juryToken))).status).toBe(403);
    expect((await disciplineEntry(discipline.id)).panel).toBeNull();
  });

  describe('bad input answers 4xx with the contract body and writes nothing', () => {
    const cases: Array<[string, (d: PanelDiscipline, other: PanelDiscipline) => Record<string, unknown>, number, RegExp]> = [
      [
        'a judge field of another discipline',
        (d, other) => ({ judgeFieldIds: [d.judges[0], other.judges[0]] }),
        400,
        /not a field of this discipline/,
      ],
      ['the final as aggregate', (d) => ({ aggregateFieldId: d.final }), 400, /final field cannot receive/],
      ['the final as a judge field', (d) => ({ judgeFieldIds: [d.judges[0], d.final] }), 400, /final field cannot be a judge/],
      ['the aggregate among the judges', (d) => ({ aggregateFieldId: d.judges[1] }), 400, /not be one of the judge fields/],
      ['a judge twice', (d) => ({ judgeFieldIds: [d.judges[0], d.judges[0]] }), 400, /only once/],
      ['one judge', (d) => ({ judgeFieldIds: [d.judges[0]] }), 400, /judgeFieldIds/],
      ['an unknown aggregation', () => ({ aggregation: 'max' }), 400, /aggregation/],
      ['a negative tolerance', () => ({ tolerance: -0.1 }), 400, /tolerance/],
      ['a string tolerance', () => ({ tolerance: '0.3' }), 400, /tolerance/],
      ['an unknown key', () => ({ size: 5 }), 400, /size|additional/],
    ];
    it.each(cases)('%s', async (_name, change, status, message) => {
      const discipline = await insertPanelDiscipline(server.pool, { name: 'Barren E' });
      const other = await insertPanelDiscipline(server.pool, { name: 'Balken E' });
      const before = await settingsRows();
      const answer = await putPanel(discipline, change(discipline, other));
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ statusCode: status, code: 'VALIDATION_FAILED' });
      expect(answer.body.message).toMatch(message);
      expect(await settingsRows()).toEqual(before);
    });

    it('an unknown discipline: 404', async () => {
      const discipline = await insertPanelDiscipline(server.pool, { name: 'Pferd E' });
      const answer = await sendJson(
        'PUT',
        panelUrl(2_000_000_000),
        { judgeFieldIds: discipline.judges, aggregation: 'mean', aggregateFieldId: discipline.aggregate },
        bearer(adminToken),
      );
      expect(answer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      expect((await sendJson('DELETE', panelUrl(2_000_000_000), undefined, bearer(adminToken))).status).toBe(404);
      expect((await sendJson('DELETE', `${server.url}/api/disciplines/abc/panel`, undefined, bearer(adminToken))).status).toBe(400);
    });
  });
});

describe('the panel in the reads', () => {
  async function scoreEntry(scoreId: number, disciplineId: number) {
    const { body } = await getJson(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`);
    return (body.results as Array<Record<string, any>>).find((entry) => entry.id === scoreId && entry.disciplineId === disciplineId)!;
  }

  it('shows each judge, a provisional aggregate while incomplete, and the FIG trimmed mean when complete', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Lesen' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Lesen' });
    await insertDetailRow(server.pool, scoreId, discipline.id, null);
    const [e1, e2, e3, e4, e5] = discipline.judges as [number, number, number, number, number];
    await insertJuryResults(server.pool, scoreId, [
      [discipline.difficulty, 5.4],
      [e1, 8.5],
      [e2, 8.7],
    ]);

    const partial = await scoreEntry(scoreId, discipline.id);
    expect(partial.panel).toEqual({
      values: [
        { fieldId: e1, value: 8.5 },
        { fieldId: e2, value: 8.7 },
        { fieldId: e3, value: null },
        { fieldId: e4, value: null },
        { fieldId: e5, value: null },
      ],
      aggregate: 8.6,
      complete: false,
      spread: 0.2,
      tolerance: 0.3,
      deviation: false,
      confirmed: false,
      given: 2,
      missing: [],
      missingJudge: 'fewer-values',
      substitute: null,
      panelAggregate: 8.6,
      reference: null,
    });
    // Judges' fields are not the formula's letters, and no aggregate is stored: no final yet (rule 5 finds nothing to calculate).
    expect(partial.score).toBeNull();

    await insertJuryResults(server.pool, scoreId, [
      [e3, 8.4],
      [e4, 9.0],
      [e5, 8.6],
    ]);
    const complete = await scoreEntry(scoreId, discipline.id);
    expect(complete.panel).toMatchObject({ aggregate: 8.6, complete: true, spread: 0.2, deviation: false });

    const jury = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(jury.body.panel).toEqual(complete.panel);
  });

  it('flags a complete panel whose counted values spread more than the tolerance', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Abweichung' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Abweichung' });
    await insertDetailRow(server.pool, scoreId, discipline.id, null);
    const values = [8.0, 8.1, 8.6, 8.9, 9.5];
    await insertJuryResults(
      server.pool,
      scoreId,
      discipline.judges.map((fieldId, index) => [fieldId, values[index]!] as const),
    );
    const entry = await scoreEntry(scoreId, discipline.id);
    expect(entry.panel).toMatchObject({ complete: true, spread: 0.8, tolerance: 0.3, deviation: true, confirmed: false });
    expect(entry.panel.aggregate).toBe(8.533);
  });

  it('is null for a discipline without a panel', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Ohne Panel' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Ohne' });
    await insertDetailRow(server.pool, scoreId, discipline.id, 12);
    expect((await scoreEntry(scoreId, discipline.id)).panel).toBeNull();
    const jury = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(jury.body.panel).toBeNull();
  });
});

describe('a judge save recomputes the aggregate and the final in its transaction', () => {
  const save = (scoreId: number, fieldId: number, performance: number, extra: Record<string, unknown> = {}) =>
    postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance, ...extra });

  async function storedValue(scoreId: number, fieldId: number): Promise<number | null> {
    const { rows } = await server.pool.query<{ value: number }>(
      `SELECT rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2 AND int_versuch = 1`,
      [scoreId, fieldId],
    );
    return rows[0]?.value ?? null;
  }

  it('five saves: the FIG trimmed mean lands in the aggregate field and D + E in the final; provisional before', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Fünf' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Fuenf' });
    expect((await save(scoreId, discipline.difficulty, 5.4)).status).toBe(200);

    const values = [8.5, 8.7, 8.4, 9.0, 8.6];
    const replies = [];
    for (const [index, fieldId] of discipline.judges.entries()) replies.push(await save(scoreId, fieldId, values[index]!));
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(replies.slice(0, 4).map((reply) => reply.body.panel)).toEqual([
      { aggregate: 8.5, complete: false },
      { aggregate: 8.6, complete: false },
      { aggregate: 8.533, complete: false },
      { aggregate: 8.6, complete: false },
    ]);
    // (8.5 + 8.6 + 8.7) / 3: highest 9.0 and lowest 8.4 dropped.
    expect(replies[4]!.body).toMatchObject({ panel: { aggregate: 8.6, complete: true }, finalScore: 14 });
    expect(await storedValue(scoreId, discipline.aggregate)).toBe(8.6);
    expect(await storedValue(scoreId, discipline.final)).toBe(14);
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 14 }]);

    const events = (await apiScoreOutboxRows(server.pool, scoreId)).map((row) => row.payload);
    expect(events.map((event) => [event.finalScore, event.panel])).toEqual([
      [null, undefined],
      [13.9, { aggregate: 8.5, complete: false }],
      [14, { aggregate: 8.6, complete: false }],
      [13.933, { aggregate: 8.533, complete: false }],
      [14, { aggregate: 8.6, complete: false }],
      [14, { aggregate: 8.6, complete: true }],
    ]);
    // While incomplete nothing but the judges' values was stored: no early final.
    const { rows } = await server.pool.query(
      `SELECT field_id, new_value FROM ${t.svc_score_audit} WHERE score_id = $1 AND (field_id IS NULL OR field_id = $2) ORDER BY id`,
      [scoreId, discipline.aggregate],
    );
    expect(rows).toEqual([
      { field_id: discipline.aggregate, new_value: 8.6 },
      { field_id: null, new_value: 14 },
    ]);

    // A correction of one judge recomputes both, still in one command.
    expect((await save(scoreId, discipline.judges[0]!, 8.8)).body).toMatchObject({
      panel: { aggregate: 8.7, complete: true },
      finalScore: 14.1,
    });
    expect(await storedValue(scoreId, discipline.aggregate)).toBe(8.7);
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 14.1 }]);
    const page = await getJson(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`);
    const entry = page.body.results.find((item: { id: number }) => item.id === scoreId);
    expect(entry).toMatchObject({ score: 14.1, panel: { aggregate: 8.7, complete: true } });
  });

  it('keeps the conflict check: a stale expectedPerformance on a judge field answers 409 and writes nothing', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Konflikt' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Konflikt' });
    await save(scoreId, discipline.judges[0]!, 8.5);
    const before = await rowCounts(server.pool);
    const stale = await save(scoreId, discipline.judges[0]!, 8.9, { expectedPerformance: 8.0 });
    expect(stale).toMatchObject({ status: 409, body: { code: 'CONFLICT', current: 8.5 } });
    expect(await rowCounts(server.pool)).toEqual(before);
  });

  it('capture with judge fields stores the aggregate and calculates the final from it', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Capture', judges: 3, inputMask: '0.00' });
    await putPanel(discipline, { aggregation: 'mean' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Capture' });
    const fieldValues = [
      { fieldId: discipline.difficulty, value: 5 },
      ...discipline.judges.map((fieldId, index) => ({ fieldId, value: [8.1, 8.2, 8.4][index]! })),
    ];
    const reply = await postJson(`${server.url}/api/scores/capture`, { wertungenId: scoreId, fieldValues });
    expect(reply.status).toBe(200);
    // (8.1 + 8.2 + 8.4) / 3 = 8.2333 → 8.23 with the mask 0.00
    expect(reply.body).toMatchObject({ finalScore: 13.23, calculated: true });
    expect(await storedValue(scoreId, discipline.aggregate)).toBe(8.23);
  });
});

describe("who may write a panel's fields", () => {
  const save = (scoreId: number, fieldId: number, performance: number, headers: Record<string, string> = {}) =>
    postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance }, headers);
  const judge = (name: string) => ({ 'x-judge-name': name });
  const refused = (message: string) => ({ status: 409, body: { statusCode: 409, error: 'Conflict', code: 'CONFLICT', message } });

  it("a judge's value is that judge's: other judges, anonymous and jury saves are refused, and a judge gives one field", async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Richter', judges: 3 });
    await putPanel(discipline, { aggregation: 'mean' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Richter' });
    const [e1, e2, e3] = discipline.judges as [number, number, number];
    expect((await save(scoreId, e1, 8.5, judge('Anna'))).status).toBe(200);
    expect((await save(scoreId, e2, 8.6, judge('Bert'))).status).toBe(200);

    const before = await rowCounts(server.pool);
    const auditBefore = (await server.pool.query(`SELECT count(*)::int AS n FROM ${t.svc_score_audit}`)).rows[0].n;
    const bertsValue = refused(`field ${e2} of score ${scoreId} holds Bert's value; the head judge may change it`);
    expect(await save(scoreId, e2, 9.9, judge('Anna'))).toEqual(bertsValue);
    expect(await save(scoreId, e2, 9.9)).toEqual(bertsValue);
    expect(await save(scoreId, e2, 9.9, bearer(juryToken))).toEqual(bertsValue);
    expect(await save(scoreId, e3, 9.9, judge('Anna'))).toEqual(
      refused(`Anna gave field ${e1} of score ${scoreId}; a judge gives one field of a panel`),
    );
    expect(await rowCounts(server.pool)).toEqual(before);
    expect((await server.pool.query(`SELECT count(*)::int AS n FROM ${t.svc_score_audit}`)).rows[0].n).toBe(auditBefore);

    // Her own value Anna may change; sending Bert's unchanged changes nothing and passes.
    expect((await save(scoreId, e1, 8.4, judge('Anna'))).status).toBe(200);
    expect((await save(scoreId, e2, 8.6, judge('Anna'))).status).toBe(200);
    // The head judge may change any judge's value, and Carla gives the third.
    expect((await save(scoreId, e2, 8.7, bearer(headToken))).status).toBe(200);
    expect(await save(scoreId, e3, 8.6, judge('Carla'))).toMatchObject({
      status: 200,
      body: { panel: { aggregate: 8.567, complete: true } },
    });
  });

  it("the aggregate field is the service's: a direct change is refused by jury-results and capture, whoever sends it", async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Aggregat', judges: 2 });
    await putPanel(discipline, { aggregation: 'mean' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Aggregat' });
    expect((await save(scoreId, discipline.judges[0]!, 8, judge('Anna'))).status).toBe(200);
    expect((await save(scoreId, discipline.judges[1]!, 9, judge('Bert'))).status).toBe(200);

    const before = await rowCounts(server.pool);
    const body = {
      statusCode: 400,
      error: 'Bad Request',
      code: 'VALIDATION_FAILED',
      message: `field ${discipline.aggregate} is the E-panel's aggregate: the service computes it from the judges' values`,
    };
    for (const headers of [{}, bearer(juryToken), bearer(headToken)])
      expect(await save(scoreId, discipline.aggregate, 9.9, headers)).toEqual({ status: 400, body });
    const capture = (value: number) =>
      postJson(`${server.url}/api/scores/capture`, {
        wertungenId: scoreId,
        fieldValues: [
          { fieldId: discipline.difficulty, value: 5 },
          { fieldId: discipline.aggregate, value },
        ],
      });
    expect(await capture(9.9)).toEqual({ status: 400, body });
    expect(await rowCounts(server.pool)).toEqual(before);
    // The stored aggregate sent back unchanged, as a form that shows every field does, passes.
    expect((await save(scoreId, discipline.aggregate, 8.5)).status).toBe(200);
    expect(await capture(8.5)).toMatchObject({ status: 200, body: { finalScore: 13.5 } });
  });
});

/**
 * A Socket.IO client in the event's room collecting `panel-deviation` messages. `settle()` commits a
 * marker event and waits for it: delivery is in seq order, so everything committed before has arrived.
 */
/** Five judges' values within a tolerance of 0.3: counted 8.5, 8.5, 8.6. */
const WITHIN_TOLERANCE = [8.5, 8.6, 8.4, 8.7, 8.5];

async function watchDeviations(eventId: number) {
  const socket = await openSocket(server.url);
  const deviations: Array<Record<string, any>> = [];
  socket.on('panel-deviation', (event: Record<string, any>) => deviations.push(event));
  const scoreEvents = collectEvents(socket);
  expect((await joinCompetition(socket, eventId)).ok).toBe(true);
  let marker = 0;
  const settle = () => commitAndAwait(server.commands, scoreEvents, eventId, `settle-${(marker += 1)}`, 15_000);
  return { deviations, settle, close: () => socket.close() };
}

describe('deviation alerts over Socket.IO', () => {
  const save = (scoreId: number, fieldId: number, performance: number) =>
    postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance });

  it('exactly one panel-deviation per crossing, none within tolerance, resolved when corrected or confirmed', async () => {
    const localCompetition = await createCompetition(server.pool, 'Abweichungscup');
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Alarm' });
    await putPanel(discipline); // tolerance 0.3
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, localCompetition, { lastName: 'Alarm' });
    const { deviations, settle, close } = await watchDeviations(localCompetition.eventId);
    try {
      const [e1, e2, e3, e4, e5] = discipline.judges as [number, number, number, number, number];

      for (const [index, fieldId] of discipline.judges.entries()) await save(scoreId, fieldId, WITHIN_TOLERANCE[index]!);
      await settle();
      expect(deviations).toEqual([]); // within tolerance: counted 8.5, 8.5, 8.6 → spread 0.1

      await save(scoreId, e3, 7.0); // trimmed as lowest: counted 8.5, 8.5, 8.6 — still within
      await settle();
      expect(deviations).toEqual([]);

      await save(scoreId, e2, 9.4); // counted 8.5, 8.5, 8.7 — within; highest 9.4 trimmed
      await save(scoreId, e5, 9.5); // counted 8.5, 8.7, 9.4 → spread 0.9: a crossing
      await save(scoreId, e1, 9.3); // still over: no second announcement
      await settle();
      expect(deviations).toHaveLength(1);
      expect(deviations[0]).toMatchObject({
        scoreId,
        disciplineId: discipline.id,
        attempt: 1,
        spread: 0.9,
        tolerance: 0.3,
        resolved: false,
        source: 'api',
        seq: expect.any(Number),
      });
      expect(deviations[0]!.values).toEqual([
        { fieldId: e1, value: 8.5 },
        { fieldId: e2, value: 9.4 },
        { fieldId: e3, value: 7 },
        { fieldId: e4, value: 8.7 },
        { fieldId: e5, value: 9.5 },
      ]);
      const open = await sendJson(
        'GET',
        `${server.url}/api/panel-deviations?eventId=${localCompetition.eventId}`,
        undefined,
        bearer(headToken),
      );
      expect(open.status).toBe(200);
      expect(open.body).toEqual([
        // The list shows the values as they are now: 9.3, 9.4, 7.0, 8.7, 9.5 → counted 8.7, 9.3, 9.4.
        { scoreId, disciplineId: discipline.id, attempt: 1, values: expect.any(Array), spread: 0.7, tolerance: 0.3, resolved: false },
      ]);

      // Corrected back within tolerance: one resolved event.
      for (const [fieldId, value] of [
        [e2, 8.6],
        [e5, 8.5],
        [e1, 8.5],
      ] as const)
        await save(scoreId, fieldId, value);
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true]);
      expect(
        (await sendJson('GET', `${server.url}/api/panel-deviations?eventId=${localCompetition.eventId}`, undefined, bearer(headToken)))
          .body,
      ).toEqual([]);

      // A second crossing, confirmed by the head judge: one open, one resolved, recorded in the audit trail.
      await save(scoreId, e4, 9.6); // 8.5, 8.6, 7.0, 9.6, 8.5 → counted 8.5, 8.5, 8.6: within
      await save(scoreId, e2, 9.7); // 8.5, 9.7, 7.0, 9.6, 8.5 → counted 8.5, 8.5, 9.6: spread 1.1
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true, false]);
      const key = { scoreId, disciplineId: discipline.id, attempt: 1 };
      expect((await postJson(`${server.url}/api/panel-deviations/confirm`, key, bearer(juryToken))).status).toBe(403);
      const confirmed = await postJson(`${server.url}/api/panel-deviations/confirm`, key, bearer(headToken));
      expect(confirmed).toEqual({ status: 200, body: { confirmed: true } });
      expect((await postJson(`${server.url}/api/panel-deviations/confirm`, key, bearer(headToken))).status).toBe(200);
      await save(scoreId, e1, 8.4); // counted 8.4, 8.5, 9.6: still over after the confirmation, nothing new
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true, false, true]);
      const entry = (await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`)).body.panel;
      expect(entry).toMatchObject({ deviation: false, confirmed: true });
      const { rows } = await server.pool.query(
        `SELECT kind, actor, field_id FROM ${t.svc_score_audit} WHERE score_id = $1 AND kind IS NOT NULL`,
        [scoreId],
      );
      expect(rows).toEqual([{ kind: 'panel-confirmed', actor: 'oberkampfrichter', field_id: discipline.aggregate }]);

      // Back within tolerance after a confirmation: closed without a second resolved announcement.
      await save(scoreId, e2, 8.6);
      await save(scoreId, e4, 8.6);
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true, false, true]);
      expect(await server.pool.query(`SELECT 1 FROM ${t.svc_panel_deviations} WHERE score_id = $1`, [scoreId])).toMatchObject({
        rowCount: 0,
      });
    } finally {
      close();
    }
  });

  it('confirm refuses bad input with the contract body and writes nothing', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Nichts' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Nichts' });
    const before = await rowCounts(server.pool);
    const confirm = (body: unknown, headers = bearer(headToken)) => postJson(`${server.url}/api/panel-deviations/confirm`, body, headers);
    expect(await confirm({ scoreId, disciplineId: discipline.id, attempt: 1 })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await confirm({ scoreId, disciplineId: discipline.id, attempt: 2 })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED' },
    });
    expect(await confirm({ scoreId, disciplineId: discipline.id })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await confirm({ scoreId: 'x', disciplineId: discipline.id, attempt: 1 })).toMatchObject({ status: 400 });
    expect((await confirm({ scoreId, disciplineId: discipline.id, attempt: 1 }, {})).status).toBe(401);
    const list = await sendJson('GET', `${server.url}/api/panel-deviations?eventId=0`, undefined, bearer(headToken));
    expect(list).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await rowCounts(server.pool)).toEqual(before);
  });
});

describe("the desktop program's direct write of a judge value", () => {
  // Decision (docs/decisions.md, "E-panel"): no trigger; the next GET /api/scores recomputes, as rule 5 does for a missing final.
  async function stored(scoreId: number, fieldIds: number[]): Promise<Array<number | null>> {
    const { rows } = await server.pool.query<{ field: number; value: number | null }>(
      `SELECT int_disziplinen_felderid AS field, rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_versuch = 1`,
      [scoreId],
    );
    return fieldIds.map((fieldId) => rows.find((row) => row.field === fieldId)?.value ?? null);
  }
  const readPage = () => getJson(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`);

  it('completing the panel directly: the next read stores the aggregate and calculates the final', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Desktop' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Desktop' });
    await insertDetailRow(server.pool, scoreId, discipline.id, null);
    const values = [8.5, 8.7, 8.4, 9.0, 8.6];
    await insertJuryResults(server.pool, scoreId, [
      [discipline.difficulty, 5.4],
      ...discipline.judges.map((fieldId, index) => [fieldId, values[index]!] as const),
    ]);
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual([null, null]);

    const page = await readPage();
    const entry = page.body.results.find((item: { id: number }) => item.id === scoreId);
    expect(entry).toMatchObject({ score: 14, panel: { aggregate: 8.6, complete: true } });
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual([8.6, 14]);
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 14 }]);
  });

  it('changing one judge value directly: the next read recomputes the aggregate and overwrites the final, recorded as auto-calculation', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Desktop Korrektur' });
    await putPanel(discipline);
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Korrektur' });
    const save = (fieldId: number, performance: number) =>
      postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance });
    await save(discipline.difficulty, 5.4);
    for (const [index, fieldId] of discipline.judges.entries()) await save(fieldId, [8.5, 8.7, 8.4, 9.0, 8.6][index]!);
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual([8.6, 14]);

    await server.pool.query(
      `UPDATE ${t.jury_results} SET rel_leistung = 8.8 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`,
      [scoreId, discipline.judges[0]],
    );
    // Until a page is read, the stored aggregate and final are the old ones; the panel in a read is always from the judges' values.
    const jury = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(jury.body.panel).toMatchObject({ aggregate: 8.7, complete: true });
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual([8.6, 14]);

    const entry = (await readPage()).body.results.find((item: { id: number }) => item.id === scoreId);
    expect(entry).toMatchObject({ score: 14.1, panel: { aggregate: 8.7 } });
    expect(
      entry.juryResults.find((result: { disciplineFieldId: number }) => result.disciplineFieldId === discipline.aggregate).performance,
    ).toBe(8.7);
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual([8.7, 14.1]);
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 14.1 }]);
    const { rows } = await server.pool.query(
      `SELECT field_id, old_value, new_value, source, actor FROM ${t.svc_score_audit}
        WHERE score_id = $1 AND (field_id IS NULL OR field_id = $2 OR field_id = $3) ORDER BY id DESC LIMIT 3`,
      [scoreId, discipline.aggregate, discipline.judges[0]],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { field_id: discipline.aggregate, old_value: 8.6, new_value: 8.7, source: 'api', actor: 'auto-calculation' },
        { field_id: null, old_value: 14, new_value: 14.1, source: 'api', actor: 'auto-calculation' },
        expect.objectContaining({ field_id: discipline.judges[0], old_value: 8.5, new_value: 8.8, source: 'legacy' }),
      ]),
    );

    // A second read finds nothing more to correct.
    const before = await stored(scoreId, [discipline.aggregate, discipline.final]);
    await readPage();
    expect(await stored(scoreId, [discipline.aggregate, discipline.final])).toEqual(before);
  });
});

describe("a deviation the desktop program's direct write causes", () => {
  it('is recorded and announced once by the next read, with the same payload keys as a command announces; closed again the same way', async () => {
    const localCompetition = await createCompetition(server.pool, 'Desktopabweichung');
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Desktop Alarm' });
    await putPanel(discipline); // tolerance 0.3
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, localCompetition, { lastName: 'Desktopalarm' });
    const save = (fieldId: number, performance: number) =>
      postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance });
    const [e1, e2, , , e5] = discipline.judges as [number, number, number, number, number];
    const { deviations, settle, close } = await watchDeviations(localCompetition.eventId);
    try {
      const readPage = () => getJson(`${server.url}/api/scores?eventId=${localCompetition.eventId}&limit=1000`);
      const desktopWrite = (fieldId: number, value: number) =>
        server.pool.query(`UPDATE ${t.jury_results} SET rel_leistung = $3 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`, [
          scoreId,
          fieldId,
          value,
        ]);

      await save(discipline.difficulty, 5.4);
      for (const [index, fieldId] of discipline.judges.entries()) await save(fieldId, WITHIN_TOLERANCE[index]!);
      await desktopWrite(e2, 9.4);
      await desktopWrite(e5, 9.5); // 8.5, 9.4, 8.4, 8.7, 9.5 → counted 8.5, 8.7, 9.4: spread 0.9
      await settle();
      expect(deviations).toEqual([]); // no trigger: nothing until a read

      const page = await readPage();
      expect(page.body.results.find((entry: { id: number }) => entry.id === scoreId).panel).toMatchObject({ deviation: true });
      await readPage(); // a second read finds the record: nothing new
      await settle();
      expect(deviations).toHaveLength(1);
      expect(deviations[0]).toMatchObject({ scoreId, disciplineId: discipline.id, spread: 0.9, resolved: false });
      // Built in SQL here, by the builder after a service save: the same keys.
      await save(e1, 9.9); // 9.9, 9.4, 8.4, 8.7, 9.5 → counted 8.7, 9.4, 9.5: still over, nothing new
      await settle();
      expect(deviations).toHaveLength(1);
      const listed = await sendJson(
        'GET',
        `${server.url}/api/panel-deviations?eventId=${localCompetition.eventId}`,
        undefined,
        bearer(headToken),
      );
      expect(listed.body).toHaveLength(1);

      await desktopWrite(e1, 8.5);
      await desktopWrite(e2, 8.6);
      await desktopWrite(e5, 8.5);
      await readPage();
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true]);
      expect(Object.keys(deviations[1]!).sort()).toEqual(Object.keys(deviations[0]!).sort());

      // The same keys as the builder's (a crossing through a service save).
      await save(e2, 9.4);
      await save(e5, 9.5);
      await settle();
      expect(deviations.map((event) => event.resolved)).toEqual([false, true, false]);
      expect(Object.keys(deviations[2]!).sort()).toEqual(Object.keys(deviations[0]!).sort());
    } finally {
      close();
    }
  });
});

describe('statements per page with panels', () => {
  /** Complete panels written directly (set-wise): every entry is due for the panel's corrections on read. */
  async function panelPage(name: string, count: number, discipline: PanelDiscipline): Promise<Competition> {
    const pageCompetition = await createCompetition(server.pool, name);
    const scoreIds = await insertParticipantsWithScoreRows(server.pool, pageCompetition, count, 'P');
    await server.pool.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
       SELECT id, $2, 1, 0, NULL FROM unnest($1::int[]) AS id`,
      [scoreIds, discipline.id],
    );
    await server.pool.query(
      `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
       SELECT id, f.field_id, f.value, 1, 0 FROM unnest($1::int[]) AS id
       CROSS JOIN unnest($2::int[], $3::real[]) AS f(field_id, value)`,
      [scoreIds, [discipline.difficulty, ...discipline.judges], [5.4, 8.5, 8.7, 8.4, 9.0, 8.6]],
    );
    return pageCompetition;
  }

  async function statementsFor(pageCompetition: Competition): Promise<string[]> {
    const { result, statements } = await captureStatements(server.pool, () =>
      getJson(`${server.url}/api/scores?eventId=${pageCompetition.eventId}&limit=1000`),
    );
    expect(result.status).toBe(200);
    return statements.filter((text) => !/svc_outbox|pg_try_advisory_lock|idle_session_timeout|pg_backend_pid|LISTEN/i.test(text));
  }

  it('10 and 500 rows run the same statements, correcting and reading', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Sprung Menge' });
    await putPanel(discipline);
    const small = await panelPage('Panel klein', 10, discipline);
    const large = await panelPage('Panel gross', 500, discipline);

    const correctingSmall = await statementsFor(small);
    expect(await statementsFor(large)).toEqual(correctingSmall);
    expect(correctingSmall.length).toBeLessThanOrEqual(5);
    const { rows } = await server.pool.query(
      `SELECT count(*) FILTER (WHERE int_disziplinen_felderid = $1 AND rel_leistung = 8.6::real)::int AS aggregates,
              count(*) FILTER (WHERE int_disziplinen_felderid = $2 AND rel_leistung = 14)::int AS finals
         FROM ${t.jury_results}`,
      [discipline.aggregate, discipline.final],
    );
    expect(rows[0]).toEqual({ aggregates: 510, finals: 510 });

    const readingSmall = await statementsFor(small);
    expect(await statementsFor(large)).toEqual(readingSmall);
    expect(readingSmall).toHaveLength(2);
  });
});

/** A score row of the discipline with the given jury results (field id → value). */
async function scoreWith(discipline: PanelDiscipline, values: Array<[number, number]>): Promise<number> {
  const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
  await insertDetailRow(server.pool, scoreId, discipline.id, null);
  await insertJuryResults(server.pool, scoreId, values);
  return scoreId;
}

const valueOf = async (scoreId: number, fieldId: number) =>
  (await juryResultRows(server.pool, scoreId)).find((row) => row.fieldId === fieldId)?.value ?? null;

const settingsOf = async (disciplineId: number) =>
  (await server.pool.query(`SELECT * FROM ${t.svc_panel_settings} WHERE discipline_id = $1`, [disciplineId])).rows;

const readScores = () => getJson(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`);

// Issue 44: settings never hand stored values of the aggregate field to the panel unasked.
describe('panel settings over stored values', () => {
  let discipline: PanelDiscipline;
  const scores: Record<'stale' | 'noJudges' | 'consistent' | 'empty', number> = { stale: 0, noJudges: 0, consistent: 0, empty: 0 };

  beforeAll(async () => {
    discipline = await insertPanelDiscipline(server.pool, { name: 'Boden Bestand' });
    const judges = (values: number[]) => discipline.judges.map((fieldId, index): [number, number] => [fieldId, values[index]!]);
    // The field was used for something else: 1.2 is not the trimmed mean 8.4 of the judges' values.
    scores.stale = await scoreWith(discipline, [...judges([8.0, 8.2, 8.4, 8.6, 9.0]), [discipline.aggregate, 1.2]]);
    scores.noJudges = await scoreWith(discipline, [[discipline.aggregate, 0.3]]);
    scores.consistent = await scoreWith(discipline, [...judges([7.0, 7.5, 7.5, 7.5, 8.0]), [discipline.aggregate, 7.5]]);
    scores.empty = await scoreWith(discipline, []);
  });

  it('GET field-values tells which fields hold values', async () => {
    const { status, body } = await getJson(`${server.url}/api/disciplines/${discipline.id}/field-values`);
    expect(status).toBe(200);
    const counts = new Map((body.fields as Array<{ fieldId: number; storedValues: number }>).map((row) => [row.fieldId, row.storedValues]));
    expect(counts.get(discipline.aggregate)).toBe(3);
    expect(counts.get(discipline.judges[0]!)).toBe(2);
    expect(counts.get(discipline.difficulty)).toBe(0);
    expect(counts.get(discipline.final)).toBe(0);
    expect((await getJson(`${server.url}/api/disciplines/999999/field-values`)).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('refuses with 409 and the count, writing nothing, while the request does not name it', async () => {
    for (const extra of [{}, { replaceStoredValues: 0 }, { replaceStoredValues: 1 }, { replaceStoredValues: 3 }]) {
      const { status, body } = await putPanel(discipline, extra);
      expect(status).toBe(409);
      expect(body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'CONFLICT', replaced: 2 });
      expect(body.message).toMatch(/^2 stored value\(s\) of field "E-Note" .* replaceStoredValues: 2/);
    }
    expect(await settingsOf(discipline.id)).toEqual([]);
    expect(await valueOf(scores.stale, discipline.aggregate)).toBeCloseTo(1.2, 5);
    await readScores();
    expect(await valueOf(scores.stale, discipline.aggregate)).toBeCloseTo(1.2, 5);
  });

  it('takes the settings with the confirmed count; the next read replaces the stale aggregate of a complete panel only', async () => {
    const { status, body } = await putPanel(discipline, { replaceStoredValues: 2 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ aggregateFieldId: discipline.aggregate, size: 5 });
    await readScores();
    expect(await valueOf(scores.stale, discipline.aggregate)).toBeCloseTo(8.4, 5);
    expect(await valueOf(scores.consistent, discipline.aggregate)).toBeCloseTo(7.5, 5);
    // Incomplete: kept until every judge has a value, so a later change of the settings asks again for it.
    expect(await valueOf(scores.noJudges, discipline.aggregate)).toBeCloseTo(0.3, 5);
    expect((await putPanel(discipline, { tolerance: 0.4 })).body).toMatchObject({ statusCode: 409, replaced: 1 });
  });

  it('an empty aggregate field, or one holding only what the panel computes, needs no confirmation', async () => {
    const fresh = await insertPanelDiscipline(server.pool, { name: 'Sprung leer' });
    const judged = await scoreWith(
      fresh,
      fresh.judges.map((fieldId): [number, number] => [fieldId, 9]),
    );
    expect((await putPanel(fresh)).status).toBe(200);
    await readScores();
    expect(await valueOf(judged, fresh.aggregate)).toBe(9);
    expect((await putPanel(fresh, { tolerance: 0.2, aggregation: 'median' })).status).toBe(200);
  });

  it('the auto-calculation writes an aggregate only into the field the panel names when it writes', async () => {
    const other = await insertPanelDiscipline(server.pool, { name: 'Reck fremd' });
    const scoreId = await scoreWith(other, [[other.difficulty, 4.5]]);
    expect((await putPanel(other)).status).toBe(200);
    // As a read would hand it over after the settings named D-Note (and changed before the write).
    const written = await server.commands.run((tx) =>
      applyFinalCorrections(tx, [
        { scoreId, disciplineId: other.id, correction: { kind: 'aggregate', fieldId: other.difficulty, value: 9, expected: 4.5 } },
        { scoreId, disciplineId: other.id, correction: { kind: 'aggregate-new', fieldId: other.judges[0]!, value: 9 } },
      ]),
    );
    expect(written).toEqual([]);
    expect(await valueOf(scoreId, other.difficulty)).toBe(4.5);
    expect(await valueOf(scoreId, other.judges[0]!)).toBeNull();
  });
});
