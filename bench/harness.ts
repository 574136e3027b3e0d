/**
 * What every scenario of `npm run bench` shares: HTTP helpers, the server's counters, CPU per
 * operation from /proc, the scoreboard process's commands and the exactly-once check of a phase.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import type { EmbeddedDatabase } from '../src/db/embedded.js';
import type { WithTables } from '../src/db/pool.js';
import type { DeliveryReport, SentRequests } from './delivery.js';
import type { PortalTarget } from './portals.js';
import type { Child } from './processes.js';
import type { ScoreboardCommand, ScoreboardReply } from './scoreboards.js';
import type { BenchData } from './seed.js';

// ---------------------------------------------------------------------------------------------
// HTTP helpers (keep-alive, one request at a time: the read and squad figures are per request).

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface Timed {
  status: number;
  ms: number;
  bytes: number;
  body: string;
}

export function timedRequest(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Timed> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            bytes: text.length,
            body: text.toString('utf8'),
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export async function json<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const reply = await timedRequest(method, url, body);
  if (reply.status !== 200) throw new Error(`${method} ${url}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return JSON.parse(reply.body) as T;
}

// ---------------------------------------------------------------------------------------------
// What the server process reports.

export interface ServerStats {
  cpuMs: number;
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  statements: Record<string, number>;
  naiveEmitted: number;
  /** Commits of the bare-upsert ceiling route. */
  ceilingUpserts: number;
  relay: { delivered: number; cursor: number };
  sockets: number;
}

export interface StatementCounts {
  /** Statements of request handlers (pool connections, minus the relay's reads). */
  request: number;
  /** The relay's reads of sequenced rows (pool connections). */
  relayReads: number;
  /** The sequencer's connection: unsequenced ids, numbering, advisory lock. */
  sequencer: number;
  total: number;
  byStatement: Record<string, number>;
}

export const RELAY_READS = [/^SELECT seq, topic, event_id, source, payload FROM/, /^SELECT COALESCE\(max\(seq\), 0\)/];

