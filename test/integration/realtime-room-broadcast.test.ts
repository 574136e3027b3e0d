/**
 * Issue 18, fan-out: the room broadcaster (src/realtime/room-broadcast.ts) on its own, on a real
 * Socket.IO server with real socket.io-client boards over websockets. Events are logged per room
 * and handed out by passes over the room's sockets; what a board notices is that it gets every
 * event sent after its join, once and in order, never one sent before it, and never a write so big
 * that a board on a slow network is dropped for it. The service's own path (relay, replay hand-over,
 * polling boards) is realtime-fanout's.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  createRoomBroadcaster,
  HALL_FLUSH_SPACING,
  MAX_EVENTS_PER_WRITE,
  type RoomBroadcaster,
} from '../../src/realtime/room-broadcast.js';
import { waitFor } from '../support/server.js';

const ROOM = 'competition-7';

let http: HttpServer;
let io: Server;
let rooms: RoomBroadcaster;
let url: string;
const problems: string[] = [];
/** Frames in each write to a websocket: the broadcaster's, and engine.io's own pings. */
const eventsPerWrite: number[] = [];
const clients: Socket[] = [];

/** Frames in a buffer of unmasked server frames (RFC 6455 5.2: 7-bit length, or 126/127 and 2/8 bytes of it). */
function countFrames(buffer: Buffer): number {
  let frames = 0;
  for (let offset = 0; offset < buffer.length; frames++) {
    const length = buffer[offset + 1]! & 0x7f;
    if (length < 126) offset += 2 + length;
    else if (length === 126) offset += 4 + buffer.readUInt16BE(offset + 2);
    else offset += 10 + Number(buffer.readBigUInt64BE(offset + 2));
  }
  return frames;
}

/** Counts the events of every write the broadcaster makes to this socket's websocket (ws's sender, which it calls). */
function recordWrites(socket: ServerSocket): void {
  const websocket: unknown = Reflect.get(socket.conn.transport, 'socket');
  const sender = Reflect.get(websocket as object, '_sender') as { sendFrame(list: Buffer[]): void };
  const sendFrame = sender.sendFrame.bind(sender);
  sender.sendFrame = (list) => {
    eventsPerWrite.push(countFrames(Buffer.concat(list)));
    sendFrame(list);
  };
}

beforeAll(async () => {
  http = createServer();
  io = new Server(http);
  rooms = createRoomBroadcaster(io, {
    flushSpacing: HALL_FLUSH_SPACING,
    maxQueuedBytes: 1024 * 1024,
    onStalled: (socket) => problems.push(`stalled ${socket.id}`),
    onFallback: (reason) => problems.push(`fallback: ${reason}`),
    onError: (error) => problems.push(`error: ${String(error)}`),
  });
  io.on('connection', recordWrites);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterEach(() => {
  expect(problems).toEqual([]);
  eventsPerWrite.length = 0;
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  rooms.close();
  await new Promise<void>((resolve) => void io.close(() => resolve()));
});

interface Board {
  serverSocket: ServerSocket;
  received: number[];
}

/** A board connected over a websocket, not yet in any room; `received` holds the `n` of each event it got. */
async function connectBoard(): Promise<Board> {
  const client = connectSocket(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  clients.push(client);
  const received: number[] = [];
  client.on('tick', (message: { n: number }) => received.push(message.n));
  await new Promise<void>((resolve, reject) => {
    client.once('connect', resolve);
    client.once('connect_error', reject);
  });
  const serverSocket = await waitFor(() => io.sockets.sockets.get(client.id!) ?? null, { message: 'the server side of the board' });
  return { serverSocket, received };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_unused, index) => from + index);

function sendTicks(from: number, to: number): void {
  for (const n of range(from, to)) rooms.send(ROOM, 'tick', { n });
}

it('hands every board each event once and in order, a burst in writes of at most MAX_EVENTS_PER_WRITE events', async () => {
  const boards = await Promise.all(Array.from({ length: 20 }, connectBoard));
  for (const board of boards) rooms.join(ROOM, board.serverSocket);
  // One turn's worth: more than two writes' worth for every board.
  const burst = 2 * MAX_EVENTS_PER_WRITE + 123;
  sendTicks(0, burst);
  await waitFor(() => boards.every((board) => board.received.length >= burst), { message: 'every board has the burst' });

  for (const board of boards) expect(board.received).toEqual(range(0, burst));
  expect(Math.max(...eventsPerWrite)).toBe(MAX_EVENTS_PER_WRITE);
  for (const board of boards) board.serverSocket.leave(ROOM);
});

it('gives a board that joins while events are still being handed out only the events sent after its join', async () => {
  const early = await Promise.all(Array.from({ length: 20 }, connectBoard));
  const late = await connectBoard();
  for (const board of early) rooms.join(ROOM, board.serverSocket);
  // Logged and not yet handed to anyone when the late board joins: they are not for it.
  sendTicks(0, 300);
  rooms.join(ROOM, late.serverSocket);
  sendTicks(300, 400);
  await waitFor(() => [...early, late].every((board) => board.received.at(-1) === 399), { message: 'every board has the last event' });

  for (const board of early) expect(board.received).toEqual(range(0, 400));
  expect(late.received).toEqual(range(300, 400));
});

it("writes each event to a small room's boards before the event loop turns to anything else, also right after the one before", async () => {
  const boards = await Promise.all(Array.from({ length: 5 }, connectBoard));
  // A room of its own: the boards of the tests before stay in theirs.
  const room = 'competition-8';
  for (const board of boards) rooms.join(room, board.serverSocket);
  for (const n of range(0, 3)) {
    const writesBefore = eventsPerWrite.length;
    rooms.send(room, 'tick', { n });
    // One microtask later: no timer, no I/O callback and no immediate has run in between.
    await Promise.resolve();
    expect(eventsPerWrite.length - writesBefore).toBe(boards.length);
  }
  await waitFor(() => boards.every((board) => board.received.length === 3), { message: 'every board has the three events' });
  for (const board of boards) expect(board.received).toEqual(range(0, 3));
});

it('lets the event loop turn while a room keeps failing, and hands the event over once it no longer fails', async () => {
  const board = await connectBoard();
  const room = 'competition-9';
  rooms.join(room, board.serverSocket);
  // An adapter fault: the room's members cannot be read, so every pass over the room throws. It
  // clears by itself after 50 failures, so that a broadcaster retrying without letting the event
  // loop turn fails the check below instead of hanging the test.
  const adapterRooms = io.sockets.adapter.rooms;
  const membersOf = adapterRooms.get.bind(adapterRooms);
  let failures = 0;
  adapterRooms.get = (name) => {
    if (name === room && failures < 50) {
      failures += 1;
      throw new Error('adapter fault');
    }
    return membersOf(name);
  };
  try {
    rooms.send(room, 'tick', { n: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    // The event loop reached this immediate after the first failure: the retry waits its turn.
    expect(problems).toEqual(['error: Error: adapter fault']);
    failures = 50;
  } finally {
    Reflect.deleteProperty(adapterRooms, 'get');
  }
  await waitFor(() => board.received.length > 0, { message: 'the board has the event' });
  expect(board.received).toEqual([0]);
  problems.length = 0;
});
