import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { OutboxDelivery, OutboxRelay } from '../../outbox/relay.js';

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

/**
 * Output a client has not taken yet may not exceed this. Socket.IO has no limit of its own
 * (`maxHttpBufferSize` bounds what clients send): a scoreboard that stops reading with its
 * connection open (a tablet gone to sleep) keeps every event queued until the heartbeat gives up
 * after about 45 s, which during a burst is any amount. 1 MiB holds several replay batches of
 * ordinary events, so a client that reads, however slowly over the LAN, never comes near it.
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;

const byteLength = (data: unknown) => (typeof data === 'string' || Buffer.isBuffer(data) ? data.length : 0);

/** Socket.IO on the HTTP server's port (contract section 5): rooms per event, joined on request. */
export function createRealtimeGateway(server: HttpServer, logger: Logger, allowOrigin: (origin: string) => boolean, feed: RealtimeFeed): RealtimeGateway {
  const io = new Server(server, {
    // The same origins as the HTTP API (src/http/security.ts).
    cors: { origin: (origin, callback) => callback(null, origin !== undefined && allowOrigin(origin)) },
    // Bounds what a client may send in one message; what the server queues for it is bounded below.
    maxHttpBufferSize: 64 * 1024,
  });

  // What engine.io holds for each connection that its transport has not taken yet, from its public
  // events: every packet is created into the write buffer, and a flush hands all of it over.
  const queuedBytes = new WeakMap<Socket['conn'], number>();
  io.engine.on('connection', (connection: Socket['conn']) => {
    connection.on('packetCreate', (packet: { data?: unknown }) => queuedBytes.set(connection, (queuedBytes.get(connection) ?? 0) + byteLength(packet.data)));
    connection.on('flush', () => queuedBytes.set(connection, 0));
  });

  /**
   * Disconnects a client over the output limit. Discarding closes at once: a plain disconnect waits
   * for the queue to drain, which it never does. The client reconnects and rejoins with `since`
   * when it reads again, so it loses nothing.
   */
  const dropIfStalled = (socket: Socket) => {
    const queued = queuedBytes.get(socket.conn) ?? 0;
    if (queued <= MAX_QUEUED_BYTES || socket.conn.readyState !== 'open') return;
    logger.warn({ socketId: socket.id, queuedBytes: queued }, 'realtime client stopped reading; disconnecting it');
    socket.conn.close(true);
  };

  const unsubscribe = feed.subscribe((delivery) => {
    const room = roomOf(delivery.eventId);
    io.to(room).emit(delivery.topic, delivery.message);
    for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
      const socket = io.sockets.sockets.get(id);
      if (socket) dropIfStalled(socket);
    }
  });

  /** Without `since` the socket only gets what comes next; with it, the missed events first. */
  const join = (socket: Socket, eventId: number, since: number | null): Promise<number> => {
    const room = roomOf(eventId);
    const follow = () => {
      // A socket that went away during the replay must not be left behind in the room.
      if (socket.connected) void socket.join(room);
    };
    if (since === null) {
      follow();
      return Promise.resolve(0);
    }
    const send = (delivery: OutboxDelivery) => {
      socket.emit(delivery.topic, delivery.message);
      dropIfStalled(socket);
    };
    return feed.replay(eventId, since, send, follow);
  };

  io.on('connection', (socket) => {
    const handshake = { ...socket.handshake.query, ...socket.handshake.auth } as Record<string, unknown>;
    const handshakeEvent = positiveInteger(handshake.eventId);
    if (handshakeEvent !== null) {
      join(socket, handshakeEvent, seqOrNull(handshake.since)).catch((error: unknown) => {
        logger.warn({ err: error, eventId: handshakeEvent }, 'replay at connect failed; disconnecting so the client retries');
        socket.disconnect(true);
      });
    }

    socket.on('join-competition', (message: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (body: unknown) => void) : () => undefined;
      const body = (message ?? {}) as { eventId?: unknown; since?: unknown };
      const eventId = positiveInteger(body.eventId);
      if (eventId === null) return reply({ ok: false, error: 'eventId must be a positive integer' });
      const since = body.since == null ? null : seqOrNull(body.since);
      if (since === null && body.since != null) return reply({ ok: false, error: 'since must be a non-negative integer' });
      join(socket, eventId, since).then(
        (replayed) => reply({ ok: true, room: roomOf(eventId), replayed }),
        (error: unknown) => {
          logger.warn({ err: error, eventId, since }, 'replay failed');
          reply({ ok: false, error: 'replay failed; join again' });
        },
      );
    });
    socket.on('leave-competition', (message: unknown) => {
      const eventId = positiveInteger((message as { eventId?: unknown } | null)?.eventId);
      if (eventId !== null) void socket.leave(roomOf(eventId));
    });
  });
  logger.debug('realtime gateway ready');
  return {
    io,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        void io.close(() => resolve());
      }),
  };
}
