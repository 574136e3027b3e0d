/**
 * Issue 17, point 9 in Chromium: the office in German and English (the switch, and no English
 * label left on the main views in German), numbers by the discipline's mask, visible dialog
 * buttons, an empty database telling each page what to do, the favicon on all three pages, and the
 * portal's notice where the browser cannot run its offline shell (plain http on a hall address).
 */
import { networkInterfaces } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSummary } from '../../scripts/demo-seed.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';
import { openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { generateProposals, openOfficeView, signIn } from './support/office.js';
import { useDemoEvent } from './support/demo.js';

let server: TestServer;
let browser: Browser;
let demo: DemoSummary;
const opened: OpenedPage[] = [];
const LAPTOP = { width: 1366, height: 768 };

/** Words of the English office that a German page must not show (whole words, case-sensitive). */
const ENGLISH = [
  'Loading',
  'Choose',
  'Sign in',
  'Sign out',
  'Squads?',
  'Groups?',
  'Teams?',
  'Competition',
  'Discipline',
  'Attempt',
  'Results',
  'Print',
  'Certificates?',
  'Network',
  'Refresh',
  'Enable',
  'Disable',
  'Candidates',
  'Members',
  'Reset',
  'Club',
  'Born',
  'Add',
  'Remove',
  'Device',
  'Release',
  'Reopen',
  'History',
  'Corrections',
  'Head judge',
  'Total',
  'Rank',
  'Without',
  'Auto-assign',
  'Could not',
  'Final score',
  'Step',
  'Checking',
  'Unknown',
  'Service',
  'Rule',
  'Access',
  'Since',
  'Time',
  'Cancel',
  'Close',
  'Judge',
  'Event',
  'male',
  'female',
  'mixed',
];
const englishIn = (text: string) => ENGLISH.filter((word) => new RegExp(`\\b${word}\\b`).test(text));

async function open(url: string, viewport = LAPTOP, base = server.url): Promise<OpenedPage> {
  const page = await openPage(browser, `${base}${url}`, viewport);
  opened.push(page);
  return page;
}

/** The visible text once nothing on the page is loading any more. */
async function settledText(page: Page): Promise<string> {
  await expect
    .poll(async () => /geladen…|Loading…|wird geprüft…|Checking…/.test(await page.innerText('body')), { timeout: 15_000 })
    .toBe(false);
  return page.innerText('body');
}

const demoEvent = useDemoEvent({ HOST: '0.0.0.0' });
beforeAll(() => void ({ server, browser, demo } = demoEvent));
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
});

