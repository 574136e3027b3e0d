/** Scenario: server memory under a stream of saves back to back, before, right after and settled. */
import { board, checkDelivery, maxOutboxId, mb, stats, targetOf, type Context } from '../harness.js';
import { runPortalsBackToBack, type PortalRun } from '../portals.js';
import { progress, settings } from '../settings.js';

export async function memoryScenario(context: Context) {
  const before = await stats(context, true);
  progress(`memory: ${settings.soakEvents} saves back to back by ${settings.soakPortals} portals, ${settings.scoreboards} scoreboards`);
  await board(context, { type: 'reset', group: 'live' }, 'reset');
  const outboxBefore = await maxOutboxId(context);
  const run: PortalRun = await runPortalsBackToBack(
    targetOf(context, 'service'),
    context.data.live.scoreIds.slice(0, settings.soakPortals),
    settings.soakEvents,
  );
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
