/**
 * The scoreboard process of `npm run bench`: M clients in one event room, recording what each
 * receives with a monotonic timestamp. Forked by bench/run.ts so that decoding thousands of events a
 * second competes neither with the server's event loop nor with the portals' timers.
 *
 * Two kinds of client. `socket.io` is the real socket.io-client the scoreboard page runs (the live
 * phase's 50 boards). `wire` speaks just enough Engine.IO 4 / Socket.IO 5 over a bare `ws` socket for
 * the fan-out phase's thousands: socket.io-client costs ~21 µs of CPU per received message, so 5,000
 * boards at 20 saves/s would need two cores of their own on a two-core machine, and the bench would
 * measure the clients instead of the server. The server cannot tell the two apart.
 *
 * `process.hrtime` reads CLOCK_MONOTONIC, which is one clock for every process on the machine: a
 * reception here and a request sent in the runner are on the same time axis.
 */
import { io as connect } from 'socket.io-client';
import WebSocket from 'ws';
import { analyzeDelivery, type DeliveryReport, type SentRequests } from './delivery.js';

export type ScoreboardCommand =
  | { type: 'connect'; group: string; url: string; eventId: number; count: number; addressBase?: number; client?: BoardClient }
  | { type: 'reset'; group: string }
  | { type: 'await'; group: string; expectedPerClient: number; quietMs: number; timeoutMs: number }
  | { type: 'analyze'; group: string; base: string; sent: SentRequests; checkSeq: boolean; samples?: boolean }
  | { type: 'close'; group: string }
  | { type: 'stop' };

export type ScoreboardReply =
  | { type: 'connected'; count: number }
  | { type: 'reset'; cpuMs: number }
  | { type: 'awaited'; minReceived: number; maxReceived: number }
  | { type: 'analyzed'; report: DeliveryReport; cpuMs: number }
  | { type: 'closed' }
  | { type: 'error'; message: string };

/** `live`: a spectator's phone on the bare websocket, joined with `join-live` (public instances serve no other channel). */
export type BoardClient = 'socket.io' | 'wire' | 'live';

interface Board {
  close(): void;
  scoreIds: number[];
  seqs: number[];
  finals: Array<number | null>;
  receivedAt: bigint[];
  /** Last seq received, across phases: what a real scoreboard rejoins with. */
  lastSeq: number | null;
  reconnects: number;
}

/** Boards by group: one group per event room the runner watches. */
const groups = new Map<string, Board[]>();

