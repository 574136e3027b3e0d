/**
 * GET /api/live-results: the scoreboard's initial load (ranked latest final scores per event and
 * discipline) and its hand-over to the live stream through `seq`.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  insertRow,
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { openSocket, startTestServer, type TestServer } from '../support/server.js';
import { collectEvents, joinCompetition, waitForEvent, waitUntilDelivered } from '../support/realtime.js';

let server: TestServer;
let socket: Socket | undefined;
let competition: Competition;
let discipline: Discipline;
const scoreIds: Record<string, number> = {};

async function liveResults(query: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/live-results?${query}`);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Bezirksfinale');
  discipline = await insertDiscipline(server.pool, { name: 'Reck' });
  const otherDiscipline = await insertDiscipline(server.pool, { name: 'Barren' });
  const scored = async (lastName: string, value: number | null, extra: Record<string, unknown> = {}) => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName, squadName: 'R2' });
    if (Object.keys(extra).length > 0) {
      await server.pool.query(
        `UPDATE ${t.wertungen} SET bol_ak = COALESCE($2, bol_ak), bol_startet_nicht = COALESCE($3, bol_startet_nicht) WHERE int_wertungenid = $1`,
        [scoreId, extra.outOfCompetition ?? null, extra.didNotStart ?? null],
      );
    }
    if (value !== null) await insertDetailRow(server.pool, scoreId, discipline.id, value);
    scoreIds[lastName] = scoreId;
    return scoreId;
  };
  await scored('Adler', 9.5);
  await scored('Berg', 9);
  await scored('City', 9.5);
  await scored('Dorn', 8);
  await scored('Ausser', 10, { outOfCompetition: true });
  await scored('Fehlt', 9.9, { didNotStart: true });
  await scored('Ohne', null);
  // A second attempt: the latest one with a value counts.
  const twice = await scored('Zweimal', 7);
  await insertRow(server.pool, 'wertungen_details', 'int_wertungen_detailsid', {
    int_wertungenid: twice,
    int_disziplinenid: discipline.id,
    int_versuch: 2,
    int_kp: 0,
    rel_leistung: 8.5,
  });
  const elsewhere = await scored('Anderes', null);
  await insertDetailRow(server.pool, elsewhere, otherDiscipline.id, 9.99);
});
afterAll(async () => {
  socket?.disconnect();
  await server?.stop();
});

describe('GET /api/live-results', () => {
  it('ranks the latest final score of every individual with ties (1, 1, 3)', async () => {
    const { status, body } = await liveResults(`eventId=${competition.eventId}&disciplineId=${discipline.id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      eventId: competition.eventId,
      disciplineId: discipline.id,
      disciplineName: 'Reck',
      competitionId: null,
      order: 'descending',
      seq: expect.any(Number),
    });
    expect(body.results.map((row: any) => [row.rank, row.lastName, row.score])).toEqual([
      [1, 'Adler', 9.5],
      [1, 'City', 9.5],
      [3, 'Berg', 9],
      [4, 'Zweimal', 8.5],
      [5, 'Dorn', 8],
      [null, 'Ausser', 10],
    ]);
    expect(body.results[0]).toEqual({
      rank: 1,
      tieBreak: null,
      e: null,
      d: null,
      kind: 'individual',
      scoreId: scoreIds.Adler,
      competitionId: competition.competitionId,
      participantId: expect.any(Number),
      firstName: 'Anna',
      lastName: 'Adler',
      startNumber: '17',
      clubName: 'TV Musterstadt',
      squadName: 'R2',
      score: 9.5,
      attempt: 1,
      outOfCompetition: false,
      released: false,
    });
  });

  it('returns the seq to subscribe from: a change committed after the load arrives with since = seq', async () => {
    const delivered = await waitUntilDelivered(server.pool, server.relay);
    const { body } = await liveResults(
      `eventId=${competition.eventId}&disciplineId=${discipline.id}&competitionId=${competition.competitionId}`,
    );
    expect(body.seq).toBe(delivered);
    await server.pool.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.75 WHERE int_wertungenid = $1`, [scoreIds.Dorn]);

    socket = await openSocket(server.url);
    const events = collectEvents(socket);
    expect(await joinCompetition(socket, competition.eventId, body.seq)).toMatchObject({ ok: true });
    const update = await waitForEvent(events, (event) => event.scoreId === scoreIds.Dorn);
    expect(update).toMatchObject({ source: 'legacy', score: 9.75 });
    expect(update.seq).toBeGreaterThan(body.seq);

    const reloaded = await liveResults(`eventId=${competition.eventId}&disciplineId=${discipline.id}`);
    expect(reloaded.body.results.slice(0, 2).map((row: any) => [row.rank, row.lastName])).toEqual([
      [1, 'Dorn'],
      [2, 'Adler'],
    ]);
  });

  it('answers 404 for an unknown event or discipline and 400 for a missing parameter', async () => {
    expect((await liveResults(`eventId=999999&disciplineId=${discipline.id}`)).body).toMatchObject({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No event 999999',
    });
    expect((await liveResults(`eventId=${competition.eventId}&disciplineId=999999`)).status).toBe(404);
    expect((await liveResults(`eventId=${competition.eventId}`)).body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });
});
