import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  insertRow,
  apiScoreOutboxRows,
  createCompetition,
  detailRows,
  insertDetailRow,
  insertDiscipline,
  insertJuryResults,
  insertParticipant,
  insertParticipantWithScoreRow,
  juryResultRows,
  rowCounts,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, postJson } from '../support/http.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown) => postJson(`${server.url}${path}`, body);
const errorBody = (statusCode: number, error: string, code: string) => ({ statusCode, error, code, message: expect.any(String) });

/** Runs a request that must be refused and asserts it wrote nothing at all. */
async function expectRefused(path: string, body: unknown, statusCode: number): Promise<void> {
  const before = await rowCounts(server.pool);
  const response = await post(path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(statusCode);
  const reason = { 400: ['Bad Request', 'VALIDATION_FAILED'], 404: ['Not Found', 'NOT_FOUND'] }[statusCode as 400 | 404];
  expect(response.body).toEqual(errorBody(statusCode, reason[0]!, reason[1]!));
  expect(await rowCounts(server.pool)).toEqual(before);
}

interface Scene {
  competition: Competition;
  discipline: Discipline;
  participantId: number;
  scoreId: number;
}

async function scene(options: Parameters<typeof insertDiscipline>[1] = {}): Promise<Scene> {
  const competition = await createCompetition(server.pool);
  const discipline = await insertDiscipline(server.pool, options);
  const { participantId, scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'Rot' });
  return { competition, discipline, participantId, scoreId };
}

const saveField = (scoreId: number, fieldId: number, performance: unknown, extra: Record<string, unknown> = {}) =>
  post('/api/jury-results', { participantId: scoreId, disciplineFieldId: fieldId, performance, attempt: 1, type: 0, ...extra });

describe('POST /api/jury-results', () => {
  it('inserts, then updates the one row keyed by score, field and attempt 1; type goes to int_kp', async () => {
    const { scoreId, discipline } = await scene();
    const first = await saveField(scoreId, discipline.fields.A, 9.5);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      id: expect.any(Number),
      wertungenId: scoreId,
      disciplineFieldId: discipline.fields.A,
      performance: 9.5,
      finalScore: null,
    });

    const second = await saveField(scoreId, discipline.fields.A, 9.75, { type: 1 });
    expect(second.body).toMatchObject({ id: first.body.id, performance: 9.75 });
    expect(await juryResultRows(server.pool, scoreId)).toEqual([
      { id: first.body.id, fieldId: discipline.fields.A, value: 9.75, attempt: 1, kind: 1 },
    ]);
  });

  it('appends event 1 with the score calculated from the current jury results', async () => {
    const { competition, discipline, scoreId } = await scene();
    await saveField(scoreId, discipline.fields.A, 9);
    await saveField(scoreId, discipline.fields.B, 8.5);
    const last = await saveField(scoreId, discipline.fields.C, 0.5);
    expect(last.body.finalScore).toBe(17);

    const events = await apiScoreOutboxRows(server.pool, scoreId);
    expect(events.map((event) => event.payload.finalScore)).toEqual([null, null, 17]);
    expect(events[2]).toEqual({
      eventId: competition.eventId,
      payload: {
        scoreId,
        eventId: competition.eventId,
        competitionId: competition.competitionId,
        disciplineId: discipline.id,
        disciplineName: 'Boden',
        firstname: 'Anna',
        lastname: 'Muster',
        gender: 'female',
        squadName: 'Rot',
        finalScore: 17,
        score: 17,
        formula: 'A + B - C',
        startValue: 10,
        released: false,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    // The final itself is the portal's to save (rule 7): this command does not write it.
    expect((await juryResultRows(server.pool, scoreId)).map((row) => row.fieldId)).not.toContain(discipline.fields.final);
  });

  it('maps int_geschlecht 1 to male and anything but 1 and 2 to other', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    for (const [code, gender] of [
      [1, 'male'],
      [null, 'other'],
      [3, 'other'],
    ] as const) {
      const participantId = await insertParticipant(server.pool, competition, { gender: code });
      const scoreId = await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
        int_wettkaempfeid: competition.competitionId,
        int_teilnehmerid: participantId,
        int_statusid: 1,
      });
      await saveField(scoreId, discipline.fields.A, 9);
      expect((await apiScoreOutboxRows(server.pool, scoreId))[0]?.payload.gender).toBe(gender);
    }
  });

  it('accepts attempt 1 only', async () => {
    const { scoreId, discipline } = await scene();
    await expectRefused(
      '/api/jury-results',
      { participantId: scoreId, disciplineFieldId: discipline.fields.A, performance: 9, attempt: 2, type: 0 },
      400,
    );
  });

  it('answers 404 for an unknown score or field and writes nothing', async () => {
    const { scoreId, discipline } = await scene();
    await expectRefused(
      '/api/jury-results',
      { participantId: 2_000_000, disciplineFieldId: discipline.fields.A, performance: 9, attempt: 1, type: 0 },
      404,
    );
    await expectRefused(
      '/api/jury-results',
      { participantId: scoreId, disciplineFieldId: 2_000_000, performance: 9, attempt: 1, type: 0 },
      404,
    );
  });

  it.each([
    ['a string performance (no coercion)', { performance: '9' }],
    ['a performance out of range', { performance: 1e9 }],
    ['type 2', { type: 2 }],
    ['participantId 0', { participantId: 0 }],
    ['a missing disciplineFieldId', { disciplineFieldId: undefined }],
  ])('refuses %s with 400', async (_name, override) => {
    const { scoreId, discipline } = await scene();
    await expectRefused(
      '/api/jury-results',
      { participantId: scoreId, disciplineFieldId: discipline.fields.A, performance: 9, attempt: 1, type: 0, ...override },
      400,
    );
  });

  it('50 parallel saves of one score and field leave one row holding one of the sent values', async () => {
    const { scoreId, discipline } = await scene();
    const values = Array.from({ length: 50 }, (_, index) => 5 + index / 8);
    const responses = await Promise.all(values.map((value) => saveField(scoreId, discipline.fields.B, value)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const rows = await juryResultRows(server.pool, scoreId);
    expect(rows).toHaveLength(1);
    expect(values).toContain(rows[0]!.value);
    expect(new Set(responses.map((response) => response.body.id))).toEqual(new Set([rows[0]!.id]));
    expect(await apiScoreOutboxRows(server.pool, scoreId)).toHaveLength(50);
  });
});

