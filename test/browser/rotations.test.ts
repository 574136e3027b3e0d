/**
 * Issue 45 in Chromium under AUTH_MODE=strict: a judge opens the portal from a credential's
 * address, which preselects the apparatus and the current squad, names the judge, keeps the token
 * out of the address bar and saves with it; when the next rotation starts, the portal moves on to
 * its apparatus' new squad by itself.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertDetailRow, insertParticipant, insertScoreRow, type Competition } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer } from '../support/tokens.js';
import { LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { seedDevice, storedRows, type Device } from './support/portal-seed.js';
import { participantButton, scoreWithKeyboard, waitForParticipantStatus } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let floor: Device;
let vault: Device;
/** Participant ids by squad. */
const squads = new Map<string, number[]>();
const opened: OpenedPage[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_MODE: 'strict' } });
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Gaufinale Riegen');
  floor = await seedDevice(server.pool, { name: 'Boden' });
  vault = await seedDevice(server.pool, { name: 'Sprung' });
  const people = [
    ['Lena', 'Adler', 'R1'],
    ['Mia', 'Berg', 'R1'],
    ['Nora', 'Clausen', 'R2'],
    ['Ola', 'Dorn', 'R2'],
  ] as const;
  for (const [index, [firstName, lastName, squad]] of people.entries()) {
    const participantId = await insertParticipant(server.pool, competition, { firstName, lastName, startNumber: String(index + 1) });
    const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: squad });
    for (const device of [floor, vault]) await insertDetailRow(server.pool, scoreId, device.id, null);
    squads.set(squad, [...(squads.get(squad) ?? []), participantId]);
  }
});
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...bearer(adminToken), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const eventPath = () => `/api/events/${competition.eventId}`;

describe('jury portal from a judge credential', () => {
  it('opens preselected, names the judge, saves with its token and follows the next rotation', async () => {
    const { rotations } = await api<{ rotations: unknown[] }>('POST', `${eventPath()}/rotation-plan/generate`, {
      start: '2026-05-02T08:00:00.000Z',
      minutesPerApparatus: 30,
      disciplineIds: [floor.id, vault.id],
    });
    await api('PUT', `${eventPath()}/rotation-plan`, { rotations });
    await api('POST', `${eventPath()}/rotations/current`, { rotation: 1 });
    const issued = await api<{ portalUrl: string; token: string }>('POST', `${eventPath()}/judge-credentials`, {
      disciplineId: floor.id,
      competitionId: competition.competitionId,
      judgeName: 'Ute Kampf',
    });
    expect(issued.portalUrl).toContain('#token=');

    const portal = await openPage(browser, issued.portalUrl, PHONE_390);
    opened.push(portal);
    const { page } = portal;
    const [first, second] = squads.get('R1')!;
    await participantButton(page, first!).waitFor();
    // Preselected: the floor, squad R1 (rotation 1 puts R1 on the floor), and only R1 listed.
    expect(await page.inputValue('#device-select')).toBe(String(floor.id));
    expect(await page.inputValue('#squad-select')).toBe('R1');
    expect(await page.locator('.participant').count()).toBe(2);
    // The judge is named by the credential, and the token left the address bar.
    expect(await page.inputValue('#judge-name')).toBe('Ute Kampf');
    expect(page.url()).not.toContain('token');
    await saveScreenshot(page, 'rotations-portal-credential-390');

    // Strict mode: the save goes through only with the credential's token.
    await scoreWithKeyboard(page, first!, ['4', '8', '0.5']);
    await waitForParticipantStatus(page, first!, 'completed');
    expect((await storedRows(server.pool, first!, floor.id)).details.map((detail) => detail.value)).toEqual([11.5]);
    expect(await participantButton(page, second!).getAttribute('data-status')).toBe('pending');

    // The office starts rotation 2: R2 comes to the floor, and the portal lists R2 by itself.
    await api('POST', `${eventPath()}/rotations/current`, { rotation: 2 });
    const [third] = squads.get('R2')!;
    await participantButton(page, third!).waitFor();
    await waitFor(async () => (await page.inputValue('#squad-select')) === 'R2', { message: 'the portal follows rotation 2' });
    expect(await page.locator('.participant').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('squad')).toBe('R2');
    await page.setViewportSize(LAPTOP);
    await saveScreenshot(page, 'rotations-portal-next-rotation-1366x768');
    expect(portal.errors).toEqual([]);
  });
});
