/**
 * Issue 18, fan-out: live events reach a room through src/realtime/room-broadcast.ts (framed once,
 * logged per room, handed out by passes over the room's sockets in one write per websocket;
 * engine.io's own path for polling clients, upgrading ones and ones with packets still queued in
 * engine.io). Many boards, a polling-only board
 * and one that upgrades from polling get a burst of events exactly once in seq order, and a board
 * that joins with `since` while the burst goes on gets the replay and then the live events without
 * a gap or a duplicate. A board that stops reading is dropped by the same path: fault-slow-client.
 */
import { pino } from 'pino';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendOutboxEvent } from '../../outbox/append.js';
import { collectEvents, joinCompetition, markerEvent, seqsOf, sequencedSeqs, type ReceivedEvent } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';

const EVENT_ID = 41;
const WEBSOCKET_BOARDS = 200;
const TRANSACTIONS = 40;
const EVENTS_PER_TRANSACTION = 10;

let server: TestServer;
const warnings: string[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  server = await startTestServer({ logger });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

/**
 * A board in the room. All boards of this file share one address, whose join allowance
 * (src/realtime/limits.ts) the two tests together exceed: a refused join is sent again when the
 * answer says, as the real scoreboard does.
 */
async function board(socket: Socket, since?: number): Promise<ReceivedEvent[]> {
  sockets.push(socket);
  const events = collectEvents(socket);
  for (;;) {
    const ack = await joinCompetition(socket, EVENT_ID, since);
    if (ack.ok) return events;
    expect(ack.retryAfterMs, `join refused: ${ack.error}`).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, ack.retryAfterMs));
  }
}

function connectOver(transports: Array<'polling' | 'websocket'>): Promise<Socket> {
  const socket = connectSocket(server.url, { transports, forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Commits `count` transactions of several events each, a few at a time, so relay passes carry several events. */
async function commitTransactions(count: number, label: string): Promise<void> {
  for (let start = 0; start < count; start += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, count - start) }, (_unused, index) =>
        server.commands.run(async (tx) => {
          for (let event = 0; event < EVENTS_PER_TRANSACTION; event++)
            await appendOutboxEvent(tx, markerEvent(EVENT_ID, `${label}-${start + index}-${event}`));
        }),
      ),
    );
  }
}

it('delivers a burst exactly once in seq order to websocket, polling and upgrading boards, and to one joining with since mid-burst', async () => {
  const websocketBoards = await Promise.all(Array.from({ length: WEBSOCKET_BOARDS }, async () => board(await openSocket(server.url))));
  const polling = await board(await connectOver(['polling']));
  const upgrading = await board(await connectOver(['polling', 'websocket']));
  const first = websocketBoards[0]!;

  await commitTransactions(TRANSACTIONS / 2, 'first');
  const firstHalf = (TRANSACTIONS / 2) * EVENTS_PER_TRANSACTION;
  await waitFor(() => first.length >= firstHalf, { timeoutMs: 30_000, message: 'the first half delivered' });
  // Joins behind by a quarter of the burst while the second half is being committed and delivered.
  const since = first[firstHalf / 2]!.seq;
  const late = await openSocket(server.url);
  const [lateEvents] = await Promise.all([board(late, since), commitTransactions(TRANSACTIONS / 2, 'second')]);

  const committed = await waitFor(
    async () => {
      const seqs = await sequencedSeqs(server.pool, EVENT_ID);
      return seqs.length === TRANSACTIONS * EVENTS_PER_TRANSACTION ? seqs : null;
    },
    { timeoutMs: 30_000, message: 'the burst numbered' },
  );
  const everyBoard = [...websocketBoards, polling, upgrading];
  await waitFor(() => [...everyBoard, lateEvents].every((events) => events.at(-1)?.seq === committed.at(-1)), {
    timeoutMs: 60_000,
    message: 'every board received the whole burst',
  });

  for (const events of everyBoard) expect(seqsOf(events)).toEqual(committed);
  expect(seqsOf(lateEvents)).toEqual(committed.filter((seq) => seq > since));
  // The boards above went through the pre-framed path, not the fallback to io.to(room).emit.
  expect(warnings.filter((line) => line.includes('pre-framed path is off'))).toEqual([]);
}, 120_000);

it('gives boards that join with since while a big room is being written to every later event exactly once', async () => {
  // A room large enough that a pass over it takes a while, so events are logged and not yet handed
  // out when a replay ends; that replay has read them already and must not get them again.
  const reference = await board(await openSocket(server.url));
  await Promise.all(Array.from({ length: WEBSOCKET_BOARDS }, async () => board(await openSocket(server.url))));
  const joiners: Array<{ since: number; events: ReceivedEvent[] }> = [];
  const joining = (async () => {
    for (let index = 0; index < 40; index++) {
      await waitFor(() => reference.length > index * 25, { timeoutMs: 30_000, message: 'the stream goes on' });
      const since = reference.at(-1)!.seq;
      joiners.push({ since, events: await board(await openSocket(server.url), since) });
    }
  })();
  const streaming = (async () => {
    for (let round = 0; round < 30; round++) await commitTransactions(4, `stream-${round}`);
  })();
  await Promise.all([joining, streaming]);

  const streamed = 30 * 4 * EVENTS_PER_TRANSACTION;
  await waitFor(() => reference.length === streamed, { timeoutMs: 60_000, message: 'the stream delivered to the reference board' });
  const committed = await sequencedSeqs(server.pool, EVENT_ID);
  expect(reference.at(-1)!.seq).toBe(committed.at(-1));
  // On a loaded machine the last joins can come after the stream has ended: such a board is owed
  // nothing, and waiting for it to receive the last seq would never end.
  const last = committed.at(-1)!;
  await waitFor(() => joiners.every((joiner) => joiner.since >= last || joiner.events.at(-1)?.seq === last), {
    timeoutMs: 60_000,
    message: 'every late board received the stream',
  });
  for (const joiner of joiners) expect(seqsOf(joiner.events)).toEqual(committed.filter((seq) => seq > joiner.since));
}, 180_000);
