/**
 * Scenario: live latency, save sent → scoreboard received, for the service (outbox + relay) and
 * the naive direct emit after commit, at several portal counts; every event checked exactly once.
 */
import type { DeliveryReport } from '../delivery.js';
import {
  board,
  checkDelivery,
  classify,
  cpuMark,
  cpuPer,
  maxOutboxId,
  mb,
  resetCounters,
  startPhase,
  stats,
  targetOf,
  utilization,
  type Context,
  type CpuMark,
  type Utilization,
  type Variant,
} from '../harness.js';
import { runPortalsAtRate } from '../portals.js';
import { progress, quick, settings } from '../settings.js';
import { distribution, ratio, type Distribution } from '../stats.js';

export interface LivePhase {
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

export async function livePhase(context: Context, variant: Variant, portals: number, seconds: number): Promise<LivePhase> {
  await resetCounters(context);
  const outboxBefore = await maxOutboxId(context);
  const meter = await startPhase(context, 'live');
  const run = await runPortalsAtRate(
    targetOf(context, variant),
    context.data.live.scoreIds.slice(0, portals),
    settings.saveIntervalMs,
    seconds * 1000,
    settings.maxLagMs,
  );
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

export async function warmUp(context: Context): Promise<void> {
  for (const variant of ['service', 'naive'] as const) {
    const outboxBefore = await maxOutboxId(context);
    await board(context, { type: 'reset', group: 'live' }, 'reset');
    if (variant === 'naive') await resetCounters(context);
    const run = await runPortalsAtRate(
      targetOf(context, variant),
      context.data.live.scoreIds.slice(0, 50),
      settings.saveIntervalMs,
      quick ? 1_500 : 4_000,
    );
    await checkDelivery(context, 'live', variant, outboxBefore, run.sent);
  }
}

export async function liveScenario(context: Context) {
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
