/**
 * Issue 15 item 2: one anonymous Socket.IO client flooding `join-competition` with `since: 0` (each
 * a replay of thousands of events, read through the pool the saves need) stalled every other
 * client and save. With the message limits and the replays' own pool and queue, a scaled-down flood
 * (several sockets from one address, reconnecting whenever they are cut) is refused beyond its
 * allowance, the replays it gets never take a connection of the request pool, and saves made
 * meanwhile reach another room's scoreboard once each. How much the flood slows a save is a
 * figure for the bench, not an assertion.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { createPortalTargets, finalValueOf, sendSave, type PortalTargets } from '../support/portal-load.js';
import { openScoreboard, waitForEvent, type Scoreboard } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';

const FLOOD_EVENT = 7_001;
const FLOOD_ROOM_EVENTS = 3_000;
const FLOOD_SOCKETS = 4;
// Baseline and flood probes alternate in rounds, so a change of the machine's load (other test
// files run in parallel) affects both sides alike.
const ROUNDS = 3;
const PROBES_PER_PHASE = 4;
const PROBES = ROUNDS * PROBES_PER_PHASE;

let server: TestServer;
let targets: PortalTargets;
let observer: Scoreboard;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  targets = await createPortalTargets(server.pool, 1, 2 * PROBES);
  await server.pool.query(
    `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload)
     SELECT 'score-updated', $1::int, 'api', jsonb_build_object('eventId', $1::int, 'scoreId', n, 'padding', repeat('x', 300))
       FROM generate_series(1, $2::int) AS n`,
    [FLOOD_EVENT, FLOOD_ROOM_EVENTS],
  );
  await waitFor(async () => (await server.pool.query(`SELECT 1 FROM ${t.svc_outbox} WHERE seq IS NULL LIMIT 1`)).rowCount === 0, {
    timeoutMs: 20_000,
    message: 'flood room numbered',
  });
  await waitFor(async () => {
    const { rows } = await server.pool.query<{ last: number }>(`SELECT max(seq) AS last FROM ${t.svc_outbox}`);
    return server.relay.status().cursor >= rows[0]!.last;
  });
  observer = await openScoreboard(server.url, targets.competition.eventId);
  sockets.push(observer.socket);
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

/** One save as a portal makes it, answered 200 and shown on the other room's scoreboard. */
async function probe(scoreId: number): Promise<void> {
  const outcome = await sendSave(server.url, targets, scoreId, 'value', { timeoutMs: 60_000 });
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
  await waitForEvent(observer.events, (event) => event.participantId === scoreId && event.score === finalValueOf(scoreId), 60_000);
}

async function probeAll(scoreIds: number[]): Promise<void> {
  for (const scoreId of scoreIds) await probe(scoreId);
}

/** A replay's read of one event's outbox rows (outbox/relay.ts, selectEventRange and countEventRange). */
const REPLAY_READ = /FROM \S*svc_outbox\S*\s+WHERE event_id = \$1 AND seq > \$2 AND seq <= \$3/;

/** Sockets from one address sending joins with `since: 0` as fast as they can; a cut one reconnects. */
function startFlood(): { stop(): void; sent: () => number; replayed: () => number; limited: () => number; cut: () => number } {
  let running = true;
  let sent = 0;
  let replayed = 0;
  let limited = 0;
  let cut = 0;
  const floodSockets: Socket[] = [];
  void (async () => {
    for (let index = 0; index < FLOOD_SOCKETS && running; index++) {
      const socket = await openSocket(server.url);
      // Replayed events of the flood room: the joins that were let through were served.
      socket.on('score-updated', () => (replayed += 1));
      socket.on('disconnect', (reason) => {
        cut += 1;
        if (running && reason === 'io server disconnect') socket.connect();
      });
      floodSockets.push(socket);
      sockets.push(socket);
    }
    while (running) {
      for (const socket of floodSockets) {
        if (!socket.connected) continue;
        for (let message = 0; message < 50; message++) {
          sent += 1;
          socket.emit('join-competition', { eventId: FLOOD_EVENT, since: 0 }, (ack: { ok: boolean; error?: string }) => {
            // Refused by the message limits (not merely because this connection's replay still runs).
            if (!ack.ok && /too many messages/.test(ack.error ?? '')) limited += 1;
          });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const socket of floodSockets) socket.disconnect();
  })();
  return { stop: () => void (running = false), sent: () => sent, replayed: () => replayed, limited: () => limited, cut: () => cut };
}

it('refuses a join flood beyond its allowance, replays the rest outside the request pool, and keeps saves and other rooms live', async () => {
  const scoreIds = [...targets.scoresByPortal[0]!];
  let sent = 0;
  let replayed = 0;
  let limitedOrCut = 0;
  const { statements } = await captureStatements(server.pool, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await probeAll(scoreIds.splice(0, PROBES_PER_PHASE));
      const flood = startFlood();
      try {
        await waitFor(() => flood.sent() > 1_000 && flood.replayed() > 0, { timeoutMs: 30_000, message: 'the flood is under way' });
        await probeAll(scoreIds.splice(0, PROBES_PER_PHASE));
        sent += flood.sent();
        replayed += flood.replayed();
        limitedOrCut += flood.limited() + flood.cut();
      } finally {
        flood.stop();
      }
    }
  });
  // The flood really ran through the saves: the joins let through were replayed, the rest refused
  // by the message limits (or the connection cut for sending on regardless).
  expect(sent).toBeGreaterThan(3 * 2_000);
  expect(replayed).toBeGreaterThan(0);
  expect(limitedOrCut).toBeGreaterThan(0);
  // The saves' pool ran the saves; the replays read through their own (before the limits, every
  // join of the flood read the outbox through the pool and made the saves queue behind it).
  expect(
    statements.some((text) => text.includes('wertungen')),
    'the saves ran on the request pool',
  ).toBe(true);
  expect(statements.filter((text) => REPLAY_READ.test(text))).toEqual([]);
  // Nobody else was disturbed: the observer got each of its room's events once.
  const participants = observer.events.map((event) => event.participantId);
  expect(new Set(participants).size).toBe(participants.length);
  expect(participants).toHaveLength(2 * PROBES);
}, 240_000);
