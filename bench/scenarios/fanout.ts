/**
 * Scenario: fan-out. Thousands of scoreboards in one event room, spread over several client
 * processes, a few portals saving at a fixed rate; save sent → every scoreboard received, for the service and
 * the naive direct emit. Every client must get every event once and in order. The boards are the
 * bench's bare-websocket clients (`wire` in bench/scoreboards.ts): socket.io-client's own CPU per
 * message would make 5,000 of them outweigh the server on this machine.
 */
import path from 'node:path';
import {
  commitsSettled,
  cpuMark,
  cpuPer,
  maxOutboxId,
  mb,
  resetCounters,
  sequencedSince,
  stats,
  summedCounts,
  targetOf,
  viaOutbox,
  type Context,
  type CpuMark,
  type DeliveryCounts,
} from '../harness.js';
import { runPortalsAtRate } from '../portals.js';
import { forkChild, stopChild, type Child } from '../processes.js';
import type { BoardClient, ScoreboardCommand, ScoreboardReply } from '../scoreboards.js';
import { benchDir, progress, settings } from '../settings.js';
import { distribution, ratio, type Distribution } from '../stats.js';

export type Boards = Child<ScoreboardReply | { type: 'ready' }>;
const GROUP = 'fanout';

async function ask<T extends ScoreboardReply['type']>(
  children: Boards[],
  command: ScoreboardCommand,
  answer: T,
  timeoutMs?: number,
): Promise<Array<Extract<ScoreboardReply, { type: T }>>> {
  return Promise.all(
    children.map((child) => {
      child.send(command);
      return child.next((message): message is Extract<ScoreboardReply, { type: T }> => message.type === answer, timeoutMs);
    }),
  );
}

export interface FanoutPhase {
  variant: 'service' | 'naive';
  scoreboards: number;
  savesPerSecond: number;
  saves: number;
  errors: number;
  latencyMs: Distribution;
  clientMedianMs: Distribution;
  delivery: DeliveryCounts & { committed: number };
  /** Messages delivered per second of the phase (events × scoreboards / seconds). */
  messagesPerSecond: number;
  cpuPerSaveMs: CpuMark;
  /** Server CPU per delivered message (server CPU per save / scoreboards). */
  serverUsPerMessage: number;
  /** CPU of the scoreboard processes per received message. */
  clientUsPerMessage: number;
  rssMb: number;
}

/**
 * One phase: portals save into the fan-out event through `context`'s service at the fan-out rate
 * while the boards of `group` (connected by `connectBoards`, to that service or another instance)
 * receive; every board must get every committed event once, in order.
 */
export async function fanoutPhase(
  context: Context,
  children: Boards[],
  variant: 'service' | 'naive',
  seconds = settings.fanoutSeconds,
  group = GROUP,
): Promise<FanoutPhase> {
  await resetCounters(context);
  const clientCpuBefore = (await ask(children, { type: 'reset', group }, 'reset')).reduce((sum, answer) => sum + answer.cpuMs, 0);
  const outboxBefore = await maxOutboxId(context);
  const before = await cpuMark(context);
  const target = { ...targetOf(context, variant), fieldId: context.fieldA };
  const run = await runPortalsAtRate(
    target,
    context.data.fanout.scoreIds.slice(0, settings.fanoutPortals),
    settings.saveIntervalMs,
    seconds * 1000,
    settings.maxLagMs,
  );
  await commitsSettled(context, variant, outboxBefore);
  const sent = viaOutbox(variant)
    ? { ...run.sent, expectedSeqs: await sequencedSince(context, outboxBefore) }
    : { ...run.sent, expectedCount: (await stats(context)).naiveEmitted };
  const committed = sent.expectedSeqs?.length ?? sent.expectedCount ?? 0;
  await ask(children, { type: 'await', group, expectedPerClient: committed, quietMs: 10_000, timeoutMs: 180_000 }, 'awaited', 190_000);
  const cpu = cpuPer(before, await cpuMark(context), committed);
  const analyzed = await ask(
    children,
    { type: 'analyze', group, base: context.base.toString(), sent, checkSeq: viaOutbox(variant), samples: true },
    'analyzed',
  );
  const reports = analyzed.map((answer) => answer.report);
  const clientCpuMs = analyzed.reduce((sum, answer) => sum + answer.cpuMs, 0) - clientCpuBefore;
  const clients = reports.reduce((total, report) => total + report.clients, 0);
  const samples = reports.flatMap((report) => report.samplesMs ?? []);
  // The merged distribution is over every client of every process.
  const medians = reports.flatMap((report) => report.clientMedianSamplesMs ?? []);
  const counts = summedCounts(reports);
  const wallSeconds = seconds;
  return {
    variant,
    scoreboards: clients,
    savesPerSecond: (settings.fanoutPortals * 1000) / settings.saveIntervalMs,
    saves: run.sent.scoreIds.length,
    errors: run.errors,
    latencyMs: distribution(samples),
    clientMedianMs: distribution(medians),
    delivery: { clients, expectedPerClient: committed, ...counts, committed },
    messagesPerSecond: Math.round((committed * clients) / wallSeconds),
    cpuPerSaveMs: cpu,
    serverUsPerMessage: Math.round((cpu.server * 10_000) / Math.max(1, clients)) / 10,
    clientUsPerMessage: Math.round((clientCpuMs * 10_000) / Math.max(1, counts.receivedTotal)) / 10,
    rssMb: mb((await stats(context)).memory.rss),
  };
}