function boardsOf(group: string): Board[] {
  let boards = groups.get(group);
  if (!boards) groups.set(group, (boards = []));
  return boards;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function reply(message: ScoreboardReply): void {
  process.send?.(message);
}

/** Connects in batches: thousands of simultaneous handshakes would measure the handshake, not delivery. */
const CONNECT_BATCH = 100;

/**
 * With `addressBase`, board i connects from its own loopback address 127.<addressBase>.<i / 250>.<i % 250 + 1>:
 * thousands of scoreboards are thousands of devices, and the server's per-address message limits
 * (src/realtime/limits.ts) would otherwise refuse their joins as one flooding address.
 */
async function connectBoards(
  boards: Board[],
  url: string,
  eventId: number,
  count: number,
  addressBase: number | undefined,
  client: BoardClient,
): Promise<void> {
  for (let offset = 0; offset < count; offset += CONNECT_BATCH) {
    const opened = await Promise.all(
      Array.from({ length: Math.min(CONNECT_BATCH, count - offset) }, (_unused, index) => {
        const n = offset + index;
        const localAddress = addressBase === undefined ? undefined : `127.${addressBase}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
        return client === 'socket.io' ? openSocketIoBoard(url, eventId, localAddress) : openWireBoard(url, eventId, localAddress, client);
      }),
    );
    boards.push(...opened);
  }
}

const newBoard = (close: () => void): Board => ({
  close,
  scoreIds: [],
  seqs: [],
  finals: [],
  receivedAt: [],
  lastSeq: null,
  reconnects: 0,
});

interface ScoreUpdated {
  scoreId: number;
  seq?: number;
  finalScore: number | null;
}

function record(board: Board, event: ScoreUpdated): void {
  board.receivedAt.push(process.hrtime.bigint());
  board.scoreIds.push(event.scoreId);
  board.seqs.push(event.seq ?? -1);
  board.finals.push(event.finalScore);
  if (event.seq !== undefined) board.lastSeq = event.seq;
}

async function openSocketIoBoard(url: string, eventId: number, localAddress: string | undefined): Promise<Board> {
  // Like the real scoreboard: reconnect by itself and rejoin with `since`, so a client the server
  // drops for not reading fast enough (src/realtime/gateway.ts) still gets every event once.
  const socket = connect(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 1_000,
    ...(localAddress ? { localAddress } : {}),
  } as Parameters<typeof connect>[1]);
  const board = newBoard(() => socket.close());
  socket.on('score-updated', (event: ScoreUpdated) => record(board, event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  socket.io.on('reconnect', () => {
    board.reconnects += 1;
    socket.emit('join-competition', board.lastSeq === null ? { eventId } : { eventId, since: board.lastSeq });
  });
  const ack = (await socket.timeout(10_000).emitWithAck('join-competition', { eventId })) as { ok: boolean; error?: string };
  if (!ack.ok) throw new Error(`join-competition refused: ${ack.error}`);
  return board;
}

const SCORE_UPDATED = '42["score-updated",';
const JOIN_REFUSED = '42["join-refused",';
const LIVE_SCORE = '42["live-update",{"seq":';
const SCOREBOARD_KEYS = { scoreId: '"scoreId":', finalScore: '"finalScore":' };
/** A spectator's `live-update` of a score (src/realtime/spectators.ts): `sid` the score row, `v` its final. */
const LIVE_KEYS = { scoreId: '"sid":', finalScore: '"v":' };

/**
 * The three fields a board records, read from the message text without JSON.parse (which alone costs
 * ~4 µs of the client's ~10 µs per message): top-level number-or-null members of the payload, whose
 * names no nested member of a score-updated payload uses.
 */
function scoreUpdatedFields(text: string, keys: { scoreId: string; finalScore: string } = SCOREBOARD_KEYS): ScoreUpdated {
  const member = (key: string) => {
    const at = text.indexOf(key);
    if (at < 0) return undefined;
    let end = at + key.length;
    while (end < text.length && text[end] !== ',' && text[end] !== '}') end++;
    const raw = text.slice(at + key.length, end);
    return raw === 'null' ? null : Number(raw);
  };
  return { scoreId: member(keys.scoreId) ?? -1, seq: member('"seq":') ?? undefined, finalScore: member(keys.finalScore) ?? null };
}

/**
 * A scoreboard over a bare websocket: the Engine.IO handshake arrives as "0{…}", the server's ping
 * "2" is answered with "3", the Socket.IO connect "40" carries the join in its auth (the gateway
 * joins the handshake's eventId, replaying from `since`), and only `42["score-updated",…]` is
 * decoded. A `live` client (a spectator's phone) connects bare and joins with `join-live`, and
 * decodes only its score `live-update`s. On close it reconnects and rejoins with the last seq it
 * has, as the real board does. Resolves once the board is in the room.
 */
function openWireBoard(url: string, eventId: number, localAddress: string | undefined, client: 'wire' | 'live'): Promise<Board> {
  const address = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  let socket: WebSocket;
  let closing = false;
  const board = newBoard(() => {
    closing = true;
    socket.close();
  });
  return new Promise<Board>((resolve, reject) => {
    let opened = false;
    let retryMs = 100;
    const open = () => {
      socket = new WebSocket(address, localAddress ? { localAddress } : {});
      socket.on('message', (data: Buffer) => {
        const text = data.toString();
        if (client === 'wire' && text.startsWith(SCORE_UPDATED)) return record(board, scoreUpdatedFields(text));
        if (client === 'live' && text.startsWith(LIVE_SCORE) && text.includes('"type":"score"'))
          return record(board, scoreUpdatedFields(text, LIVE_KEYS));
        if (text === '2') return socket.send('3');
        const join = board.lastSeq === null ? { eventId } : { eventId, since: board.lastSeq };
        if (text.startsWith('0')) return socket.send(client === 'wire' ? `40${JSON.stringify(join)}` : '40');
        // The spectator's join goes after the connect, with an ack id; its ack "430[…]" says whether it is in the room.
        if (client === 'live' && text.startsWith('40')) return socket.send(`420${JSON.stringify(['join-live', join])}`);
        if (client === 'live' && text.startsWith('430[') && !text.includes('"ok":true')) return socket.close();
        if (text.startsWith(client === 'wire' ? '40' : '430[')) {
          retryMs = 100;
          if (!opened) resolve(board);
          opened = true;
          return;
        }
        // Refused (too many joins at once, replay queue full): connect again later, as after a drop.
        if (text.startsWith(JOIN_REFUSED)) socket.close();
      });
      socket.on('error', (error) => {
        if (!opened) reject(error);
      });
      socket.on('close', () => {
        if (closing || !opened) return;
        board.reconnects += 1;
        setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, 1_000);
      });
    };
    open();
  });
}

function clear(boards: readonly Board[]): void {
  for (const board of boards) {
    board.scoreIds = [];
    board.seqs = [];
    board.finals = [];
    board.receivedAt = [];
    board.reconnects = 0;
  }
}

/** Until every board has `expected` events, or nothing arrived for `quietMs`, or the deadline. */
async function awaitDelivery(boards: readonly Board[], expected: number, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastTotal = -1;
  let lastChange = Date.now();
  for (;;) {
    const counts = boards.map((board) => board.scoreIds.length);
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (total !== lastTotal) {
      lastTotal = total;
      lastChange = Date.now();
    }
    if (counts.every((count) => count >= expected) || Date.now() - lastChange > quietMs || Date.now() > deadline) {
      reply({ type: 'awaited', minReceived: Math.min(...counts), maxReceived: Math.max(...counts) });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

process.on('message', (command: ScoreboardCommand) => {
  void (async () => {
    try {
      switch (command.type) {
        case 'connect':
          await connectBoards(
            boardsOf(command.group),
            command.url,
            command.eventId,
            command.count,
            command.addressBase,
            command.client ?? 'socket.io',
          );
          return reply({ type: 'connected', count: boardsOf(command.group).length });
        case 'reset':
          clear(boardsOf(command.group));
          return reply({ type: 'reset', cpuMs: cpuMs() });
        case 'await':
          return await awaitDelivery(boardsOf(command.group), command.expectedPerClient, command.quietMs, command.timeoutMs);
        case 'analyze': {
          const base = BigInt(command.base);
          const received = boardsOf(command.group).map((board) => ({
            scoreIds: board.scoreIds,
            seqs: board.seqs,
            finals: board.finals,
            receivedMs: board.receivedAt.map((at) => Number(at - base) / 1e6),
          }));
          const reconnects = boardsOf(command.group).reduce((sum, board) => sum + board.reconnects, 0);
          const cpuAtEnd = cpuMs();
          return reply({
            type: 'analyzed',
            report: { ...analyzeDelivery(command.sent, received, command.checkSeq, command.samples === true), reconnects },
            cpuMs: cpuAtEnd,
          });
        }
        case 'close':
          for (const board of boardsOf(command.group)) board.close();
          groups.delete(command.group);
          return reply({ type: 'closed' });
        case 'stop':
          for (const board of [...groups.values()].flat()) board.close();
          return process.exit(0);
      }
    } catch (error) {
      reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
