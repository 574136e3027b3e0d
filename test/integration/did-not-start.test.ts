/**
 * A gymnast the office marks "did not start" (bol_startet_nicht, set through the participants
 * route): GET /api/scores says so per entry, so the jury portal can show them greyed without
 * inputs, in the statements the page runs anyway; the device board's read and the result lists
 * leave them out while marked, and list them again once the mark is taken back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertParticipantsWithScoreRows,
  insertScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { getJson, sendJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let floor: number;
let vault: number;
/** Score ids by last name: Adler (scored on floor), Berg, Clausen (scored on floor). */
const scoreIds: Record<string, number> = {};
const participantIds: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Gaupokal');
  floor = (await insertDiscipline(server.pool, { name: 'Boden' })).id;
  vault = (await insertDiscipline(server.pool, { name: 'Sprung' })).id;
  for (const [index, [lastName, floorScore]] of (
    [
      ['Adler', 12.5],
      ['Berg', null],
      ['Clausen', 11],
    ] as const
  ).entries()) {
    const participantId = await insertParticipant(server.pool, competition, { lastName, startNumber: String(index + 1) });
    const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: 'R1' });
    await insertDetailRow(server.pool, scoreId, floor, floorScore);
    await insertDetailRow(server.pool, scoreId, vault, null);
    scoreIds[lastName] = scoreId;
    participantIds[lastName] = participantId;
  }
});
afterAll(async () => {
  await server?.stop();
});

const flag = (scoreId: number, didNotStart: boolean) =>
  sendJson('PATCH', `${server.url}/api/events/${competition.eventId}/entries/${scoreId}`, { didNotStart }, bearer(adminToken));

async function scores(
  competitionId = competition.competitionId,
): Promise<Array<{ id: number; disciplineId: number; didNotStart: boolean }>> {
  const response = await getJson(`${server.url}/api/scores?competitionId=${competitionId}&limit=1000`);
  expect(response.status).toBe(200);
  return response.body.results;
}

/** didNotStart of every entry, by score row; each row's entries (one per device) agree. */
async function marks(): Promise<Record<number, boolean[]>> {
  const marked: Record<number, boolean[]> = {};
  for (const entry of await scores()) (marked[entry.id] ??= []).push(entry.didNotStart);
  return marked;
}

describe('did not start in GET /api/scores', () => {
  it('marks every entry of a gymnast the office flagged, and no other; the mark goes when the office takes it back', async () => {
    expect(await marks()).toEqual({
      [scoreIds.Adler!]: [false, false],
      [scoreIds.Berg!]: [false, false],
      [scoreIds.Clausen!]: [false, false],
    });

    const flagged = await flag(scoreIds.Clausen!, true);
    expect(flagged.status).toBe(200);
    expect(flagged.body).toMatchObject({ didNotStart: true, changed: true });
    expect(await marks()).toEqual({
      [scoreIds.Adler!]: [false, false],
      [scoreIds.Berg!]: [false, false],
      [scoreIds.Clausen!]: [true, true],
    });
    // The stored floor value stays in the entry: the portal shows it read-only.
    const clausenFloor = (await scores()).find((entry) => entry.id === scoreIds.Clausen && entry.disciplineId === floor);
    expect(clausenFloor).toMatchObject({ score: 11, didNotStart: true });

    expect((await flag(scoreIds.Clausen!, false)).status).toBe(200);
    expect(Object.values(await marks()).flat()).not.toContain(true);
  });

  it('reads the mark in the statements the page runs anyway: 3 and 300 rows, marked or not, run the same statements', async () => {
    const small = await createCompetition(server.pool, 'Klein');
    const large = await createCompetition(server.pool, 'Gross');
    const smallIds = await insertParticipantsWithScoreRows(server.pool, small, 3, 'S');
    const largeIds = await insertParticipantsWithScoreRows(server.pool, large, 300, 'L');
    // Every third gymnast did not start, as the desktop program would mark them.
    await server.pool.query(
      `UPDATE ${t.wertungen} SET bol_startet_nicht = true WHERE int_wertungenid = ANY($1::int[]) AND int_wertungenid % 3 = 0`,
      [[...smallIds, ...largeIds]],
    );
    const read = async (target: Competition) => {
      const { result, statements } = await captureStatements(server.pool, () => scores(target.competitionId));
      return { entries: result, statements: statements.filter((text) => text.includes(t.wertungen)) };
    };
    const smallRead = await read(small);
    const largeRead = await read(large);
    expect(largeRead.statements).toEqual(smallRead.statements);
    expect(smallRead.statements).toHaveLength(2);
    expect(largeRead.entries).toHaveLength(300);
    expect(largeRead.entries.filter((entry) => entry.didNotStart).map((entry) => entry.id)).toEqual(largeIds.filter((id) => id % 3 === 0));
  });
});

describe('did not start on the device board and in the result lists', () => {
  const boardNames = async () => {
    const { status, body } = await getJson(`${server.url}/api/live-results?eventId=${competition.eventId}&disciplineId=${floor}`);
    expect(status).toBe(200);
    return body.results.map((row: { lastName: string; rank: number | null }) => [row.lastName, row.rank]);
  };
  const listed = async () => {
    const { status, body } = await getJson(
      `${server.url}/api/results?eventId=${competition.eventId}&competitionId=${competition.competitionId}`,
    );
    expect(status).toBe(200);
    return body.classes.flatMap((group: { results: Array<{ participantId: number }> }) => group.results.map((row) => row.participantId));
  };

  it('leaves a scored gymnast out while marked, as the result lists do, and ranks them again once unmarked', async () => {
    expect(await boardNames()).toEqual([
      ['Adler', 1],
      ['Clausen', 2],
    ]);
    expect(await listed()).toContain(participantIds.Clausen);

    expect((await flag(scoreIds.Adler!, true)).status).toBe(200);
    expect(await boardNames()).toEqual([['Clausen', 1]]);
    expect(await listed()).not.toContain(participantIds.Adler);

    expect((await flag(scoreIds.Adler!, false)).status).toBe(200);
    expect(await boardNames()).toEqual([
      ['Adler', 1],
      ['Clausen', 2],
    ]);
    expect(await listed()).toContain(participantIds.Adler);
  });
});
