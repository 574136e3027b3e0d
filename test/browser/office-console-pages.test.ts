/**
 * The head judge console of a busy event (issue 44): the deviation alerts and the corrections log
 * belong to the chosen competition only and come a page at a time, and the devices stand in the
 * competition's order (its planned detail rows), not alphabetically.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { openDeviation, seedTwoCompetitionsWithPanel } from '../support/panel-deviations.js';
import { startTestServer, waitForNumbered, type TestServer } from '../support/server.js';
import { headToken } from '../support/tokens.js';
import { LAPTOP, PHONE_390, launchBrowser, openPage, saveScreenshot } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let cup: Competition;
let league: Competition;
let vault: PanelDiscipline;
/** Scores with an open deviation on the vault, per competition. */
const deviating = { cup: [] as number[], league: [] as number[] };

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  ({ cup, league, vault } = await seedTwoCompetitionsWithPanel(server));
  // "Boden" sorts before "Sprung", but the competitions plan the vault first.
  const floor = await insertDiscipline(server.pool, { name: 'Boden' });
  for (const [key, competition, count] of [
    ['cup', cup, 8],
    ['league', league, 3],
  ] as const) {
    for (let index = 1; index <= count; index += 1) {
      const lastName = `${key === 'cup' ? 'Pokal' : 'Liga'}${index}`;
      const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName });
      await insertDetailRow(server.pool, scoreId, vault.id, null);
      await insertDetailRow(server.pool, scoreId, floor.id, null);
      await openDeviation(server, vault, scoreId);
      deviating[key].push(scoreId);
    }
  }
  await waitForNumbered(server.pool);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const scoreIdsOf = (page: Page, selector: string) =>
  page.$$eval(selector, (items) => items.map((item) => Number(item.getAttribute('data-score-id'))));
const alertScores = (page: Page) => scoreIdsOf(page, '#deviation-alerts .deviation-alert');
const among = (shown: readonly number[], ids: readonly number[]) => ids.filter((id) => shown.includes(id));
const logChangeIds = (page: Page) =>
  page.$$eval('#corrections-log tbody tr[data-change-id]', (rows) => rows.map((row) => Number(row.getAttribute('data-change-id'))));

describe('office: the head judge console by competition and in pages', () => {
  it("shows only the chosen competition's deviations, five at a time, and its log a page at a time", async () => {
    const office = await openPage(
      browser,
      officeUrl(server.url, 'console', { eventId: cup.eventId, competitionId: cup.competitionId }),
      LAPTOP,
    );
    const { page } = office;
    await signIn(page, headToken);
    await page.locator('#deviation-alerts .deviation-alert').first().waitFor({ timeout: 10_000 });

    // The cup's eight deviations: five, then three; never a league gymnast.
    await expect.poll(async () => (await alertScores(page)).length).toBe(5);
    const first = await alertScores(page);
    expect(among(first, deviating.league)).toEqual([]);
    expect(await page.textContent('#deviation-pager .page-number')).toBe('Page 1');
    expect(await page.isDisabled('#deviation-pager [data-action="previous"]')).toBe(true);
    await page.click('#deviation-pager [data-action="next"]');
    await expect.poll(() => page.textContent('#deviation-pager .page-number')).toBe('Page 2');
    await expect.poll(async () => (await alertScores(page)).length).toBe(3);
    const second = await alertScores(page);
    expect(among([...first, ...second], deviating.cup)).toEqual(deviating.cup);
    expect(among(second, deviating.league)).toEqual([]);
    expect(await page.isDisabled('#deviation-pager [data-action="next"]')).toBe(true);

    // The devices in the competition's order: the vault was planned first.
    expect(await page.$$eval('.console-device h3', (heads) => heads.map((head) => head.firstChild?.textContent))).toEqual([
      'Sprung',
      'Boden',
    ]);

    // The log: 25 entries a page, older pages by the cursor, none of the league's.
    await page.locator('#log-pager:not([hidden])').waitFor({ timeout: 10_000 });
    const newest = await logChangeIds(page);
    expect(newest).toHaveLength(25);
    expect(among(await scoreIdsOf(page, '#corrections-log tbody tr[data-score-id]'), deviating.league)).toEqual([]);
    await saveScreenshot(page, 'office-console-pages-1366');
    await page.click('#log-pager [data-action="next"]');
    await expect.poll(() => page.textContent('#log-pager .page-number')).toBe('Page 2');
    const older = await logChangeIds(page);
    expect(older.length).toBeGreaterThan(0);
    expect(Math.max(...older)).toBeLessThan(Math.min(...newest));
    expect(among(await scoreIdsOf(page, '#corrections-log tbody tr[data-score-id]'), deviating.league)).toEqual([]);
    await page.click('#log-pager [data-action="previous"]');
    await expect.poll(() => logChangeIds(page)).toEqual(newest);

    // The league: its three deviations on one page, no pager.
    await page.selectOption('#console-competition', String(league.competitionId));
    await expect.poll(async () => among(await alertScores(page), deviating.league)).toEqual(deviating.league);
    expect(among(await alertScores(page), deviating.cup)).toEqual([]);
    expect(await page.isHidden('#deviation-pager')).toBe(true);
    expect(office.errors).toEqual([]);
    await office.context.close();
  });

  it('fits a phone', async () => {
    const office = await openPage(
      browser,
      officeUrl(server.url, 'console', { eventId: cup.eventId, competitionId: cup.competitionId }),
      PHONE_390,
    );
    await signIn(office.page, headToken);
    await office.page.locator('#log-pager:not([hidden])').waitFor({ timeout: 10_000 });
    expect(await noHorizontalOverflow(office.page)).toBe(true);
    await saveScreenshot(office.page, 'office-console-pages-390');
    await office.context.close();
  });
});
