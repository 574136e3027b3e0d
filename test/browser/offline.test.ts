/**
 * Offline-safe saving: the server goes away (its database stays), a judge scores two participants,
 * which wait in the browser, and the server comes back on the same port: both scores arrive
 * exactly once, in order, and the scoreboard shows when it is not live and catches up by itself.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { juryRows } from '../support/scoring-fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { freePort, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { seedArena, seedCompetitors, seedDevice, storedRows, type Competitor, type Device } from './support/fixtures.js';
import { boardRow, boardRows, participantButton, scoreWithKeyboard, waitForAck, waitForParticipantStatus } from './support/portal.js';

let port: number;
let server: TestServer;
let browser: Browser;
let eventId: number;
let vault: Device;
let people: Competitor[];
const retiredDataDirs: string[] = [];

beforeAll(async () => {
  port = await freePort();
  server = await startTestServer({ env: { PORT: String(port) } });
  browser = await launchBrowser();
  const arena = await seedArena(server.pool, 'Offline Open');
  eventId = arena.eventId;
  vault = await seedDevice(server.pool, { name: 'Vault', mask: '00.00', formula: 'A + B - C' });
  people = await seedCompetitors(server.pool, arena, [
    ['Dora', 'Dahl'],
    ['Emil', 'Eck'],
    ['Fritz', 'Falk'],
  ]);
});

afterAll(async () => {
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

describe('jury portal without a server', () => {
  let portal: OpenedPage;
  let board: OpenedPage;

  it('queues two saves while the server is down and sends each exactly once when it is back', async () => {
    const url = `${server.url}/jury/?eventId=${eventId}&disciplineId=${vault.id}`;
    portal = await openPage(browser, url);
    board = await openPage(browser, `${server.url}/board/?eventId=${eventId}&disciplineId=${vault.id}`);
    for (const person of people) await waitForParticipantStatus(portal.page, person.participantId, 'pending');
    await portal.page.locator('.connection[data-status="live"]').waitFor();
    await board.page.locator('.live-indicator[data-status="live"]').waitFor();

    await stopServer();
    await portal.page.locator('.connection[data-status="offline"]').waitFor({ timeout: 10_000 });
    await board.page.locator('.live-indicator[data-status="offline"]', { hasText: 'NOT LIVE' }).waitFor({ timeout: 10_000 });

    await scoreWithKeyboard(portal.page, people[0]!.participantId, ['4.4', '9', '0.1']);
    await waitForAck(portal.page, 'waiting', 'Dora Dahl');
    await waitForParticipantStatus(portal.page, people[0]!.participantId, 'waiting');
    await scoreWithKeyboard(portal.page, people[1]!.participantId, ['5.2', '8.7', '0.3']);
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'waiting');
    expect(await participantButton(portal.page, people[1]!.participantId).locator('.status-text').textContent()).toBe('waiting');
    const banner = portal.page.locator('.queue-banner');
    await banner.locator('text=2 saves are waiting').waitFor();
    await saveScreenshot(portal.page, 'jury-portal-offline-1280');
    expect((await queuedInBrowser(portal)).map((job) => [job.label, job.finalScore])).toEqual([
      ['Dora Dahl', 13.3],
      ['Emil Eck', 13.6],
    ]);

    await restartServer();
    await waitForParticipantStatus(portal.page, people[0]!.participantId, 'completed', 20_000);
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'completed', 20_000);
    await banner.waitFor({ state: 'hidden' });
    expect(await queuedInBrowser(portal)).toEqual([]);
    await portal.page.locator('.connection[data-status="live"]').waitFor({ timeout: 10_000 });
    expect(portal.errors).toEqual([]);

    for (const [person, final] of [
      [people[0]!, 13.3],
      [people[1]!, 13.6],
    ] as const) {
      const rows = await storedRows(server.pool, person.participantId, vault.id);
      expect(rows.scoreRows).toBe(1);
      expect(rows.details).toHaveLength(1);
      expect(rows.details[0]!.value).toBeCloseTo(final, 5);
      expect(await juryRows(server.pool, person.scoreId)).toHaveLength(4);
    }
    expect((await storedRows(server.pool, people[2]!.participantId, vault.id)).details).toHaveLength(0);
  });

  it('brings the scoreboard back to live by itself, with the scores saved while it was away', async () => {
    await board.page.locator('.live-indicator[data-status="live"]').waitFor({ timeout: 15_000 });
    await boardRow(board.page, people[1]!.participantId).locator('.score', { hasText: '13.60' }).waitFor({ timeout: 5_000 });
    await boardRow(board.page, people[0]!.participantId).locator('.score', { hasText: '13.30' }).waitFor({ timeout: 5_000 });
    expect((await boardRows(board.page)).map((row) => [row.rank, row.name, row.score])).toEqual([
      ['1.', 'Emil Eck', '13.60'],
      ['2.', 'Dora Dahl', '13.30'],
    ]);
    expect(board.errors).toEqual([]);
  });

  it('keeps a waiting save across a page reload and sends it once the server answers again', async () => {
    const target = people[2]!;
    // The server stays up; the browser just cannot reach its write endpoints (a flaky hall Wi-Fi).
    const cutOff = async (route: import('playwright-core').Route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue());
    await portal.page.route('**/api/scores/save-value', cutOff);
    await portal.page.route('**/api/jury-results', cutOff);
    await scoreWithKeyboard(portal.page, target.participantId, ['3', '8.1', '0']);
    await waitForParticipantStatus(portal.page, target.participantId, 'waiting');

    await portal.page.reload();
    await waitForParticipantStatus(portal.page, target.participantId, 'waiting');
    await participantButton(portal.page, target.participantId).click();
    // A waiting participant shows what is still to be sent, not the server's older values.
    await waitFor(async () => (await portal.page.inputValue('#field-B')) === '08.10', { message: 'queued values shown after reload' });
    expect((await storedRows(server.pool, target.participantId, vault.id)).details).toHaveLength(0);

    await portal.page.unroute('**/api/scores/save-value');
    await portal.page.unroute('**/api/jury-results');
    await waitForParticipantStatus(portal.page, target.participantId, 'completed', 15_000);
    const rows = await storedRows(server.pool, target.participantId, vault.id);
    expect(rows.scoreRows).toBe(1);
    expect(rows.details).toHaveLength(1);
    expect(rows.details[0]!.value).toBeCloseTo(11.1, 5);
    await boardRow(board.page, target.participantId).locator('.score', { hasText: '11.10' }).waitFor({ timeout: 2_000 });
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
