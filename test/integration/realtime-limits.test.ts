/**
 * Issue 15 items 2 and 3: the websocket upgrade applies the HTTP API's origin rule; Socket.IO
 * messages are limited per connection and per client address; a client too far behind is told to
 * reload instead of being replayed event by event; a long replay goes out in batches, exactly once.
 */
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { collectEvents, commitAndAwait, joinCompetition, seqsOf, waitUntilDelivered } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';

const REPLAY_MAX_EVENTS = 50;

let server: TestServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { REPLAY_MAX_EVENTS: String(REPLAY_MAX_EVENTS) } });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

/** Connects with the given transport and extra headers; resolves with the socket or the connect error. */
function tryConnect(
  transport: 'websocket' | 'polling',
  headers: Record<string, string>,
  localAddress?: string,
): Promise<{ socket: Socket } | { error: Error }> {
  const socket = connectSocket(server.url, {
    transports: [transport],
    forceNew: true,
    reconnection: false,
    extraHeaders: headers,
    ...(localAddress ? { localAddress } : {}),
  } as never);
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (error) => resolve({ error }));
  });
}

describe('origin rule on every transport', () => {
  it.each(['websocket', 'polling'] as const)('refuses a foreign Origin over %s before any join', async (transport) => {
    const refused = await tryConnect(transport, { origin: 'http://evil.example.com' });
    expect('error' in refused).toBe(true);
  });

  it.each(['websocket', 'polling'] as const)('admits over %s: no Origin, the page’s own origin, a LAN client port', async (transport) => {
    const port = new URL(server.url).port;
    const variants: Array<Record<string, string>> = [{}, { origin: `http://127.0.0.1:${port}` }, { origin: 'http://192.168.1.20:5173' }];
    for (const headers of variants) {
      const admitted = await tryConnect(transport, headers);
      expect('socket' in admitted, JSON.stringify(headers)).toBe(true);
      if ('socket' in admitted) expect(await joinCompetition(admitted.socket, 1)).toMatchObject({ ok: true });
    }
  });

  it('refuses a foreign Host on the websocket upgrade (DNS rebinding)', async () => {
    const refused = await tryConnect('websocket', { host: 'evil.example.com' });
    expect('error' in refused).toBe(true);
  });
});

type Ack = { ok: boolean; error?: string; retryAfterMs?: number; reload?: boolean; replayed?: number };
const emitWithAck = (socket: Socket, event: string, body: unknown, timeoutMs = 10_000) =>
  socket.timeout(timeoutMs).emitWithAck(event, body) as Promise<Ack>;

describe('message limits', () => {
  it('refuses joins beyond the per-connection allowance with retryAfterMs, and answers again later', async () => {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    const acks = await Promise.all(Array.from({ length: 30 }, () => emitWithAck(socket, 'join-competition', { eventId: 2 })));
    const refused = acks.filter((ack) => !ack.ok);
    expect(acks.filter((ack) => ack.ok).length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const ack of refused)
      expect(ack).toMatchObject({ ok: false, error: expect.stringContaining('too many'), retryAfterMs: expect.any(Number) });
    await new Promise((resolve) => setTimeout(resolve, Math.max(...refused.map((ack) => ack.retryAfterMs!))));
    expect(await emitWithAck(socket, 'join-competition', { eventId: 2 })).toMatchObject({ ok: true });
  });

  it('limits leaves and any other event too, and cuts a connection that keeps flooding after being refused', async () => {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    let cut = false;
    socket.on('disconnect', () => (cut = true));
    const refusedLeaves = await Promise.all(
      Array.from({ length: 30 }, () => emitWithAck(socket, 'leave-competition', { eventId: 2 }).catch(() => null)),
    );
    expect(refusedLeaves.some((ack) => ack?.ok === false)).toBe(true);
    for (let message = 0; message < 1_000 && !cut; message++) socket.emit('any-event', { n: message });
    await waitFor(() => cut, { timeoutMs: 10_000, message: 'the flooding connection was cut' });
  });

  it('limits all connections of one address together, and not those of another address', async () => {
    const fromOne: Socket[] = [];
    for (let index = 0; index < 12; index++) {
      const connected = await tryConnect('websocket', {}, '127.0.0.3');
      if ('socket' in connected) fromOne.push(connected.socket);
    }
    expect(fromOne).toHaveLength(12);
    // 12 connections × 35 messages stay within each connection's allowance (40) but not the address's (400).
    const acks = await Promise.all(
      fromOne.flatMap((socket) => Array.from({ length: 35 }, () => emitWithAck(socket, 'unknown-event', {}, 2_000).catch(() => null))),
    );
    const refused = acks.filter((ack) => ack?.ok === false);
    expect(refused.length).toBeGreaterThan(0);
    const other = await tryConnect('websocket', {}, '127.0.0.4');
    expect('socket' in other && (await joinCompetition(other.socket, 3))).toMatchObject({ ok: true });
  });
});

describe('replay size', () => {
  it(`tells a client more than ${REPLAY_MAX_EVENTS} events behind to reload, and replays a shorter gap in batches, exactly once`, async () => {
    const eventId = 8_101;
    await server.pool.query(
      `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload)
       SELECT 'score-updated', $1::int, 'api', jsonb_build_object('eventId', $1::int, 'marker', 'bulk-' || n) FROM generate_series(1, $2::int) AS n`,
      [eventId, REPLAY_MAX_EVENTS + 10],
    );
    const last = await waitUntilDelivered(server.pool, server.relay);
    const socket = await openSocket(server.url);
    sockets.push(socket);
    const events = collectEvents(socket);
    expect(await joinCompetition(socket, eventId, 0)).toMatchObject({ ok: false, reload: true, error: expect.stringContaining('reload') });
    expect(events).toHaveLength(0);

    // Exactly at the limit: replayed; live events after it arrive once, in order.
    const { rows } = await server.pool.query<{ seq: number }>(
      `SELECT seq FROM ${t.svc_outbox} WHERE event_id = $1 ORDER BY seq OFFSET 10 LIMIT 1`,
      [eventId],
    );
    const since = rows[0]!.seq - 1;
    expect(await joinCompetition(socket, eventId, since)).toMatchObject({ ok: true, replayed: REPLAY_MAX_EVENTS });
    await commitAndAwait(server.commands, events, eventId, 'live-after-replay');
    expect(seqsOf(events)[0]).toBe(since + 1);
    expect(new Set(seqsOf(events)).size).toBe(events.length);
    expect(events).toHaveLength(REPLAY_MAX_EVENTS + 1);
    expect(seqsOf(events).at(-2)).toBe(last);
  });

  it('tells a client that joins at connect too far behind to reload, with a join-refused event', async () => {
    const socket = connectSocket(server.url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      auth: { eventId: 8_101, since: 0 },
    });
    sockets.push(socket);
    const refusal = await new Promise<Ack & { eventId: number }>((resolve) => socket.once('join-refused', resolve));
    expect(refusal).toMatchObject({ eventId: 8_101, ok: false, reload: true });
  });
});
