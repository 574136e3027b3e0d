/**
 * Scenario: command throughput with autocannon against POST /api/jury-results, the naive direct
 * emit, and the ceilings on the service's own fastify stack (one named upsert; the minimal outbox
 * command; the minimal outbox command on a bare fastify too). One verifying scoreboard in the throughput room checks every outbox event.
 *
 * Requests spread over the 1,000 throughput score rows with changing values: a counter shared by
 * all connections picks row `n mod 1000` and a value from `n`. (autocannon resets the request
 * `context` after every request when there is one request template, so per-connection state kept
 * there made every request hit the same few rows with the same value, and requests queued on each
 * other's row locks.) At most `connections` requests are in flight, all on different rows.
 *
 * At each connection count the variants take turns in rounds (`settings.throughputRounds`), merged
 * per variant: the ratios compare variants measured in the same stretches of the machine's time.
 */
import autocannon from 'autocannon';
import {
  board,
  checkDelivery,
  classify,
  commitsSettled,
  cpuMark,
  cpuPer,
  deliveryCounts,
  deliveryOverRounds,
  inRounds,
  maxOutboxId,
  mb,
  meanUtilization,
  resetCounters,
  startPhase,
  stats,
  targetOf,
  utilization,
  weightedBy,
  type Context,
  type CpuMark,
  type DeliveryCounts,
  type Utilization,
  type Variant,
} from '../harness.js';
import { progress, settings } from '../settings.js';
import { distribution, ratio, type Distribution } from '../stats.js';

export interface ThroughputPhase {
  variant: Variant;
  connections: number;
  requestsPerSecond: number;
  ok: number;
  errors: number;
  latencyMs: Distribution;
  /** Rows written (upsert ceiling) or events committed and checked on the scoreboard (the others). */
  delivery: DeliveryCounts & { committed: number };
  statementsPerCommand: { request: number; relayReads: number; sequencer: number };
  cpuPerCommandMs: CpuMark;
  utilization: Utilization;
  rssMb: number;
}

const NO_EVENTS: ThroughputPhase['delivery'] = {
  committed: 0,
  clients: 0,
  expectedPerClient: 0,
  receivedTotal: 0,
  lost: 0,
  duplicated: 0,
  mismatched: 0,
  seqOutOfOrder: 0,
  unexpected: 0,
};

/** Body of the n-th request of a phase: row n mod rows, a value a judge could type that changes with n. */
export function throughputBody(scoreIds: readonly number[], fieldId: number, n: number): string {
  const scoreId = scoreIds[n % scoreIds.length]!;
  const performance = ((n * 7 + Math.floor(n / scoreIds.length) * 13) % 90) / 10 + 1;
  return JSON.stringify({ participantId: scoreId, disciplineFieldId: fieldId, performance, attempt: 1, type: 0 });
}

/** One round of a throughput phase, with what its merge needs. */
interface ThroughputRound {
  phase: ThroughputPhase;
  seconds: number;
  latencies: number[];
}

async function throughputRound(context: Context, variant: Variant, connections: number, seconds: number): Promise<ThroughputRound> {
  await resetCounters(context);
  if (settings.pgStats) await context.db.query('SELECT pg_stat_statements_reset()');
  const outboxBefore = await maxOutboxId(context);
  const meter = await startPhase(context, 'throughput');
  const scoreIds = context.data.throughput.scoreIds;
  const target = targetOf(context, variant);
  let n = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: `${target.url}${target.path}`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: throughputBody(scoreIds, target.fieldId, n++) }) }],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  const result = await instance;
  let committed: number;
  let delivery: ThroughputPhase['delivery'];
  let boardsCpuMs: number;
  if (variant === 'upsert-ceiling') {
    await commitsSettled(context, variant, outboxBefore);
    committed = (await stats(context)).ceilingUpserts;
    boardsCpuMs = (await board(context, { type: 'reset', group: 'throughput' }, 'reset')).cpuMs;
    delivery = { ...NO_EVENTS, committed };
  } else {
    const checked = await checkDelivery(context, 'throughput', variant, outboxBefore, { scoreIds: [], sentMs: [], finals: [] });
    committed = checked.committed;
    boardsCpuMs = checked.boardsCpuMs;
    delivery = { ...deliveryCounts(checked.report), committed };
  }
  const cpu = cpuPer(meter.cpu, await cpuMark(context), committed);
  if (settings.pgStats) await printStatementCosts(context, `${variant}, ${connections} connections`, committed);
  const used = await utilization(context, meter, boardsCpuMs);
  const after = await stats(context);
  const counts = classify(after.statements);
  const ok = result['2xx'];
  const per = (value: number) => Math.round((value / Math.max(1, committed)) * 100) / 100;
  return {
    phase: {
      variant,
      connections,
      requestsPerSecond: Math.round((ok / result.duration) * 10) / 10,
      ok,
      errors: result.errors + result.non2xx + result.timeouts,
      latencyMs: distribution(latencies),
      delivery,
      statementsPerCommand: { request: per(counts.request), relayReads: per(counts.relayReads), sequencer: per(counts.sequencer) },
      cpuPerCommandMs: cpu,
      utilization: used,
      rssMb: mb(after.memory.rss),
    },
    seconds: result.duration,
    latencies,
  };
}

