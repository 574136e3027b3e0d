/**
 * A gymnast who did not start, in Chromium: the office ticks "did not start" on its participants
 * page, and jury portals already open on a phone (390 px) and a laptop (1366 px) show the gymnast
 * in place, greyed and marked, with the inputs disabled, without a reload. "Next gymnast" after a
 * save skips them, a value stored before stays in sight, an E-judge's portal moves past them, the
 * device board drops them as the result lists do, and once the office takes the mark back the
 * gymnast can be scored again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertDetailRow, insertJuryResults } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';
import { LAPTOP, PHONE_390, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';
import { seedCompetitors, seedDevice, type Competitor, type Device } from './support/portal-seed.js';
import {
  boardRow,
  noHorizontalOverflow,
  participantButton,
  scoreWithKeyboard,
  waitForAck,
  waitForParticipantStatus,
} from './support/portal.js';

let server: TestServer;
let browser: Browser;
let eventId: number;
let floor: Device;
let anna: Competitor;
let ben: Competitor;
let clara: Competitor;
let dora: Competitor;
let office: OpenedPage;
let phone: OpenedPage;
let laptop: OpenedPage;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const competition = await createCompetition(server.pool, 'Gaucup');
  eventId = competition.eventId;
  floor = await seedDevice(server.pool, { name: 'Floor', mask: '00.000', formula: 'A + B - C' });
  const people = await seedCompetitors(server.pool, competition, [
    ['Anna', 'Adler'],
    ['Ben', 'Berg'],
    ['Clara', 'Copp'],
    ['Dora', 'Dorn'],
  ]);
  [anna, ben, clara, dora] = people as [Competitor, Competitor, Competitor, Competitor];
  // Planned on floor; Dora's routine was scored before the office learnt she had not started.
  for (const person of [anna, ben, clara]) await insertDetailRow(server.pool, person.scoreId, floor.id, null);
  await insertDetailRow(server.pool, dora.scoreId, floor.id, 11.5);
  await insertJuryResults(server.pool, dora.scoreId, [
    [floor.fields.A, 4],
    [floor.fields.B, 8],
    [floor.fields.C, 0.5],
    [floor.fields.final, 11.5],
  ]);
});
afterAll(async () => {
  for (const opened of [office, phone, laptop]) await opened?.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

const portalUrl = (extra = '') => `${server.url}/jury/?eventId=${eventId}&disciplineId=${floor.id}${extra}`;

/** Ticks or unticks the office's "did not start" box of a gymnast and waits for the office's confirmation. */
async function officeMarks(person: Competitor, didNotStart: boolean): Promise<void> {
  const row = office.page.locator(`#entries tr:has-text("${person.lastName}, ${person.firstName}")`);
  await row.locator('.entry-didNotStart').setChecked(didNotStart);
  const said = `${person.firstName} ${person.lastName}: ${didNotStart ? 'did not start' : 'starts'}.`;
  await waitFor(async () => (await office.page.textContent('#entries-message')) === said, { message: said });
}

const marked = (page: Page, person: Competitor, didNotStart: boolean) =>
  page.locator(`.participant[data-participant-id="${person.participantId}"][data-did-not-start="${didNotStart}"]`).waitFor();

/** A value the page sets on load: a reload would lose it. */
const markLoad = (page: Page) => page.evaluate(() => Object.assign(window, { loadedOnce: true }));
const stillSameLoad = (page: Page) => page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true);

const inputsDisabled = (page: Page) =>
  page.$$eval('.score-form input', (inputs) => inputs.length > 0 && inputs.every((input) => (input as HTMLInputElement).disabled));

