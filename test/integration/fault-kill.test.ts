/**
 * Issue 10, fault 1: the service process is killed with SIGKILL while 20 jury portals save
 * scores. After a restart on the same port, every save answered 2xx is stored with its value, no
 * save is half-written (its legacy rows and its outbox row exist together or not at all), and
 * scoreboards that rejoin with `since` have received every committed event exactly once, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFaultRig, type FaultRig } from '../support/fault-rig.js';
import { saveViolations } from '../support/portal-load.js';
import { exited } from '../support/process.js';
import { receivedScoreEvents, waitUntilBoardsCaughtUp } from '../support/realtime.js';
import { waitFor } from '../support/server.js';

let rig: FaultRig;

beforeAll(async () => {
  rig = await createFaultRig();
});
afterAll(async () => {
  await rig?.dispose();
});

it('keeps every answered save and delivers every committed event exactly once across a SIGKILL and restart', async () => {
  const first = await rig.startService();
  const boards = await rig.openScoreboards(first.url, 3);
  const load = rig.startPortals(first.url);
  await waitFor(() => load.succeeded() >= 300, { timeoutMs: 20_000, message: '300 saves answered before the kill' });

  first.child.kill('SIGKILL');
  expect(await exited(first, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
  const answeredBeforeRestart = load.succeeded();
  const second = await rig.startService({ port: first.port });
  await waitFor(() => load.succeeded() >= answeredBeforeRestart + 300, {
    timeoutMs: 20_000,
    message: '300 saves answered after the restart',
  });
  // A scoreboard that arrives only now replays the whole history with since 0.
  boards.push(...(await rig.openScoreboards(second.url, 1)));
  const outcomes = await load.stop();

  // The kill must have cut saves in flight, or this proves nothing; the service answered nothing but 2xx.
  expect(outcomes.filter((outcome) => outcome.status === null).length).toBeGreaterThan(0);
  expect(outcomes.filter((outcome) => outcome.status !== null && outcome.status !== 200)).toEqual([]);
  expect(await saveViolations(rig.pool, rig.targets, outcomes)).toEqual([]);

  const committed = await waitUntilBoardsCaughtUp(rig.pool, rig.targets.competition.eventId, boards);
  expect(committed.length).toBeGreaterThanOrEqual(outcomes.filter((outcome) => outcome.status === 200).length);
  for (const [index, board] of boards.entries()) {
    expect(board.joins.every((ack) => ack.ok)).toBe(true);
    // The first three rejoined after the restart; the late one joined once.
    expect(board.joins.length).toBe(index < 3 ? 2 : 1);
    expect(receivedScoreEvents(board)).toEqual(committed);
  }
}, 60_000);