/**
 * Forks `processes` board processes (pushed onto `children` as they start, so the caller stops
 * them also after a failure) and connects `perProcess` bare-websocket boards each to `url`, in the
 * fan-out event's room; returns the seconds connecting took.
 */
export async function connectBoards(
  context: Context,
  children: Boards[],
  options: { url: string; processes: number; perProcess: number; group: string; addressBase: number; client?: BoardClient },
): Promise<number> {
  for (let index = 0; index < options.processes; index++) {
    const child = forkChild<ScoreboardReply | { type: 'ready' }>('scoreboards.ts', {
      execArgv: settings.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(benchDir, 'profiles')}`] : [],
    });
    children.push(child);
    await child.next((message): message is { type: 'ready' } => message.type === 'ready');
  }
  const connectStarted = performance.now();
  await Promise.all(
    children.map((child, index) => {
      child.send({
        type: 'connect',
        group: options.group,
        url: options.url,
        eventId: context.data.fanout.eventId,
        count: options.perProcess,
        addressBase: options.addressBase + index,
        client: options.client ?? 'wire',
      } satisfies ScoreboardCommand);
      return child.next((message): message is Extract<ScoreboardReply, { type: 'connected' }> => message.type === 'connected', 300_000);
    }),
  );
  return Math.round((performance.now() - connectStarted) / 100) / 10;
}

export async function fanoutScenario(context: Context) {
  const perProcess = Math.ceil(settings.fanoutScoreboards / settings.fanoutProcesses);
  progress(`fan-out: connecting ${settings.fanoutScoreboards} scoreboards in ${settings.fanoutProcesses} processes`);
  const children: Boards[] = [];
  try {
    const connectSeconds = await connectBoards(context, children, {
      url: context.serviceUrl,
      processes: settings.fanoutProcesses,
      perProcess,
      group: GROUP,
      addressBase: 10,
    });
    const sockets = (await stats(context)).sockets;
    // Unmeasured: whichever phase ran first right after the connections paid for warming up (JIT,
    // the garbage of thousands of handshakes) with a p99 several times the second phase's.
    progress('fan-out: warm-up (unmeasured)');
    await fanoutPhase(context, children, 'service', settings.fanoutWarmUpSeconds);
    const phases: FanoutPhase[] = [];
    for (const variant of ['service', 'naive'] as const) {
      progress(
        `fan-out: ${variant}, ${settings.fanoutPortals * (1000 / settings.saveIntervalMs)} saves/s × ${settings.fanoutSeconds} s to ${perProcess * settings.fanoutProcesses} scoreboards`,
      );
      phases.push(await fanoutPhase(context, children, variant));
    }
    const service = phases.find((phase) => phase.variant === 'service')!;
    const naive = phases.find((phase) => phase.variant === 'naive')!;
    return {
      scoreboards: perProcess * settings.fanoutProcesses,
      processes: settings.fanoutProcesses,
      connectSeconds,
      serverSockets: sockets,
      phases,
      ratioP50: ratio(service.latencyMs.p50, naive.latencyMs.p50),
      ratioP99: ratio(service.latencyMs.p99, naive.latencyMs.p99),
    };
  } finally {
    await Promise.all(children.map((child) => stopChild(child as Child<unknown>)));
  }
}
