/**
 * Issue 4, "What must hold" 6: two service instances on one database. A command committed through
 * instance A reaches a client of instance B exactly once; exactly one instance numbers the outbox,
 * and when it goes away the other takes over.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEQUENCER_APPLICATION_NAME } from '../../outbox/sequencer.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createCompetition, insertDiscipline, insertParticipantWithScoreRow } from '../support/fixtures.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  commitEvent,
  isStrictlyIncreasing,
  joinCompetition,
  seqsOf,
  waitForMarker,
  withMarker,
  type ReceivedEvent,
} from '../support/realtime.js';

let database: TestDatabase;
let instanceA: TestServer;
let instanceB: TestServer;
const sockets: Socket[] = [];

async function clientOf(server: TestServer, eventId: number): Promise<ReceivedEvent[]> {
  const socket = await openSocket(server.url);
  sockets.push(socket);
  const events = collectEvents(socket);
  await joinCompetition(socket, eventId);
  return events;
}

const sequencers = () => [instanceA, instanceB].filter((server) => server.relay.status().sequencer);

beforeAll(async () => {
  database = await createTestDatabase();
  instanceA = await startTestServer({ database });
  instanceB = await startTestServer({ database });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await instanceA?.stop();
  await instanceB?.stop();
  await database?.drop();
});

describe('6. several instances on one database', () => {
  it('delivers a command committed through A to a client of B exactly once', async () => {
    const onB = await clientOf(instanceB, 20);
    const onA = await clientOf(instanceA, 20);
    await commitEvent(instanceA.commands, 20, 'via-a');
    await commitEvent(instanceB.commands, 20, 'via-b');
    await commitEvent(instanceA.commands, 20, 'closing-marker');

    for (const events of [onA, onB]) {
      await waitForMarker(events, 'closing-marker');
      expect(events.map((event) => event.marker)).toEqual(['via-a', 'via-b', 'closing-marker']);
      expect(withMarker(events, 'via-a')).toHaveLength(1);
    }
    expect(seqsOf(onB)).toEqual(seqsOf(onA));
  });

  it('delivers POST /api/scores/save-value sent to A to a client of B exactly once', async () => {
    const competition = await createCompetition(instanceA.pool, 'Zwei-Instanzen-Cup');
    const discipline = await insertDiscipline(instanceA.pool);
    const { scoreId } = await insertParticipantWithScoreRow(instanceA.pool, competition);
    const onB = await clientOf(instanceB, competition.eventId);
    const response = await fetch(`${instanceA.url}/api/scores/save-value`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ competitionId: competition.competitionId, participantId: scoreId, disciplineId: discipline.id, score: 14.25 }),
    });
    expect(response.status).toBe(200);

    await commitAndAwait(instanceA.commands, onB, competition.eventId, 'after-http-command');
    expect(onB.filter((event) => event.scoreId === scoreId).map((event) => [event.source, event.score])).toEqual([['api', 14.25]]);
  });

  it('has exactly one sequencer, and another takes over when its connection is killed', async () => {
    await waitFor(() => sequencers().length === 1, { message: 'exactly one sequencer' });
    const onB = await clientOf(instanceB, 21);
    const admin = instanceA.pool;
    const { rows } = await admin.query<{ terminated: boolean }>(
      `SELECT pg_terminate_backend(a.pid) AS terminated
         FROM pg_stat_activity a
         JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
        WHERE a.datname = current_database() AND a.application_name = $1`,
      [SEQUENCER_APPLICATION_NAME],
    );
    expect(rows).toEqual([{ terminated: true }]);

    for (let index = 0; index < 5; index++) await commitEvent(instanceA.commands, 21, `after-failover-${index}`);
    await waitForMarker(onB, 'after-failover-4', 10_000);
    expect(onB.map((event) => event.marker)).toEqual([0, 1, 2, 3, 4].map((index) => `after-failover-${index}`));
    expect(isStrictlyIncreasing(seqsOf(onB))).toBe(true);
    await waitFor(() => sequencers().length === 1, { timeoutMs: 5_000, message: 'one sequencer again' });
  });

  it('keeps delivering through the remaining instance when the sequencing one shuts down', async () => {
    await waitFor(() => sequencers().length === 1, { message: 'exactly one sequencer' });
    const [leaving] = sequencers();
    const staying = leaving === instanceA ? instanceB : instanceA;
    const events = await clientOf(staying, 22);
    await leaving!.close();

    await commitAndAwait(staying.commands, events, 22, 'after-shutdown', 10_000);
    expect(staying.relay.status().sequencer).toBe(true);
  });
});
