/**
 * Scenario: the read path, GET /api/scores with 1,000 rows cold (finals calculated on read) and
 * warm, against the bare baseline of the same two SELECTs.
 */
import { classify, cpuMark, cpuPer, mb, resetCounters, stats, timedRequest, type Context, type CpuMark } from '../harness.js';
import { resetReadEvent } from '../seed.js';
import { progress, settings } from '../settings.js';
import { distribution, ratio, type Distribution } from '../stats.js';

export interface ReadSeries {
  latencyMs: Distribution;
  cpuPerRequestMs: CpuMark;
  bytes: number;
  statementsPerRequest: number;
  /** Different counts across the series' requests would mean statements grow with something. */
  statementsConstant: boolean;
}

export async function readSeries(
  context: Context,
  url: string,
  count: number,
  before?: () => Promise<void>,
): Promise<ReadSeries & { bodies: string[] }> {
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

export async function readScenario(context: Context) {
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
  const naive = await readSeries(
    context,
    `${context.bareUrl}/naive/scores?eventId=${read.eventId}&limit=${settings.readLimit}`,
    settings.warmReads,
  );
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