describe('GET /api/jury-results', () => {
  it('lists the saved results of the score in the discipline in sort order, final included', async () => {
    const { scoreId, discipline } = await scene();
    await insertJuryResults(server.pool, scoreId, [
      [discipline.fields.final!, 16],
      [discipline.fields.B, 8],
      [discipline.fields.A, 9],
    ]);
    const response = await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=${discipline.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      results: [
        { fieldId: discipline.fields.A, performance: 9, isFinalScore: false, sortOrder: 1 },
        { fieldId: discipline.fields.B, performance: 8, isFinalScore: false, sortOrder: 2 },
        { fieldId: discipline.fields.final, performance: 16, isFinalScore: true, sortOrder: 4 },
      ],
      panel: null,
    });
  });

  it('answers 404 for an unknown score or discipline and 400 without participantId', async () => {
    const { scoreId, discipline } = await scene();
    expect((await getJson(`${server.url}/api/jury-results?participantId=2000000&disciplineId=${discipline.id}`)).status).toBe(404);
    expect((await getJson(`${server.url}/api/jury-results?participantId=${scoreId}&disciplineId=2000000`)).body).toEqual(
      errorBody(404, 'Not Found', 'NOT_FOUND'),
    );
    expect((await getJson(`${server.url}/api/jury-results?disciplineId=${discipline.id}`)).body).toEqual(
      errorBody(400, 'Bad Request', 'VALIDATION_FAILED'),
    );
  });
});