describe('office in German and English', () => {
  it('switches to German with the header switch and keeps the choice', async () => {
    const office = await open(`/office/?view=squads&eventId=${demo.event.id}`);
    await office.page.locator('#squads-title', { hasText: 'Squads' }).waitFor();
    expect(await office.page.getAttribute('html', 'lang')).toBe('en');
    await office.page.click('.lang-switch');
    await office.page.locator('#squads-title', { hasText: 'Riegen' }).waitFor();
    expect(await office.page.getAttribute('html', 'lang')).toBe('de');
    expect(await office.page.locator('nav a[data-view="teams"]').textContent()).toBe('Mannschaftswertungen');
    // The choice is kept: the next page of this browser opens in German without ?lang=.
    await office.page.goto(`${server.url}/office/?view=results&eventId=${demo.event.id}`);
    await office.page.locator('#results-print', { hasText: 'Drucken' }).waitFor();
  });

  it('leaves no English label on the main views in German', async () => {
    const views = ['squads', 'groups', 'teams', 'group-scores', 'results', 'console', 'rotations', 'credentials', 'sheets', 'network'];
    const office = await open(`/office/?view=squads&eventId=${demo.event.id}&lang=de`);
    await signIn(office.page, adminToken);
    const found: Record<string, string[]> = {};
    for (const view of views) {
      await openOfficeView(office.page, view);
      const english = englishIn(await settledText(office.page));
      if (english.length > 0) found[view] = english;
      await saveScreenshot(office.page, `office-de-${view}-1366x768`);
    }
    expect(found).toEqual({});
  });

  it('shows result numbers by the mask, without leading zeros, with a decimal comma in German', async () => {
    const girls = demo.competitions.find((competition) => /^P-Stufen weiblich/.test(competition.name))!;
    const office = await open(`/office/?view=results&eventId=${demo.event.id}&competitionId=${girls.id}&groupBy=none&lang=de`);
    await office.page.locator('.result-sheet tbody tr').first().waitFor();
    const scores = await office.page.$$eval('.result-sheet td.score', (cells) => cells.map((cell) => cell.firstChild?.textContent ?? ''));
    const numbers = scores.filter((text) => text !== '–');
    expect(numbers.length).toBeGreaterThan(0);
    for (const text of numbers) expect(text).toMatch(/^(0|[1-9]\d*),\d+$/);
  });

  it('shows the auto-assign dialog with readable buttons in German', async () => {
    const office = await open(`/office/?view=squads&eventId=${demo.event.id}&lang=de`);
    await signIn(office.page, adminToken);
    await office.page.click('#auto-assign-open');
    await office.page.locator('#auto-assign[open] #generate-proposals').waitFor();
    for (const id of ['#criteria-cancel', '#generate-proposals']) {
      const [colour, background, text] = await office.page.$eval(id, (button) => [
        getComputedStyle(button).color,
        getComputedStyle(button).backgroundColor,
        button.textContent ?? '',
      ]);
      expect(colour).not.toBe(background);
      expect(englishIn(text)).toEqual([]);
    }
    // The whole dialog, its criteria and then its proposals, reads German.
    expect(englishIn(await office.page.innerText('#auto-assign'))).toEqual([]);
    await saveScreenshot(office.page, 'office-de-auto-assign-1366x768');
    await generateProposals(office.page);
    expect(englishIn(await office.page.innerText('#auto-assign'))).toEqual([]);
    await saveScreenshot(office.page, 'office-de-auto-assign-proposals-1366x768');
  });

  it("lists a competition's devices in its order, not alphabetically, on the portal and the console", async () => {
    const competitions = (await (await fetch(`${server.url}/api/events/${demo.event.id}/competitions`)).json()) as Array<{
      id: number;
      disciplineIds: number[];
    }>;
    const catalog = (await (await fetch(`${server.url}/api/disciplines`)).json()) as Array<{
      id: number;
      name: string;
      displayName: string | null;
    }>;
    const nameOf = (id: number) => {
      const discipline = catalog.find((candidate) => candidate.id === id)!;
      return discipline.displayName || discipline.name;
    };
    // A competition whose planned order is not the alphabetical one, so the check can tell them apart.
    const competition = competitions.find((candidate) => {
      const names = candidate.disciplineIds.map(nameOf);
      return names.length > 1 && names.join() !== [...names].sort((a, b) => a.localeCompare(b, 'de')).join();
    });
    expect(competition, 'a demo competition planned out of alphabetical order').toBeDefined();
    const planned = competition!.disciplineIds.map(nameOf);

    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${competition!.id}&lang=de`);
    await expect
      .poll(() => portal.page.$$eval('#device-select option', (options) => options.map((option) => option.textContent ?? '')), {
        timeout: 15_000,
      })
      .toEqual(planned.map((name) => expect.stringContaining(name)));

    const office = await open(`/office/?view=console&eventId=${demo.event.id}&competitionId=${competition!.id}&lang=de`);
    await signIn(office.page, adminToken);
    await office.page.locator('.console-device').first().waitFor({ timeout: 15_000 });
    const shown = await office.page.$$eval('.console-device', (devices) =>
      devices.map((device) => Number(device.getAttribute('data-discipline-id'))),
    );
    expect(shown.slice(0, planned.length)).toEqual(competition!.disciplineIds);
    await office.page.locator('#deviation-alerts > *').first().waitFor();
    await office.page.locator('#corrections-log tbody tr').first().waitFor();
    expect(englishIn(await settledText(office.page))).toEqual([]);
    await saveScreenshot(office.page, 'office-de-console-demo-1366x768');
    await office.page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(office.page, 'office-de-console-demo-390');
  });
});

describe('every page', () => {
  it('serves its favicon', async () => {
    for (const page of ['jury', 'board', 'office']) {
      const html = await (await fetch(`${server.url}/${page}/`)).text();
      expect(html).toContain('<link rel="icon" type="image/svg+xml" href="./favicon.svg" />');
      const icon = await fetch(`${server.url}/${page}/favicon.svg`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    }
  });

  it('says what to do on an empty database', async () => {
    const empty = await startTestServer();
    try {
      for (const [page, lang, text] of [
        ['office', 'de', 'npm run seed:demo'],
        ['jury', 'de', 'npm run seed:demo'],
        ['board', 'en', 'npm run seed:demo'],
      ] as const) {
        const opened = await open(`/${page}/?lang=${lang}`, LAPTOP, empty.url);
        await opened.page.locator('body', { hasText: text }).waitFor();
        await saveScreenshot(opened.page, `empty-${page}-${lang}-1366x768`);
      }
    } finally {
      await empty.stop();
    }
  });

  it('tells the judge when offline reload is unavailable (plain http on a hall address), and not on localhost', async () => {
    const local = await open(`/jury/?eventId=${demo.event.id}`);
    await local.page.locator('h1').waitFor();
    expect(await local.page.locator('#offline-reload-notice').count()).toBe(0);
    const address = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
    // Without a network interface there is no hall address to try; that is reported, not skipped.
    expect(address, 'a non-loopback IPv4 address of this machine').toBeDefined();
    const hall = await open(`/jury/?eventId=${demo.event.id}&lang=de`, LAPTOP, server.url.replace('127.0.0.1', address!));
    await hall.page.locator('#offline-reload-notice', { hasText: 'nicht möglich' }).waitFor();
    expect(await hall.page.evaluate(() => window.isSecureContext)).toBe(false);
    await saveScreenshot(hall.page, 'jury-offline-notice-de-1366x768');
  });
});
