/**
 * The board follows the rotation plan (`&rotation=current`): set up on the office's board page, it
 * says that no rotation runs until the head judge starts one, then shows per apparatus the squad
 * the current rotation puts there, and moves on to the next rotation's squads without a reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertDetailRow, insertParticipant, insertScoreRow, type Competition } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';
import { officeUrl, signIn } from './support/office.js';
import { LAPTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { seedDevice, type Device } from './support/portal-seed.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let floor: Device;
let vault: Device;
const opened: OpenedPage[] = [];
const names = { R1: ['Lena Adler', 'Mia Berg'], R2: ['Nora Clausen', 'Ola Dorn'] };

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Gaufinale Tafel');
  floor = await seedDevice(server.pool, { name: 'Boden' });
  vault = await seedDevice(server.pool, { name: 'Sprung' });
  let index = 0;
  for (const [squad, people] of Object.entries(names))
    for (const person of people) {
      const [firstName, lastName] = person.split(' ');
      index += 1;
      const participantId = await insertParticipant(server.pool, competition, { firstName, lastName, startNumber: String(index) });
      const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: squad });
      for (const device of [floor, vault]) await insertDetailRow(server.pool, scoreId, device.id, 10 + index / 10);
    }
  const plan = await fetch(`${server.url}/api/events/${competition.eventId}/rotation-plan`, {
    method: 'PUT',
    headers: { ...bearer(adminToken), 'content-type': 'application/json' },
    body: JSON.stringify({
      rotations: [
        { rotation: 1, plannedStart: '2031-06-01T08:00:00Z', slots: slots('R1', 'R2') },
        { rotation: 2, plannedStart: '2031-06-01T08:30:00Z', slots: slots('R2', 'R1') },
      ],
    }),
  });
  expect(plan.status).toBe(200);
});
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const slots = (onFloor: string, onVault: string) => [
  { disciplineId: floor.id, squadName: onFloor, judges: [] },
  { disciplineId: vault.id, squadName: onVault, judges: [] },
];

async function startRotation(rotation: number): Promise<void> {
  const response = await fetch(`${server.url}/api/events/${competition.eventId}/rotations/current`, {
    method: 'POST',
    headers: { ...bearer(headToken), 'content-type': 'application/json' },
    body: JSON.stringify({ rotation }),
  });
  expect(response.status).toBe(200);
}

/** What the projector shows right now: header and the names in its table. */
const shown = (page: Page) =>
  page.evaluate(() => ({
    title: document.querySelector('.board-header h1')?.textContent ?? '',
    subtitle: document.querySelector('.board-header .subtitle')?.textContent ?? '',
    names: Array.from(document.querySelectorAll('table.ranking tbody td.name'), (cell) => cell.textContent ?? '').sort(),
    live: document.querySelector('.live-indicator')?.getAttribute('data-status') === 'live',
  }));

/** Waits until the board (cycling through the apparatus) shows this apparatus' squad, and only it. */
async function waitForSquad(page: Page, apparatus: string, squad: 'R1' | 'R2', rotation: number): Promise<void> {
  await waitFor(
    async () => {
      const now = await shown(page);
      return (
        now.live &&
        now.title === `${apparatus} · Squad ${squad}` &&
        now.subtitle.startsWith(`Rotation ${rotation} · `) &&
        JSON.stringify(now.names) === JSON.stringify(names[squad])
      );
    },
    { timeoutMs: 15_000, message: `the board shows ${apparatus} with squad ${squad} in rotation ${rotation}` },
  );
}

describe('board following the rotation plan', () => {
  it('is offered by the board setup, shows each apparatus with its squad once a rotation starts, and follows the next without a reload', async () => {
    const office = await openPage(browser, `${officeUrl(server.url, 'board', { eventId: competition.eventId })}&lang=en`, LAPTOP);
    opened.push(office);
    await signIn(office.page, adminToken);
    await office.page.locator('#board-view option[value="rotation"]').waitFor({ state: 'attached' });
    await office.page.selectOption('#board-view', 'rotation');
    await office.page.fill('#board-pace', '3');
    await office.page.locator('#board-url').waitFor();
    const address = new URL((await office.page.textContent('#board-url'))!);
    expect(address.searchParams.get('rotation')).toBe('current');
    expect(address.searchParams.get('disciplineId')).toBeNull();
    expect(await office.page.isHidden('#board-devices')).toBe(true);

    const board = await openPage(browser, address.href, LAPTOP);
    opened.push(board);
    const { page } = board;
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await waitFor(async () => (await page.textContent('.board-message'))?.startsWith('No rotation has started yet'), {
      message: 'the board says that no rotation runs',
    });

    await startRotation(1);
    await waitForSquad(page, 'Boden', 'R1', 1);
    await waitForSquad(page, 'Sprung', 'R2', 1);
    await saveScreenshot(page, 'board-rotation-1-1366x768');

    await startRotation(2);
    await waitForSquad(page, 'Boden', 'R2', 2);
    await waitForSquad(page, 'Sprung', 'R1', 2);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await saveScreenshot(page, 'board-rotation-2-1366x768');
    expect([...board.errors, ...office.errors]).toEqual([]);
  });
});