/** A variant's rounds at one connection count as one phase: req/s over their whole time, latencies over every request. */
function mergedThroughputPhase(rounds: readonly ThroughputRound[]): ThroughputPhase {
  const phases = rounds.map((round) => round.phase);
  const sum = (value: (phase: ThroughputPhase) => number) => phases.reduce((total, phase) => total + value(phase), 0);
  const weighted = <K extends string>(value: (phase: ThroughputPhase) => Record<K, number>) =>
    weightedBy(phases.map((phase) => ({ weight: phase.delivery.committed, value: value(phase) })));
  const ok = sum((phase) => phase.ok);
  return {
    variant: phases[0]!.variant,
    connections: phases[0]!.connections,
    requestsPerSecond: Math.round((ok / rounds.reduce((total, round) => total + round.seconds, 0)) * 10) / 10,
    ok,
    errors: sum((phase) => phase.errors),
    latencyMs: distribution(rounds.flatMap((round) => round.latencies)),
    delivery: deliveryOverRounds(phases.map((phase) => phase.delivery)),
    statementsPerCommand: weighted((phase) => phase.statementsPerCommand),
    cpuPerCommandMs: weighted((phase) => phase.cpuPerCommandMs),
    utilization: meanUtilization(phases.map((phase) => phase.utilization)),
    rssMb: Math.max(...phases.map((phase) => phase.rssMb)),
  };
}

/** BENCH_PG_STATS=1: where PostgreSQL's time went in the phase, per command, nested statements included. */
async function printStatementCosts(context: Context, phase: string, commands: number): Promise<void> {
  const { rows } = await context.db.query<{ calls: number; rows: number; exec_ms: number; toplevel: boolean; query: string }>(
    `SELECT calls::int, rows::int, total_exec_time AS exec_ms, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 15`,
  );
  progress(`statements of ${phase} per command (calls, exec µs, rows per call; nested statements are inside their caller's time):`);
  const per = (value: number) => value / Math.max(1, commands);
  for (const row of rows)
    progress(
      `  ${per(row.calls).toFixed(2).padStart(6)} × ${((per(row.exec_ms) * 1000) / Math.max(per(row.calls), 1e-9)).toFixed(0).padStart(5)} µs ${(row.rows / Math.max(row.calls, 1)).toFixed(1).padStart(6)} rows  ${row.toplevel ? '' : '(nested) '}${row.query}`,
    );
}

export interface ThroughputComparison {
  connections: number;
  service: number;
  naive: number;
  /** service / naive req/s. */
  ratio: number | null;
  outboxCeiling: number | null;
  bareOutboxCeiling: number | null;
  upsertCeiling: number | null;
  /** service / minimal outbox command req/s (target ≥ 0.70). */
  ratioToOutboxCeiling: number | null;
  /** The same ratio in each round: how far one round's figure is from the merged one. */
  ratioToOutboxCeilingByRound: number[] | null;
  /** service / minimal outbox command on a bare fastify: what the service's plugin stack costs on top. */
  ratioToBareOutboxCeiling: number | null;
  /** PostgreSQL CPU ms per command: service, minimal outbox command, bare upsert. */
  postgresCpuMs: { service: number; outboxCeiling: number | null; upsertCeiling: number | null };
}

