/**
 * Issue 45 in Chromium under AUTH_MODE=strict: the office generates a rotation plan, edits it (a
 * refused edit is explained in words and stores nothing) and saves it; it issues a judge
 * credential whose QR code opens the portal preselected on the apparatus and the current squad,
 * naming the judge, the token kept out of the address bar and sent with the saves; when the office
 * starts the next rotation (asked first, since a squad is unfinished), the portal moves on to its
 * apparatus' new squad by itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertDetailRow, insertParticipant, insertScoreRow, type Competition } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer } from '../support/tokens.js';
import { officeUrl, signIn } from './support/office.js';
import { ARTIFACTS_DIR, LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { seedDevice, storedRows, type Device } from './support/portal-seed.js';
import { participantButton, scoreWithKeyboard, waitForParticipantStatus } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let floor: Device;
let vault: Device;
/** Participant ids by squad. */
const squads = new Map<string, number[]>();
/** Score rows by last name. */
const scoreRows = new Map<string, number>();
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
    scoreRows.set(lastName, scoreId);
  }
});
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

interface StoredPlan {
  rotations: Array<{ rotation: number; plannedStart: string; slots: Array<{ disciplineId: number; squadName: string }> }>;
  currentRotation: number | null;
}

async function storedPlan(): Promise<StoredPlan> {
  const response = await fetch(`${server.url}/api/events/${competition.eventId}/rotation-plan`, { headers: bearer(adminToken) });
  return (await response.json()) as StoredPlan;
}

async function openOffice(view: string, viewport = LAPTOP): Promise<OpenedPage> {
  const office = await openPage(browser, officeUrl(server.url, view, { eventId: competition.eventId }), viewport);
  opened.push(office);
  await signIn(office.page, adminToken);
  return office;
}

/** A squad picker of the plan table. */
async function markDidNotStart(lastName: string, didNotStart: boolean): Promise<void> {
  const response = await fetch(`${server.url}/api/events/${competition.eventId}/entries/${scoreRows.get(lastName)}`, {
    method: 'PATCH',
    headers: { ...bearer(adminToken), 'content-type': 'application/json' },
    body: JSON.stringify({ didNotStart }),
  });
  expect(response.status).toBe(200);
}

const squadPicker = (rotation: number, disciplineId: number) =>
  `select.rot-squad[data-rotation="${rotation}"][data-discipline-id="${disciplineId}"]`;

describe('rotation plan in the office', () => {
  it('generates a plan with a break, refuses an edit in words, and saves an edited time and squad', async () => {
    const { page, errors } = await openOffice('rotations');
    await page.locator('#rot-empty').waitFor();
    // The plan begins an hour ago, so the day's delay reads as on a real day; times in the browser's zone.
    const [startAt, secondAt, movedAt] = await page.evaluate(() =>
      [-60, -15, 0].map((minutes) => new Date(Date.now() + minutes * 60_000).toLocaleString('sv').replace(' ', 'T').slice(0, 16)),
    );
    await page.fill('#rot-start', startAt!);
    await page.fill('#rot-minutes', '30');
    await page.fill('#rot-breaks', '1:15');
    await page.click('#rot-generate');
    await page.locator('#rot-plan').waitFor();
    // Squad i starts on apparatus i and moves on; rotation 2 starts after 30 min and the 15 min break.
    expect(await page.inputValue(squadPicker(1, floor.id))).toBe('R1');
    expect(await page.inputValue(squadPicker(1, vault.id))).toBe('R2');
    expect(await page.inputValue(squadPicker(2, floor.id))).toBe('R2');
    expect(await page.inputValue('tr[data-rotation="2"] .rot-time')).toBe(secondAt);
    expect((await storedPlan()).rotations).toEqual([]);

    // R1 on both apparatus in rotation 1: the server refuses, the page says why, nothing is stored.
    await page.selectOption(squadPicker(1, vault.id), 'R1');
    await page.click('#rot-save');
    await page.locator('#rot-message[data-state="error"] li').first().waitFor();
    const refusal = await page.textContent('#rot-message');
    expect(refusal).toContain('Rotation 1: squad R1 is on two apparatus.');
    expect(refusal).not.toContain('body.');
    expect(await page.getAttribute(squadPicker(1, vault.id), 'aria-invalid')).toBe('true');
    expect((await storedPlan()).rotations).toEqual([]);
    await saveScreenshot(page, 'rotations-plan-refused-1366x768');

    // Corrected, and rotation 2 moved back by a quarter of an hour: saved as shown.
    await page.selectOption(squadPicker(1, vault.id), 'R2');
    await page.fill('tr[data-rotation="2"] .rot-time', movedAt!);
    await page.click('#rot-save');
    await page.locator('#rot-message[data-state="ok"]').waitFor();
    const [first, second] = await page.evaluate((times) => times.map((time) => new Date(time).toISOString()), [startAt!, movedAt!]);
    expect((await storedPlan()).rotations).toEqual([
      { rotation: 1, plannedStart: first, slots: [slotOf(floor.id, 'R1'), slotOf(vault.id, 'R2')] },
      { rotation: 2, plannedStart: second, slots: [slotOf(floor.id, 'R2'), slotOf(vault.id, 'R1')] },
    ]);
    await saveScreenshot(page, 'rotations-plan-saved-1366x768');
    await page.setViewportSize(PHONE_390);
    await saveScreenshot(page, 'rotations-plan-saved-390');
    expect(errors).toEqual([]);
  });
});

