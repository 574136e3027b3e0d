/**
 * Issue 10, fault 3: the relay's LISTEN connection is cut every 500 ms for 10 s (pg_terminate_backend
 * by its application_name) while portals save. No event is lost and none arrives out of order:
 * each scoreboard gets strictly increasing seqs, exactly the committed ones.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFaultRig, type FaultRig } from '../support/fault-rig.js';
import { saveViolations } from '../support/portal-load.js';
import { isStrictlyIncreasing, receivedScoreEvents, seqsOf, waitUntilBoardsCaughtUp } from '../support/realtime.js';
import { waitFor } from '../support/server.js';

const LISTEN_APPLICATION_NAME = 'gym-competition-service:listen';
const CUT_EVERY_MS = 500;
const CUT_FOR_MS = 10_000;

let rig: FaultRig;

beforeAll(async () => {
  // Ten portals keep events flowing for the whole 10 s without running out of scores.
  rig = await createFaultRig({ portals: 10, scoresPerPortal: 500 });
});
afterAll(async () => {
  await rig?.dispose();
});

it('loses no event and keeps the order while the LISTEN connection is cut every 500 ms for 10 s', async () => {
  const service = await rig.startService();
  const boards = await rig.openScoreboards(service.url, 3);
  const load = rig.startPortals(service.url);
  await waitFor(() => load.succeeded() >= 50, { timeoutMs: 20_000, message: 'saves flowing before the first cut' });

  const cuts: Array<{ terminated: number; answered: number }> = [];
  const cut = async () => {
    const { rowCount } = await rig.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
      rig.database.name,
      LISTEN_APPLICATION_NAME,
    ]);
    cuts.push({ terminated: rowCount ?? 0, answered: load.succeeded() });
  };
  const end = Date.now() + CUT_FOR_MS;
  while (Date.now() < end) {
    // The cadence is the fault being simulated, not a wait for something to happen.
    await new Promise((resolve) => setTimeout(resolve, CUT_EVERY_MS));
    await cut();
  }
  // The saves still in flight commit while the relay is away: only its catch-up can deliver them,
  // since no later notification comes.
  const outcomes = await load.stop();

  // The relay was back often enough to be cut again and again, and saves kept coming to the end.
  expect(cuts.filter((cut) => cut.terminated > 0).length).toBeGreaterThanOrEqual(10);
  expect(cuts.at(-1)!.answered).toBeGreaterThan(cuts.at(-3)!.answered);
  expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
  expect(await saveViolations(rig.pool, rig.targets, outcomes)).toEqual([]);

  const committed = await waitUntilBoardsCaughtUp(rig.pool, rig.targets.arena.eventId, boards);
  expect(committed.length).toBe(outcomes.length);
  for (const board of boards) {
    expect(isStrictlyIncreasing(seqsOf(board.events))).toBe(true);
    expect(receivedScoreEvents(board)).toEqual(committed);
  }
  await waitFor(async () => (await fetch(`${service.url}/api/system/health`)).status === 200, { message: 'health 200 once the cuts stop' });
}, 60_000);
