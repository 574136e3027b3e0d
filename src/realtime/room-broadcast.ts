import type { Server, Socket } from 'socket.io';
import WebSocket from 'ws';

/**
 * Live events to every socket of a room at a cost per socket of about one write.
 *
 * `io.to(room).emit` encodes a broadcast once, but then runs the whole per-socket engine.io path for
 * every socket and event (packet objects, packetCreate/flush/drain events, transport.send, a corked
 * write). With thousands of scoreboards that path is the server's cost (~18 µs per delivered message).
 * Here the relay's deliveries are collected per room and sent once per event-loop turn: each event is
 * encoded and framed once, the frames of the turn are joined into one buffer, and that buffer is
 * handed to each socket's websocket in one write. A relay pass that delivers k events is one write
 * per socket instead of k trips through engine.io.
 *
 * Socket.IO features a broadcast could use and this app does not: ack ids (live events are never
 * acknowledged), `socket.onAnyOutgoing` listeners (`notifyOutgoingListeners`; nothing registers
 * one), volatile/compress flags, binary payloads (events are JSON; a packet that does not encode to
 * one string goes the ordinary way).
 */
export interface RoomBroadcaster {
  /** Queues one event for the room; it goes out with the others of this event-loop turn. */
  send(room: string, topic: string, message: unknown): void;
  /** Sends what is queued for the room now: before a socket that has replayed joins it. */
  flush(room: string): void;
  /** Drops what is queued (the server is closing). */
  close(): void;
}

export interface RoomBroadcastOptions {
  /** A socket holding more unsent bytes than this after a write is handed to `onStalled`. */
  maxQueuedBytes: number;
  onStalled(socket: Socket, queuedBytes: number): void;
  /** Told once at start when the internals below are not what this module was written against. */
  onFallback(reason: string): void;
  /** A room whose flush threw (the relay's own call to the subscriber is no longer on the stack to catch it). */
  onError(error: unknown, room: string): void;
}

/**
 * A flush that took d ms is followed by the next one no sooner than FLUSH_SPACING × d after it
 * started, so writing to a big room takes at most half of the event loop and what arrives meanwhile
 * goes out together. A room of a few hundred boards (a flush well under a millisecond) is not
 * delayed measurably; 5,000 boards (a flush of ~80 ms here, one write syscall per board) get the
 * events of ~160 ms in one write each instead of one write per event, which is what keeps the server
 * and the boards out of saturation (docs/performance.md, issue 18).
 */
const FLUSH_SPACING = 2;
/**
 * Queued events that do not wait for the spacing: a relay catching up delivers slices of hundreds
 * of events, and holding several of them would hand each board more than the stall limit in one write.
 */
const PROMPT_FLUSH_EVENTS = 100;

interface Queued {
  topic: string;
  message: unknown;
}

