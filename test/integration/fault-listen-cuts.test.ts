/**
 * Issue 10, fault 3: the relay's LISTEN connection is cut ten times, 500 ms apart at the least
 * (pg_terminate_backend by its application_name), while portals save. No event is lost and none
 * arrives out of order: each scoreboard gets strictly increasing seqs, exactly the committed ones.
 * Each cut waits until the relay has reconnected and more saves were answered, so a slow machine
 * makes the test take longer, never fail.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LISTEN_APPLICATION_NAME } from '../../outbox/listener.js';
import { createFaultRig, type FaultRig } from '../support/fault-rig.js';
import { saveViolations } from '../support/portal-load.js';
import { isStrictlyIncreasing, receivedScoreEvents, seqsOf, waitUntilBoardsCaughtUp } from '../support/realtime.js';
import { waitFor } from '../support/server.js';

const CUT_EVERY_MS = 500;
const CUTS = 10;

let rig: FaultRig;

beforeAll(async () => {
  // Ten portals keep events flowing through all the cuts without running out of scores.
  rig = await createFaultRig({ portals: 10, scoresPerPortal: 500 });
});
afterAll(async () => {
  await rig?.dispose();
});

it('loses no event and keeps the order while the LISTEN connection is cut again and again', async () => {
  const service = await rig.startService();
  const boards = await rig.openScoreboards(service.url, 3);
  const load = rig.startPortals(service.url);
  await waitFor(() => load.succeeded() >= 50, { timeoutMs: 20_000, message: 'saves flowing before the first cut' });

  const listening = async () =>
    (
      await rig.pool.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND starts_with(application_name, $2)', [
        rig.database.name,
        `${LISTEN_APPLICATION_NAME}:`,
      ])
    ).rows.map((row: { pid: number }) => row.pid);
  const cuts: Array<{ terminated: number; answered: number }> = [];
  for (let index = 0; index < CUTS; index++) {
    // The cadence is the fault being simulated; the waits are for the relay to be back and for
    // saves to keep flowing, which a slow machine only delays.
    await new Promise((resolve) => setTimeout(resolve, CUT_EVERY_MS));
    const previous = cuts.at(-1)?.answered ?? 0;
    const pids = await waitFor(
      async () => {
        const found = await listening();
        return found.length > 0 && load.succeeded() > previous ? found : null;
      },
      {
        timeoutMs: 20_000,
        message: `the relay listens again and saves are answered before cut ${index + 1}`,
      },
    );
    const { rows } = await rig.pool.query(
      'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS terminated FROM unnest($1::int[]) AS pid',
      [pids],
    );
    cuts.push({ terminated: rows[0].terminated, answered: load.succeeded() });
  }
  // The saves still in flight commit while the relay is away: only its catch-up can deliver them,
  // since no later notification comes.
  const outcomes = await load.stop();

  // Every cut hit a live LISTEN connection.
  expect(cuts.filter((cut) => cut.terminated === 0)).toEqual([]);
  expect(outcomes.filter((outcome) => outcome.status !== 200)).toEqual([]);
  expect(await saveViolations(rig.pool, rig.targets, outcomes)).toEqual([]);

  const committed = await waitUntilBoardsCaughtUp(rig.pool, rig.targets.competition.eventId, boards);
  expect(committed.length).toBe(outcomes.length);
  for (const board of boards) {
    expect(isStrictlyIncreasing(seqsOf(board.events))).toBe(true);
    expect(receivedScoreEvents(board)).toEqual(committed);
  }
  await waitFor(async () => (await fetch(`${service.url}/api/system/health`)).status === 200, { message: 'health 200 once the cuts stop' });
}, 60_000);
