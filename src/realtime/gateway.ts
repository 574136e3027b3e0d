import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Logger } from 'pino';

export const roomOf = (eventId: number) => `competition-${eventId}`;

export interface RealtimeGateway {
  io: Server;
  close(): Promise<void>;
}

function positiveInteger(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 && number <= 2_147_483_647 ? number : null;
}

/** Socket.IO on the HTTP server's port (contract section 5): rooms per event, joined on request. */
export function createRealtimeGateway(server: HttpServer, logger: Logger, corsOrigins: string[]): RealtimeGateway {
  const io = new Server(server, {
    cors: { origin: corsOrigins.length > 0 ? corsOrigins : true },
    // A scoreboard that stops reading must not make the server buffer without bound.
    maxHttpBufferSize: 64 * 1024,
  });
  io.on('connection', (socket) => {
    const handshakeEvent = positiveInteger(socket.handshake.auth?.eventId ?? socket.handshake.query?.eventId);
    if (handshakeEvent !== null) void socket.join(roomOf(handshakeEvent));

    socket.on('join-competition', (message: unknown, ack?: unknown) => {
      const reply = typeof ack === 'function' ? (ack as (body: unknown) => void) : () => undefined;
      const eventId = positiveInteger((message as { eventId?: unknown } | null)?.eventId);
      if (eventId === null) return reply({ ok: false, error: 'eventId must be a positive integer' });
      void socket.join(roomOf(eventId));
      reply({ ok: true, room: roomOf(eventId), replayed: 0 });
    });
    socket.on('leave-competition', (message: unknown) => {
      const eventId = positiveInteger((message as { eventId?: unknown } | null)?.eventId);
      if (eventId !== null) void socket.leave(roomOf(eventId));
    });
  });
  logger.debug('realtime gateway ready');
  return {
    io,
    close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
  };
}
