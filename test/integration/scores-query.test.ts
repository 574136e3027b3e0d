import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { startTestServer, waitFor, waitForNumbered, type TestServer } from '../support/server.js';
import { openScoreboard, waitForEvent } from '../support/realtime.js';
import {
  insertRow,
  createCompetition,
  detailRows,
  insertDetailRow,
  insertDiscipline,
  insertJuryResults,
  insertParticipantWithScoreRow,
  insertScoresDueForCalculation,
  juryResultRows,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, postJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';

let server: TestServer;
const warnings: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
  server = await startTestServer({ logger });
});
afterAll(async () => {
  await server?.stop();
});

async function scores(query: Record<string, string | number>): Promise<{ status: number; body: any }> {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return getJson(`${server.url}/api/scores?${params}`);
}

/** The entries of one event, which each test creates for itself. */
async function entriesOf(competition: Competition): Promise<any[]> {
  const response = await scores({ eventId: competition.eventId, limit: 1000 });
  expect(response.status).toBe(200);
  return response.body.results;
}

async function entryOf(competition: Competition, scoreId: number, disciplineId: number): Promise<any> {
  const entry = (await entriesOf(competition)).find((item) => item.id === scoreId && item.disciplineId === disciplineId);
  expect(entry, `entry for score ${scoreId} in discipline ${disciplineId}`).toBeDefined();
  return entry;
}

async function finalRow(scoreId: number, discipline: Discipline) {
  return (await juryResultRows(server.pool, scoreId)).find((row) => row.fieldId === discipline.fields.final) ?? null;
}

/** A participant's score with a detail row (value `detail`) and the given non-final results A, B, C. */
async function scoreWithResults(
  competition: Competition,
  discipline: Discipline,
  detail: number | null,
  results: { A?: number; B?: number; C?: number; final?: number },
) {
  const { scoreId, participantId } = await insertParticipantWithScoreRow(server.pool, competition);
  await insertDetailRow(server.pool, scoreId, discipline.id, detail);
  const pairs = (['A', 'B', 'C', 'final'] as const).flatMap((key) => {
    const value = results[key];
    const fieldId = discipline.fields[key];
    return value === undefined || fieldId === null ? [] : [[fieldId, value] as const];
  });
  await insertJuryResults(server.pool, scoreId, pairs);
  return { scoreId, participantId };
}