export function createRoomBroadcaster(io: Server, options: RoomBroadcastOptions): RoomBroadcaster {
  const framer = checkedFramer(io);
  if (typeof framer === 'string') options.onFallback(framer);

  const pending = new Map<string, Queued[]>();
  let cancelScheduled: (() => void) | null = null;
  let timerScheduled = false;
  let queuedEvents = 0;
  // performance.now() of the earliest next flush.
  let nextFlushAt = 0;

  const socketsOf = function* (room: string): Generator<Socket> {
    for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
      const socket = io.sockets.sockets.get(id);
      if (socket) yield socket;
    }
  };

  const checkStalled = (socket: Socket) => {
    const queued = queuedBytes(socket.conn);
    if (queued > options.maxQueuedBytes && socket.conn.readyState === 'open') options.onStalled(socket, queued);
  };

  /** Socket.IO's own way, event by event, for a room whose events cannot be pre-framed. */
  const emitEach = (room: string, events: readonly Queued[]) => {
    for (const event of events) io.to(room).emit(event.topic, event.message);
    for (const socket of socketsOf(room)) checkStalled(socket);
  };

  const flushRoom = (room: string, events: readonly Queued[]) => {
    const frames = typeof framer === 'string' ? null : frameAll(framer, events);
    if (frames === null) return emitEach(room, events);
    for (const socket of socketsOf(room)) {
      const websocket = directWebsocket(socket.conn);
      if (websocket) {
        websocket._sender.sendFrame([frames]);
        if (websocket.bufferedAmount > options.maxQueuedBytes && socket.conn.readyState === 'open')
          options.onStalled(socket, websocket.bufferedAmount);
      } else {
        // Polling, upgrading, or engine.io still holding packets: it keeps the order.
        for (const event of events) socket.emit(event.topic, event.message);
        checkStalled(socket);
      }
    }
  };

  const flushAll = () => {
    cancelScheduled = null;
    queuedEvents = 0;
    const started = performance.now();
    const rooms = [...pending];
    pending.clear();
    for (const [room, events] of rooms) {
      try {
        flushRoom(room, events);
      } catch (error) {
        options.onError(error, room);
      }
    }
    nextFlushAt = started + FLUSH_SPACING * (performance.now() - started);
  };

  return {
    send(room, topic, message) {
      let events = pending.get(room);
      if (!events) pending.set(room, (events = []));
      events.push({ topic, message });
      queuedEvents += 1;
      if (cancelScheduled && !(timerScheduled && queuedEvents >= PROMPT_FLUSH_EVENTS)) return;
      cancelScheduled?.();
      const wait = queuedEvents >= PROMPT_FLUSH_EVENTS ? 0 : nextFlushAt - performance.now();
      timerScheduled = wait > 0;
      if (wait > 0) {
        const timer = setTimeout(flushAll, wait);
        cancelScheduled = () => clearTimeout(timer);
      } else {
        const immediate = setImmediate(flushAll);
        cancelScheduled = () => clearImmediate(immediate);
      }
    },
    flush(room) {
      const events = pending.get(room);
      if (!events) return;
      pending.delete(room);
      flushRoom(room, events);
    },
    close() {
      cancelScheduled?.();
      cancelScheduled = null;
      pending.clear();
    },
  };
}

/** Everything to send, framed: the frames of all events one after another in one buffer. */
function frameAll(framer: Framer, events: readonly Queued[]): Buffer | null {
  const parts: Buffer[] = [];
  for (const event of events) {
    const frame = framer(event.topic, event.message);
    if (frame === null) return null;
    parts.push(...frame);
  }
  return Buffer.concat(parts);
}

/** One event as the websocket frame Socket.IO would send for it: [header, payload], or null (binary). */
type Framer = (topic: string, message: unknown) => Buffer[] | null;

/** Socket.IO packet type EVENT (socket.io-parser `PacketType.EVENT`). */
const EVENT = 2;

/**
 * The framing socket.io-adapter uses for a broadcast (in-memory-adapter.js `_encode`): the server's
 * encoder, engine.io's message type "4" in front, `WebSocket.Sender.frame` unmasked, text, final.
 * Checked once at start: a string that does not come out as Socket.IO 4.8.3 frames it means a
 * changed dependency, and the room goes back to `io.to(room).emit`. Returns the reason otherwise.
 */
