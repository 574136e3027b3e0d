/**
 * The one way an event gets its number (migration 0019): commands insert it without a seq, and the
 * sequencer numbers committed rows in id order, in batches of at most 500 per statement.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { createCompetition, insertDiscipline, insertParticipant, insertScoreRow } from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { openSocket, startTestServer, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  isStrictlyIncreasing,
  joinCompetition,
  seqsOf,
  waitForMarker,
  type ReceivedEvent,
} from '../support/realtime.js';

let server: TestServer;
const sockets: Socket[] = [];

async function clientIn(eventId: number): Promise<ReceivedEvent[]> {
  const socket = await openSocket(server.url);
  sockets.push(socket);
  const events = collectEvents(socket);
  expect((await joinCompetition(socket, eventId)).ok).toBe(true);
  return events;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

describe('the sequencer', () => {
  it('numbers a burst larger than one statement takes in id order, each event once', async () => {
    const eventId = 51;
    const events = await clientIn(eventId);
    // One transaction outside any command, as a restore or a large import would leave them: no
    // wake-up, so the relay's backstop finds all 1,234 at once.
    await server.pool.query(
      `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload)
       SELECT 'score-updated', $1, 'api', jsonb_build_object('marker', 'burst-' || n) FROM generate_series(1, 1234) AS n`,
      [eventId],
    );
    await waitForMarker(events, 'burst-1234', 15_000);
    expect(events.map((event) => event.marker)).toEqual(Array.from({ length: 1234 }, (_, index) => `burst-${index + 1}`));
    expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
  });

  it('never lets a later save of a score overtake an earlier one: the boards end on the stored value', async () => {
    const competition = await createCompetition(server.pool, 'Sequencer-Cup');
    const discipline = await insertDiscipline(server.pool, { formula: 'A' });
    const participantId = await insertParticipant(server.pool, competition, { firstName: 'Lea', lastName: 'Berg', gender: 2 });
    const scoreId = await insertScoreRow(server.pool, competition, participantId);
    const events = await clientIn(competition.eventId);

    const values = Array.from({ length: 30 }, (_, index) => 5 + index / 10);
    const answers = await Promise.all(
      values.map((performance) =>
        postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: discipline.fields.A, performance }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(values.map(() => 200));
    await commitAndAwait(server.commands, events, competition.eventId, 'after-the-saves');

    const { rows } = await server.pool.query<{ value: number }>(
      `SELECT rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`,
      [scoreId, discipline.fields.A],
    );
    const ofTheScore = events.filter((event) => event.scoreId === scoreId);
    expect(ofTheScore).toHaveLength(values.length);
    // Each save's event carries the final computed from the value it stored; the formula is A.
    expect(ofTheScore.at(-1)!.finalScore).toBeCloseTo(rows[0]!.value, 5);
    expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
  });
});
