import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { OutboxDelivery, OutboxRelay } from '../../outbox/relay.js';
import type { Queryable } from '../db/pool.js';
import { BoundedQueue, MAX_REFUSED_IN_A_ROW, MessageAdmission, QueueFullError } from './limits.js';
import {
  createRoomBroadcaster,
  HALL_FLUSH_SPACING,
  pendingPackets,
  PUBLIC_FLUSH_SPACING,
  queuedBytes,
  unsentBytes,
} from './room-broadcast.js';
import type { SpectatorHub } from './spectators.js';
import type { Channel } from './channel.js';

export const roomOf = (eventId: number) => `competition-${eventId}`;

export interface RealtimeGateway {
  io: Server;
  close(): Promise<void>;
}

/** What the gateway needs from the outbox relay: live deliveries and the replay hand-over. */
export type RealtimeFeed = Pick<OutboxRelay, 'subscribe' | 'replay'>;

function integerIn(value: unknown, minimum: number, maximum: number): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= minimum && number <= maximum ? number : null;
}

const positiveInteger = (value: unknown) => integerIn(value, 1, 2_147_483_647);
const seqOrNull = (value: unknown) => integerIn(value, 0, Number.MAX_SAFE_INTEGER);

/** A join message's `eventId` and `since` (null: only what comes next), or what is wrong with it. */
function parseJoin(message: unknown): { eventId: number; since: number | null } | { error: string } {
  const body = (message ?? {}) as { eventId?: unknown; since?: unknown };
  const eventId = positiveInteger(body.eventId);
  if (eventId === null) return { error: 'eventId must be a positive integer' };
  const since = body.since == null ? null : seqOrNull(body.since);
  if (since === null && body.since != null) return { error: 'since must be a non-negative integer' };
  return { eventId, since };
}

/**
 * Output a client has not taken yet may not exceed this. Socket.IO has no limit of its own
 * (`maxHttpBufferSize` bounds what clients send): a scoreboard that stops reading with its
 * connection open (a tablet gone to sleep) keeps every event queued until the heartbeat gives up
 * after about 45 s, which during a burst is any amount. 1 MiB holds several replay batches of
 * ordinary events, so a client that reads, however slowly over the LAN, never comes near it.
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;

/** Events one replay reads and sends at a time. */
export const REPLAY_BATCH = 500;
/**
 * A replay reads its next batch at once while the websocket holds less than this unsent; above it,
 * it waits until the client has taken what was sent. Below MAX_QUEUED_BYTES with a batch on top.
 */
export const REPLAY_HIGH_WATER_BYTES = 256 * 1024;
/** Replays read through their own pool of this many connections, never the one saves use. */
export const REPLAY_CONNECTIONS = 2;
/** Joins waiting for a replay slot beyond this are told to retry. */
export const REPLAY_QUEUE = 200;
/** A client that does not take a replay batch within this long is not waited for. */
const DRAIN_TIMEOUT_MS = 30_000;
const PUBLIC_INSTANCE_REFUSAL = 'This is a public results service: spectators join with join-live';

export interface GatewayOptions {
  /** The HTTP rules every request must pass (Host allowlist, src/http/security.ts). */
  allowHost: (host: string | undefined) => boolean;
  /** The CORS origin rule of the HTTP API, applied to every transport including the websocket upgrade. */
  allowOrigin: (origin: string) => boolean;
  allowRequestOrigin: (request: IncomingMessage) => boolean;
  /** The pool replays read through (separate from the request pool). */
  replayDb: Queryable;
  /** More events to replay than this: the client is told to reload its snapshot instead. */
  replayMaxEvents: number;
  /** The spectator page's channel (`join-live`); absent: the gateway has none. */
  spectators?: SpectatorHub;
  /**
   * A public instance: websocket only, so instances behind a load balancer need no sticky sessions,
   * and the spectator channel only, since the scoreboards' rooms carry names and unreleased scores
   * that the event's privacy settings may keep from the public.
   */
  publicInstance?: boolean;
}

const scoreboardChannel = (eventId: number): Channel => ({
  room: roomOf(eventId),
  message: (delivery) => [delivery.topic, delivery.message],
});

/** Why a join was not carried out, as the ack tells it. */
class JoinRefused extends Error {
  constructor(
    message: string,
    readonly extra: { reload?: true; retryAfterMs?: number },
  ) {
    super(message);
  }
}

