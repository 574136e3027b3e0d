/**
 * The spectator page (/live/?eventId=) on a 390 px phone in Chromium against the real service:
 * the whole ranking in one scrolling list (no paging), search by name and club, following a
 * gymnast (kept on the phone, shown at the top), a save arriving live without a reload, the
 * provisional mark with its legend, names not to be published, German and English.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertDetailRow, insertParticipant, insertRow, insertScoreRow, type Competition } from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';
import { LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { signIn } from './support/office.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let phone: OpenedPage;
const devices: number[] = [];
const scoreIds: number[] = [];
const participantIds: number[] = [];
const GYMNASTS = 30;

const listRows = () =>
  phone.page.$$eval('.live-ranking .live-row', (rows) =>
    rows.map((row) => [
      row.querySelector('.live-rank')?.textContent,
      row.querySelector('.live-name')?.textContent,
      row.querySelector('.live-value')?.textContent,
    ]),
  );
const followedNames = () => phone.page.$$eval('.live-following .live-name', (names) => names.map((name) => name.textContent));

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Kreisturnfest', '2026-11-28');
  for (const [name, short] of [
    ['Sprung', 'SP'],
    ['Boden', 'BO'],
  ])
    devices.push(
      await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: name, var_kurzname: short, var_eingabemaske: '00.000' }),
    );
  const nordheim = await insertRow(server.pool, 'vereine', 'int_vereineid', { var_name: 'SV Nordheim' });
  for (let index = 0; index < GYMNASTS; index++) {
    const participantId = await insertParticipant(server.pool, competition, {
      firstName: index === 0 ? 'Ida' : 'Eva',
      lastName: index === 0 ? 'Zimmermann' : `Turnerin ${String(index).padStart(2, '0')}`,
      startNumber: String(100 + index),
      birthDate: '2012-03-04',
      ...(index % 5 === 0 ? { clubId: nordheim } : {}),
    });
    const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: 'R1' });
    // Vault for everybody (released below), floor for the first ten (not released: provisional).
    await insertDetailRow(server.pool, scoreId, devices[0]!, 10 + index / 10);
    await insertDetailRow(server.pool, scoreId, devices[1]!, index < 10 ? 11 + index / 20 : null);
    scoreIds.push(scoreId);
    participantIds.push(participantId);
  }
  expect(
    (
      await sendJson(
        'POST',
        `${server.url}/api/releases`,
        { competitionId: competition.competitionId, disciplineId: devices[0] },
        bearer(headToken),
      )
    ).status,
  ).toBe(200);
  // Every score with the provisional mark; gymnast 29's name is not to be published.
  const settings = await sendJson(
    'PUT',
    `${server.url}/api/events/${competition.eventId}/spectator-settings`,
    { publish: 'all', hiddenParticipantIds: [participantIds[29]] },
    bearer(adminToken),
  );
  expect(settings.status).toBe(200);
  phone = await openPage(browser, `${server.url}/live/?eventId=${competition.eventId}&lang=de`, PHONE_390, { locale: 'de-DE' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('spectator page on a phone', () => {
  it('lists the whole all-around ranking in one list that scrolls, with the provisional mark and its legend', async () => {
    await phone.page.locator('.live-status[data-state="live"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => (await listRows()).length === GYMNASTS, { timeoutMs: 15_000, message: 'every gymnast listed' });
    const rows = await listRows();
    // Gymnast 9 has 10.9 + 11.45 = 22.35 (floor provisional), the best total.
    expect(rows[0]).toEqual(['1.', 'Eva Turnerin 09', '22,350*']);
    expect(rows.map((row) => row[1])).toContain('Name nicht veröffentlicht');
    expect(await phone.page.locator('.live-legend').textContent()).toContain('vorläufig');
    const { scrollHeight, innerHeight, width } = await phone.page.evaluate(() => ({
      scrollHeight: document.documentElement.scrollHeight,
      innerHeight: window.innerHeight,
      width: document.documentElement.scrollWidth,
    }));
    expect(scrollHeight).toBeGreaterThan(innerHeight * 2);
    expect(width).toBeLessThanOrEqual(390);
    expect(await phone.page.content()).not.toMatch(/2012|03\.04\./);
    await saveScreenshot(phone.page, 'spectator-page-390-de');
    // Scrolled to the end the last row is on screen: the list scrolls, it does not page.
    await phone.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await phone.page.locator('.live-row').last().isVisible()).toBe(true);
    expect((await listRows())[0]).toEqual(rows[0]);
  });

  it('shows an apparatus ranking from its tab', async () => {
    await phone.page.getByRole('button', { name: 'BO' }).click();
    await waitFor(async () => (await listRows()).length === 10, { message: 'ten floor values' });
    expect((await listRows())[0]).toEqual(['1.', 'Eva Turnerin 09', '11,450*']);
    await phone.page.getByRole('button', { name: 'Mehrkampf' }).click();
    await waitFor(async () => (await listRows()).length === GYMNASTS);
  });

  it('searches by club and by name', async () => {
    await phone.page.fill('.live-search', 'nordheim');
    await waitFor(async () => (await listRows()).length === GYMNASTS / 5, { message: 'the Nordheim gymnasts' });
    await saveScreenshot(phone.page, 'spectator-page-390-search');
    await phone.page.fill('.live-search', 'zimmer');
    await waitFor(async () => (await listRows()).length === 1);
    expect((await listRows())[0]![1]).toBe('Ida Zimmermann');
  });

  it('follows a gymnast at the top, kept on the phone across a reload', async () => {
    await phone.page.getByRole('button', { name: 'Ida Zimmermann folgen' }).click();
    await waitFor(async () => (await followedNames()).join() === 'Ida Zimmermann', { message: 'Ida followed' });
    await phone.page.fill('.live-search', '');
    await phone.page.reload();
    await waitFor(async () => (await followedNames()).join() === 'Ida Zimmermann', {
      timeoutMs: 15_000,
      message: 'still followed after reload',
    });
    await phone.page.locator('.live-status[data-state="live"]').waitFor({ timeout: 15_000 });
  });

  it('updates live without a reload when a score is saved', async () => {
    await phone.page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    const followedValue = () => phone.page.locator('.live-following .live-value').textContent();
    expect(await followedValue()).toBe('21,000*');
    const saved = await sendJson(
      'POST',
      `${server.url}/api/scores/save-value`,
      { competitionId: competition.competitionId, participantId: scoreIds[0], disciplineId: devices[1], score: 13.25 },
      bearer(headToken),
    );
    expect(saved.status).toBe(200);
    await waitFor(async () => (await followedValue()) === '23,250*', { timeoutMs: 10_000, message: 'the followed total updated live' });
    // Ida now leads: rank 1 in her row at the top and in the list.
    expect(await phone.page.locator('.live-following .live-rank').textContent()).toBe('1.');
    expect((await listRows())[0]![1]).toBe('Ida Zimmermann');
    expect(await phone.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await saveScreenshot(phone.page, 'spectator-page-390-followed-live');
  });

  it('the office shows the page’s address and QR code and hides a name, which the open page follows without a reload', async () => {
    const office = await openPage(browser, `${server.url}/office/?view=board&eventId=${competition.eventId}&lang=de`, LAPTOP);
    await signIn(office.page, adminToken);
    const address = `${server.url}/live/?eventId=${competition.eventId}`;
    await office.page.locator('#spectator-url', { hasText: address }).waitFor();
    expect(await office.page.getAttribute('#spectator-qr svg', 'data-qr-text')).toBe(address);
    await office.page.locator(`#spectator-hide-${participantIds[29]}:checked`).waitFor({ state: 'attached' });
    expect(await office.page.inputValue('#spectator-publish')).toBe('all');
    await office.page.fill('#spectator-filter', 'zimmer');
    await waitFor(async () => (await office.page.locator('#spectator-hidden label:visible').count()) === 1, {
      message: 'the filter leaves Ida',
    });
    await office.page.check(`#spectator-hide-${participantIds[0]}`);
    await office.page.click('#spectator-save');
    await office.page.locator('#spectator-message', { hasText: 'Gespeichert' }).waitFor();
    await saveScreenshot(office.page, 'office-spectator-settings');
    expect(office.errors).toEqual([]);
    await office.context.close();

    await waitFor(async () => (await listRows())[0]![1] === 'Name nicht veröffentlicht', {
      timeoutMs: 10_000,
      message: 'the name hidden live',
    });
    expect(await phone.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await phone.page.content()).not.toContain('Zimmermann');
  });

  it('switches to English', async () => {
    await phone.page.locator('.lang-switch').click();
    await phone.page.waitForURL(/lang=en/);
    await phone.page.locator('.live-status[data-state="live"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => (await phone.page.locator('.live-legend').textContent())?.includes('provisional'));
    expect((await listRows())[0]).toEqual(['1.', 'Name not published', '23.250*']);
    // Followed by id: the gymnast stays at the top, now without a name.
    expect(await followedNames()).toEqual(['Name not published']);
    await saveScreenshot(phone.page, 'spectator-page-390-en');
    expect(phone.errors).toEqual([]);
  });

  it('without an event in the address, lists the events to choose from', async () => {
    const bare = await openPage(browser, `${server.url}/live/?lang=de`, PHONE_390, { locale: 'de-DE' });
    try {
      const link = bare.page.locator('.live-events a', { hasText: 'Kreisturnfest' });
      await link.click();
      await bare.page.waitForURL(new RegExp(`eventId=${competition.eventId}`));
      await bare.page.locator('.live-status[data-state="live"]').waitFor({ timeout: 15_000 });
      expect(bare.errors).toEqual([]);
    } finally {
      await bare.context.close();
    }
  });
});
