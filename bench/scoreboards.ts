/**
 * The scoreboard process of `npm run bench`: M Socket.IO clients in one event room, recording what
 * each receives with a monotonic timestamp. Forked by bench/run.ts so that decoding thousands of
 * events a second competes neither with the server's event loop nor with the portals' timers.
 *
 * `process.hrtime` reads CLOCK_MONOTONIC, which is one clock for every process on the machine: a
 * reception here and a request sent in the runner are on the same time axis.
 */
import { io as connect, type Socket } from 'socket.io-client';
import { analyzeDelivery, type DeliveryReport, type SentRequests } from './delivery.js';

export type ScoreboardCommand =
  | { type: 'connect'; group: string; url: string; eventId: number; count: number; addressBase?: number }
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

interface Board {
  socket: Socket;
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
async function connectBoards(boards: Board[], url: string, eventId: number, count: number, addressBase?: number): Promise<void> {
  for (let done = 0; done < count; done += CONNECT_BATCH)
    await connectBatch(boards, url, eventId, Math.min(CONNECT_BATCH, count - done), addressBase, done);
}

async function connectBatch(
  boards: Board[],
  url: string,
  eventId: number,
  count: number,
  addressBase: number | undefined,
  offset: number,
): Promise<void> {
  const opened = await Promise.all(
    Array.from({ length: count }, async (_unused, index) => {
      const n = offset + index;
      const localAddress = addressBase === undefined ? undefined : `127.${addressBase}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
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
      const board: Board = { socket, scoreIds: [], seqs: [], finals: [], receivedAt: [], lastSeq: null, reconnects: 0 };
      socket.on('score-updated', (event: { scoreId: number; seq?: number; finalScore: number | null }) => {
        board.receivedAt.push(process.hrtime.bigint());
        board.scoreIds.push(event.scoreId);
        board.seqs.push(event.seq ?? -1);
        board.finals.push(event.finalScore);
        if (event.seq !== undefined) board.lastSeq = event.seq;
      });
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
    }),
  );
  boards.push(...opened);
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
          await connectBoards(boardsOf(command.group), command.url, command.eventId, command.count, command.addressBase);
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
          for (const board of boardsOf(command.group)) board.socket.close();
          groups.delete(command.group);
          return reply({ type: 'closed' });
        case 'stop':
          for (const board of [...groups.values()].flat()) board.socket.close();
          return process.exit(0);
      }
    } catch (error) {
      reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