const slotOf = (disciplineId: number, squadName: string) => ({ disciplineId, squadName, judges: [] });

describe('jury portal from a judge credential', () => {
  it('opens preselected, names the judge, saves with its token and follows the next rotation the office starts', async () => {
    const credentials = await openOffice('credentials');
    await credentials.page.locator(`#cred-apparatus option[value="${floor.id}"]`).waitFor({ state: 'attached' });
    await credentials.page.selectOption('#cred-apparatus', String(floor.id));
    await credentials.page.fill('#cred-judge', 'Ute Kampf');
    await credentials.page.click('#cred-issue');
    const qr = credentials.page.locator('.cred-card svg.qr');
    await qr.waitFor();
    const portalUrl = (await qr.getAttribute('data-qr-text'))!;
    expect(portalUrl).toContain('#token=');
    await credentials.page.locator('.cred-table tr[data-active="true"]').waitFor();
    await saveScreenshot(credentials.page, 'rotations-credentials-1366x768');
    await credentials.page.setViewportSize(PHONE_390);
    await saveScreenshot(credentials.page, 'rotations-credentials-390');

    const office = await openOffice('rotations');
    await office.page.locator('#rot-next').waitFor();
    await office.page.click('#rot-next');
    await office.page.locator('#rot-progress').waitFor();
    expect((await storedPlan()).currentRotation).toBe(1);
    // The office shows the delay the server measured (the plan began an hour before), in hours and minutes from an hour on.
    const { current, upcoming } = (await (await fetch(`${server.url}/api/events/${competition.eventId}/rotations/current`)).json()) as {
      current: { delayMinutes: number };
      upcoming: Array<{ rotation: number; plannedStart: string; expectedStart: string }>;
    };
    expect(Number(await office.page.getAttribute('#rot-delay', 'data-delay'))).toBe(current.delayMinutes);
    const late = current.delayMinutes;
    expect(await office.page.textContent('#rot-delay')).toBe(
      `${late < 60 ? `${late} min` : `${Math.floor(late / 60)} h ${late % 60} min`} behind the plan.`,
    );
    // Rotation 2 is expected that much later than planned, in the office's clock time.
    expect(upcoming.map((item) => [item.rotation, Date.parse(item.expectedStart) - Date.parse(item.plannedStart)])).toEqual([
      [2, late * 60_000],
    ]);
    const hhmm = (iso: string) =>
      office.page.evaluate((time) => new Date(time).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' }), iso);
    expect(await office.page.textContent('#rot-upcoming')).toBe(
      `Rotation 2: expected ${await hhmm(upcoming[0]!.expectedStart)} (planned ${await hhmm(upcoming[0]!.plannedStart)})`,
    );

    const portal = await openPage(browser, portalUrl, PHONE_390);
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

    // The office sees the floor at 1 of 2 and is asked before it starts rotation 2 anyway.
    const floorRow = office.page.locator(`#rot-progress tr[data-discipline-id="${floor.id}"] .rot-count`);
    await waitFor(async () => (await floorRow.textContent()) === '1/2', { message: 'the office sees the floor score' });
    await office.page.click('#rot-next');
    await office.page.locator('#rot-question').waitFor();
    expect(await office.page.textContent('#rot-question')).toContain('Boden (1/2)');
    await saveScreenshot(office.page, 'rotations-next-question-1366x768');
    expect((await storedPlan()).currentRotation).toBe(1);
    await office.page.click('#rot-next-anyway');
    await waitFor(async () => (await storedPlan()).currentRotation === 2, { message: 'rotation 2 started' });

    // R2 comes to the floor, and the portal lists R2 by itself.
    const [third] = squads.get('R2')!;
    await participantButton(page, third!).waitFor();
    await waitFor(async () => (await page.inputValue('#squad-select')) === 'R2', { message: 'the portal follows rotation 2' });
    expect(await page.locator('.participant').count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('squad')).toBe('R2');
    await page.setViewportSize(LAPTOP);
    await saveScreenshot(page, 'rotations-portal-next-rotation-1366x768');
    await saveScreenshot(office.page, 'rotations-current-1366x768');
    expect([...portal.errors, ...office.errors, ...credentials.errors]).toEqual([]);
  });
});

describe('judge sheets', () => {
  it('prints one A4 page per apparatus and squad of a rotation, gymnasts in start order, with the judge code', async () => {
    const office = await openOffice('sheets');
    const { page } = office;
    await page.locator('#sheets-rotation option[value="1"]').waitFor({ state: 'attached' });
    await page.selectOption('#sheets-rotation', '1');
    await page.check('#sheets-codes');
    await page.click('#sheets-build');
    await page.locator('#sheets-print:not([disabled])').waitFor();
    // Rotation 1: R1 on the floor, R2 on the vault; each sheet's code opens the portal there, signed in.
    const sheets = await page.$$eval('.judge-sheet', (elements) =>
      elements.map((element) => ({
        squad: element.getAttribute('data-squad'),
        apparatus: Number(element.getAttribute('data-discipline-id')),
        qr: element.querySelector('svg.qr')?.getAttribute('data-qr-text') ?? '',
      })),
    );
    expect(sheets.map(({ squad, apparatus }) => [apparatus, squad])).toEqual([
      [floor.id, 'R1'],
      [vault.id, 'R2'],
    ]);
    for (const sheet of sheets) {
      const url = new URL(sheet.qr);
      expect([url.pathname, url.searchParams.get('disciplineId'), url.searchParams.get('squad')]).toEqual([
        '/jury/',
        String(sheet.apparatus),
        sheet.squad,
      ]);
      expect(url.hash).toMatch(/^#token=/);
    }

    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.emulateMedia({ media: 'print' });
    const pdf = path.join(ARTIFACTS_DIR, 'rotations-judge-sheets.pdf');
    writeFileSync(pdf, await page.pdf({ format: 'A4', printBackground: true }));
    await page.emulateMedia({ media: 'screen' });
    expect(Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1])).toBe(2);
    const text = (pageNumber: number) =>
      execFileSync('pdftotext', ['-layout', '-f', String(pageNumber), '-l', String(pageNumber), pdf, '-'], { encoding: 'utf8' });
    const floorPage = text(1);
    expect(floorPage).toContain('Boden · Squad R1');
    expect(floorPage.indexOf('Lena Adler')).toBeGreaterThan(-1);
    expect(floorPage.indexOf('Lena Adler')).toBeLessThan(floorPage.indexOf('Mia Berg'));
    expect(floorPage).not.toContain('Nora Clausen');
    expect(floorPage).toMatch(/Difficulty\s+Execution\s+Penalty\s+Final score/);
    expect(text(2)).toMatch(/Sprung · Squad R2[\s\S]*Nora Clausen[\s\S]*Ola Dorn/);
    await saveScreenshot(page, 'rotations-judge-sheets-1366x768');
    expect(office.errors).toEqual([]);
  });
});

