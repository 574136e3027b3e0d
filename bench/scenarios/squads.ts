/** Scenario: squad generation through the service against the same query and planner bare. */
import { classify, cpuMark, cpuPer, mb, resetCounters, stats, timedRequest, type Context, type CpuMark } from '../harness.js';
import { progress, settings } from '../settings.js';
import { distribution, ratio } from '../stats.js';

export async function squadScenario(context: Context) {
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
  progress(
    `squads: ${settings.squadRequests} × generate (${settings.squadParticipants} participants, ${settings.squadProposals} proposals), service and bare baseline`,
  );
  for (let index = 0; index < settings.squadRequests; index++) {
    await resetCounters(context);
    let mark = await cpuMark(context);
    const reply = await timedRequest('POST', `${context.serviceUrl}/api/squad-management/auto-assign/generate`, body, {
      authorization: `Bearer ${context.adminToken}`,
    });
    addCpu(serviceCpu, cpuPer(mark, await cpuMark(context), 1));
    if (reply.status !== 200) throw new Error(`squad generate: ${reply.status} ${reply.body.slice(0, 300)}`);
    statements.push(classify((await stats(context)).statements).request);
    service.push(reply.ms);
    bytes = reply.bytes;
    const parsed = JSON.parse(reply.body) as { proposals: Array<{ stats: { totalParticipants: number } }> };
    complete &&=
      parsed.proposals.length === settings.squadProposals &&
      parsed.proposals.every((proposal) => proposal.stats.totalParticipants === settings.squadParticipants);
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
