/**
 * One ranking everywhere: for a constructed tie under each rule, GET /api/live-results, GET
 * /api/results and the CSV rank alike. Sources of the rules: FIG Technical Regulations (ties on an
 * apparatus: higher E, then higher D, else shared; all-around: drop the lowest apparatus score and
 * compare again), Swiss GeTu (a fixed apparatus order), the notations 1, 1, 3 and 1, 1, 2.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/domain/csv.js';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertField,
  insertJuryResults,
  insertParticipant,
  insertRow,
  insertScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, sendJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { joinCompetition } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
/** Floor: D (start value), E (Ausführung), deduction; the fixture's fields. */
let floor: Discipline;
/** Long jump: one value field, no E or D. */
let jump: number;

async function gymnast(
  lastName: string,
  floorParts: { d: number; e: number; deduction: number },
  jumpScore: number,
  within: Competition = competition,
): Promise<void> {
  const participantId = await insertParticipant(server.pool, within, { lastName, firstName: 'Lea', startNumber: lastName });
  const scoreId = await insertScoreRow(server.pool, within, participantId);
  await insertDetailRow(server.pool, scoreId, floor.id, floorParts.d + floorParts.e - floorParts.deduction);
  await insertJuryResults(server.pool, scoreId, [
    [floor.fields.A, floorParts.d],
    [floor.fields.B, floorParts.e],
    [floor.fields.C, floorParts.deduction],
  ]);
  await insertDetailRow(server.pool, scoreId, jump, jumpScore);
}

const scope = (within: Competition = competition) => `eventId=${within.eventId}&competitionId=${within.competitionId}`;
const setRule = (body: Record<string, unknown>, within: Competition = competition) =>
  sendJson(
    'PUT',
    `${server.url}/api/events/${within.eventId}/competitions/${within.competitionId}/tie-break`,
    { tieBreak: 'none', ...body },
    bearer(adminToken),
  );

/** Name → rank on one discipline in each of the three reads. */
async function disciplineRanks(disciplineId: number) {
  const live = (await getJson(`${server.url}/api/live-results?${scope()}&disciplineId=${disciplineId}`)).body;
  const results = (await getJson(`${server.url}/api/results?${scope()}`)).body;
  const position = results.disciplines.findIndex((discipline: any) => discipline.disciplineId === disciplineId);
  const csv = parseCsv((await (await fetch(`${server.url}/api/results.csv?${scope()}`)).text()).replace(/^\uFEFF/, ''), ';');
  const rankColumn = csv[0]!.length - results.disciplines.length + position;
  const byName = (rows: Array<[string, number | null]>) => Object.fromEntries(rows.sort(([a], [b]) => a.localeCompare(b)));
  return {
    live: byName(live.results.map((row: any) => [row.lastName, row.rank])),
    results: byName(results.classes[0].results.map((row: any) => [row.lastName, row.disciplines[position].rank])),
    csv: byName(csv.slice(1).map((row) => [row[2]!, row[rankColumn] === '' ? null : Number(row[rankColumn])])),
    liveBody: live,
    resultsBody: results,
  };
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Kantonalfinal', '2024-06-01');
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  jump = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: 'Weitsprung', var_formel: null });
  await insertField(server.pool, jump, { name: 'Weite', shortName: 'W', sort: 1, sortColumns: ['int_sortierung'] });
  await insertField(server.pool, jump, {
    name: 'Endwert',
    shortName: 'End',
    sort: 2,
    sortColumns: ['int_sortierung'],
    extra: { bol_endwert: true },
  });
  // Floor 14.000 three times: Ahorn E 9.0 (D 5.0); Birke E 8.5, D 5.5; Zeder E 8.5, D 5.6 (0.1 deducted). Dorn 13.500.
  // Long jump 4.00 three times, Dorn 4.50. Every total 18.
  await gymnast('Ahorn', { d: 5, e: 9, deduction: 0 }, 4);
  await gymnast('Birke', { d: 5.5, e: 8.5, deduction: 0 }, 4);
  await gymnast('Zeder', { d: 5.6, e: 8.5, deduction: 0.1 }, 4);
  await gymnast('Dorn', { d: 5, e: 8.5, deduction: 0 }, 4.5);
});
afterEach(async () => {
  await server.pool.query(`DELETE FROM ${t.svc_settings} WHERE key = 'results'`);
});
afterAll(async () => {
  await server?.stop();
});

