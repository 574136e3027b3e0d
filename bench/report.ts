/**
 * The report of `npm run bench`: the tables it prints (every figure beside its baseline and the
 * ratio) and the target checks that go into bench/results.json.
 */
import type { CpuMark } from './harness.js';
import type { fanoutScenario } from './scenarios/fanout.js';
import type { legacyScenario } from './scenarios/legacy.js';
import type { liveScenario } from './scenarios/live.js';
import type { memoryScenario } from './scenarios/memory.js';
import type { publicScenario } from './scenarios/public.js';
import type { readScenario } from './scenarios/read.js';
import type { resultsScenario } from './scenarios/results.js';
import type { squadScenario } from './scenarios/squads.js';
import type { throughputScenario } from './scenarios/throughput.js';
import { quick, settings } from './settings.js';
import type { Distribution } from './stats.js';

const ratioOf = (value: number, baseline: number | null) => (baseline ? value / baseline : null);

export const fmt = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
export const cpuText = (cpu: CpuMark) => `${fmt(cpu.server, 2)} + ${fmt(cpu.postgres, 2)}`;
export const dist = (d: Distribution) => `${fmt(d.p50)} / ${fmt(d.p95)} / ${fmt(d.p99)} / ${fmt(d.max)}`;

export function table(header: string[], rows: string[][]): string {
  const lines = [header, header.map(() => '---'), ...rows];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export type Results = Record<string, unknown> & {
  live?: Awaited<ReturnType<typeof liveScenario>>;
  throughput?: Awaited<ReturnType<typeof throughputScenario>>;
  read?: Awaited<ReturnType<typeof readScenario>>;
  squads?: Awaited<ReturnType<typeof squadScenario>>;
  results?: Awaited<ReturnType<typeof resultsScenario>>;
  memory?: Awaited<ReturnType<typeof memoryScenario>>;
  fanout?: Awaited<ReturnType<typeof fanoutScenario>>;
  legacy?: Awaited<ReturnType<typeof legacyScenario>>;
  public?: Awaited<ReturnType<typeof publicScenario>>;
};

export interface Check {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

export function integrityOf(results: Results): {
  phases: number;
  lost: number;
  duplicated: number;
  mismatched: number;
  seqOutOfOrder: number;
  unexpected: number;
  committedWithoutReply: number;
  ok: boolean;
} {
  const deliveries = [
    ...(results.live?.phases.map((phase) => phase.delivery) ?? []),
    ...(results.throughput?.phases.map((phase) => ({ ...phase.delivery, committedWithoutReply: 0 })) ?? []),
    ...(results.memory
      ? [{ ...results.memory.delivery, committedWithoutReply: results.memory.delivery.committed - results.memory.events }]
      : []),
    ...(results.fanout?.phases.map((phase) => ({ ...phase.delivery, committedWithoutReply: phase.delivery.committed - phase.saves })) ??
      []),
    ...(results.public
      ? [{ ...results.public.phase.delivery, committedWithoutReply: results.public.phase.delivery.committed - results.public.phase.saves }]
      : []),
  ];
  const sum = (key: 'lost' | 'duplicated' | 'mismatched' | 'seqOutOfOrder' | 'unexpected' | 'committedWithoutReply') =>
    deliveries.reduce((total, delivery) => total + delivery[key], 0);
  const totals = {
    phases: deliveries.length,
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    mismatched: sum('mismatched'),
    seqOutOfOrder: sum('seqOutOfOrder'),
    unexpected: sum('unexpected'),
    committedWithoutReply: sum('committedWithoutReply'),
  };
  return {
    ...totals,
    ok: totals.lost + totals.duplicated + totals.mismatched + totals.seqOutOfOrder + totals.unexpected + totals.committedWithoutReply === 0,
  };
}

export function checksOf(results: Results): Check[] {
  const checks: Check[] = [];
  const at50 = results.live?.comparisons.find((comparison) => comparison.portals === 50);
  if (at50) {
    checks.push({
      name: 'live p99 at N = 50 vs naive',
      target: '≤ 2×',
      value: `${fmt(at50.ratioP99, 2)}× (${fmt(at50.service.p99)} / ${fmt(at50.naive.p99)} ms; p99 by round, service / naive: ${at50.p99ByRound.map((round) => `${fmt(round.service)} / ${fmt(round.naive)}`).join(', ')} ms)`,
      met: (at50.ratioP99 ?? Infinity) <= 2,
    });
    const added = at50.service.p50 - at50.naive.p50;
    checks.push({
      name: "relay's added median at N = 50 (service p50 − naive p50)",
      target: '≤ 2 ms',
      value: `${fmt(added, 2)} ms`,
      met: added <= 2,
    });
  }
  for (const comparison of results.throughput?.comparisons ?? []) {
    if (comparison.outboxCeiling === null) continue;
    checks.push({
      name: `throughput at ${comparison.connections} connections vs minimal outbox command`,
      target: '≥ 0.70×',
      value:
        `${fmt(comparison.ratioToOutboxCeiling, 2)}× (${fmt(comparison.service, 0)} / ${fmt(comparison.outboxCeiling, 0)} req/s; by round ${(comparison.ratioToOutboxCeilingByRound ?? []).map((value) => `${fmt(value, 2)}×`).join(', ')})` +
        (comparison.bareOutboxCeiling === null
          ? ''
          : `; vs the same command on a bare fastify: ${fmt(comparison.ratioToBareOutboxCeiling, 2)}× (${fmt(comparison.bareOutboxCeiling, 0)} req/s)`) +
        // What the command's own reads and writes leave for the outbox and the relay.
        `; the naive route, without any outbox: ${fmt(comparison.naive / comparison.outboxCeiling, 2)}×`,
      met: (comparison.ratioToOutboxCeiling ?? 0) >= 0.7,
    });
  }
  if (results.legacy) {
    checks.push({
      name: 'legacy single-row write, PostgreSQL CPU incl. trigger, vs the same write without its event',
      target: '≤ 1.25×',
      value: `${fmt(results.legacy.ratioWriterCpu, 2)}× (${fmt(results.legacy.legacy.writerCpuMs, 2)} / ${fmt(results.legacy.baseline.writerCpuMs, 2)} ms)`,
      met: (results.legacy.ratioWriterCpu ?? Infinity) <= 1.25,
    });
  }
  const fanout = results.fanout?.phases.find((phase) => phase.variant === 'service');
  const naiveFanout = results.fanout?.phases.find((phase) => phase.variant === 'naive');
  if (fanout && naiveFanout) {
    const fanoutRatio = fanout.latencyMs.p99 / naiveFanout.latencyMs.p99;
    checks.push({
      name: `fan-out p99, ${fanout.scoreboards} scoreboards, ${fanout.savesPerSecond} saves/s, vs the naive broadcast`,
      target: '≤ 0.05×',
      value: `${fmt(fanoutRatio, 3)}× (${fmt(fanout.latencyMs.p99)} / ${fmt(naiveFanout.latencyMs.p99)} ms)`,
      met: fanoutRatio <= 0.05,
    });
  }
  if (results.public) {
    const spectators = results.public.phase;
    const publicRatio = fanout ? spectators.latencyMs.p99 / fanout.latencyMs.p99 : null;
    checks.push({
      name: `public instance p99, ${results.public.spectators} spectators, ${spectators.savesPerSecond} saves/s in the hall, vs the fan-out's p99 (${fanout?.scoreboards ?? '–'} scoreboards on the hall)`,
      target: '≤ 2.5×',
      value: `${fmt(publicRatio, 2)}× (${fmt(spectators.latencyMs.p99)} / ${fmt(fanout?.latencyMs.p99)} ms; ${fmt(results.public.kbPerConnection)} KB RSS per connection)`,
      met: publicRatio !== null && publicRatio <= 2.5,
    });
    checks.push({
      name: `spectator statements in the hall's pg_stat_statements (${results.public.pages.loads} page loads on the public instance)`,
      target: '0',
      value: `${results.public.hallSpectatorStatements} (the public instance ran ${results.public.publicSpectatorStatements})`,
      met: results.public.hallSpectatorStatements === 0 && results.public.publicSpectatorStatements > 0,
    });
  }
  for (const comparison of results.throughput?.comparisons ?? []) {
    checks.push({
      name: `throughput at ${comparison.connections} connections vs naive`,
      target: '≥ 0.50×',
      value: `${fmt(comparison.ratio, 2)}×`,
      met: (comparison.ratio ?? 0) >= 0.5,
    });
  }
  const errors = results.throughput?.phases.reduce((sum, phase) => sum + phase.errors, 0);
  if (errors !== undefined) checks.push({ name: 'throughput errors', target: '0', value: String(errors), met: errors === 0 });
  if (results.read) {
    checks.push({
      name: `warm GET /api/scores (${results.read.rows} rows) p50 vs bare SELECTs`,
      target: '≤ 1.3×',
      value: `${fmt(results.read.ratioWarmP50, 2)}× (p50 ${fmt(results.read.warm.latencyMs.p50)} ms)`,
      met: (results.read.ratioWarmP50 ?? Infinity) <= 1.3,
    });
    const constant =
      results.read.warm.statementsConstant &&
      results.read.cold.statementsConstant &&
      results.read.warm.statementsPerRequest === results.read.warmLimit100.statementsPerRequest;
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

export function summary(
  results: Results,
  machine: Record<string, unknown>,
  load: Record<string, { before: string; after: string }> = {},
): string {
  const out: string[] = [];
  out.push(
    `Benchmark ${machine.date} — ${machine.cpus} × ${machine.cpuModel}, ${machine.memory} RAM, Node ${machine.node}, load average ${machine.loadBefore} before / ${machine.loadAfter} after${quick ? ' — QUICK MODE (short phases, not comparable)' : ''}`,
  );
  if (results.live) {
    out.push(
      '',
      `Live latency: save sent → scoreboard received, ms (p50 / p95 / p99 / max), ${settings.scoreboards} scoreboards, a save per portal every ${settings.saveIntervalMs} ms for ${settings.liveSeconds} s in ${settings.liveRounds} rounds taking turns with the other variant (a portal skips a save while its oldest unanswered one is more than ${settings.maxLagMs / 1000} s overdue: "shed")`,
    );
    out.push(
      table(
        [
          'portals',
          'service (outbox + relay)',
          'naive (emit after commit)',
          'ratio p50',
          'ratio p99',
          'saves made of offered: service / naive',
          'CPU ms/save, server + PG: service / naive',
          'statements/save: request + relay + sequencer',
          'board reconnects',
        ],
        results.live.comparisons.map((comparison) => {
          const service = results.live!.phases.find((phase) => phase.portals === comparison.portals && phase.variant === 'service')!;
          const naive = results.live!.phases.find((phase) => phase.portals === comparison.portals && phase.variant === 'naive')!;
          const s = service.statementsPerSave;
          return [
            String(comparison.portals),
            dist(comparison.service),
            dist(comparison.naive),
            `${fmt(comparison.ratioP50, 2)}×`,
            `${fmt(comparison.ratioP99, 2)}×`,
            `${service.saves} / ${naive.saves} of ${service.offered}`,
            `${cpuText(service.cpuPerSaveMs)} / ${cpuText(naive.cpuPerSaveMs)}`,
            `${s.request} + ${s.relayReads} + ${s.sequencer}`,
            `${service.delivery.reconnects ?? 0} / ${naive.delivery.reconnects ?? 0}`,
          ];
        }),
      ),
    );
  }
  if (results.live) {
    out.push('', `CPU use during each live phase, % of one core (${machine.cpus} cores; the rest of the machine is shared)`);
    out.push(
      table(
        ['phase', 'server', 'PostgreSQL', 'scoreboards', 'portals (runner)'],
        results.live.phases.map((phase) => [
          `${phase.variant}, ${phase.portals} portals`,
          fmt(phase.utilization.server, 0),
          fmt(phase.utilization.postgres, 0),
          fmt(phase.utilization.scoreboards, 0),
          fmt(phase.utilization.runner, 0),
        ]),
      ),
    );
  }
  if (results.throughput) {
    out.push(
      '',
      `Command throughput: autocannon ${settings.throughputSeconds} s per phase in ${settings.throughputRounds} rounds, the variants taking turns, over ${settings.throughputScores} score rows, reply latency ms (p50 / p95 / p99 / max). Ceilings on the service's own fastify stack: minimal outbox command (BEGIN, lock, upsert, outbox insert, COMMIT; named statements; the relay woken after COMMIT, as a command's is) and one named upsert`,
    );
    out.push(
      table(
        [
          'connections',
          'route',
          'req/s',
          'vs naive',
          'vs outbox ceiling',
          'latency',
          'CPU ms/command, server + PG',
          'statements/command: request + relay + sequencer',
          'errors',
        ],
        results.throughput.phases.map((phase) => {
          const comparison = results.throughput!.comparisons.find((entry) => entry.connections === phase.connections)!;
          const s = phase.statementsPerCommand;
          const label = {
            service: 'POST /api/jury-results',
            naive: 'naive (emit after commit)',
            'outbox-ceiling': 'ceiling: minimal outbox command',
            'bare-outbox-ceiling': 'ceiling: minimal outbox command, bare fastify',
            'upsert-ceiling': 'ceiling: bare upsert',
          }[phase.variant];
          return [
            String(phase.connections),
            label,
            fmt(phase.requestsPerSecond, 0),
            `${fmt(ratioOf(phase.requestsPerSecond, comparison.naive), 2)}×`,
            comparison.outboxCeiling === null ? '' : `${fmt(ratioOf(phase.requestsPerSecond, comparison.outboxCeiling), 2)}×`,
            dist(phase.latencyMs),
            cpuText(phase.cpuPerCommandMs),
            `${s.request} + ${s.relayReads} + ${s.sequencer}`,
            String(phase.errors),
          ];
        }),
      ),
    );
  }
  if (results.read) {
    const read = results.read;
    out.push(
      '',
      `Read path: GET /api/scores?eventId=…&limit=${settings.readLimit} (${settings.readParticipants} participants × ${settings.readDisciplines} devices), ms (p50 / p95 / p99 / max)`,
    );
    out.push(
      table(
        ['', 'latency', 'vs bare p50', 'CPU ms/request, server + PG', 'statements/request', 'bytes'],
        [
          [
            `cold (${read.cold.latencyMs.count}×, ${read.calculatedOnColdRead} finals calculated)`,
            dist(read.cold.latencyMs),
            `${fmt(read.ratioColdP50, 2)}×`,
            cpuText(read.cold.cpuPerRequestMs),
            String(read.cold.statementsPerRequest),
            String(read.cold.bytes),
          ],
          [
            `warm (${read.warm.latencyMs.count}×)`,
            dist(read.warm.latencyMs),
            `${fmt(read.ratioWarmP50, 2)}×`,
            cpuText(read.warm.cpuPerRequestMs),
            String(read.warm.statementsPerRequest),
            String(read.warm.bytes),
          ],
          [
            `warm, limit=100 (${read.warmLimit100.latencyMs.count}×)`,
            dist(read.warmLimit100.latencyMs),
            '',
            cpuText(read.warmLimit100.cpuPerRequestMs),
            String(read.warmLimit100.statementsPerRequest),
            String(read.warmLimit100.bytes),
          ],
          [
            `bare baseline: same 2 SELECTs, raw rows (${read.naive.latencyMs.count}×)`,
            dist(read.naive.latencyMs),
            '1.00×',
            cpuText(read.naive.cpuPerRequestMs),
            String(read.naive.statementsPerRequest),
            String(read.naive.bytes),
          ],
        ],
      ),
    );
  }
  if (results.squads) {
    const squads = results.squads;
    out.push(
      '',
      `Squad generate: ${squads.participants} participants, ${squads.proposals} proposals, ${squads.service.count} requests, ms (p50 / p95 / p99 / max)`,
    );
    out.push(
      table(
        ['', 'latency', 'ratio p50', 'CPU ms/request, server + PG', 'bytes', 'statements'],
        [
          [
            'service (auth, schema, serializer)',
            dist(squads.service),
            `${fmt(squads.ratioP50, 2)}×`,
            cpuText(squads.cpuPerRequestMs),
            String(squads.bytes),
            String(squads.statementsPerRequest),
          ],
          [
            'bare baseline (same query + planner, JSON.stringify)',
            dist(squads.naive),
            '1.00×',
            cpuText(squads.naiveCpuPerRequestMs),
            String(squads.naiveBytes),
            '1',
          ],
          ['planner alone (in process)', dist(squads.plannerOnlyMs), '', '', '', ''],
        ],
      ),
    );
  }
  if (results.results) {
    const list = results.results;
    out.push(
      '',
      `Result lists: GET /api/results?groupBy=ageClass over ${list.entries} participants × ${settings.readDisciplines} devices, ms (p50 / p95 / p99 / max)`,
    );
    out.push(
      table(
        ['', 'latency', 'vs bare p50', 'CPU ms/request, server + PG', 'statements/request', 'bytes'],
        [
          [
            `JSON (${list.json.latencyMs.count}×)`,
            dist(list.json.latencyMs),
            `${fmt(list.ratioP50, 2)}×`,
            cpuText(list.json.cpuPerRequestMs),
            `${list.json.statementsPerRequest}${list.json.statementsConstant ? '' : ' (varies)'}`,
            String(list.json.bytes),
          ],
          [
            `CSV (${list.csv.latencyMs.count}×)`,
            dist(list.csv.latencyMs),
            '',
            cpuText(list.csv.cpuPerRequestMs),
            String(list.csv.statementsPerRequest),
            String(list.csv.bytes),
          ],
          [
            `bare baseline: same 3 SELECTs, raw rows (${list.naive.latencyMs.count}×)`,
            dist(list.naive.latencyMs),
            '1.00×',
            cpuText(list.naive.cpuPerRequestMs),
            String(list.naive.statementsPerRequest),
            String(list.naive.bytes),
          ],
        ],
      ),
    );
    out.push(
      `All-around board path, save sent → score-updated → ranking fetched showing the save (${list.saveToBoardMs.count} saves): ${dist(list.saveToBoardMs)} ms`,
    );
  }
  if (results.fanout) {
    const fanout = results.fanout;
    out.push(
      '',
      `Fan-out: ${fanout.scoreboards} scoreboards in one room (${fanout.processes} client processes, connected in ${fanout.connectSeconds} s; server sockets ${fanout.serverSockets}), ${settings.fanoutPortals} portals × ${1000 / settings.saveIntervalMs} saves/s for ${settings.fanoutSeconds} s; save sent → scoreboard received, ms (p50 / p95 / p99 / max)`,
    );
    out.push(
      table(
        [
          '',
          'latency',
          'ratio p50 / p99',
          'client medians',
          'messages/s',
          'CPU ms/save, server + PG',
          'CPU µs/message, server / boards',
          'lost / duplicated / out of order',
          'reconnects',
        ],
        fanout.phases.map((phase) => [
          phase.variant === 'service' ? 'service (outbox + relay)' : 'naive (emit after commit)',
          dist(phase.latencyMs),
          phase.variant === 'service' ? `${fmt(fanout.ratioP50, 2)}× / ${fmt(fanout.ratioP99, 2)}×` : '1.00×',
          dist(phase.clientMedianMs),
          String(phase.messagesPerSecond),
          cpuText(phase.cpuPerSaveMs),
          `${fmt(phase.serverUsPerMessage)} / ${fmt(phase.clientUsPerMessage)}`,
          `${phase.delivery.lost} / ${phase.delivery.duplicated} / ${phase.delivery.mismatched + phase.delivery.seqOutOfOrder}`,
          String(phase.delivery.reconnects ?? 0),
        ]),
      ),
    );
  }
  if (results.public) {
    const pub = results.public;
    const phase = pub.phase;
    out.push(
      '',
      `Public instance on a logical replica: ${pub.spectators} spectator connections (${pub.processes} client processes, connected in ${pub.connectSeconds} s; initial copy ${pub.copySeconds} s), ${phase.savesPerSecond} saves/s in the hall for ${settings.fanoutSeconds} s; save sent in the hall → phone received, ms (p50 / p95 / p99 / max)`,
    );
    out.push(
      table(
        [
          'latency',
          'client medians',
          'messages/s',
          'hall CPU ms/save, server + PG',
          'lost / duplicated / out of order',
          'RSS MB before / connected',
          'KB per connection',
          'page loads (failed), ms p50 / p95 / p99 / max',
          'spectator statements, hall / public',
        ],
        [
          [
            dist(phase.latencyMs),
            dist(phase.clientMedianMs),
            String(phase.messagesPerSecond),
            cpuText(phase.cpuPerSaveMs),
            `${phase.delivery.lost} / ${phase.delivery.duplicated} / ${phase.delivery.mismatched + phase.delivery.seqOutOfOrder}`,
            `${fmt(pub.publicRssBeforeMb)} / ${fmt(pub.publicRssConnectedMb)}`,
            fmt(pub.kbPerConnection),
            `${pub.pages.loads} (${pub.pages.failed}), ${dist(pub.pages.latencyMs)}`,
            `${pub.hallSpectatorStatements} / ${pub.publicSpectatorStatements}`,
          ],
        ],
      ),
    );
  }
  if (results.legacy) {
    const legacy = results.legacy;
    out.push(
      '',
      `Legacy single-row write (plain UPDATE of one jury result, autocommit, outside the service), ${legacy.legacy.writes} writes per series; PostgreSQL CPU ms per write`,
    );
    out.push(
      table(
        ['', 'writing backend (trigger included)', 'whole PostgreSQL (sequencer, relay reads)', 'wall ms/write', 'events/write'],
        [
          [
            'legacy write (trigger appends the event)',
            fmt(legacy.legacy.writerCpuMs, 3),
            fmt(legacy.legacy.postgresCpuMs, 3),
            fmt(legacy.legacy.wallMsPerWrite, 3),
            fmt(legacy.eventsPerWrite, 2),
          ],
          [
            "baseline: same write on a session marked as the service's (trigger returns at once)",
            fmt(legacy.baseline.writerCpuMs, 3),
            fmt(legacy.baseline.postgresCpuMs, 3),
            fmt(legacy.baseline.wallMsPerWrite, 3),
            fmt(legacy.baseline.events / Math.max(1, legacy.baseline.writes), 2),
          ],
          ['ratio', `${fmt(legacy.ratioWriterCpu, 2)}×`, `${fmt(legacy.ratioPostgresCpu, 2)}×`, '', ''],
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
    rss.push([
      `right after ${memory.events} events to ${settings.scoreboards} clients (heap ${fmt(memory.heapAfterMb)})`,
      fmt(memory.rssAfterMb),
    ]);
    rss.push([`5 s later, after GC (heap ${fmt(memory.heapSettledMb)}, growth ${fmt(memory.heapGrowthMb)})`, fmt(memory.rssSettledMb)]);
  }
  if (rss.length > 0) {
    out.push('', 'Server memory (RSS, MB)');
    out.push(table(['when', 'RSS MB'], rss));
  }
  if (Object.keys(load).length > 0) {
    out.push('', 'Load average (1 / 5 / 15 min) at the start and end of each scenario (the machine is shared)');
    out.push(
      table(
        ['scenario', 'start', 'end'],
        Object.entries(load).map(([name, { before, after }]) => [name, before, after]),
      ),
    );
  }
  out.push('', 'Targets');
  out.push(
    table(
      ['check', 'target', 'value', ''],
      checksOf(results).map((check) => [check.name, check.target, check.value, check.met ? 'met' : 'NOT MET']),
    ),
  );
  return out.join('\n');
}
