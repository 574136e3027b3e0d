/**
 * Issue 10, fault 4: a scoreboard that stops reading (its TCP socket paused, as a tablet gone to
 * sleep with the connection open) while a burst of events goes out. The server disconnects it
 * once what it queues for that client passes MAX_QUEUED_BYTES, so its memory does not grow with
 * the burst; the other scoreboards get the burst while it is stalled; and the stalled one, once
 * it reads again, reconnects, rejoins with `since` and ends up with every event exactly once.
 */
import type { Socket as TcpSocket } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { MAX_QUEUED_BYTES, roomOf } from '../../src/realtime/gateway.js';
import {
  committedScoreEvents,
  joinCompetition,
  openScoreboard,
  seqsOf,
  waitUntilBoardsCaughtUp,
  type Scoreboard,
} from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';

const EVENT_ID = 40;
// Ordinary score events are under 1 KB; a burst is 20,000 of them, some 20 MB.
const BURST_EVENTS = 20_000;
const PADDING_CHARS = 900;
// The kernel takes what a client does not read first, into the server's send buffer and the
// client's receive buffer. On loopback the receive buffer grows while the client reads fast (the
// first burst) up to tcp_rmem's maximum, 32 MB on some machines: the bursts go on while the client
// does not read until the server has to hold the rest itself.
const MAX_STALLED_BURSTS = 4;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** Heap and buffers of this process (server and clients), once garbage collection has settled. */
async function retainedBytes(): Promise<number> {
  let previous = Number.NaN;
  for (let round = 0; round < 20; round++) {
    collectGarbage();
    // Buffers are released by a sweeper after the collection: a later round sees them gone.
    await new Promise((resolve) => setImmediate(resolve));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    const current = heapUsed + arrayBuffers;
    if (Math.abs(current - previous) < 256 * 1024) return current;
    previous = current;
  }
  return previous;
}

/**
 * A scoreboard that keeps only the seqs, so what the test process holds is the server's doing. Like
 * the real board it rejoins with `since` after a reconnect: with server and boards sharing this
 * process's one thread, a busy machine can leave a reading board behind by more than the limit too.
 */
async function openLightBoard(baseUrl: string): Promise<{ socket: Socket; seqs: number[] }> {
  const socket = await openSocket(baseUrl, { reconnectionDelayMax: 500 });
  const seqs: number[] = [];
  socket.on('score-updated', (event: { seq: number }) => seqs.push(event.seq));
  socket.on('connect', () => void joinCompetition(socket, EVENT_ID, seqs.at(-1) ?? 0).catch(() => undefined));
  expect(await joinCompetition(socket, EVENT_ID)).toMatchObject({ ok: true });
  return { socket, seqs };
}

let server: TestServer;
const sockets: Socket[] = [];
let stalledTcp: TcpSocket | undefined;

beforeAll(async () => {
  // The stalled board rejoins bursts behind; replaying them is the point here, not a reload.
  server = await startTestServer({ env: { REPLAY_MAX_EVENTS: String((MAX_STALLED_BURSTS + 1) * BURST_EVENTS) } });
});
afterAll(async () => {
  // A connection that never reads would hold the server's close for ws's 30 s close timeout.
  stalledTcp?.destroy();
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

/** Commits a burst of `BURST_EVENTS` in one transaction; resolves with the last seq once they are numbered. */
async function commitBurst(): Promise<number> {
  const before = (await committedScoreEvents(server.pool, EVENT_ID)).length;
  await server.pool.query(
    `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload)
     SELECT 'score-updated', $1::int, 'api', jsonb_build_object('eventId', $1::int, 'scoreId', n, 'padding', repeat('x', $3::int))
       FROM generate_series(1, $2::int) AS n`,
    [EVENT_ID, BURST_EVENTS, PADDING_CHARS],
  );
  return waitFor(
    async () => {
      const committed = await committedScoreEvents(server.pool, EVENT_ID);
      return committed.length === before + BURST_EVENTS ? committed.at(-1)!.seq : null;
    },
    { timeoutMs: 20_000, message: 'the burst numbered' },
  );
}

/** Commits a burst and waits until every given board has received it. */
async function burstReceivedBy(boards: ReadonlyArray<{ seqs: number[] }>): Promise<void> {
  const last = await commitBurst();
  await waitFor(() => boards.every((board) => board.seqs.at(-1) === last), {
    timeoutMs: 60_000,
    message: 'the healthy scoreboards received the burst',
  });
}

it('drops a client that stopped reading once its queue passes the limit, without slowing the others', async () => {
  const healthy = await Promise.all([openLightBoard(server.url), openLightBoard(server.url)]);
  const stalled: Scoreboard = await openScoreboard(server.url, EVENT_ID);
  sockets.push(...healthy.map((board) => board.socket), stalled.socket);
  await burstReceivedBy(healthy);
  await waitFor(() => stalled.events.length === BURST_EVENTS, {
    timeoutMs: 30_000,
    message: 'the reading scoreboard received the first burst',
  });

  const stalledId = stalled.socket.id!;
  // socket.io-client cannot stop reading; pausing the TCP socket under its WebSocket is what a
  // client that is alive but not reading looks like to the server.
  stalledTcp = (stalled.socket.io.engine.transport as unknown as { ws: { _socket: TcpSocket } }).ws._socket;
  stalledTcp.pause();
  const before = await retainedBytes();
  const stalledInRoom = async () => (await server.gateway.io.in(roomOf(EVENT_ID)).fetchSockets()).some((socket) => socket.id === stalledId);
  let bursts = 0;
  do {
    await burstReceivedBy(healthy);
    bursts += 1;
  } while (bursts < MAX_STALLED_BURSTS && (await stalledInRoom()));
  const grown = (await retainedBytes()) - before;

  expect(await stalledInRoom()).toBe(false);
  // Without the limit the server holds the whole burst for the stalled client: some 50 MB here.
  expect(grown).toBeLessThan(10 * MAX_QUEUED_BYTES);
  // The others did not wait for it: they received the whole burst while it still was not reading
  // (burstReceivedBy waits for that). How long the burst took with and without it is for the bench.

  stalledTcp.resume();
  const committed = await waitUntilBoardsCaughtUp(server.pool, EVENT_ID, [stalled], 60_000);
  expect(stalled.joins.length).toBeGreaterThanOrEqual(2);
  expect(stalled.joins.every((ack) => ack.ok)).toBe(true);
  expect(seqsOf(stalled.events)).toEqual(committed.map((event) => event.seq));
  for (const board of healthy) expect(board.seqs).toEqual(committed.map((event) => event.seq));
}, 180_000);
