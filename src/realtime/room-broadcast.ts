import type { Server, Socket } from 'socket.io';
import WebSocket from 'ws';

/**
 * Live events to every socket of a room at a cost per socket of about one write.
 *
 * `io.to(room).emit` encodes a broadcast once, but then runs the whole per-socket engine.io path for
 * every socket and event (packet objects, packetCreate/flush/drain events, transport.send, a corked
 * write). With thousands of scoreboards that path is the server's cost (~18 µs per delivered message).
 * Here each event is encoded and framed once, when the relay hands it over, and kept in its room's
 * log. A pass walks the room's sockets and hands each one, in one write to its websocket, every
 * event of the log it has not had yet. k events since a socket's last visit are one write instead
 * of k trips through engine.io.
 *
 * The pass is cut into slices of SLICE_MS, and a slice that took d ms is followed by the next no
 * sooner than `flushSpacing` × d after it began: writing to a big room takes a bounded share of the
 * event loop, commands and the relay run between slices, and a board waits at most one pass for an
 * event (~160 ms at 5,000 boards here) instead of a whole spacing plus its place in a flush.
 *
 * Socket.IO features a broadcast could use and this app does not: ack ids (live events are never
 * acknowledged), `socket.onAnyOutgoing` listeners (`notifyOutgoingListeners`; nothing registers
 * one), volatile/compress flags, binary payloads (events are JSON; a packet that does not encode to
 * one string goes the ordinary way).
 */
export interface RoomBroadcaster {
  /** Logs one event for the room; every socket in the room gets it at its next visit. */
  send(room: string, topic: string, message: unknown): void;
  /**
   * Puts the socket into the room: it gets every event sent from now on and none sent before (a
   * replay has given it those, or it asked only for what comes next).
   */
  join(room: string, socket: Socket): void;
  /** Drops what is logged (the server is closing). */
  close(): void;
}

export interface RoomBroadcastOptions {
  /** A slice of a pass that took d ms is followed by the next no sooner than this × d after it began. */
  flushSpacing: number;
  /** A socket holding more unsent bytes than this after a write is handed to `onStalled`. */
  maxQueuedBytes: number;
  onStalled(socket: Socket, queuedBytes: number): void;
  /** Told once at start when the internals below are not what this module was written against. */
  onFallback(reason: string): void;
  /** A room whose delivery threw (the relay's own call to the subscriber is no longer on the stack to catch it). */
  onError(error: unknown, room: string): void;
}

/**
 * The hall's spacing: writing to a room takes at most half of the event loop, the other half is the
 * saves'. At 5,000 boards (~80 ms of writes, one write syscall per board) a board gets the events
 * of ~160 ms in one write instead of one write per event, which is what keeps the server and the
 * boards out of saturation (docs/performance.md, "Room broadcast for fan-out").
 */
export const HALL_FLUSH_SPACING = 2;
/**
 * A public instance's spacing: it takes no saves, so writing may take four fifths of its event
 * loop; the rest serves page loads and joins (docs/performance.md, "A public instance's share").
 */
export const PUBLIC_FLUSH_SPACING = 1.25;
/**
 * A slice shorter than this is followed by no spacing: a room of a few hundred boards takes a
 * fraction of a millisecond, and a timer waits a whole millisecond at least, so spacing it delayed
 * the next event by more than the slice itself took.
 */
const UNSPACED_SLICE_MS = 1;
/** How long one slice writes before the event loop gets its turn back. */
const SLICE_MS = 10;
/**
 * Events one write carries at most: a relay catching up delivers slices of hundreds of events, and
 * handing a board all of them at once could put more than the stall limit into one write. A board
 * with more to get is visited again by the next pass.
 */
export const MAX_EVENTS_PER_WRITE = 500;

interface LoggedEvent {
  topic: string;
  message: unknown;
  /** The event's websocket frame, or null when it cannot be pre-framed (binary, or the framer is off). */
  frame: Buffer | null;
}

