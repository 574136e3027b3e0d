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

/**
 * Which of `scoreIds` a service session is waiting to lock now: a session waiting for a row lock
 * holds the row's tuple lock meanwhile, which names the row. A save waits in turns (the command runner's
 * 100 ms lock timeout, then a pause without a connection, until its 5 s budget is spent), so the
 * caller collects these over a few polls instead of expecting every save to wait at one instant.
 */
async function scoresWaitedOn(scoreIds: number[]): Promise<number[]> {
  const { rows } = await rig.pool.query<{ score_id: number }>(
    `SELECT DISTINCT w.int_wertungenid AS score_id
       FROM pg_locks l
       JOIN pg_stat_activity a ON a.pid = l.pid AND a.application_name = 'gym-competition-service'
       JOIN ${t.wertungen} w ON w.ctid = format('(%s,%s)', l.page, l.tuple)::tid
      WHERE l.locktype = 'tuple' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.relation = '${t.wertungen}'::regclass AND w.int_wertungenid = ANY($1::int[])`,
    [scoreIds],
  );
  return rows.map((row) => row.score_id);
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
    const waitedOn = new Set<number>();
    await waitFor(
      async () => {
        for (const scoreId of await scoresWaitedOn(heldScores)) waitedOn.add(scoreId);
        return waitedOn.size === heldScores.length;
      },
      { message: 'each held save waiting inside the service' },
    );
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