describe('a gymnast who did not start in the jury portal', () => {
  it('shows the office’s mark live on an open phone and laptop portal, greyed in place with the inputs disabled', async () => {
    office = await openPage(browser, `${officeUrl(server.url, 'participants', { eventId })}&lang=en`, LAPTOP);
    await signIn(office.page, adminToken);
    await office.page.locator('#entries tbody tr').first().waitFor();
    phone = await openPage(browser, portalUrl('&lang=en'), PHONE_390);
    laptop = await openPage(browser, portalUrl('&lang=de'), LAPTOP);
    for (const page of [phone.page, laptop.page]) {
      await waitForParticipantStatus(page, clara.participantId, 'pending');
      await page.locator('.connection[data-status="live"]').waitFor();
      await markLoad(page);
    }
    await participantButton(phone.page, ben.participantId).click();
    await phone.page.locator('#save-button').waitFor();
    await participantButton(laptop.page, ben.participantId).click();

    await officeMarks(ben, true);
    for (const page of [phone.page, laptop.page]) {
      await marked(page, ben, true);
      // Ben was selected: the form itself turns into the did-not-start form.
      await page.locator('#dns-mark').waitFor();
      expect(await inputsDisabled(page)).toBe(true);
      // Empty, without the example value a judge could take for a stored one.
      expect(await page.getAttribute('#field-A', 'placeholder')).toBe('');
      expect(await page.locator('#save-button').count()).toBe(0);
      expect(await stillSameLoad(page)).toBe(true);
      // Still listed in start order, between Anna and Clara.
      expect(await page.$$eval('.participant', (rows) => rows.map((row) => row.getAttribute('data-participant-id')))).toEqual(
        [anna, ben, clara, dora].map((person) => String(person.participantId)),
      );
    }
    expect(await participantButton(phone.page, ben.participantId).locator('.status-text').textContent()).toBe('Did not start');
    expect(await phone.page.textContent('#dns-note')).toContain('nothing to enter');
    // The heading's mark says it; the line under it names only the club.
    expect(await phone.page.textContent('.panel-status')).toBe('TV Musterstadt');
    expect(await participantButton(laptop.page, ben.participantId).locator('.status-text').textContent()).toBe('Nicht angetreten');
    expect(await laptop.page.textContent('#dns-mark')).toBe('Nicht angetreten');
    // Greyed: the row's background is not the white of a gymnast who starts.
    const background = (person: Competitor) =>
      participantButton(phone.page, person.participantId).evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(await background(ben)).not.toBe(await background(clara));
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'did-not-start-portal-390x844');
    await saveScreenshot(laptop.page, 'did-not-start-portal-1366x768');
  });

  it('keeps a value stored before in sight, read-only, next to the mark; the device board drops the gymnast', async () => {
    const board = await openPage(browser, `${server.url}/board/?eventId=${eventId}&disciplineId=${floor.id}&lang=en`, LAPTOP);
    try {
      await boardRow(board.page, dora.participantId).waitFor();
      await board.page.locator('.live-indicator[data-status="live"]').waitFor();
      await officeMarks(dora, true);
      // As the result lists do: no rank, no "n.a." row, gone until the mark is taken back.
      await boardRow(board.page, dora.participantId).waitFor({ state: 'detached' });
      expect(await board.page.textContent('.board-message')).toBe('No scores yet.');
      expect(board.errors).toEqual([]);
    } finally {
      await board.context.close();
    }
    const { page } = phone;
    await marked(page, dora, true);
    const row = participantButton(page, dora.participantId);
    expect(await row.getAttribute('data-status')).toBe('completed');
    expect(await row.locator('.status-text').textContent()).toBe('11.500');
    expect(await row.locator('.dns-mark').textContent()).toBe('Did not start');
    await row.click();
    await waitFor(async () => (await page.inputValue('#field-B')) === '08.000', { message: 'the stored values fill the form' });
    expect(await page.inputValue('#field-A')).toBe('04.000');
    expect(await page.inputValue('#field-C')).toBe('00.500');
    expect(await inputsDisabled(page)).toBe(true);
    expect(await page.textContent('#final-score')).toBe('11.500');
  });

  it('skips the gymnast when a save moves on to the next one, and an E-judge’s portal moves past them', async () => {
    const { page } = phone;
    await scoreWithKeyboard(page, anna.participantId, ['4.5', '8.2', '0.3']);
    await waitForAck(page, 'saved', 'Anna Adler');
    await waitFor(async () => (await participantButton(page, clara.participantId).getAttribute('aria-pressed')) === 'true', {
      message: 'Clara is chosen next, past Ben',
    });
    expect(await participantButton(page, ben.participantId).getAttribute('aria-pressed')).toBe('false');
    expect(await page.isEnabled('#field-A')).toBe(true);

    // An E-judge's portal opens on the first gymnast without the judge's value: Anna has one, Ben did not start.
    const judge = await openPage(browser, portalUrl(`&lang=en&field=${floor.fields.A}`), PHONE_390);
    try {
      await waitFor(async () => (await participantButton(judge.page, clara.participantId).getAttribute('aria-pressed')) === 'true', {
        message: 'the E-judge portal follows to Clara',
      });
      await marked(judge.page, ben, true);
      expect(await participantButton(judge.page, ben.participantId).textContent()).toContain('Did not start');
      expect(judge.errors).toEqual([]);
    } finally {
      await judge.context.close();
    }
  });

  it('opens the gymnast again when the office takes the mark back', async () => {
    await officeMarks(ben, false);
    // The laptop still shows Ben: the form opens in place.
    const { page } = laptop;
    await marked(page, ben, false);
    await page.locator('#save-button').waitFor();
    expect(await page.locator('#dns-mark').count()).toBe(0);
    expect(await page.isEnabled('#field-A')).toBe(true);
    expect(await stillSameLoad(page)).toBe(true);
    await waitForParticipantStatus(phone.page, ben.participantId, 'pending');
    expect(await participantButton(phone.page, ben.participantId).textContent()).not.toContain('Did not start');

    await scoreWithKeyboard(page, ben.participantId, ['5', '8,6', '0,5']);
    await waitForAck(page, 'saved', 'Ben Berg');
    await waitForParticipantStatus(phone.page, ben.participantId, 'completed');
    expect([...office.errors, ...phone.errors, ...laptop.errors]).toEqual([]);
  });
});