function checkedFramer(io: Server): Framer | string {
  const frame: unknown = Reflect.get(WebSocket, 'Sender') && Reflect.get(Reflect.get(WebSocket, 'Sender') as object, 'frame');
  if (typeof frame !== 'function') return 'ws has no Sender.frame';
  if (io.engine.opts.perMessageDeflate) return 'perMessageDeflate is on: frames would have to be compressed per socket';
  const framer: Framer = (topic, message) => {
    const encoded: unknown[] = io.encoder.encode({ type: EVENT, data: [topic, message], nsp: '/' });
    if (encoded.length !== 1 || typeof encoded[0] !== 'string') return null;
    const list: unknown = Reflect.apply(frame, undefined, [
      Buffer.from('4' + encoded[0]),
      { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true },
    ]);
    return list as Buffer[];
  };
  const probe = framer('probe', { a: 1 });
  const payload = Buffer.from('42["probe",{"a":1}]');
  const expected = Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
  if (!probe || probe.length !== 2 || !Buffer.concat(probe).equals(expected)) return 'the encoder or ws frames a broadcast differently';
  if (typeof Reflect.get(Reflect.get(WebSocket, 'Sender') as object, 'prototype')?.sendFrame !== 'function')
    return 'ws Sender has no sendFrame';
  return framer;
}

/** What this module needs of a ws WebSocket: public `readyState`/`bufferedAmount` and the internal sender. */
interface RawWebsocket {
  readyState: number;
  bufferedAmount: number;
  /** ws's `Sender#sendFrame(list)`: writes list[0] and, corked with it, list[1]; nothing beyond. */
  _sender: { sendFrame(list: Buffer[]): void };
}

/**
 * The one place that reads engine.io's and ws's internals, checked against socket.io 4.8.3,
 * engine.io 6.6.11 and ws 8.21.3. engine.io's `writeBuffer` holds the packets it has not yet handed
 * to the transport; the websocket transport's `socket` is the ws WebSocket, whose `_sender.sendFrame`
 * is what engine.io itself calls for a pre-framed broadcast (transports/websocket.js). Anything not
 * shaped like that reads as "no websocket, nothing pending", so the caller takes Socket.IO's way.
 */
function rawConnection(connection: Socket['conn']): { writeBuffer: ReadonlyArray<{ data?: unknown }>; websocket: RawWebsocket | null } {
  const writeBuffer: unknown = Reflect.get(connection, 'writeBuffer');
  const socket: unknown = connection.transport?.name === 'websocket' ? Reflect.get(connection.transport, 'socket') : undefined;
  const sender: unknown = typeof socket === 'object' && socket !== null ? Reflect.get(socket, '_sender') : undefined;
  const usable =
    typeof sender === 'object' &&
    sender !== null &&
    typeof Reflect.get(sender, 'sendFrame') === 'function' &&
    typeof Reflect.get(socket as object, 'bufferedAmount') === 'number';
  return {
    writeBuffer: Array.isArray(writeBuffer) ? (writeBuffer as Array<{ data?: unknown }>) : [],
    websocket: usable ? (socket as RawWebsocket) : null,
  };
}

/**
 * The connection's websocket when bytes written to it now follow everything engine.io has sent:
 * the connection is open on the websocket transport (not polling, not mid-upgrade) and engine.io
 * holds no packet of its own. Null otherwise.
 */
function directWebsocket(connection: Socket['conn']): RawWebsocket | null {
  if (connection.readyState !== 'open' || connection.upgrading) return null;
  const raw = rawConnection(connection);
  return raw.websocket && raw.writeBuffer.length === 0 && raw.websocket.readyState === WebSocket.OPEN ? raw.websocket : null;
}

const byteLength = (data: unknown) => (typeof data === 'string' || Buffer.isBuffer(data) ? data.length : 0);

/** Output the client has not taken: engine.io's unsent packets plus what ws and the kernel socket hold. */
export function queuedBytes(connection: Socket['conn']): number {
  const raw = rawConnection(connection);
  let queued = raw.websocket?.bufferedAmount ?? 0;
  for (const packet of raw.writeBuffer) queued += byteLength(packet.data);
  return queued;
}

/** engine.io's packets not yet handed to the transport. */
export const pendingPackets = (connection: Socket['conn']) => rawConnection(connection).writeBuffer.length;

/** The bytes ws holds that the kernel has not taken; undefined for polling, which has no such queue. */
export const unsentBytes = (connection: Socket['conn']) => rawConnection(connection).websocket?.bufferedAmount;