describe('start lists', () => {
  it('prints one A4 page per rotation in German: per apparatus its squad in start order, with club and competition', async () => {
    const office = await openPage(browser, `${officeUrl(server.url, 'startlists', { eventId: competition.eventId })}&lang=de`, LAPTOP);
    opened.push(office);
    const { page } = office;
    await signIn(page, adminToken);
    await markDidNotStart('Dorn', true);
    await page.locator('#startlists-rotation option[value="2"]').waitFor({ state: 'attached' });
    await page.click('#startlists-build');
    await page.locator('#startlists-print:not([disabled])').waitFor();
    expect(await page.textContent('#startlists-message')).toBe('2 Startlisten.');

    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.emulateMedia({ media: 'print' });
    const pdf = path.join(ARTIFACTS_DIR, 'rotations-start-lists.pdf');
    writeFileSync(pdf, await page.pdf({ format: 'A4', printBackground: true }));
    await page.emulateMedia({ media: 'screen' });
    expect(Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1])).toBe(2);
    const lines = (pageNumber: number) =>
      execFileSync('pdftotext', ['-layout', '-f', String(pageNumber), '-l', String(pageNumber), pdf, '-'], { encoding: 'utf8' })
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter(Boolean);
    // Rotation 1: R1 on the floor, R2 on the vault; rotation 2 the other way round. Each gymnast
    // with start number, club and competition, in start order.
    const wanted = (squadOnFloor: 'R1' | 'R2') => {
      // The office marked Ola Dorn as not starting: the list says so.
      const people = { R1: ['1 Lena Adler', '2 Mia Berg'], R2: ['3 Nora Clausen', '4 Ola Dorn (n. a.)'] };
      const squadOnVault = squadOnFloor === 'R1' ? 'R2' : 'R1';
      const row = (index: number, person: string) => `${index}. ${person} TV Musterstadt Gaufinale Riegen WK`;
      return [
        `Boden · Riege ${squadOnFloor}`,
        ...people[squadOnFloor].map((person, index) => row(index + 1, person)),
        `Sprung · Riege ${squadOnVault}`,
        ...people[squadOnVault].map((person, index) => row(index + 1, person)),
      ];
    };
    for (const [pageNumber, squadOnFloor] of [
      [1, 'R1'],
      [2, 'R2'],
    ] as const) {
      const text = lines(pageNumber);
      expect(text[0]).toMatch(new RegExp(`^Startliste · Durchgang ${pageNumber}, `));
      expect(text.filter((line) => /^(Boden|Sprung) · |^\d\. /.test(line))).toEqual(wanted(squadOnFloor));
    }
    await saveScreenshot(page, 'rotations-start-lists-1366x768');
    expect(office.errors).toEqual([]);
    await markDidNotStart('Dorn', false);
  });
});
