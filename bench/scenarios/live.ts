/**
 * Scenario: live latency, save sent → scoreboard received, for the service (outbox + relay) and
 * the naive direct emit after commit, at several portal counts; every event checked exactly once.
 * At each portal count the two take turns in rounds (`settings.liveRounds`), merged per variant.
 */
import {
  board,
  checkDelivery,
  classify,
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
  delivery: DeliveryCounts & { committed: number; committedWithoutReply: number };
  statementsPerSave: { request: number; relayReads: number; sequencer: number };
  cpuPerSaveMs: CpuMark;
  utilization: Utilization;
  rssMb: number;
}

/** One round of a live phase, with the samples its merge needs. */
interface LiveRound {
  phase: LivePhase;
  latencies: number[];
  replies: number[];
  clientMedians: number[];
}

async function liveRound(context: Context, variant: Variant, portals: number, seconds: number): Promise<LiveRound> {
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
  const { report, committed, boardsCpuMs } = await checkDelivery(context, 'live', variant, outboxBefore, run.sent, true);
  const cpu = cpuPer(meter.cpu, await cpuMark(context), committed);
  const used = await utilization(context, meter, boardsCpuMs);
  const after = await stats(context);
  const counts = classify(after.statements);
  const saves = run.sent.scoreIds.length;
  const per = (value: number) => Math.round((value / Math.max(1, committed)) * 100) / 100;
  return {
    phase: {
      variant,
      portals,
      offered: portals * Math.ceil((seconds * 1000) / settings.saveIntervalMs),
      shed: run.shed,
      saves,
      errors: run.errors,
      queued: run.queued,
      replyMs: distribution(run.replyMs),
      latencyMs: report.latencyMs,
      clientMedianMs: report.clientMedianMs,
      delivery: { ...deliveryCounts(report), committed, committedWithoutReply: committed - saves },
      statementsPerSave: { request: per(counts.request), relayReads: per(counts.relayReads), sequencer: per(counts.sequencer) },
      cpuPerSaveMs: cpu,
      utilization: used,
      rssMb: mb(after.memory.rss),
    },
    latencies: report.samplesMs ?? [],
    replies: run.replyMs,
    clientMedians: report.clientMedianSamplesMs ?? [],
  };
}

/** A variant's rounds at one portal count as one phase: counts summed, distributions over every sample. */
function mergedLivePhase(rounds: readonly LiveRound[]): LivePhase {
  const phases = rounds.map((round) => round.phase);
  const sum = (value: (phase: LivePhase) => number) => phases.reduce((total, phase) => total + value(phase), 0);
  const weighted = <K extends string>(value: (phase: LivePhase) => Record<K, number>) =>
    weightedBy(phases.map((phase) => ({ weight: phase.delivery.committed, value: value(phase) })));
  return {
    variant: phases[0]!.variant,
    portals: phases[0]!.portals,
    offered: sum((phase) => phase.offered),
    shed: sum((phase) => phase.shed),
    saves: sum((phase) => phase.saves),
    errors: sum((phase) => phase.errors),
    queued: sum((phase) => phase.queued),
    replyMs: distribution(rounds.flatMap((round) => round.replies)),
    latencyMs: distribution(rounds.flatMap((round) => round.latencies)),
    clientMedianMs: distribution(rounds.flatMap((round) => round.clientMedians)),
    delivery: {
      ...deliveryOverRounds(phases.map((phase) => phase.delivery)),
      committedWithoutReply: sum((phase) => phase.delivery.committedWithoutReply),
    },
    statementsPerSave: weighted((phase) => phase.statementsPerSave),
    cpuPerSaveMs: weighted((phase) => phase.cpuPerSaveMs),
    utilization: meanUtilization(phases.map((phase) => phase.utilization)),
    rssMb: Math.max(...phases.map((phase) => phase.rssMb)),
  };
}

/**
 * Both write paths, unmeasured. They share the service's pool, and connections idle for 30 s are
 * closed: without a warm-up at each portal count, whichever variant went first opened the
 * connections the count needs and planned their statements, inside its figures.
 */
export async function warmUp(context: Context, portals = 50, milliseconds = quick ? 1_500 : 4_000): Promise<void> {
  for (const variant of ['service', 'naive'] as const) {
    const outboxBefore = await maxOutboxId(context);
    await board(context, { type: 'reset', group: 'live' }, 'reset');
    if (variant === 'naive') await resetCounters(context);
    const run = await runPortalsAtRate(
      targetOf(context, variant),
      context.data.live.scoreIds.slice(0, portals),
      settings.saveIntervalMs,
      milliseconds,
    );
    await checkDelivery(context, 'live', variant, outboxBefore, run.sent);
  }
}

export async function liveScenario(context: Context) {
  const phases: LivePhase[] = [];
  const p99ByRound: Array<{ portals: number; service: number[]; naive: number[] }> = [];
  const seconds = settings.liveSeconds / settings.liveRounds;
  for (const portals of settings.portalCounts) {
    progress(`live: warm-up at ${portals} portals, both write paths (unmeasured)`);
    await warmUp(context, portals, quick ? 1_000 : 3_000);
    const rounds = await inRounds(['service', 'naive'] as const, settings.liveRounds, (variant, round) => {
      progress(
        `live: ${variant}, ${portals} portals × ${seconds} s (round ${round + 1} of ${settings.liveRounds}), ${settings.scoreboards} scoreboards`,
      );
      return liveRound(context, variant, portals, seconds);
    });
    for (const variantRounds of rounds.values()) phases.push(mergedLivePhase(variantRounds));
    const p99s = (variant: 'service' | 'naive') => rounds.get(variant)!.map((round) => round.phase.latencyMs.p99);
    p99ByRound.push({ portals, service: p99s('service'), naive: p99s('naive') });
  }
  const comparisons = settings.portalCounts.map((portals) => {
    const service = phases.find((phase) => phase.portals === portals && phase.variant === 'service')!;
    const naive = phases.find((phase) => phase.portals === portals && phase.variant === 'naive')!;
    const byRound = p99ByRound.find((entry) => entry.portals === portals)!;
    return {
      portals,
      service: service.latencyMs,
      naive: naive.latencyMs,
      ratioP50: ratio(service.latencyMs.p50, naive.latencyMs.p50),
      ratioP99: ratio(service.latencyMs.p99, naive.latencyMs.p99),
      /** Each round's p99, service and naive: how far one round's figure is from the merged one. */
      p99ByRound: byRound.service.map((p99, round) => ({ service: p99, naive: byRound.naive[round]! })),
    };
  });
  return { phases, comparisons };
}
