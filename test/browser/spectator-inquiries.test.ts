/**
 * The spectator page (/live/?eventId=) on a 390 px phone in Chromium against the real service: a
 * coach's inquiry filed through the API marks the gymnast's value on the open page without a
 * reload, in German and English, and the head judge's decision removes the mark and shows the new
 * value.
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
import { postJson, sendJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';
import { launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let floor: Discipline;
let phone: OpenedPage;
const scoreIds: Record<string, number> = {};

/** The gymnast's row in the ranking: value and mark as the phone shows them. */
const rowOf = (page: OpenedPage, lastName: string) =>
  page.page.$$eval(
    '.live-ranking .live-row',
    (rows, name) =>
      rows
        .filter((row) => row.querySelector('.live-name')?.textContent?.includes(name))
        .map((row) => ({
          value: row.querySelector('.live-value')?.firstChild?.textContent ?? null,
          mark: row.querySelector('.live-inquiry')?.textContent ?? null,
          inquiry: row.getAttribute('data-inquiry'),
        }))[0] ?? null,
    lastName,
  );

async function capture(lastName: string, d: number): Promise<void> {
  const { A, B, C } = floor.fields;
  const saved = await postJson(`${server.url}/api/scores/capture`, {
    wertungenId: scoreIds[lastName],
    fieldValues: [
      { fieldId: A, value: d },
      { fieldId: B, value: 8 },
      { fieldId: C, value: 0.3 },
    ],
  });
  expect(saved.status).toBe(200);
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Einspruch-Pokal', '2026-11-28');
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  for (const lastName of ['Adler', 'Berg']) {
    scoreIds[lastName] = (await insertParticipantWithScoreRow(server.pool, competition, { lastName, squadName: 'R1' })).scoreId;
  }
  await capture('Berg', 5.2);
  const settings = await sendJson(
    'PUT',
    `${server.url}/api/events/${competition.eventId}/spectator-settings`,
    { publish: 'all', hiddenParticipantIds: [] },
    bearer(adminToken),
  );
  expect(settings.status).toBe(200);
  phone = await openPage(browser, `${server.url}/live/?eventId=${competition.eventId}&lang=de`, PHONE_390, { locale: 'de-DE' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('an inquiry on the spectator page', () => {
  let inquiryId: number;

  it('marks the value live, without a reload, once the coach files the inquiry', async () => {
    await phone.page.locator('.live-status[data-state="live"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => (await rowOf(phone, 'Berg'))?.value === '12,900', { timeoutMs: 15_000, message: 'Berg listed' });
    // Adler's routine is scored while the page is open: the coach files within the minute after it is shown.
    await capture('Adler', 5);
    await waitFor(async () => (await rowOf(phone, 'Adler'))?.value === '12,700', { timeoutMs: 10_000, message: 'Adler listed' });
    expect(await rowOf(phone, 'Adler')).toEqual({ value: '12,700', mark: null, inquiry: null });
    await phone.page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    const filed = await postJson(`${server.url}/api/events/${competition.eventId}/inquiries`, {
      scoreId: scoreIds.Adler,
      disciplineId: floor.id,
      coach: 'Trainerin Kim',
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    inquiryId = filed.body.id;

    await waitFor(async () => (await rowOf(phone, 'Adler'))?.mark === 'Einspruch', { timeoutMs: 10_000, message: 'the mark live' });
    expect(await rowOf(phone, 'Adler')).toEqual({ value: '12,700', mark: 'Einspruch', inquiry: 'open' });
    expect((await rowOf(phone, 'Berg'))?.mark).toBeNull();
    expect(await phone.page.locator('.live-legend').textContent()).toContain('Einspruch: Ein Trainer hat das Kampfgericht gebeten');
    expect(await phone.page.content()).not.toContain('Kim');
    // The apparatus view marks the floor value itself.
    await phone.page.getByRole('button', { name: 'Boden' }).click();
    await waitFor(async () => (await rowOf(phone, 'Adler'))?.mark === 'Einspruch', { message: 'the mark on the floor ranking' });
    const { width } = await phone.page.evaluate(() => ({ width: document.documentElement.scrollWidth }));
    expect(width).toBeLessThanOrEqual(390);
    await saveScreenshot(phone.page, 'spectator-inquiry-390-de');
    expect(await phone.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('says Inquiry in English', async () => {
    const english = await openPage(browser, `${server.url}/live/?eventId=${competition.eventId}&lang=en`, PHONE_390);
    try {
      await waitFor(async () => (await rowOf(english, 'Adler'))?.mark === 'Inquiry', { timeoutMs: 15_000, message: 'the English mark' });
      expect((await rowOf(english, 'Adler'))?.value).toBe('12.700');
      await saveScreenshot(english.page, 'spectator-inquiry-390-en');
      expect(english.errors).toEqual([]);
    } finally {
      await english.context.close();
    }
  });

  it('removes the mark with the decision and shows the upheld value, still without a reload', async () => {
    expect((await postJson(`${server.url}/api/inquiries/${inquiryId}/confirmation`, {})).status).toBe(200);
    // Confirmed in writing, the inquiry is still open: the mark stays.
    expect((await rowOf(phone, 'Adler'))?.mark).toBe('Einspruch');
    const decided = await postJson(
      `${server.url}/api/inquiries/${inquiryId}/decision`,
      { decision: 'upheld', newD: 5.5 },
      bearer(headToken),
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    await waitFor(async () => (await rowOf(phone, 'Adler'))?.mark === null, { timeoutMs: 10_000, message: 'the mark gone' });
    await waitFor(async () => (await rowOf(phone, 'Adler'))?.value === '13,200', { timeoutMs: 10_000, message: 'the upheld value' });
    expect(await rowOf(phone, 'Adler')).toEqual({ value: '13,200', mark: null, inquiry: null });
    expect(await phone.page.locator('.live-legend').textContent()).not.toContain('Einspruch');
    expect(await phone.page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await saveScreenshot(phone.page, 'spectator-inquiry-390-decided');
    expect(phone.errors).toEqual([]);
  });
});
