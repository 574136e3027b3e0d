/**
 * Offline-safe saving: the server goes away (its database stays), a judge scores two participants,
 * which wait in the browser, and the server comes back on the same port: both scores arrive
 * exactly once, in the order they were entered, and the scoreboard shows when it is not live and
 * catches up by itself. Each test seeds its own event and opens its own pages, so any one of them
 * runs alone (`-t`) or in any order; every wait has a generous deadline.
 */
import { rmSync } from 'node:fs';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { juryResultRows } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { freePort, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { createCompetition } from '../support/fixtures.js';
import { seedCompetitors, seedDevice, storedRows, type Competitor, type Device } from './support/portal-seed.js';
import { boardRow, boardRows, participantButton, scoreWithKeyboard, waitForAck, waitForParticipantStatus } from './support/portal.js';

/** Long enough for a loaded two-core machine; a test only takes that long when something is wrong. */
const DEADLINE_MS = 20_000;

let port: number;
let server: TestServer;
let browser: Browser;
const retiredDataDirs: string[] = [];
const opened: OpenedPage[] = [];

beforeAll(async () => {
  port = await freePort();
  server = await startTestServer({ env: { PORT: String(port) } });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
  await browser?.close();
  await server?.close();
  await server?.database.drop();
  for (const dir of [...retiredDataDirs, server?.config.dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Stops HTTP and Socket.IO but keeps the database, as a crashed or restarted backend would. */
async function stopServer(): Promise<void> {
  await server.close();
  retiredDataDirs.push(server.config.dataDir);
}

async function restartServer(): Promise<void> {
  server = await startTestServer({ database: server.database, env: { PORT: String(port) } });
}

interface Scene {
  device: Device;
  people: Competitor[];
  portal: OpenedPage;
  board: OpenedPage;
}

/** An event of the test's own with one device and these people, a jury portal and a scoreboard on it, both live. */
async function openScene(eventName: string, names: ReadonlyArray<readonly [string, string]>): Promise<Scene> {
  const competition = await createCompetition(server.pool, eventName);
  const device = await seedDevice(server.pool, { name: 'Vault', mask: '00.00', formula: 'A + B - C' });
  const people = await seedCompetitors(server.pool, competition, names);
  const portal = await openPage(browser, `${server.url}/jury/?eventId=${competition.eventId}&disciplineId=${device.id}`);
  const board = await openPage(browser, `${server.url}/board/?eventId=${competition.eventId}&disciplineId=${device.id}`);
  opened.push(portal, board);
  for (const person of people) await waitForParticipantStatus(portal.page, person.participantId, 'pending', DEADLINE_MS);
  await portal.page.locator('.connection[data-status="live"]').waitFor({ timeout: DEADLINE_MS });
  await board.page.locator('.live-indicator[data-status="live"]').waitFor({ timeout: DEADLINE_MS });
  return { device, people, portal, board };
}

async function goOffline(scene: Scene): Promise<void> {
  await stopServer();
  await scene.portal.page.locator('.connection[data-status="offline"]').waitFor({ timeout: DEADLINE_MS });
  await scene.board.page.locator('.live-indicator[data-status="offline"]', { hasText: 'NOT LIVE' }).waitFor({ timeout: DEADLINE_MS });
}

/** The outbox seqs of one score's events: the order in which the server took its writes. */
async function seqsOfScore(scoreId: number): Promise<number[]> {
  const { rows } = await server.pool.query<{ seq: number }>(
    `SELECT seq FROM ${t.svc_outbox} WHERE (payload->>'scoreId')::int = $1 AND seq IS NOT NULL ORDER BY seq`,
    [scoreId],
  );
  return rows.map((row) => row.seq);
}

describe('jury portal without a server', () => {
  it('queues two saves while the server is down and sends each exactly once, in the order entered, when it is back', async () => {
    const scene = await openScene('Offline Open', [
      ['Dora', 'Dahl'],
      ['Emil', 'Eck'],
      ['Fritz', 'Falk'],
    ]);
    const { device, people, portal } = scene;
    await goOffline(scene);

    await scoreWithKeyboard(portal.page, people[0]!.participantId, ['4.4', '9', '0.1']);
    await waitForAck(portal.page, 'waiting', 'Dora Dahl', DEADLINE_MS);
    await waitForParticipantStatus(portal.page, people[0]!.participantId, 'waiting', DEADLINE_MS);
    await scoreWithKeyboard(portal.page, people[1]!.participantId, ['5.2', '8.7', '0.3']);
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'waiting', DEADLINE_MS);
    expect(await participantButton(portal.page, people[1]!.participantId).locator('.status-text').textContent()).toBe('waiting');
    const banner = portal.page.locator('.queue-banner');
    await banner.locator('text=2 saves are waiting').waitFor({ timeout: DEADLINE_MS });
    await saveScreenshot(portal.page, 'jury-portal-offline-1280');
    expect((await queuedInBrowser(portal)).map((job) => [job.label, job.finalScore])).toEqual([
      ['Dora Dahl', 13.3],
      ['Emil Eck', 13.6],
    ]);

    await restartServer();
    await waitForParticipantStatus(portal.page, people[0]!.participantId, 'completed', DEADLINE_MS);
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'completed', DEADLINE_MS);
    await banner.waitFor({ state: 'hidden', timeout: DEADLINE_MS });
    expect(await queuedInBrowser(portal)).toEqual([]);
    await portal.page.locator('.connection[data-status="live"]').waitFor({ timeout: DEADLINE_MS });
    expect(portal.errors).toEqual([]);

    for (const [person, final] of [
      [people[0]!, 13.3],
      [people[1]!, 13.6],
    ] as const) {
      const rows = await storedRows(server.pool, person.participantId, device.id);
      expect(rows.scoreRows).toBe(1);
      expect(rows.details).toHaveLength(1);
      expect(rows.details[0]!.value).toBeCloseTo(final, 5);
      expect(await juryResultRows(server.pool, person.scoreId)).toHaveLength(4);
    }
    expect((await storedRows(server.pool, people[2]!.participantId, device.id)).details).toHaveLength(0);
    // Arrival order: every write of Dora's save reached the server before any of Emil's.
    const dora = await seqsOfScore(people[0]!.scoreId);
    const emil = await seqsOfScore(people[1]!.scoreId);
    expect(dora.length).toBeGreaterThan(0);
    expect(emil.length).toBeGreaterThan(0);
    expect(Math.max(...dora)).toBeLessThan(Math.min(...emil));
  });

  it('brings the scoreboard back to live by itself, with the scores saved while it was away', async () => {
    const scene = await openScene('Offline Board', [
      ['Greta', 'Gross'],
      ['Hanna', 'Horn'],
    ]);
    const { people, portal, board } = scene;
    await goOffline(scene);
    await scoreWithKeyboard(portal.page, people[0]!.participantId, ['4.4', '9', '0.1']);
    await waitForParticipantStatus(portal.page, people[0]!.participantId, 'waiting', DEADLINE_MS);
    await scoreWithKeyboard(portal.page, people[1]!.participantId, ['5.2', '8.7', '0.3']);
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'waiting', DEADLINE_MS);

    await restartServer();
    await board.page.locator('.live-indicator[data-status="live"]').waitFor({ timeout: DEADLINE_MS });
    await boardRow(board.page, people[1]!.participantId).locator('.score', { hasText: '13.60' }).waitFor({ timeout: DEADLINE_MS });
    await boardRow(board.page, people[0]!.participantId).locator('.score', { hasText: '13.30' }).waitFor({ timeout: DEADLINE_MS });
    expect((await boardRows(board.page)).map((row) => [row.rank, row.name, row.score])).toEqual([
      ['1.', 'Hanna Horn', '13.60'],
      ['2.', 'Greta Gross', '13.30'],
    ]);
    expect(board.errors).toEqual([]);
  });

  it('keeps a waiting save across a page reload and sends it once the server answers again', async () => {
    const { device, people, portal, board } = await openScene('Offline Reload', [['Ida', 'Iske']]);
    const target = people[0]!;
    // The server stays up; the browser just cannot reach its write endpoints (a flaky hall Wi-Fi).
    const cutOff = async (route: Route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue());
    await portal.page.route('**/api/scores/save-value', cutOff);
    await portal.page.route('**/api/jury-results', cutOff);
    await scoreWithKeyboard(portal.page, target.participantId, ['3', '8.1', '0']);
    await waitForParticipantStatus(portal.page, target.participantId, 'waiting', DEADLINE_MS);

    await portal.page.reload();
    await waitForParticipantStatus(portal.page, target.participantId, 'waiting', DEADLINE_MS);
    await participantButton(portal.page, target.participantId).click();
    // A waiting participant shows what is still to be sent, not the server's older values.
    await waitFor(async () => (await portal.page.inputValue('#field-B')) === '08.10', {
      timeoutMs: DEADLINE_MS,
      message: 'queued values shown after reload',
    });
    expect((await storedRows(server.pool, target.participantId, device.id)).details).toHaveLength(0);

    await portal.page.unroute('**/api/scores/save-value');
    await portal.page.unroute('**/api/jury-results');
    await waitForParticipantStatus(portal.page, target.participantId, 'completed', DEADLINE_MS);
    const rows = await storedRows(server.pool, target.participantId, device.id);
    expect(rows.scoreRows).toBe(1);
    expect(rows.details).toHaveLength(1);
    expect(rows.details[0]!.value).toBeCloseTo(11.1, 5);
    await boardRow(board.page, target.participantId).locator('.score', { hasText: '11.10' }).waitFor({ timeout: DEADLINE_MS });
    expect(portal.errors).toEqual([]);
  });
});

/** The saves waiting in the page's browser storage (every tab's queue), oldest first. */
function queuedInBrowser(opened: OpenedPage): Promise<Array<{ label: string; finalScore: number }>> {
  return opened.page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('gym.jury.saveQueue.v1.'))
      .flatMap((key) => JSON.parse(localStorage.getItem(key) ?? '[]') as Array<{ label: string; finalScore: number; createdAt: string }>)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
  );
}
