import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { Logger } from 'pino';
import type { OutboxRelay } from '../../outbox/relay.js';

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

/** Socket.IO on the HTTP server's port (contract section 5): rooms per event, joined on request. */
export function createRealtimeGateway(server: HttpServer, logger: Logger, allowOrigin: (origin: string) => boolean, feed: RealtimeFeed): RealtimeGateway {
  const io = new Server(server, {
    // The same origins as the HTTP API (src/http/security.ts).
    cors: { origin: (origin, callback) => callback(null, origin !== undefined && allowOrigin(origin)) },
    // A scoreboard that stops reading must not make the server buffer without bound.
    maxHttpBufferSize: 64 * 1024,
  });
  const unsubscribe = feed.subscribe((delivery) => io.to(roomOf(delivery.eventId)).emit(delivery.topic, delivery.message));

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
    return feed.replay(eventId, since, (delivery) => socket.emit(delivery.topic, delivery.message), follow);
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