describe('GET /api/discipline-fields', () => {
  it('returns a bare array of fields by sort order, filtered by disciplineId', async () => {
    const discipline = await insertDiscipline(server.pool);
    await server.pool.query(`UPDATE ${t.disziplinen_felder} SET bol_enabled = false WHERE int_disziplinen_felderid = $1`, [
      discipline.fields.C,
    ]);
    const response = await getJson(`${server.url}/api/discipline-fields?disciplineId=${discipline.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: discipline.fields.A,
        disciplineId: discipline.id,
        name: 'Ausgangswert',
        shortName: 'D',
        sortOrder: 1,
        isFinalScore: false,
        isStartingScore: true,
        enabled: true,
        group: 1,
      },
      {
        id: discipline.fields.B,
        disciplineId: discipline.id,
        name: 'Ausführung',
        shortName: 'E',
        sortOrder: 2,
        isFinalScore: false,
        isStartingScore: false,
        enabled: true,
        group: null,
      },
      {
        id: discipline.fields.C,
        disciplineId: discipline.id,
        name: 'AbzugAusf.',
        shortName: 'Abz',
        sortOrder: 3,
        isFinalScore: false,
        isStartingScore: false,
        enabled: false,
        group: null,
      },
      {
        id: discipline.fields.final,
        disciplineId: discipline.id,
        name: 'Endwert',
        shortName: 'End',
        sortOrder: 4,
        isFinalScore: true,
        isStartingScore: false,
        enabled: true,
        group: null,
      },
    ]);
  });

  it('without disciplineId returns the fields of every discipline; a bad id is 400', async () => {
    const one = await insertDiscipline(server.pool);
    const two = await insertDiscipline(server.pool, { sortColumn: 'int_reihenfolge' });
    const all = await getJson(`${server.url}/api/discipline-fields`);
    const ids = all.body.map((field: any) => field.id);
    expect(ids).toEqual(expect.arrayContaining([one.fields.A, two.fields.A, two.fields.final]));
    expect(all.body.find((field: any) => field.id === two.fields.B).sortOrder).toBe(2);
    expect((await getJson(`${server.url}/api/discipline-fields?disciplineId=abc`)).status).toBe(400);
  });
});

describe('POST /api/scores/save-value', () => {
  it('with the wertungenId writes the detail value and the final field, and appends event 2', async () => {
    const { competition, discipline, participantId, scoreId } = await scene();
    const response = await post('/api/scores/save-value', {
      competitionId: competition.competitionId,
      participantId: scoreId,
      disciplineId: discipline.id,
      score: 16.25,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, wertungenId: scoreId, score: 16.25 });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 16.25 }]);
    expect(await juryResultRows(server.pool, scoreId)).toEqual([
      { id: expect.any(Number), fieldId: discipline.fields.final, value: 16.25, attempt: 1, kind: 0 },
    ]);
    expect(await apiScoreOutboxRows(server.pool, scoreId)).toEqual([
      {
        eventId: competition.eventId,
        payload: {
          scoreId,
          eventId: competition.eventId,
          competitionId: competition.competitionId,
          participantId,
          disciplineId: discipline.id,
          disciplineName: 'Boden',
          firstname: 'Anna',
          lastname: 'Muster',
          score: 16.25,
          finalScore: 16.25,
          storedScore: 16.25,
          hasFormula: true,
          released: false,
          timestamp: expect.any(String),
        },
      },
    ]);
    const { rows } = await server.pool.query(`SELECT int_statusid FROM ${t.wertungen} WHERE int_wertungenid = $1`, [scoreId]);
    expect(rows[0].int_statusid).toBe(1);
  });

  it('with a participant id creates the score row (status 1) and detail row when none exists, then reuses them', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const participantId = await insertParticipant(server.pool, competition, { startNumber: '42' });
    const created = await post('/api/scores/save-value', {
      competitionId: competition.competitionId,
      participantId,
      disciplineId: discipline.id,
      score: 0,
    });
    expect(created.status).toBe(200);
    const scoreId = created.body.wertungenId;
    const { rows } = await server.pool.query(
      `SELECT int_wettkaempfeid, int_teilnehmerid, int_statusid, int_startnummer FROM ${t.wertungen} WHERE int_wertungenid = $1`,
      [scoreId],
    );
    expect(rows).toEqual([
      { int_wettkaempfeid: competition.competitionId, int_teilnehmerid: participantId, int_statusid: 1, int_startnummer: 42 },
    ]);

    const again = await post('/api/scores/save-value', {
      competitionId: competition.competitionId,
      participantId,
      disciplineId: discipline.id,
      score: 12,
    });
    expect(again.body).toEqual({ success: true, wertungenId: scoreId, score: 12 });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 12 }]);
  });

  it('parallel retries with a participant id create one score row, one detail row and one final row', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const participantId = await insertParticipant(server.pool, competition);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/scores/save-value', { competitionId: competition.competitionId, participantId, disciplineId: discipline.id, score: 0 }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    const { rows } = await server.pool.query(`SELECT int_wertungenid FROM ${t.wertungen} WHERE int_teilnehmerid = $1`, [participantId]);
    expect(rows).toHaveLength(1);
    expect(new Set(responses.map((response) => response.body.wertungenId))).toEqual(new Set([rows[0].int_wertungenid]));
    expect(await detailRows(server.pool, rows[0].int_wertungenid)).toHaveLength(1);
    expect(await juryResultRows(server.pool, rows[0].int_wertungenid)).toHaveLength(1);
  });

  it('writes only the detail value when the discipline has no final field', async () => {
    const { competition, participantId, scoreId } = await scene();
    const noFinal = await insertDiscipline(server.pool, { withFinal: false });
    await post('/api/scores/save-value', { competitionId: competition.competitionId, participantId, disciplineId: noFinal.id, score: 7.5 });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: noFinal.id, value: 7.5 }]);
    expect(await juryResultRows(server.pool, scoreId)).toEqual([]);
  });

  it('answers 404 for an unknown competition, discipline or participant and 400 for bad bodies, writing nothing', async () => {
    const { competition, discipline, scoreId } = await scene();
    const body = { competitionId: competition.competitionId, participantId: scoreId, disciplineId: discipline.id, score: 9 };
    await expectRefused('/api/scores/save-value', { ...body, competitionId: 2_000_000 }, 404);
    await expectRefused('/api/scores/save-value', { ...body, disciplineId: 2_000_000 }, 404);
    await expectRefused('/api/scores/save-value', { ...body, participantId: 2_000_000 }, 404);
    await expectRefused('/api/scores/save-value', { ...body, score: '9' }, 400);
    await expectRefused('/api/scores/save-value', { ...body, score: 200_000 }, 400);
    await expectRefused('/api/scores/save-value', { ...body, competitionId: undefined }, 400);
  });

  it('rule 7: the portal flow (create, field values, final) leaves jury final and detail equal and nothing to correct', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const participantId = await insertParticipant(server.pool, competition);
    const base = { competitionId: competition.competitionId, disciplineId: discipline.id };
    const { wertungenId } = (await post('/api/scores/save-value', { ...base, participantId, score: 0 })).body;
    await saveField(wertungenId, discipline.fields.A, 9);
    await saveField(wertungenId, discipline.fields.B, 8);
    await saveField(wertungenId, discipline.fields.C, 1);
    await post('/api/scores/save-value', { ...base, participantId: wertungenId, score: 16 });

    const page = await getJson(`${server.url}/api/scores?eventId=${competition.eventId}`);
    expect(page.body.results).toHaveLength(1);
    expect(page.body.results[0]).toMatchObject({ id: wertungenId, disciplineId: discipline.id, score: 16 });
    expect(page.body.results[0].juryResults.map((result: any) => result.performance)).toEqual([9, 8, 1, 16]);
    expect((await apiScoreOutboxRows(server.pool, wertungenId)).map((event) => event.payload.score)).toEqual([0, null, null, 16, 16]);
  });
});

describe('POST /api/scores/capture', () => {
  const capture = (wertungenId: number, fieldValues: Array<{ fieldId: number; value: unknown }>) =>
    post('/api/scores/capture', { wertungenId, fieldValues });

  it('stores the field values, calculates the missing final and writes it to the final field and the detail', async () => {
    const { competition, discipline, scoreId, participantId } = await scene();
    const response = await capture(scoreId, [
      { fieldId: discipline.fields.A, value: 9.5 },
      { fieldId: discipline.fields.B, value: 8.25 },
      { fieldId: discipline.fields.C, value: 0.75 },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      wertungenId: scoreId,
      finalScore: 17,
      calculated: true,
      juryResults: [
        {
          id: expect.any(Number),
          disciplineFieldId: discipline.fields.A,
          fieldName: 'Ausgangswert',
          performance: 9.5,
          isFinalScore: false,
          isStartingScore: true,
          sortOrder: 1,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: discipline.fields.B,
          fieldName: 'Ausführung',
          performance: 8.25,
          isFinalScore: false,
          isStartingScore: false,
          sortOrder: 2,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: discipline.fields.C,
          fieldName: 'AbzugAusf.',
          performance: 0.75,
          isFinalScore: false,
          isStartingScore: false,
          sortOrder: 3,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: discipline.fields.final,
          fieldName: 'Endwert',
          performance: 17,
          isFinalScore: true,
          isStartingScore: false,
          sortOrder: 4,
        },
      ],
    });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 17 }]);
    expect(await apiScoreOutboxRows(server.pool, scoreId)).toEqual([
      {
        eventId: competition.eventId,
        payload: expect.objectContaining({
          scoreId,
          participantId,
          disciplineId: discipline.id,
          score: 17,
          finalScore: 17,
          storedScore: 17,
          hasFormula: true,
        }),
      },
    ]);
  });

  it('takes a final the request carries instead of calculating it, and recalculates when inputs change later', async () => {
    const { discipline, scoreId } = await scene();
    const given = await capture(scoreId, [
      { fieldId: discipline.fields.A, value: 9 },
      { fieldId: discipline.fields.final!, value: 12 },
    ]);
    expect(given.body).toMatchObject({ finalScore: 12, calculated: false });
    const recalculated = await capture(scoreId, [
      { fieldId: discipline.fields.B, value: 8 },
      { fieldId: discipline.fields.C, value: 2 },
    ]);
    expect(recalculated.body).toMatchObject({ finalScore: 15, calculated: true });
    expect((await juryResultRows(server.pool, scoreId)).map((row) => row.value)).toHaveLength(4);
  });

  it('keeps the stored final and detail when the formula gives no finite result', async () => {
    const { discipline, scoreId } = await scene();
    await insertDetailRow(server.pool, scoreId, discipline.id, 11);
    const response = await capture(scoreId, [{ fieldId: discipline.fields.A, value: 9 }]);
    expect(response.body).toMatchObject({ finalScore: 11, calculated: false });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 11 }]);
    expect((await juryResultRows(server.pool, scoreId)).map((row) => row.fieldId)).toEqual([discipline.fields.A]);
  });

  it('refuses unknown fields, fields of two disciplines, repeated fields and an unknown score, writing nothing', async () => {
    const { discipline, scoreId } = await scene();
    const other = await insertDiscipline(server.pool);
    await expectRefused(
      '/api/scores/capture',
      {
        wertungenId: scoreId,
        fieldValues: [
          { fieldId: discipline.fields.A, value: 9 },
          { fieldId: 2_000_000, value: 1 },
        ],
      },
      400,
    );
    await expectRefused(
      '/api/scores/capture',
      {
        wertungenId: scoreId,
        fieldValues: [
          { fieldId: discipline.fields.A, value: 9 },
          { fieldId: other.fields.B, value: 1 },
        ],
      },
      400,
    );
    await expectRefused(
      '/api/scores/capture',
      {
        wertungenId: scoreId,
        fieldValues: [
          { fieldId: discipline.fields.A, value: 9 },
          { fieldId: discipline.fields.A, value: 1 },
        ],
      },
      400,
    );
    await expectRefused('/api/scores/capture', { wertungenId: scoreId, fieldValues: [] }, 400);
    await expectRefused('/api/scores/capture', { wertungenId: scoreId, fieldValues: [{ fieldId: discipline.fields.A, value: true }] }, 400);
    await expectRefused('/api/scores/capture', { wertungenId: 2_000_000, fieldValues: [{ fieldId: discipline.fields.A, value: 9 }] }, 404);
  });

  it('parallel captures of one score keep one row per field and a final that matches the stored values', async () => {
    const { discipline, scoreId } = await scene();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        capture(scoreId, [
          { fieldId: discipline.fields.A, value: 9 + index / 10 },
          { fieldId: discipline.fields.B, value: 8 },
          { fieldId: discipline.fields.C, value: 1 },
        ]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const rows = await juryResultRows(server.pool, scoreId);
    expect(rows).toHaveLength(4);
    const value = (fieldId: number | null) => rows.find((row) => row.fieldId === fieldId)!.value!;
    expect(value(discipline.fields.final)).toBeCloseTo(value(discipline.fields.A) + 7, 5);
    expect((await detailRows(server.pool, scoreId))[0]!.value).toBe(value(discipline.fields.final));
  });
});

describe('one transaction per command', () => {
  it('a failing outbox append takes the legacy rows with it', async () => {
    const { competition, discipline, scoreId } = await scene();
    // A real database failure at the last step of the command: refuse this score's event.
    await server.pool.query(`
      CREATE FUNCTION test_refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.payload->>'scoreId')::int = ${scoreId} THEN RAISE EXCEPTION 'refused by test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_event BEFORE INSERT ON ${t.svc_outbox} FOR EACH ROW EXECUTE FUNCTION test_refuse_event();`);
    try {
      const before = await rowCounts(server.pool);
      expect((await saveField(scoreId, discipline.fields.A, 9)).status).toBe(500);
      expect(
        (await post('/api/scores/capture', { wertungenId: scoreId, fieldValues: [{ fieldId: discipline.fields.A, value: 9 }] })).status,
      ).toBe(500);
      const saved = await post('/api/scores/save-value', {
        competitionId: competition.competitionId,
        participantId: scoreId,
        disciplineId: discipline.id,
        score: 9,
      });
      expect(saved.body).toEqual(errorBody(500, 'Internal Server Error', 'INTERNAL'));
      expect(await rowCounts(server.pool)).toEqual(before);
    } finally {
      await server.pool.query(`DROP TRIGGER test_refuse_event ON ${t.svc_outbox}; DROP FUNCTION test_refuse_event();`);
    }
  });
});

describe('score writers in strict auth mode', () => {
  it('refuse a save without a token with 401 and write nothing', async () => {
    const strict = await startTestServer({ env: { AUTH_MODE: 'strict' } });
    try {
      const response = await postJson(`${strict.url}/api/scores/save-value`, {
        competitionId: 1,
        participantId: 1,
        disciplineId: 1,
        score: 1,
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('UNAUTHORIZED');
    } finally {
      await strict.stop();
    }
  });
});