describe('apparatus rule: the same ranks in live-results, results and CSV', () => {
  it.each([
    ['shared', 'standard', { Ahorn: 1, Birke: 1, Zeder: 1, Dorn: 4 }],
    ['shared', 'dense', { Ahorn: 1, Birke: 1, Zeder: 1, Dorn: 2 }],
    ['e-then-d', 'standard', { Ahorn: 1, Zeder: 2, Birke: 3, Dorn: 4 }],
    ['e-then-d', 'dense', { Ahorn: 1, Zeder: 2, Birke: 3, Dorn: 4 }],
  ])('%s, notation %s', async (apparatusTieBreak, rankNotation, expected) => {
    expect((await setRule({ apparatusTieBreak, rankNotation })).status).toBe(200);
    const ranks = await disciplineRanks(floor.id);
    const sorted = Object.fromEntries(Object.entries(expected).sort(([a], [b]) => a.localeCompare(b)));
    expect(ranks.live).toEqual(sorted);
    expect(ranks.results).toEqual(sorted);
    expect(ranks.csv).toEqual(sorted);
    expect(ranks.liveBody).toMatchObject({ apparatusTieBreak, rankNotation });
    expect(ranks.liveBody.results.map((row: any) => row.lastName)).toEqual(
      Object.entries(expected)
        .sort(([a, x], [b, y]) => x - y || a.localeCompare(b))
        .map(([name]) => name),
    );
  });

  it('e-then-d: live-results names the fields and every routine’s E and D; the decided rows name the rule', async () => {
    await setRule({ apparatusTieBreak: 'e-then-d' });
    const { liveBody, resultsBody } = await disciplineRanks(floor.id);
    expect(liveBody.scoreParts).toEqual({ e: { fieldIds: [floor.fields.B], deduction: false }, d: { fieldIds: [floor.fields.A] } });
    expect(liveBody.results.map((row: any) => [row.lastName, row.e, row.d, row.tieBreak])).toEqual([
      ['Ahorn', 9, 5, 'e-then-d'],
      ['Zeder', 8.5, 5.6, 'e-then-d'],
      ['Birke', 8.5, 5.5, 'e-then-d'],
      ['Dorn', 8.5, 5, null],
    ]);
    expect(resultsBody.apparatusTieBreak).toBe('e-then-d');
    const birke = resultsBody.classes[0].results.find((row: any) => row.lastName === 'Birke');
    expect(birke.disciplines[0]).toMatchObject({ rank: 3, tieBreak: 'e-then-d' });
  });

  it('a device without E and D fields falls back to shared, and live-results says so', async () => {
    await setRule({ apparatusTieBreak: 'e-then-d' });
    const ranks = await disciplineRanks(jump);
    expect(ranks.liveBody.scoreParts).toEqual({ e: null, d: null });
    const expected = { Ahorn: 2, Birke: 2, Dorn: 1, Zeder: 2 };
    expect(ranks.live).toEqual(expected);
    expect(ranks.results).toEqual(expected);
    expect(ranks.csv).toEqual(expected);
  });
});

describe('statements under e-then-d', () => {
  it('live-results and results run as many statements for 12 gymnasts as for 2', async () => {
    const count = async (within: Competition) => {
      await setRule({ apparatusTieBreak: 'e-then-d' }, within);
      const { statements, result } = await captureStatements(server.pool, async () => [
        await getJson(`${server.url}/api/live-results?${scope(within)}&disciplineId=${floor.id}`),
        await getJson(`${server.url}/api/results?${scope(within)}`),
      ]);
      expect(result.map((response) => response.status)).toEqual([200, 200]);
      expect(result[0]!.body.results.every((row: any) => row.e !== null && row.d !== null)).toBe(true);
      // The outbox's own traffic is not the reads'.
      return statements.filter((text) => !text.includes(t.svc_outbox)).length;
    };
    const small = await createCompetition(server.pool, 'Klein', '2024-06-02');
    const large = await createCompetition(server.pool, 'Gross', '2024-06-03');
    for (let n = 0; n < 12; n++) {
      if (n < 2) await gymnast(`Klein${n}`, { d: 5, e: 8 + n / 10, deduction: 0 }, 4, small);
      await gymnast(`Gross${n}`, { d: 5, e: 8 + (n % 3) / 10, deduction: 0 }, 4, large);
    }
    expect(await count(large)).toBe(await count(small));
  });
});

describe('all-around rules: the same ranks in results and CSV', () => {
  // Every total 18: floor 14 and jump 4 three times, Dorn floor 13.5 and jump 4.5.
  it.each([
    ['none', {}, { Ahorn: 1, Birke: 1, Zeder: 1, Dorn: 1 }],
    // FIG all-around qualification: the best device score, 14 against Dorn's 13.5.
    ['best-device-scores', {}, { Ahorn: 1, Birke: 1, Zeder: 1, Dorn: 4 }],
    // FIG: the lowest apparatus score dropped, 14 against Dorn's 13.5; dense notation 1, 1, 1, 2.
    ['drop-lowest', { maxDrops: 1, rankNotation: 'dense' }, { Ahorn: 1, Birke: 1, Zeder: 1, Dorn: 2 }],
    // Swiss GeTu: a fixed apparatus order, here jump first: Dorn's 4.5 wins.
    ['apparatus-order', { jumpFirst: true }, { Dorn: 1, Ahorn: 2, Birke: 2, Zeder: 2 }],
  ])('%s %j', async (tieBreak, extra: Record<string, unknown>, expected) => {
    const { jumpFirst, ...rest } = extra;
    expect((await setRule({ tieBreak, ...rest, ...(jumpFirst ? { apparatusOrder: [jump, floor.id] } : {}) })).status).toBe(200);
    const results = (await getJson(`${server.url}/api/results?${scope()}`)).body;
    const csv = parseCsv((await (await fetch(`${server.url}/api/results.csv?${scope()}`)).text()).replace(/^\uFEFF/, ''), ';');
    const byName = (rows: Array<[string, number | null]>) => Object.fromEntries(rows.sort(([a], [b]) => a.localeCompare(b)));
    const sorted = byName(Object.entries(expected));
    expect(byName(results.classes[0].results.map((row: any) => [row.lastName, row.rank]))).toEqual(sorted);
    expect(byName(csv.slice(1).map((row) => [row[2]!, Number(row[0])]))).toEqual(sorted);
  });
});

describe('tie-break-changed', () => {
  let socket: Socket | undefined;
  afterAll(() => {
    socket?.close();
  });

  it('a rule change reaches the event’s room through the outbox', async () => {
    socket = await openSocket(server.url);
    const received: any[] = [];
    socket.on('tie-break-changed', (event: unknown) => received.push(event));
    expect((await joinCompetition(socket, competition.eventId)).ok).toBe(true);
    expect((await setRule({ apparatusTieBreak: 'e-then-d' })).status).toBe(200);
    await waitFor(() => received.length === 1, { message: 'expected tie-break-changed' });
    expect(received[0]).toMatchObject({
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      by: expect.any(String),
      seq: expect.any(Number),
      source: 'api',
    });
  });
});
