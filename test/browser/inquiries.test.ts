/**
 * Issue 47 item 1 in Chromium against the real service: a coach files an inquiry on a phone (390
 * px, German) and confirms it in writing, the scoreboard marks the score, the head judge upholds it
 * in the console with a new D, and the board drops the mark and shows the recalculated score; the
 * printed log lists every time.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { headToken } from '../support/tokens.js';
import { DESKTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage, type Viewport } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let discipline: Discipline;
let scoreId: number;
let lastScoreId: number;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Einspruchs-Cup');
  discipline = await insertDiscipline(server.pool, { name: 'Barren' });
  scoreId = (await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName: 'Adler' })).scoreId;
  lastScoreId = (await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName: 'Berg' })).scoreId;
  // Adler's routine is scored and shown: D 5, E 8, deduction 0.3, final 12.7.
  await score(scoreId);
});

async function score(wertungenId: number): Promise<void> {
  const { A, B, C } = discipline.fields;
  const saved = await postJson(`${server.url}/api/scores/capture`, {
    wertungenId,
    fieldValues: [
      { fieldId: A, value: 5 },
      { fieldId: B, value: 8 },
      { fieldId: C, value: 0.3 },
    ],
  });
  expect(saved.status).toBe(200);
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(url: string, viewport: Viewport = DESKTOP): Promise<OpenedPage> {
  const page = await openPage(browser, url, viewport);
  opened.push(page);
  return page;
}

describe('an inquiry from the coach’s phone to the board', () => {
  it('is filed and confirmed on the phone, marked on the board, upheld in the console, and the board shows the new score', async () => {
    const board = await open(`${server.url}/board/?eventId=${competition.eventId}&disciplineId=${discipline.id}&lang=en`);
    const boardRow = board.page.locator('tr', { has: board.page.locator('td.name', { hasText: 'Anna Adler' }) });
    await boardRow.waitFor({ timeout: 10_000 });
    expect(await boardRow.locator('.score').textContent()).toMatch(/^12\.70*$/);
    expect(await boardRow.locator('.inquiry-mark').count()).toBe(0);

    const coach = await open(`${officeUrl(server.url, 'inquiry', { eventId: competition.eventId })}&lang=de`, PHONE_390);
    const phone = coach.page;
    await phone.fill('#inquiry-coach', 'Trainerin Kim');
    await phone.selectOption('#inquiry-device', String(discipline.id));
    const candidate = phone.locator(`.inquiry-candidate[data-score-id="${scoreId}"]`);
    await candidate.waitFor({ timeout: 10_000 });
    expect(await candidate.locator('button.inquire').textContent()).toBe('Einspruch D-Note');
    expect(await candidate.textContent()).toContain('Fällig, bevor die Wertung des nächsten Turners gezeigt wird.');
    await candidate.locator('button.inquire').click();

    const entry = phone.locator('.inquiry-entry[data-state="filed"]');
    await entry.waitFor({ timeout: 10_000 });
    // The written deadline counts down from the service's four minutes.
    expect(await entry.locator('.countdown').textContent()).toMatch(/^Schriftlich bestätigen: noch (4:00|3:5\d)$/);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(phone, 'inquiry-coach-filed-390');
    await entry.locator('button.confirm-inquiry').click();
    await phone.locator('.inquiry-entry[data-state="confirmed"]').waitFor({ timeout: 10_000 });
    expect(await phone.locator('.inquiry-entry .state').first().textContent()).toBe('schriftlich bestätigt');

    // The board marks the score under inquiry and explains the mark.
    await boardRow.locator('.inquiry-mark').waitFor({ timeout: 10_000 });
    expect(await board.page.locator('#board-legend').textContent()).toContain('Inquiry: the D score is being reviewed by the head judge.');
    await saveScreenshot(board.page, 'inquiry-board-marked');

    const console = await open(
      officeUrl(server.url, 'console', { eventId: competition.eventId, competitionId: competition.competitionId }) + '&lang=en',
    );
    await signIn(console.page, headToken);
    const decision = console.page.locator('.inquiry-decision[data-state="confirmed"]');
    await decision.waitFor({ timeout: 10_000 });
    expect(await decision.locator('h4').textContent()).toContain('Anna Adler');
    await expect.poll(() => decision.locator('button[data-action="uphold"]').isDisabled(), { timeout: 10_000 }).toBe(false);
    await decision.locator('input.new-d').fill('5.5');
    await saveScreenshot(console.page, 'inquiry-console-decision');
    await decision.locator('button[data-action="uphold"]').click();
    await console.page.locator('#no-inquiries').waitFor({ timeout: 10_000 });

    // The decision went through the score path: the board shows the recalculated final, unmarked.
    await expect.poll(() => boardRow.locator('.score').textContent(), { timeout: 10_000 }).toMatch(/^13\.20*$/);
    await expect.poll(() => boardRow.locator('.inquiry-mark').count(), { timeout: 10_000 }).toBe(0);
    await saveScreenshot(board.page, 'inquiry-board-upheld');
    await phone.locator('.inquiry-entry[data-state="upheld"]').waitFor({ timeout: 10_000 });
    expect(await phone.locator('.inquiry-entry[data-state="upheld"]').textContent()).toMatch(/stattgegeben von oberkampfrichter/);

    const log = await open(`${officeUrl(server.url, 'inquiries', { eventId: competition.eventId })}&lang=de`);
    const logRow = log.page.locator('#inquiry-log tbody tr[data-state="upheld"]');
    await logRow.waitFor({ timeout: 10_000 });
    const cells = await logRow.locator('td').allTextContents();
    expect(cells[1]).toContain('Anna Adler');
    expect(cells[3]).toBe('Trainerin Kim');
    // Shown, filed, written deadline, confirmed and decided: dates and times in German notation.
    for (const index of [4, 5, 7, 8, 10]) expect(cells[index]).toMatch(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}/);
    expect(cells[6]).toBe('nächste Wertung');
    expect(cells[9]).toBe('stattgegeben');
    expect(cells[11]).toBe('5 → 5,5');
    expect(cells[12]).toBe('12,7 → 13,2');
    await saveScreenshot(log.page, 'inquiry-log-de');

    // Berg, the last of the squad, is shown: the phone counts his one minute down on the server's clock.
    await score(lastScoreId);
    const last = phone.locator(`.inquiry-candidate[data-score-id="${lastScoreId}"][data-latest="true"]`);
    await last.waitFor({ timeout: 10_000 });
    expect(await last.locator('.countdown[data-kind="verbal"]').textContent()).toMatch(/^Mündlicher Einspruch: noch (1:00|0:[0-5]\d)$/);
    await saveScreenshot(phone, 'inquiry-coach-last-gymnast-390');

    for (const page of opened) expect(page.errors, page.page.url()).toEqual([]);
  });
});