const CEILING_VARIANTS = ['service', 'naive', 'outbox-ceiling', 'bare-outbox-ceiling', 'upsert-ceiling'] as const;

/**
 * Every variant runs unmeasured for a moment at each connection count first: the first round must
 * not pay for the connections the count opens, their prepared statements, the JIT and the caches
 * the others find warm.
 */
async function warmUp(context: Context, variants: readonly Variant[], connections: number): Promise<void> {
  const scoreIds = context.data.throughput.scoreIds;
  for (const variant of variants) {
    const outboxBefore = await maxOutboxId(context);
    const target = targetOf(context, variant);
    let n = 0;
    await autocannon({
      url: `${target.url}${target.path}`,
      connections,
      duration: settings.quick ? 1 : 3,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: throughputBody(scoreIds, target.fieldId, n++) }) }],
    });
    await commitsSettled(context, variant, outboxBefore);
  }
}

export async function throughputScenario(context: Context) {
  const phases: ThroughputPhase[] = [];
  const ceilingRatioByRound = new Map<number, number[]>();
  const seconds = settings.throughputSeconds / settings.throughputRounds;
  for (const connections of settings.throughputConnections) {
    const variants: Variant[] = settings.ceilingConnections.includes(connections) ? [...CEILING_VARIANTS] : ['service', 'naive'];
    progress(`throughput: warm-up at ${connections} connections, every variant unmeasured`);
    await warmUp(context, variants, connections);
    // Joins after the warm-up, so none of its events reaches the board.
    await board(
      context,
      { type: 'connect', group: 'throughput', url: context.serviceUrl, eventId: context.data.throughput.eventId, count: 1 },
      'connected',
    );
    const rounds = await inRounds(variants, settings.throughputRounds, (variant, round) => {
      progress(`throughput: ${variant}, ${connections} connections × ${seconds} s (round ${round + 1} of ${settings.throughputRounds})`);
      return throughputRound(context, variant, connections, seconds);
    });
    await board(context, { type: 'close', group: 'throughput' }, 'closed');
    for (const variantRounds of rounds.values()) phases.push(mergedThroughputPhase(variantRounds));
    const ceilingRounds = rounds.get('outbox-ceiling');
    if (ceilingRounds)
      ceilingRatioByRound.set(
        connections,
        rounds
          .get('service')!
          .map((round, index) => ratio(round.phase.requestsPerSecond, ceilingRounds[index]!.phase.requestsPerSecond) ?? Number.NaN),
      );
  }
  const comparisons: ThroughputComparison[] = settings.throughputConnections.map((connections) => {
    const find = (variant: Variant) => phases.find((phase) => phase.connections === connections && phase.variant === variant);
    const service = find('service')!;
    const naive = find('naive')!;
    const outboxCeiling = find('outbox-ceiling');
    const bareOutboxCeiling = find('bare-outbox-ceiling');
    const upsertCeiling = find('upsert-ceiling');
    return {
      connections,
      service: service.requestsPerSecond,
      naive: naive.requestsPerSecond,
      ratio: ratio(service.requestsPerSecond, naive.requestsPerSecond),
      outboxCeiling: outboxCeiling?.requestsPerSecond ?? null,
      bareOutboxCeiling: bareOutboxCeiling?.requestsPerSecond ?? null,
      upsertCeiling: upsertCeiling?.requestsPerSecond ?? null,
      ratioToOutboxCeiling: outboxCeiling ? ratio(service.requestsPerSecond, outboxCeiling.requestsPerSecond) : null,
      ratioToOutboxCeilingByRound: ceilingRatioByRound.get(connections) ?? null,
      ratioToBareOutboxCeiling: bareOutboxCeiling ? ratio(service.requestsPerSecond, bareOutboxCeiling.requestsPerSecond) : null,
      postgresCpuMs: {
        service: service.cpuPerCommandMs.postgres,
        outboxCeiling: outboxCeiling?.cpuPerCommandMs.postgres ?? null,
        upsertCeiling: upsertCeiling?.cpuPerCommandMs.postgres ?? null,
      },
    };
  });
  return { phases, comparisons };
}
