/**
 * Issue 10, fault 5: SIGTERM while 20 portals save. Saves the service is working on when the
 * signal comes are finished and answered 2xx, saves that come after it are refused with the
 * contract's 503 (or find the port closed), the process exits 0, and scoreboards that resume with
 * `since` on the restarted service have every committed event exactly once.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { createFaultRig, type FaultRig } from '../support/fault-rig.js';
import { isContractErrorBody, saveViolations, sendSave } from '../support/portal-load.js';
import { exited } from '../support/process.js';
import { receivedScoreEvents, waitUntilBoardsCaughtUp } from '../support/realtime.js';
import { insertParticipantsWithScoreRows } from '../support/fixtures.js';
import { waitFor } from '../support/server.js';

let rig: FaultRig;

beforeAll(async () => {
  rig = await createFaultRig();
});
afterAll(async () => {
  await rig?.dispose();
});

/** Whether the service still takes a new connection and answers on it (portals' pooled ones aside). */
function acceptsNewConnections(baseUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request(`${baseUrl}/api/system/health`, { agent: false, timeout: 5_000 }, (response) => {
      response.resume();
      resolve(response.statusCode !== 503);
    });
    probe.on('error', () => resolve(false));
    probe.end();
  });
}

/** Sessions of `database` waiting for a row lock: saves that are inside the service's transaction. */
async function sessionsWaitingForLock(databaseName: string): Promise<number> {
  const { rows } = await rig.pool.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND application_name = 'gym-competition-service'`,
    [databaseName],
  );
  return rows[0]!.waiting;
}

it('finishes the saves in flight on SIGTERM, exits 0, and resuming scoreboards miss nothing', async () => {
  const first = await rig.startService();
  const boards = await rig.openScoreboards(first.url, 3);
  const load = rig.startPortals(first.url);
  await waitFor(() => load.succeeded() >= 200, { timeoutMs: 20_000, message: '200 saves answered before SIGTERM' });

  // Saves that are certainly in flight when the signal comes: the legacy program holds their
  // score rows locked, so they wait inside the service's transaction until it lets go.
  const heldScores = await insertParticipantsWithScoreRows(rig.pool, rig.targets.competition, 5, 'R2');
  const blocker = await rig.pool.connect();
  await blocker.query('BEGIN');
  await blocker.query(`SELECT 1 FROM ${t.wertungen} WHERE int_wertungenid = ANY($1::int[]) FOR UPDATE`, [heldScores]);
  const heldSaves = Promise.all(heldScores.map((scoreId) => sendSave(first.url, rig.targets, scoreId, 'value', { timeoutMs: 30_000 })));
  try {
    await waitFor(async () => (await sessionsWaitingForLock(rig.database.name)) >= heldScores.length, {
      message: 'the held saves waiting inside the service',
    });
    first.child.kill('SIGTERM');
    await waitFor(async () => !(await acceptsNewConnections(first.url)), {
      timeoutMs: 10_000,
      message: 'the service stops taking new requests',
    });
  } finally {
    await blocker.query('COMMIT');
    blocker.release();
  }
  const held = await heldSaves;
  expect(held.map((outcome) => outcome.status)).toEqual(heldScores.map(() => 200));
  expect(await exited(first, 25_000)).toEqual({ code: 0, signal: null });

  const second = await rig.startService({ port: first.port });
  const answeredAfterRestart = load.succeeded();
  await waitFor(() => load.succeeded() >= answeredAfterRestart + 200, {
    timeoutMs: 20_000,
    message: '200 saves answered after the restart',
  });
  const outcomes = await load.stop();

  // Refused while shutting down: the contract's 503, never a bare framework body; or no answer at all (port closed).
  expect(
    outcomes.filter(
      (outcome) => outcome.status !== null && outcome.status !== 200 && !isContractErrorBody(outcome.body, 503, 'UNAVAILABLE'),
    ),
  ).toEqual([]);
  const targets = { ...rig.targets, scoresByPortal: [...rig.targets.scoresByPortal, heldScores] };
  expect(await saveViolations(rig.pool, targets, [...outcomes, ...held])).toEqual([]);

  const committed = await waitUntilBoardsCaughtUp(rig.pool, rig.targets.competition.eventId, boards);
  expect(committed.filter((event) => heldScores.includes(event.scoreId))).toHaveLength(heldScores.length);
  for (const board of boards) {
    expect(board.joins.length).toBe(2);
    expect(board.joins.every((ack) => ack.ok)).toBe(true);
    expect(receivedScoreEvents(board)).toEqual(committed);
  }
  expect(second.child.exitCode).toBeNull();
}, 60_000);