describe('GET /api/scores entries', () => {
  it('lists one entry per score row and discipline with exactly the fields the spec names', async () => {
    const competition = await createCompetition(server.pool);
    const floor = await insertDiscipline(server.pool, { name: 'Boden' });
    const vault = await insertDiscipline(server.pool, { name: 'Sprung', formula: null });
    const { scoreId, participantId } = await scoreWithResults(competition, floor, 16.5, { A: 9, B: 8.5, C: 1, final: 16.5 });
    await insertDetailRow(server.pool, scoreId, vault.id, 8.25);

    const entries = await entriesOf(competition);
    expect(entries.map((entry) => [entry.id, entry.disciplineId])).toEqual([
      [scoreId, Math.min(floor.id, vault.id)],
      [scoreId, Math.max(floor.id, vault.id)],
    ]);
    const entry = entries.find((item) => item.disciplineId === floor.id);
    expect(entry).toEqual({
      id: scoreId,
      participantId,
      disciplineId: floor.id,
      competitionId: competition.competitionId,
      eventId: competition.eventId,
      score: 16.5,
      formula: 'A + B - C',
      startValue: 10,
      firstName: 'Anna',
      lastName: 'Muster',
      startNumber: '17',
      clubName: 'TV Musterstadt',
      participant: { firstName: 'Anna', lastName: 'Muster' },
      discipline: { name: 'Boden' },
      juryResults: [
        {
          id: expect.any(Number),
          disciplineFieldId: floor.fields.A,
          fieldName: 'Ausgangswert',
          performance: 9,
          isFinalScore: false,
          isStartingScore: true,
          sortOrder: 1,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: floor.fields.B,
          fieldName: 'Ausführung',
          performance: 8.5,
          isFinalScore: false,
          isStartingScore: false,
          sortOrder: 2,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: floor.fields.C,
          fieldName: 'AbzugAusf.',
          performance: 1,
          isFinalScore: false,
          isStartingScore: false,
          sortOrder: 3,
        },
        {
          id: expect.any(Number),
          disciplineFieldId: floor.fields.final,
          fieldName: 'Endwert',
          performance: 16.5,
          isFinalScore: true,
          isStartingScore: false,
          sortOrder: 4,
        },
      ],
      // Issue 21: the E-panel; none on this discipline.
      panel: null,
      didNotStart: false,
    });
    const vaultEntry = entries.find((item) => item.disciplineId === vault.id);
    expect(vaultEntry).toMatchObject({ score: 8.25, formula: null, startValue: 10, discipline: { name: 'Sprung' }, juryResults: [] });
  });

  it('gives a score row without any detail row one entry without a discipline', async () => {
    const competition = await createCompetition(server.pool);
    const { scoreId, participantId } = await insertParticipantWithScoreRow(server.pool, competition);
    const [entry] = await entriesOf(competition);
    expect(entry).toEqual({
      id: scoreId,
      participantId,
      disciplineId: null,
      competitionId: competition.competitionId,
      eventId: competition.eventId,
      score: null,
      formula: null,
      startValue: 10,
      firstName: 'Anna',
      lastName: 'Muster',
      startNumber: '17',
      clubName: 'TV Musterstadt',
      participant: { firstName: 'Anna', lastName: 'Muster' },
      juryResults: [],
      panel: null,
      didNotStart: false,
    });
  });

  it('keeps to individual score rows of the competitions of the event', async () => {
    const competition = await createCompetition(server.pool);
    const otherCompetition = await createCompetition(server.pool, 'Herbstpokal');
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    await insertParticipantWithScoreRow(server.pool, otherCompetition);
    const groupId = await insertRow(server.pool, 'gruppen', 'int_gruppenid', {
      int_veranstaltungenid: competition.eventId,
      var_name: 'Gruppe Sonne',
    });
    await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: competition.competitionId,
      int_gruppenid: groupId,
      int_statusid: 1,
    });

    expect((await entriesOf(competition)).map((entry) => entry.id)).toEqual([scoreId]);
  });

  it('filters by squad name; an empty squad name filters nothing', async () => {
    const competition = await createCompetition(server.pool);
    const red = await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'Rot' });
    const blue = await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'Blau' });

    const onlyRed = await scores({ eventId: competition.eventId, squadName: 'Rot' });
    expect(onlyRed.body.results.map((entry: any) => entry.id)).toEqual([red.scoreId]);
    const all = await scores({ eventId: competition.eventId, squadName: '' });
    expect(all.body.results.map((entry: any) => entry.id)).toEqual([red.scoreId, blue.scoreId]);
  });

  it('pages with limit and offset and reports total and hasMore', async () => {
    const competition = await createCompetition(server.pool);
    const ids: number[] = [];
    for (let index = 0; index < 5; index++) ids.push((await insertParticipantWithScoreRow(server.pool, competition)).scoreId);

    const first = await scores({ eventId: competition.eventId, limit: 2 });
    expect(first.body.results.map((entry: any) => entry.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    const last = await scores({ eventId: competition.eventId, limit: 2, offset: 4 });
    expect(last.body.results.map((entry: any) => entry.id)).toEqual(ids.slice(4));
    expect(last.body.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
    const beyond = await scores({ eventId: competition.eventId, offset: 10 });
    expect(beyond.body).toEqual({ results: [], pagination: { total: 5, limit: 100, offset: 10, hasMore: false } });
  });

  it.each([
    ['limit 0', { limit: 0 }],
    ['limit above 1000', { limit: 1001 }],
    ['negative offset', { offset: -1 }],
    ['eventId 0', { eventId: 0 }],
    ['eventId not a number', { eventId: 'abc' }],
    ['squad name longer than 5', { squadName: 'Sechss' }],
  ])('refuses %s with 400 and the contract error body', async (_name, query) => {
    const response = await scores(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED', message: expect.any(String) });
  });
});

describe('Calculation rules on read', () => {
  it('rule 1: a formula record wins over the discipline formula; without either there is none', async () => {
    const competition = await createCompetition(server.pool);
    const record = await insertDiscipline(server.pool, { recordFormula: 'A * 2', formula: 'A + B - C' });
    const own = await insertDiscipline(server.pool, { formula: 'A + B - C' });
    const none = await insertDiscipline(server.pool, { formula: null });
    const values = { A: 9, B: 8, C: 1 };
    const withRecord = await scoreWithResults(competition, record, 0, values);
    const withOwn = await scoreWithResults(competition, own, 0, values);
    const withNone = await scoreWithResults(competition, none, 0, values);

    expect(await entryOf(competition, withRecord.scoreId, record.id)).toMatchObject({ formula: 'A * 2', score: 18 });
    expect(await entryOf(competition, withOwn.scoreId, own.id)).toMatchObject({ formula: 'A + B - C', score: 16 });
    expect(await entryOf(competition, withNone.scoreId, none.id)).toMatchObject({ formula: null, score: 0 });
    expect(await finalRow(withNone.scoreId, none)).toBeNull();
  });

  it('rule 2: distinct letters in order of appearance take the non-final results in ascending sort order', async () => {
    const competition = await createCompetition(server.pool);
    // B appears first, so B takes the first field in sort order (A: 2) and A the second (B: 3).
    const bySortierung = await insertDiscipline(server.pool, { formula: 'B * 10 + A + B' });
    const byReihenfolge = await insertDiscipline(server.pool, { formula: 'B * 10 + A + B', sortColumn: 'int_reihenfolge' });
    const one = await scoreWithResults(competition, bySortierung, 0, { A: 2, B: 3 });
    const two = await scoreWithResults(competition, byReihenfolge, 0, { A: 2, B: 3 });

    expect((await entryOf(competition, one.scoreId, bySortierung.id)).score).toBe(25);
    expect((await entryOf(competition, two.scoreId, byReihenfolge.id)).score).toBe(25);
  });

  it('rule 3: + - * / and parentheses evaluate with precedence; a direct value alone is a formula', async () => {
    const competition = await createCompetition(server.pool);
    const arithmetic = await insertDiscipline(server.pool, { formula: '(A + B) * 2 / 4 - -C' });
    const neutral = await insertDiscipline(server.pool, { formula: '10' });
    const one = await scoreWithResults(competition, arithmetic, 0, { A: 9, B: 8, C: 1 });
    const two = await scoreWithResults(competition, neutral, 0, { A: 3 });

    expect((await entryOf(competition, one.scoreId, arithmetic.id)).score).toBe(9.5);
    expect((await entryOf(competition, two.scoreId, neutral.id)).score).toBe(10);
  });

  it('rule 4: startValue is the number at the start of the formula, else 10', async () => {
    const competition = await createCompetition(server.pool);
    const cases: Array<[string | null, number]> = [
      ['8.5 + A - C', 8.5],
      [' ( 12 - A)', 12],
      ['A + 3', 10],
      [null, 10],
    ];
    for (const [formula, expected] of cases) {
      const discipline = await insertDiscipline(server.pool, { formula });
      const { scoreId } = await scoreWithResults(competition, discipline, 0, {});
      expect((await entryOf(competition, scoreId, discipline.id)).startValue, String(formula)).toBe(expected);
    }
  });

  it('state table row 1 / rule 5: a missing final is calculated, inserted (attempt 1, kp 0) and written to the detail', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const { scoreId } = await scoreWithResults(competition, discipline, 0, { A: 9.5, B: 8.75, C: 0.5 });

    const entry = await entryOf(competition, scoreId, discipline.id);
    expect(entry.score).toBe(17.75);
    const final = entry.juryResults.find((result: any) => result.isFinalScore);
    expect(final).toMatchObject({ disciplineFieldId: discipline.fields.final, performance: 17.75, sortOrder: 4 });
    expect(await finalRow(scoreId, discipline)).toEqual({
      id: final.id,
      fieldId: discipline.fields.final,
      value: 17.75,
      attempt: 1,
      kind: 0,
    });
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 17.75 }]);
    // A second read finds the final and changes nothing.
    expect(await entryOf(competition, scoreId, discipline.id)).toEqual(entry);
  });

  it('rule 5: a non-finite result writes nothing and keeps the manual value', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool, { formula: 'A / (B - B)' });
    const { scoreId } = await scoreWithResults(competition, discipline, 5, { A: 9, B: 8 });

    expect((await entryOf(competition, scoreId, discipline.id)).score).toBe(5);
    expect(await finalRow(scoreId, discipline)).toBeNull();
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 5 }]);
  });

  it('rule 5: a letter without a result leaves the final uncalculated', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool, { formula: 'A + B - C' });
    const { scoreId } = await scoreWithResults(competition, discipline, 0, { A: 9, B: 8 });

    expect((await entryOf(competition, scoreId, discipline.id)).score).toBe(0);
    expect(await finalRow(scoreId, discipline)).toBeNull();
  });

  it('rule 5: nothing is calculated without a final field, without non-final results, or when the final exists', async () => {
    const competition = await createCompetition(server.pool);
    const noFinal = await insertDiscipline(server.pool, { withFinal: false });
    const discipline = await insertDiscipline(server.pool);
    const withoutFinalField = await scoreWithResults(competition, noFinal, 3, { A: 9, B: 8, C: 1 });
    const withoutResults = await scoreWithResults(competition, discipline, 4, {});
    const withFinal = await scoreWithResults(competition, discipline, 7, { A: 9, B: 8, C: 1, final: 7 });

    expect((await entryOf(competition, withoutFinalField.scoreId, noFinal.id)).score).toBe(3);
    expect(await juryResultRows(server.pool, withoutFinalField.scoreId)).toHaveLength(3);
    expect((await entryOf(competition, withoutResults.scoreId, discipline.id)).score).toBe(4);
    expect(await juryResultRows(server.pool, withoutResults.scoreId)).toEqual([]);
    expect((await entryOf(competition, withFinal.scoreId, discipline.id)).score).toBe(7);
    expect((await finalRow(withFinal.scoreId, discipline))?.value).toBe(7);
  });

  it('a malformed stored formula counts as none: no calculation, formula null, a warning, no 500', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool, { formula: 'A + * B' });
    const { scoreId } = await scoreWithResults(competition, discipline, 2, { A: 9, B: 8 });

    const entry = await entryOf(competition, scoreId, discipline.id);
    expect(entry).toMatchObject({ formula: null, startValue: 10, score: 2 });
    expect(await finalRow(scoreId, discipline)).toBeNull();
    expect(warnings.some((line) => line.disciplineId === discipline.id && line.formula === 'A + * B')).toBe(true);
  });

  it('state table row 2 / rule 6: a final that differs from the detail takes the detail value, never the other way round', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const { scoreId } = await scoreWithResults(competition, discipline, 15.5, { A: 9, B: 8, C: 1, final: 14 });

    const entry = await entryOf(competition, scoreId, discipline.id);
    expect(entry.score).toBe(15.5);
    expect(entry.juryResults.find((result: any) => result.isFinalScore).performance).toBe(15.5);
    expect((await finalRow(scoreId, discipline))?.value).toBe(15.5);
    expect(await detailRows(server.pool, scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 15.5 }]);
  });

  it('rule 6: a detail without a value overwrites nothing', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const { scoreId } = await scoreWithResults(competition, discipline, null, { A: 9, B: 8, C: 1, final: 14 });

    expect((await entryOf(competition, scoreId, discipline.id)).score).toBeNull();
    expect((await finalRow(scoreId, discipline))?.value).toBe(14);
  });

  it("a final completed on read reaches the scoreboards as the service's event; a synced copy announces nothing", async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const board = await openScoreboard(server.url, competition.eventId);
    try {
      // As the desktop program writes them: the field values and the detail row, without the final.
      const due = await scoreWithResults(competition, discipline, null, { A: 9, B: 8, C: 1 });
      const synced = await scoreWithResults(competition, discipline, 3, { A: 9, B: 8, C: 1, final: 16 });
      await waitForNumbered(server.pool);
      const legacy = await waitForEvent(board.events, (event) => event.scoreId === due.scoreId && event.source === 'legacy', 10_000);
      expect(legacy).toMatchObject({ score: null });
      const before = await server.pool.query<{ seq: number }>(`SELECT max(seq)::int AS seq FROM ${t.svc_outbox}`);

      const entries = await entriesOf(competition);
      expect(entries.map((entry) => entry.score)).toEqual([16, 3]);
      const completed = await waitForEvent(board.events, (event) => event.scoreId === due.scoreId && event.source === 'api', 10_000);
      expect(completed).toMatchObject({
        source: 'api',
        scoreId: due.scoreId,
        disciplineId: discipline.id,
        score: 16,
        finalScore: 16,
        storedScore: 16,
        released: false,
      });
      await waitForNumbered(server.pool);
      // A second read corrects nothing and announces nothing; the synced copy never changed a score.
      expect((await entriesOf(competition)).map((entry) => entry.score)).toEqual([16, 3]);
      await waitForNumbered(server.pool);
      const { rows } = await server.pool.query(
        `SELECT (payload->>'scoreId')::int AS "scoreId", source FROM ${t.svc_outbox}
          WHERE topic = 'score-updated' AND event_id = $1 AND seq > $2 ORDER BY seq`,
        [competition.eventId, before.rows[0]!.seq],
      );
      expect(rows).toEqual([{ scoreId: due.scoreId, source: 'api' }]);
      expect(synced.scoreId).not.toBe(due.scoreId);
    } finally {
      board.socket.disconnect();
    }
  });

  it('a score row the desktop program holds does not hold up the read: it answers the computed final and completes it later', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const held = await scoreWithResults(competition, discipline, null, { A: 9, B: 8, C: 1 });
    const free = await scoreWithResults(competition, discipline, null, { A: 8, B: 8, C: 1 });
    const warningsBefore = warnings.length;
    const desktop = new pg.Client({ connectionString: server.database.url, application_name: 'TurnerDesk 4.2' });
    await desktop.connect();
    try {
      // The desktop program has the detail row open in a transaction of its own.
      await desktop.query('BEGIN');
      await desktop.query(`SELECT 1 FROM ${t.wertungen_details} WHERE int_wertungenid = $1 FOR UPDATE`, [held.scoreId]);
      const entries = await entriesOf(competition);
      // Answered while the lock is still held, with the formula's result for both.
      expect(entries.map((entry) => [entry.id, entry.score])).toEqual([
        [held.scoreId, 16],
        [free.scoreId, 15],
      ]);
      expect(await finalRow(held.scoreId, discipline)).toBeNull();
      expect(await detailRows(server.pool, free.scoreId)).toMatchObject([{ value: 15 }]);
      expect(warnings.slice(warningsBefore).filter((line) => /corrections on read were not written/.test(String(line.msg)))).toEqual([]);
    } finally {
      await desktop.query('ROLLBACK').catch(() => undefined);
      await desktop.end();
    }
    expect((await entryOf(competition, held.scoreId, discipline.id)).score).toBe(16);
    expect(await detailRows(server.pool, held.scoreId)).toMatchObject([{ value: 16 }]);
  });

  it('concurrent readers insert the calculated final once', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const scoreIds: number[] = [];
    for (let index = 0; index < 5; index++)
      scoreIds.push((await scoreWithResults(competition, discipline, 0, { A: 9, B: 8, C: 1 })).scoreId);

    const responses = await Promise.all(Array.from({ length: 20 }, () => scores({ eventId: competition.eventId })));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    // Every reader answers the calculated final, also those whose insert lost the race.
    for (const response of responses)
      expect(response.body.results.map((entry: { score: number | null }) => entry.score)).toEqual([16, 16, 16, 16, 16]);
    const { rows } = await server.pool.query(
      `SELECT int_wertungenid, count(*)::int AS n, min(rel_leistung) AS value FROM ${t.jury_results}
        WHERE int_wertungenid = ANY($1::int[]) AND int_disziplinen_felderid = $2 GROUP BY int_wertungenid`,
      [scoreIds, discipline.fields.final],
    );
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.n === 1 && row.value === 16)).toBe(true);
    expect((await entriesOf(competition)).map((entry) => entry.score)).toEqual([16, 16, 16, 16, 16]);
  });

  // Guards against removing `ON CONFLICT ... DO NOTHING` from the calculated-final insert in
  // `applyFinalCorrections` (commands/apply-final-corrections.ts): the reader that loses the race to a final
  // written meanwhile would fail its whole correction statement, so the other scores of its page
  // would stay uncalculated and a warning would be logged.
  it('a final written between the read and the correction wins, and the rest of the page is still corrected', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const raced = await scoreWithResults(competition, discipline, 0, { A: 9, B: 8, C: 1 });
    const other = await scoreWithResults(competition, discipline, 0, { A: 9, B: 8, C: 1 });
    const warningsBefore = warnings.length;

    const writer = await server.pool.connect();
    try {
      // Another writer's final, not yet committed: the reader does not see it when it loads the
      // page, so it decides to calculate that final too, and its insert then waits on this row.
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 15, 1, 0)`,
        [raced.scoreId, discipline.fields.final],
      );
      const writerPid = (await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const read = scores({ eventId: competition.eventId, limit: 1000 });
      await waitFor(
        async () => {
          const { rows } = await server.pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND $1::int = ANY (pg_blocking_pids(pid))`,
            [writerPid],
          );
          return rows.length > 0;
        },
        { timeoutMs: 10_000, message: 'the reader waits on the uncommitted final' },
      );
      await writer.query('COMMIT');
      const answer = await read;
      expect(answer.status).toBe(200);
      // The reader that lost the race answers the final that won, not none (issue 15 item 7).
      const racedEntry = answer.body.results.find((entry: { id: number }) => entry.id === raced.scoreId);
      expect(racedEntry.score).toBe(15);
      expect(
        racedEntry.juryResults.find((result: { disciplineFieldId: number }) => result.disciplineFieldId === discipline.fields.final),
      ).toMatchObject({ performance: 15 });
    } finally {
      await writer.query('ROLLBACK').catch(() => undefined);
      writer.release();
    }

    expect((await juryResultRows(server.pool, raced.scoreId)).filter((row) => row.fieldId === discipline.fields.final)).toMatchObject([
      { value: 15 },
    ]);
    expect((await juryResultRows(server.pool, other.scoreId)).filter((row) => row.fieldId === discipline.fields.final)).toMatchObject([
      { value: 16 },
    ]);
    expect(await detailRows(server.pool, other.scoreId)).toMatchObject([{ disciplineId: discipline.id, value: 16 }]);
    expect(warnings.slice(warningsBefore).filter((line) => /corrections on read were not written/.test(String(line.msg)))).toEqual([]);
  });

  it('a correction that cannot be written leaves the read answering with the computed final, stored nowhere', async () => {
    const competition = await createCompetition(server.pool);
    const discipline = await insertDiscipline(server.pool);
    const { scoreId } = await scoreWithResults(competition, discipline, 0, { A: 9, B: 8, C: 1 });
    await server.pool.query(`
      CREATE FUNCTION test_refuse_final() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.int_wertungenid = ${scoreId} THEN RAISE EXCEPTION 'refused by test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_final BEFORE INSERT ON ${t.jury_results} FOR EACH ROW EXECUTE FUNCTION test_refuse_final();`);
    try {
      expect((await entryOf(competition, scoreId, discipline.id)).score).toBe(16);
      expect(await finalRow(scoreId, discipline)).toBeNull();
      expect(await detailRows(server.pool, scoreId)).toMatchObject([{ value: 0 }]);
      expect(warnings.some((line) => /corrections on read were not written/.test(String(line.msg)))).toBe(true);
    } finally {
      await server.pool.query(`DROP TRIGGER test_refuse_final ON ${t.jury_results}; DROP FUNCTION test_refuse_final();`);
    }
    expect((await entryOf(competition, scoreId, discipline.id)).score).toBe(16);
  });

  it('rule 8: there is no calculate endpoint', async () => {
    expect((await postJson(`${server.url}/api/scores/calculate`, { wertungenId: 1 })).status).toBe(404);
  });
});