/** One walk over a room's sockets. */
interface Pass {
  members: Iterator<string>;
  /** The log's end when the pass began: events after it reached only the sockets visited after they came. */
  endAtStart: number;
  /** The lowest position a socket has after its visit or its join during this pass: what the log must keep. */
  lowest: number;
  /** A socket got MAX_EVENTS_PER_WRITE and has more to get. */
  behind: boolean;
}

/** The events of a room not yet handed to every socket in it. Exists while a pass runs. */
interface RoomLog {
  room: string;
  events: LoggedEvent[];
  /** Number of the event in events[0]; a room's events are numbered from 0 in the order sent. */
  base: number;
  /** Null until the room's next slice: a pass begins there, with every event logged until then. */
  pass: Pass | null;
  /** Joined frames by the position they start at, for the log's current end. */
  joined: Map<number, Buffer | null>;
}

export function createRoomBroadcaster(io: Server, options: RoomBroadcastOptions): RoomBroadcaster {
  const framer = checkedFramer(io);
  if (typeof framer === 'string') options.onFallback(framer);

  /** Events ever sent per room: the position a joining socket starts at. Only rooms the relay sent to. */
  const sent = new Map<string, number>();
  /** Per socket and room, the number of the first event it has not been handed. */
  const positions = new WeakMap<Socket, Map<string, number>>();
  /** Rooms with a pass under way, in the order their slices take turns. */
  const logs = new Map<string, RoomLog>();
  let cancelScheduled: (() => void) | null = null;
  // performance.now() of the earliest next slice.
  let nextSliceAt = 0;

  const endOf = (log: RoomLog) => log.base + log.events.length;

  /**
   * A socket that joins while the pass runs starts at the log's end, which is at least `endAtStart`:
   * whether the pass visits it or not, the log keeps what it lacks.
   */
  const passFrom = (room: string, end: number): Pass => ({
    members: (io.sockets.adapter.rooms.get(room) ?? new Set<string>()).values(),
    endAtStart: end,
    lowest: end,
    behind: false,
  });

  const checkStalled = (socket: Socket) => {
    const queued = queuedBytes(socket.conn);
    if (queued > options.maxQueuedBytes && socket.conn.readyState === 'open') options.onStalled(socket, queued);
  };

  /** The frames of events [from, end) in one buffer (ws writes one buffer in one call), or null if one has none. */
  const framesFrom = (log: RoomLog, from: number, upTo: number): Buffer | null => {
    let joined = log.joined.get(from);
    if (joined === undefined) {
      const frames = log.events.slice(from - log.base, upTo - log.base).map((event) => event.frame);
      joined = frames.every((frame) => frame !== null) ? Buffer.concat(frames as Buffer[]) : null;
      log.joined.set(from, joined);
    }
    return joined;
  };

  const deliver = (socket: Socket, log: RoomLog, from: number, upTo: number) => {
    const websocket = directWebsocket(socket.conn);
    const frames = websocket ? framesFrom(log, from, upTo) : null;
    if (websocket && frames) {
      websocket._sender.sendFrame([frames]);
      if (websocket.bufferedAmount > options.maxQueuedBytes && socket.conn.readyState === 'open')
        options.onStalled(socket, websocket.bufferedAmount);
      return;
    }
    // Polling, upgrading, engine.io still holding packets, or events that cannot be pre-framed:
    // engine.io's own path, which keeps the order.
    for (let position = from; position < upTo; position++) {
      const event = log.events[position - log.base]!;
      socket.emit(event.topic, event.message);
    }
    checkStalled(socket);
  };

  const visit = (log: RoomLog, pass: Pass, socket: Socket) => {
    const known = positions.get(socket);
    const from = known?.get(log.room);
    // Every socket enters a room through join(), which records where it starts.
    if (known === undefined || from === undefined) return;
    const end = endOf(log);
    const upTo = Math.min(end, from + MAX_EVENTS_PER_WRITE);
    pass.lowest = Math.min(pass.lowest, upTo);
    if (upTo < end) pass.behind = true;
    if (from === upTo) return;
    // Recorded before the write: a write that throws must not hold the log back for everyone.
    known.set(log.room, upTo);
    deliver(socket, log, from, upTo);
  };

  /** Drops what every socket has had; starts the next pass if a socket may lack something. False when the room is done. */
  const endPass = (log: RoomLog, pass: Pass): boolean => {
    const { lowest, endAtStart, behind } = pass;
    log.events.splice(0, lowest - log.base);
    log.base = lowest;
    log.joined.clear();
    if (endOf(log) === endAtStart && !behind) {
      logs.delete(log.room);
      return false;
    }
    log.pass = null;
    return true;
  };

  /** Walks the room's sockets until the deadline or the room is done. */
  const advance = (log: RoomLog, deadline: number) => {
    for (;;) {
      const pass = (log.pass ??= passFrom(log.room, endOf(log)));
      const next = pass.members.next();
      if (next.done) {
        if (!endPass(log, pass)) return;
        continue;
      }
      const socket = io.sockets.sockets.get(next.value);
      if (socket) visit(log, pass, socket);
      if (performance.now() >= deadline) return;
    }
  };

  const runSlice = () => {
    cancelScheduled = null;
    const started = performance.now();
    const deadline = started + SLICE_MS;
    for (const log of [...logs.values()]) {
      try {
        advance(log, deadline);
      } catch (error) {
        options.onError(error, log.room);
      }
      // The rooms take turns: one still under way goes behind the others.
      if (logs.get(log.room) === log) {
        logs.delete(log.room);
        logs.set(log.room, log);
      }
      if (performance.now() >= deadline) break;
    }
    const took = performance.now() - started;
    nextSliceAt = took < UNSPACED_SLICE_MS ? 0 : started + options.flushSpacing * took;
    schedule(true);
  };

  /**
   * A slice that is due when events are sent runs in a microtask: after the relay has logged every
   * event it is handing over in this turn (one write per board for all of them), before the event
   * loop turns to other I/O, as an emit right after the commit would. An immediate waited behind
   * the turn's other callbacks (the portals' requests, the database's answers). What a slice leaves
   * to do goes through the event loop: a room whose pass keeps failing must not take it over.
   */
  const schedule = (afterSlice = false) => {
    if (cancelScheduled || logs.size === 0) return;
    const wait = nextSliceAt - performance.now();
    if (wait > 0) {
      const timer = setTimeout(runSlice, wait);
      cancelScheduled = () => clearTimeout(timer);
    } else if (afterSlice) {
      const immediate = setImmediate(runSlice);
      cancelScheduled = () => clearImmediate(immediate);
    } else {
      let cancelled = false;
      queueMicrotask(() => {
        if (!cancelled) runSlice();
      });
      cancelScheduled = () => {
        cancelled = true;
      };
    }
  };

  const frameOf = (topic: string, message: unknown): Buffer | null => {
    if (typeof framer === 'string') return null;
    const frame = framer(topic, message);
    return frame && Buffer.concat(frame);
  };

  return {
    send(room, topic, message) {
      let log = logs.get(room);
      if (!log) {
        log = { room, events: [], base: sent.get(room) ?? 0, pass: null, joined: new Map() };
        logs.set(room, log);
      }
      log.events.push({ topic, message, frame: frameOf(topic, message) });
      log.joined.clear();
      sent.set(room, endOf(log));
      schedule();
    },
    join(room, socket) {
      let known = positions.get(socket);
      if (!known) positions.set(socket, (known = new Map()));
      known.set(room, sent.get(room) ?? 0);
      void socket.join(room);
    },
    close() {
      cancelScheduled?.();
      cancelScheduled = null;
      logs.clear();
    },
  };
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
