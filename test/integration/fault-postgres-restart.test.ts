/**
 * Issue 10, fault 2: PostgreSQL is restarted while 20 portals save. While it is away every save
 * is answered 503 with the contract's error body (no request hangs on a dead connection: each
 * has a generous deadline, and how fast the answers come is for `npm run bench`), health says degraded, the process keeps running, and once the database is back the
 * service recovers by itself: health 200, saves succeed, scoreboards get every committed event.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFaultRig, type FaultRig } from '../support/fault-rig.js';
import { startOwnedPostgres, type OwnedPostgres } from '../support/owned-postgres.js';
import { isContractErrorBody, saveViolations } from '../support/portal-load.js';
import { receivedScoreEvents, waitUntilBoardsCaughtUp } from '../support/realtime.js';
import { waitFor } from '../support/server.js';

// A request that hangs on a dead connection fails on this deadline (the portals' saves have their
// own, 15 s); generous on purpose, since how fast the answers come depends on the machine.
const ANSWER_DEADLINE_MS = 15_000;

interface Health {
  status: number;
  body: { status: string; database: string; relay: string };
}

async function health(baseUrl: string): Promise<Health> {
  const response = await fetch(`${baseUrl}/api/system/health`, { signal: AbortSignal.timeout(ANSWER_DEADLINE_MS) });
  return { status: response.status, body: (await response.json()) as Health['body'] };
}

let postgres: OwnedPostgres;
let rig: FaultRig;

beforeAll(async () => {
  // A server of this file's own: restarting the shared one would break every other test file.
  postgres = await startOwnedPostgres();
  rig = await createFaultRig({ database: { name: 'postgres', url: postgres.url, drop: async () => undefined } });
}, 60_000);
afterAll(async () => {
  await rig?.dispose();
  await postgres?.dispose();
});

it('answers 503 while PostgreSQL is down, reports it in health, and recovers by itself', async () => {
  const service = await rig.startService();
  const boards = await rig.openScoreboards(service.url, 2);
  const load = rig.startPortals(service.url);
  await waitFor(() => load.succeeded() >= 200, { timeoutMs: 20_000, message: '200 saves answered before the restart' });

  await postgres.stop();
  const unavailable = () => load.outcomes.filter((outcome) => outcome.status === 503).length;
  const down = await waitFor(
    async () => {
      const answer = await health(service.url);
      return answer.body.database === 'down' && answer.body.relay === 'reconnecting' ? answer : null;
    },
    { timeoutMs: 15_000, message: 'health reports the database down and the relay reconnecting' },
  );
  expect(down).toMatchObject({ status: 503, body: { status: 'degraded', database: 'down', relay: 'reconnecting' } });
  // A sustained outage under load, not one unlucky moment.
  const unavailableAtDown = unavailable();
  await waitFor(() => unavailable() >= unavailableAtDown + 40, {
    timeoutMs: 15_000,
    message: '40 more saves answered 503 while the database is down',
  });

  await postgres.start();
  // The answer that said 200 is the one read: with 20 portals retrying at once the next one may
  // find every pool connection busy for a moment, which health reports as degraded (pool exhausted).
  const recovered = await waitFor(
    async () => {
      const answer = await health(service.url);
      return answer.status === 200 ? answer : null;
    },
    { timeoutMs: 20_000, message: 'health 200 after the database is back' },
  );
  expect(recovered.body).toMatchObject({ status: 'ok', database: 'up', relay: 'listening' });
  const answeredAfterRestart = load.succeeded();
  await waitFor(() => load.succeeded() >= answeredAfterRestart + 200, {
    timeoutMs: 20_000,
    message: '200 saves answered after the restart',
  });
  const outcomes = await load.stop();

  expect(service.child.exitCode).toBeNull();
  expect(service.child.signalCode).toBeNull();
  // Every save got an HTTP answer before its deadline: 200, or 503 with the contract body.
  expect(outcomes.filter((outcome) => outcome.status === null)).toEqual([]);
  expect(
    outcomes.filter(
      (outcome) => outcome.status !== 200 && !(outcome.status === 503 && isContractErrorBody(outcome.body, 503, 'UNAVAILABLE')),
    ),
  ).toEqual([]);
  expect(await saveViolations(rig.pool, rig.targets, outcomes)).toEqual([]);

  // The scoreboards stayed connected to the service the whole time; the relay caught up after the restart.
  const committed = await waitUntilBoardsCaughtUp(rig.pool, rig.targets.competition.eventId, boards);
  for (const board of boards) {
    expect(board.joins).toEqual([expect.objectContaining({ ok: true })]);
    expect(receivedScoreEvents(board)).toEqual(committed);
  }
}, 60_000);