describe('statements per page', () => {
  /** Statements the service sends for one GET, without those of the outbox relay and its LISTEN connection, which run on timers. */
  async function statementsFor(competition: Competition): Promise<string[]> {
    const { result, statements } = await captureStatements(server.pool, () => scores({ eventId: competition.eventId, limit: 1000 }));
    expect(result.status).toBe(200);
    return statements.filter((text) => !/svc_outbox|pg_try_advisory_lock|idle_session_timeout|pg_backend_pid|LISTEN/i.test(text));
  }

  it('does not depend on the number of rows: 10 and 1000 rows run the same statements, with and without corrections', async () => {
    const small = await createCompetition(server.pool, 'Klein');
    const large = await createCompetition(server.pool, 'Gross');
    const discipline = await insertDiscipline(server.pool);
    await insertScoresDueForCalculation(server.pool, small, discipline, 10, 'S');
    await insertScoresDueForCalculation(server.pool, large, discipline, 1000, 'L');

    const correctingSmall = await statementsFor(small);
    const correctingLarge = await statementsFor(large);
    // toEqual alone: a failure then shows the statements themselves, not only their count.
    expect(correctingLarge).toEqual(correctingSmall);
    expect(correctingSmall.length).toBeLessThanOrEqual(5);

    const { rows } = await server.pool.query(
      `SELECT count(*)::int AS n FROM ${t.jury_results} WHERE int_disziplinen_felderid = $1 AND rel_leistung = 16`,
      [discipline.fields.final],
    );
    expect(rows[0].n).toBe(1010);

    const readingSmall = await statementsFor(small);
    const readingLarge = await statementsFor(large);
    expect(readingLarge).toEqual(readingSmall);
    expect(readingSmall).toHaveLength(2);

    const page = await scores({ eventId: large.eventId, limit: 1000 });
    expect(page.body.results).toHaveLength(1000);
    expect(page.body.results.every((entry: any) => entry.score === 16 && entry.juryResults.length === 4)).toBe(true);
  });
});
