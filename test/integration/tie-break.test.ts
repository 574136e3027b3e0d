/**
 * Tie-break rules per competition through HTTP: PUT/GET /api/events/:eventId/competitions/:id/tie-break
 * (admin) and their effect on GET /api/results and its CSV.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { parseCsv } from '../../src/domain/csv.js';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, sendJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, bearer, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let devices: Discipline[];

async function athlete(lastName: string, values: number[]): Promise<void> {
  const participantId = await insertParticipant(server.pool, competition, { lastName, firstName: 'Lea', startNumber: lastName });
  const scoreId = await insertScoreRow(server.pool, competition, participantId);
  for (const [index, value] of values.entries()) await insertDetailRow(server.pool, scoreId, devices[index]!.id, value);
}

const path = () => `${server.url}/api/events/${competition.eventId}/competitions/${competition.competitionId}/tie-break`;
const put = (body: unknown, token = adminToken) => sendJson('PUT', path(), body, bearer(token));
const ranking = async () => {
  const { body } = await getJson(`${server.url}/api/results?eventId=${competition.eventId}&competitionId=${competition.competitionId}`);
  return body.classes[0].results.map((row: any) => [row.rank, row.lastName, row.tieBreak]);
};

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Kantonalfinal', '2024-06-01');
  devices = [
    await insertDiscipline(server.pool, { name: 'Boden' }),
    await insertDiscipline(server.pool, { name: 'Ringe' }),
    await insertDiscipline(server.pool, { name: 'Sprung' }),
    await insertDiscipline(server.pool, { name: 'Reck' }),
  ];
  // Totals 36 twice: Ahorn wins after dropping the lowest score (28 against 27), Birke on rings (9 against 8).
  await athlete('Ahorn', [10, 8, 9.5, 8.5]);
  await athlete('Birke', [9, 9, 9, 9]);
  await athlete('Zeder', [8, 8, 8, 8]);
});
afterEach(async () => {
  await server.pool.query(`DELETE FROM ${t.svc_settings} WHERE key = 'results'`);
});
afterAll(async () => {
  await server?.stop();
});

describe('competition tie-break rule', () => {
  it('shares the rank by default: 1, 1, 3, no rule named', async () => {
    expect(await ranking()).toEqual([
      [1, 'Ahorn', null],
      [1, 'Birke', null],
      [3, 'Zeder', null],
    ]);
    expect((await getJson(path())).body).toEqual({
      competitionId: competition.competitionId,
      tieBreak: 'none',
      apparatusTieBreak: 'shared',
      rankNotation: 'standard',
      maxDrops: null,
      apparatusOrder: [],
    });
  });

  it('drop-lowest: the higher sum after dropping the lowest score ranks first, and the entry names the rule', async () => {
    const { status, body } = await put({ tieBreak: 'drop-lowest', maxDrops: 3 });
    expect(status).toBe(200);
    expect(body).toMatchObject({ tieBreak: 'drop-lowest', maxDrops: 3 });
    // Ahorn without 8: 28; Birke without 9: 27.
    expect(await ranking()).toEqual([
      [1, 'Ahorn', 'drop-lowest'],
      [2, 'Birke', 'drop-lowest'],
      [3, 'Zeder', null],
    ]);
  });

  it('apparatus-order (rings, then vault, then high bar) turns the ranking round; the CSV agrees', async () => {
    const order = [devices[1]!.id, devices[2]!.id, devices[3]!.id];
    expect((await put({ tieBreak: 'apparatus-order', apparatusOrder: order })).status).toBe(200);
    expect(await ranking()).toEqual([
      [1, 'Birke', 'apparatus-order'],
      [2, 'Ahorn', 'apparatus-order'],
      [3, 'Zeder', null],
    ]);
    expect((await getJson(path())).body.apparatusOrder).toEqual(order);
    const csv = await fetch(`${server.url}/api/results.csv?eventId=${competition.eventId}&competitionId=${competition.competitionId}`);
    const rows = parseCsv((await csv.text()).replace(/^\uFEFF/, ''), ';');
    expect(rows.slice(1).map((row) => [row[0], row[2]])).toEqual([
      ['1', 'Birke'],
      ['2', 'Ahorn'],
      ['3', 'Zeder'],
    ]);
  });

  it('dense notation: the rank after a shared one follows on (1, 1, 2)', async () => {
    expect((await put({ tieBreak: 'none', rankNotation: 'dense' })).status).toBe(200);
    const { body } = await getJson(`${server.url}/api/results?eventId=${competition.eventId}&competitionId=${competition.competitionId}`);
    expect(body.rankNotation).toBe('dense');
    expect(body.classes[0].results.map((row: any) => [row.rank, row.lastName])).toEqual([
      [1, 'Ahorn'],
      [1, 'Birke'],
      [2, 'Zeder'],
    ]);
  });

  it('refuses an unknown rule, an apparatus not in the competition, a missing order and a non-admin; nothing changes', async () => {
    expect((await put({ tieBreak: 'coin-toss' })).status).toBe(400);
    const stranger = await insertDiscipline(server.pool, { name: 'Schaukelringe' });
    const foreign = await put({ tieBreak: 'apparatus-order', apparatusOrder: [devices[1]!.id, stranger.id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain(String(stranger.id));
    expect((await put({ tieBreak: 'apparatus-order' })).status).toBe(400);
    expect((await put({ tieBreak: 'drop-lowest' }, juryToken)).status).toBe(403);
    expect((await sendJson('PUT', path(), { tieBreak: 'drop-lowest' })).status).toBe(401);
    expect((await getJson(path())).body.tieBreak).toBe('none');
    expect((await ranking()).map((row: any[]) => row[0])).toEqual([1, 1, 3]);
  });

  it('404 for a competition of another event', async () => {
    const other = await createCompetition(server.pool, 'Anderswo', '2024-07-01');
    const { status } = await sendJson(
      'PUT',
      `${server.url}/api/events/${competition.eventId}/competitions/${other.competitionId}/tie-break`,
      { tieBreak: 'none' },
      bearer(adminToken),
    );
    expect(status).toBe(404);
  });
});