/** Socket.IO on the HTTP server's port (contract section 5): rooms per event, joined on request. */
export function createRealtimeGateway(server: HttpServer, logger: Logger, feed: RealtimeFeed, options: GatewayOptions): RealtimeGateway {
  const io = new Server(server, {
    // The same origins as the HTTP API (src/http/security.ts): CORS headers for polling, and
    // allowRequest for every transport, since a browser opens a websocket from any page and
    // never checks the answer's headers.
    cors: { origin: (origin, callback) => callback(null, origin !== undefined && options.allowOrigin(origin)) },
    allowRequest: (request, callback) => callback(null, options.allowHost(request.headers.host) && options.allowRequestOrigin(request)),
    // Bounds what a client may send in one message; what the server queues for it is bounded below.
    maxHttpBufferSize: 64 * 1024,
    ...(options.publicInstance ? { transports: ['websocket' as const] } : {}),
  });
  const admission = new MessageAdmission();
  const replays = new BoundedQueue(REPLAY_CONNECTIONS, REPLAY_QUEUE);

  /**
   * Disconnects a client over the output limit. Discarding closes at once: a plain disconnect waits
   * for the queue to drain, which it never does. The client reconnects and rejoins with `since`
   * when it reads again, so it loses nothing.
   */
  const disconnectStalled = (socket: Socket, queued: number) => {
    logger.warn({ socketId: socket.id, queuedBytes: queued }, 'realtime client stopped reading; disconnecting it');
    socket.conn.close(true);
  };
  const dropIfStalled = (socket: Socket) => {
    const queued = queuedBytes(socket.conn);
    if (queued > MAX_QUEUED_BYTES && socket.conn.readyState === 'open') disconnectStalled(socket, queued);
  };

  const rooms = createRoomBroadcaster(io, {
    flushSpacing: options.publicInstance ? PUBLIC_FLUSH_SPACING : HALL_FLUSH_SPACING,
    maxQueuedBytes: MAX_QUEUED_BYTES,
    onStalled: disconnectStalled,
    onFallback: (reason) => logger.warn({ reason }, 'realtime: broadcasting through io.to(room).emit, the pre-framed path is off'),
    onError: (error, room) => logger.error({ err: error, room }, 'realtime broadcast failed'),
  });
  const unsubscribe = feed.subscribe((delivery) => rooms.send(roomOf(delivery.eventId), delivery.topic, delivery.message));
  const spectators = options.spectators;
  const detachSpectators = spectators?.attach(feed, (room, topic, message) => rooms.send(room, topic, message));

  /**
   * Resolves once the client has taken what was sent to it: nothing left in engine.io's buffer and
   * the transport writable again (ws has handed the last frame to the kernel), so a replay holds
   * at most one batch in memory per client. A client that went away ends the replay.
   */
  const drained = async (socket: Socket): Promise<void> => {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    for (;;) {
      if (!socket.connected) throw new JoinRefused('disconnected', {});
      const connection = socket.conn;
      // writeBuffer: engine.io's packets not yet handed to the transport.
      const pending = pendingPackets(connection);
      // ws's bufferedAmount: bytes it holds that the kernel has not taken (polling has no such queue).
      const unsent = unsentBytes(connection);
      if (pending === 0 && (connection.transport.writable || (unsent !== undefined && unsent < REPLAY_HIGH_WATER_BYTES))) return;
      if (Date.now() > deadline) throw new JoinRefused('the client did not take the replay in time; join again', { retryAfterMs: 1_000 });
      // The transport says "ready" when it can write again, engine.io "drain" when it flushed; the
      // short timer only guards against a transport swapped under us (polling upgraded to websocket).
      await new Promise<void>((resolve) => {
        const transport = connection.transport;
        const done = () => {
          clearTimeout(timer);
          transport.off('ready', done);
          connection.off('drain', done);
          socket.off('disconnect', done);
          resolve();
        };
        const timer = setTimeout(done, 100);
        transport.on('ready', done);
        connection.on('drain', done);
        socket.on('disconnect', done);
      });
    }
  };

  const tooFarBehind = (due: number) => {
    if (due > options.replayMaxEvents) {
      throw new JoinRefused(`more than ${options.replayMaxEvents} events to replay; reload the data over HTTP and join with its seq`, {
        reload: true,
      });
    }
  };

  // One replay at a time per socket: a second join waits for the first rather than doubling the work.
  const replaying = new WeakMap<Socket, Promise<unknown>>();

  /** Without `since` the socket only gets what comes next; with it, the missed events first. */
  const join = async (socket: Socket, eventId: number, since: number | null, channel = scoreboardChannel(eventId)): Promise<number> => {
    const { room } = channel;
    const follow = () => {
      // What the relay has delivered so far is in the replay, or was not asked for (no `since`): the
      // room hands the socket only what is sent after this. A socket that went away during the
      // replay must not be left behind in the room.
      if (socket.connected) rooms.join(room, socket);
    };
    if (since === null) {
      follow();
      return 0;
    }
    const send = (delivery: OutboxDelivery) => {
      const out = channel.message(delivery);
      if (!out) return;
      socket.emit(...out);
      dropIfStalled(socket);
    };
    if (replaying.has(socket))
      throw new JoinRefused('a join of this connection is still replaying; join again when it has answered', { retryAfterMs: 1_000 });
    const run = replays.run(() =>
      socket.connected
        ? feed.replay(eventId, since, send, follow, {
            db: options.replayDb,
            batchSize: REPLAY_BATCH,
            afterBatch: () => drained(socket),
            limit: { cap: options.replayMaxEvents, check: tooFarBehind },
          })
        : Promise.reject(new JoinRefused('disconnected', {})),
    );
    replaying.set(socket, run);
    try {
      return await run;
    } catch (error) {
      if (error instanceof QueueFullError) throw new JoinRefused(error.message, { retryAfterMs: 1_000 });
      throw error;
    } finally {
      replaying.delete(socket);
    }
  };

  const refusal = (error: unknown) =>
    error instanceof JoinRefused
      ? { ok: false, error: error.message, ...error.extra }
      : { ok: false, error: 'replay failed; join again', retryAfterMs: 1_000 };

  io.on('connection', (socket) => {
    const limiter = admission.connect(socket.handshake.address);
    socket.on('disconnect', () => limiter.disconnect());
    let refusedInARow = 0;
    // Every incoming message passes the limits before any handler sees it; a refused one with an
    // ack gets `{ ok: false, error, retryAfterMs }`, and a connection that keeps sending regardless is cut.
    socket.use(([event, ...args], next) => {
      const admitted = limiter.admit(String(event));
      if (admitted.ok) {
        refusedInARow = 0;
        return next();
      }
      refusedInARow += 1;
      const ack = args.at(-1);
      if (typeof ack === 'function')
        (ack as (body: unknown) => void)({ ok: false, error: 'too many messages; slow down', retryAfterMs: admitted.retryAfterMs });
      if (refusedInARow === MAX_REFUSED_IN_A_ROW) {
        logger.warn(
          { socketId: socket.id, address: socket.handshake.address },
          'realtime client keeps flooding after being refused; disconnecting it',
        );
        socket.disconnect(true);
      }
    });

    const handshake = { ...socket.handshake.query, ...socket.handshake.auth } as Record<string, unknown>;
    const handshakeEvent = positiveInteger(handshake.eventId);
    if (handshakeEvent !== null && options.publicInstance) {
      socket.emit('join-refused', { eventId: handshakeEvent, ok: false, error: PUBLIC_INSTANCE_REFUSAL });
    } else if (handshakeEvent !== null) {
      const since = seqOrNull(handshake.since);
      // The handshake's join has nobody to ack; a refusal is sent as `join-refused` with the same body.
      // It counts as a join, or reconnecting in a loop would be a join flood without limit.
      const admitted = limiter.admit('join-competition');
      const joined = admitted.ok
        ? join(socket, handshakeEvent, since)
        : Promise.reject(new JoinRefused('too many messages; slow down', { retryAfterMs: admitted.retryAfterMs }));
      joined.catch((error: unknown) => {
        if (!(error instanceof JoinRefused)) logger.warn({ err: error, eventId: handshakeEvent }, 'replay at connect failed');
        if (socket.connected) socket.emit('join-refused', { eventId: handshakeEvent, ...refusal(error) });
      });
    }

    socket.on('join-competition', (message: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (body: unknown) => void) : () => undefined;
      if (options.publicInstance) return reply({ ok: false, error: PUBLIC_INSTANCE_REFUSAL });
      const request = parseJoin(message);
      if ('error' in request) return reply({ ok: false, error: request.error });
      const { eventId, since } = request;
      join(socket, eventId, since).then(
        (replayed) => reply({ ok: true, room: roomOf(eventId), replayed }),
        (error: unknown) => {
          if (!(error instanceof JoinRefused)) logger.warn({ err: error, eventId, since }, 'replay failed');
          reply(refusal(error));
        },
      );
    });
    if (spectators) {
      // The spectator page (src/realtime/spectators.ts): the same join and replay, its own room and messages.
      socket.on('join-live', (message: unknown, ack?: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (body: unknown) => void) : () => undefined;
        const request = parseJoin(message);
        if ('error' in request) return reply({ ok: false, error: request.error });
        const { eventId, since } = request;
        const channel = spectators.channel(eventId);
        spectators
          .privacy(eventId)
          .then((privacy) => {
            if (!privacy) throw new JoinRefused(`No event ${eventId}`, {});
            return join(socket, eventId, since, channel);
          })
          .then(
            (replayed) => reply({ ok: true, room: channel.room, replayed, seq: spectators.cursor() }),
            (error: unknown) => {
              if (!(error instanceof JoinRefused)) logger.warn({ err: error, eventId, since }, 'spectator join failed');
              reply(refusal(error));
            },
          );
      });
    }
    socket.on('leave-competition', (message: unknown, ack?: unknown) => {
      const eventId = positiveInteger((message as { eventId?: unknown } | null)?.eventId);
      if (eventId !== null) void socket.leave(roomOf(eventId));
      if (typeof ack === 'function')
        (ack as (body: unknown) => void)(eventId === null ? { ok: false, error: 'eventId must be a positive integer' } : { ok: true });
    });
  });
  logger.debug('realtime gateway ready');
  return {
    io,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        detachSpectators?.();
        rooms.close();
        void io.close(() => resolve());
      }),
  };
}