export function classify(statements: Record<string, number>): StatementCounts {
  const counts: StatementCounts = { request: 0, relayReads: 0, sequencer: 0, total: 0, byStatement: statements };
  for (const [key, count] of Object.entries(statements)) {
    const [role, text = ''] = key.split('\t');
    counts.total += count;
    if (role === 'gym-competition-service') {
      if (RELAY_READS.some((pattern) => pattern.test(text))) counts.relayReads += count;
      else counts.request += count;
    } else if (role?.endsWith(':sequencer')) counts.sequencer += count;
  }
  return counts;
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * CPU time of the PostgreSQL server so far (postmaster, its live children, and the children it has
 * reaped), from /proc; NaN where there is none. CPU per operation stays comparable on a machine
 * whose other tenants make wall-clock figures jump.
 */
export function postgresCpuMs(pgDataDir: string): number {
  try {
    const postmaster = Number(readFileSync(path.join(pgDataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const ticksPerSecond = 100;
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // Fields after "pid (comm) ": state, ppid, ..., utime (index 11), stime, cutime, cstime.
      const fields = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      if (Number(entry) === postmaster) ticks += fields[11]! + fields[12]! + fields[13]! + fields[14]!;
      else if (fields[1] === postmaster) ticks += fields[11]! + fields[12]!;
    }
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

export interface CpuMark {
  server: number;
  postgres: number;
}

// ---------------------------------------------------------------------------------------------
// Phases in rounds. The machine is shared, and its speed drifts within a minute: two variants
// measured one after the other differed by as much as two runs of the same code (docs/performance.md,
// "Method"). A comparison therefore runs each variant in rounds that take turns, and merges them.

/**
 * Runs `phase` for every variant in `rounds` rounds, the variants taking turns (the order reversed
 * every other round, so none is always first); returns each variant's rounds in order.
 */
export async function inRounds<V extends string, R>(
  variants: readonly V[],
  rounds: number,
  phase: (variant: V, round: number) => Promise<R>,
): Promise<Map<V, R[]>> {
  const results = new Map<V, R[]>(variants.map((variant) => [variant, []]));
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) results.get(variant)!.push(await phase(variant, round));
  }
  return results;
}

/** Per-operation figures of rounds, weighted by each round's operations: the whole's total over the whole's count. */
export function weightedBy<K extends string>(rounds: ReadonlyArray<{ weight: number; value: Record<K, number> }>): Record<K, number> {
  const total = rounds.reduce((sum, round) => sum + round.weight, 0);
  const keys = Object.keys(rounds[0]!.value) as K[];
  return Object.fromEntries(
    keys.map((key) => [
      key,
      Math.round((rounds.reduce((sum, round) => sum + round.value[key] * round.weight, 0) / Math.max(1, total)) * 1000) / 1000,
    ]),
  ) as Record<K, number>;
}

/** What a delivery report counts: everything but its latencies. */
export type DeliveryCounts = Omit<DeliveryReport, 'latencyMs' | 'clientMedianMs' | 'samplesMs' | 'clientMedianSamplesMs'>;

export function deliveryCounts(report: DeliveryReport): DeliveryCounts {
  const { latencyMs: _latencies, clientMedianMs: _medians, samplesMs: _samples, clientMedianSamplesMs: _medianSamples, ...counts } = report;
  return counts;
}

/** The counts that add up over rounds or over client processes: what was received, lost, duplicated or out of order. */
export function summedCounts(reports: readonly DeliveryCounts[]): Omit<DeliveryCounts, 'clients' | 'expectedPerClient'> {
  const sum = (key: keyof Omit<DeliveryCounts, 'clients' | 'expectedPerClient'>) =>
    reports.reduce((total, report) => total + (report[key] ?? 0), 0);
  return {
    receivedTotal: sum('receivedTotal'),
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    mismatched: sum('mismatched'),
    seqOutOfOrder: sum('seqOutOfOrder'),
    unexpected: sum('unexpected'),
    reconnects: sum('reconnects'),
  };
}

/** A phase's delivery over its rounds: the same boards in every round, each round's events counted. */
export function deliveryOverRounds(rounds: ReadonlyArray<DeliveryCounts & { committed: number }>): DeliveryCounts & { committed: number } {
  return {
    clients: rounds[0]!.clients,
    expectedPerClient: rounds.reduce((total, round) => total + round.expectedPerClient, 0),
    ...summedCounts(rounds),
    committed: rounds.reduce((total, round) => total + round.committed, 0),
  };
}

/** Shares of a core in rounds of equal length: their mean. */
export function meanUtilization(rounds: readonly Utilization[]): Utilization {
  const mean = (key: keyof Utilization) => Math.round((rounds.reduce((sum, round) => sum + round[key], 0) / rounds.length) * 10) / 10;
  return { server: mean('server'), postgres: mean('postgres'), scoreboards: mean('scoreboards'), runner: mean('runner') };
}

/** CPU milliseconds per operation since `before`, server process and PostgreSQL. */
export function cpuPer(before: CpuMark, after: CpuMark, operations: number): CpuMark {
  const per = (value: number) => Math.round((value / Math.max(1, operations)) * 1000) / 1000;
  return { server: per(after.server - before.server), postgres: per(after.postgres - before.postgres) };
}

// ---------------------------------------------------------------------------------------------

export interface Context {
  db: pg.Client & WithTables;
  databaseUrl: string;
  /** The same database over loopback TCP: how the desktop program connects. */
  desktopDatabaseUrl: string;
  pgDataDir: string;
  data: BenchData;
  fieldA: number;
  serviceUrl: string;
  bareUrl: string;
  /** A second app on the service's own fastify stack (same logger, security, error handling) holding the naive write route and the ceilings. */
  serviceStackUrl: string;
  boards: Child<ScoreboardReply>;
  base: bigint;
  adminToken: string;
}

export async function stats(context: Context, gc = false): Promise<ServerStats> {
  return json<ServerStats>('GET', `${context.bareUrl}/bench/stats${gc ? '?gc=1' : ''}`);
}

export async function cpuMark(context: Context): Promise<CpuMark> {
  return { server: (await stats(context)).cpuMs, postgres: postgresCpuMs(context.pgDataDir) };
}

export async function resetCounters(context: Context): Promise<void> {
  await json('POST', `${context.bareUrl}/bench/reset-counters`, {});
}

export async function board<T extends ScoreboardReply['type']>(
  context: Context,
  command: ScoreboardCommand,
  answer: T,
  timeoutMs?: number,
): Promise<Extract<ScoreboardReply, { type: T }>> {
  context.boards.send(command);
  return context.boards.next((message): message is Extract<ScoreboardReply, { type: T }> => message.type === answer, timeoutMs);
}

export async function maxOutboxId(context: Context): Promise<number> {
  const { rows } = await context.db.query<{ id: number }>(`SELECT COALESCE(max(id), 0)::int AS id FROM ${context.db.tables.svc_outbox}`);
  return rows[0]!.id;
}

/** The seqs of the outbox rows appended after `afterId`, once the sequencer has numbered them all. */
export async function sequencedSince(context: Context, afterId: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await context.db.query<{ pending: number; seqs: number[] | null }>(
      `SELECT count(*) FILTER (WHERE seq IS NULL)::int AS pending, array_agg(seq ORDER BY seq) FILTER (WHERE seq IS NOT NULL) AS seqs
         FROM ${context.db.tables.svc_outbox} WHERE id > $1`,
      [afterId],
    );
    if (rows[0]!.pending === 0) return (rows[0]!.seqs ?? []).map(Number);
    if (Date.now() > deadline) throw new Error(`${rows[0]!.pending} outbox rows still unsequenced after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The write paths a phase can drive: the service's route, the naive direct emit (no outbox), and
 * the ceilings: one named upsert, and the minimal outbox command (BEGIN, lock, upsert, outbox
 * insert, COMMIT; named statements) on the service's fastify stack and on a bare fastify instance.
 */
export type Variant = 'service' | 'naive' | 'outbox-ceiling' | 'bare-outbox-ceiling' | 'upsert-ceiling';
/** Variants whose events go through the outbox and the relay (checked by seq). */
export const viaOutbox = (variant: Variant) => variant === 'service' || variant === 'outbox-ceiling' || variant === 'bare-outbox-ceiling';

/**
 * autocannon stops with requests in flight whose commits land after it returned: the phase's
 * expectations are taken once the commit count has stood still for a while.
 */
export async function commitsSettled(context: Context, variant: Variant, outboxBefore: number): Promise<void> {
  const count = async () =>
    viaOutbox(variant)
      ? (
          await context.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${context.db.tables.svc_outbox} WHERE id > $1`, [
            outboxBefore,
          ])
        ).rows[0]!.count
      : variant === 'naive'
        ? (await stats(context)).naiveEmitted
        : (await stats(context)).ceilingUpserts;
  let last = await count();
  for (let still = 0; still < 2;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await count();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

export interface PhaseDelivery {
  report: DeliveryReport;
  /** Server-side commits of the phase (outbox rows, or the naive route's emits). */
  committed: number;
  /** CPU time of the scoreboard process so far. */
  boardsCpuMs: number;
}

/** Share of one core each process used over a phase, in percent: who was the bottleneck. */
export interface Utilization {
  server: number;
  postgres: number;
  scoreboards: number;
  runner: number;
}

export interface PhaseMeter {
  wallMs: number;
  cpu: CpuMark;
  runnerMs: number;
  boardsMs: number;
}

export const runnerCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

export async function startPhase(context: Context, group: string): Promise<PhaseMeter> {
  const { cpuMs: boardsMs } = await board(context, { type: 'reset', group }, 'reset');
  return { wallMs: performance.now(), cpu: await cpuMark(context), runnerMs: runnerCpuMs(), boardsMs };
}

export async function utilization(context: Context, meter: PhaseMeter, boardsMs: number): Promise<Utilization> {
  const wall = performance.now() - meter.wallMs;
  const cpu = await cpuMark(context);
  const percent = (value: number) => Math.round((value / wall) * 1000) / 10;
  return {
    server: percent(cpu.server - meter.cpu.server),
    postgres: percent(cpu.postgres - meter.cpu.postgres),
    scoreboards: percent(boardsMs - meter.boardsMs),
    runner: percent(runnerCpuMs() - meter.runnerMs),
  };
}

/**
 * Waits for the phase's events to reach the group's boards and checks them: the service against the
 * outbox rows the phase appended (by seq), the naive route against its own emit counter.
 */
export async function checkDelivery(
  context: Context,
  group: string,
  variant: Variant,
  outboxBefore: number,
  sent: SentRequests,
  keepSamples = false,
): Promise<PhaseDelivery> {
  await commitsSettled(context, variant, outboxBefore);
  let committed: number;
  let checked: SentRequests;
  if (viaOutbox(variant)) {
    const seqs = await sequencedSince(context, outboxBefore);
    committed = seqs.length;
    checked = { ...sent, expectedSeqs: seqs };
  } else {
    committed = (await stats(context)).naiveEmitted;
    checked = { ...sent, expectedCount: committed };
  }
  const expected = checked.expectedSeqs?.length ?? checked.expectedCount ?? sent.scoreIds.length;
  await board(context, { type: 'await', group, expectedPerClient: expected, quietMs: 5_000, timeoutMs: 120_000 }, 'awaited', 130_000);
  const { report, cpuMs } = await board(
    context,
    { type: 'analyze', group, base: context.base.toString(), sent: checked, checkSeq: viaOutbox(variant), samples: keepSamples },
    'analyzed',
  );
  return { report, committed, boardsCpuMs: cpuMs };
}

const PATHS: Record<Variant, { url: keyof Pick<Context, 'serviceUrl' | 'bareUrl' | 'serviceStackUrl'>; path: string }> = {
  service: { url: 'serviceUrl', path: '/api/jury-results' },
  naive: { url: 'serviceStackUrl', path: '/naive/jury-results' },
  'outbox-ceiling': { url: 'serviceStackUrl', path: '/ceiling/outbox-command' },
  'bare-outbox-ceiling': { url: 'bareUrl', path: '/ceiling/outbox-command' },
  'upsert-ceiling': { url: 'serviceStackUrl', path: '/ceiling/upsert' },
};

export function targetOf(context: Context, variant: Variant): PortalTarget {
  const { url, path } = PATHS[variant];
  return { url: context[url], path, fieldId: context.fieldA, base: context.base };
}

/**
 * Starts an embedded server with pg_stat_statements loaded: the library must be there at server
 * start, so the server is started, configured and started again on the same data. `nested` also
 * tracks the statements inside functions and triggers.
 */
export async function withStatementStats(start: () => Promise<EmbeddedDatabase>, nested: boolean): Promise<EmbeddedDatabase> {
  const database = await start();
  const setup = new pg.Client({ connectionString: database.url });
  await setup.connect();
  const settings = ["shared_preload_libraries = 'pg_stat_statements'", ...(nested ? ["pg_stat_statements.track = 'all'"] : [])];
  for (const setting of settings) await setup.query(`ALTER SYSTEM SET ${setting}`);
  await setup.end();
  await database.stop();
  return start();
}
