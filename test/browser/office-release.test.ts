/**
 * Issue 44, item 4 (office side): releasing a squad with scores still missing names the missing
 * gymnasts and asks first; nothing is released until the head judge confirms. A complete squad is
 * released in one click.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { headToken } from '../support/tokens.js';
import { LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';
import { insideWindowWidth, noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let office: OpenedPage;
let competition: Competition;
let deviceId: number;

const page = () => office.page;
const squadRow = (squad: string) => page().locator(`.console-device[data-discipline-id="${deviceId}"] tr[data-squad="${squad}"]`);
const releases = async () =>
  (
    await server.pool.query(`SELECT squad_name FROM ${t.svc_releases} WHERE competition_id = $1 AND discipline_id = $2 ORDER BY 1`, [
      competition.competitionId,
      deviceId,
    ])
  ).rows.map((row: { squad_name: string }) => row.squad_name);

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Freigabe-Cup');
  deviceId = (await insertDiscipline(server.pool, { name: 'Boden' })).id;
  // R1: two of four scored; R2: both scored.
  const people: Array<[string, string, number | null]> = [
    ['R1', 'Adler', 12.5],
    ['R1', 'Bach', null],
    ['R1', 'Cramer', 11.9],
    ['R1', 'Dorn', null],
    ['R2', 'Eck', 12.1],
    ['R2', 'Fuchs', 12.2],
  ];
  for (const [squadName, lastName, value] of people) {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { squadName, lastName });
    await insertDetailRow(server.pool, scoreId, deviceId, value);
  }
  office = await openPage(
    browser,
    `${officeUrl(server.url, 'console', { eventId: competition.eventId, competitionId: competition.competitionId })}&lang=en`,
    LAPTOP,
  );
  // The completeness needs a token: the squads show once the head judge is signed in.
  await signIn(page(), headToken);
  await squadRow('R1').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: release with care', () => {
  it('asks before releasing a squad with missing scores, naming them; "cancel" releases nothing', async () => {
    const release = squadRow('R1').locator('button[data-action="release"]');
    await expect.poll(() => release.isDisabled()).toBe(false);
    await release.click();
    await page().locator('#release-confirm[open]').waitFor();
    expect(await page().textContent('#release-confirm-title')).toBe('Release squad R1 · Boden?');
    expect(await page().textContent('#release-confirm')).toContain('2 of 4 scores are missing:');
    expect(await page().$$eval('#release-missing li', (items) => items.map((item) => item.textContent))).toEqual([
      expect.stringContaining('Bach'),
      expect.stringContaining('Dorn'),
    ]);
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('release-cancel');
    await saveScreenshot(page(), 'office-release-question-1366x768');
    expect(await releases()).toEqual([]);

    await page().click('#release-cancel');
    await page().locator('#release-confirm').waitFor({ state: 'hidden' });
    expect(await releases()).toEqual([]);
    expect(await squadRow('R1').getAttribute('data-released')).toBe('false');
  });

  it('releases once confirmed', async () => {
    await squadRow('R1').locator('button[data-action="release"]').click();
    await page().click('#release-anyway');
    await page().locator(`.console-device[data-discipline-id="${deviceId}"] tr[data-squad="R1"][data-released="true"]`).waitFor();
    expect(await releases()).toEqual(['R1']);
  });

  it('releases a complete squad in one click', async () => {
    await squadRow('R2').locator('button[data-action="release"]').click();
    await page().locator(`.console-device[data-discipline-id="${deviceId}"] tr[data-squad="R2"][data-released="true"]`).waitFor();
    expect(await page().locator('#release-confirm[open]').count()).toBe(0);
    expect(await releases()).toEqual(['R1', 'R2']);
    expect(office.errors).toEqual([]);
  });

  it('asks on a phone too, readable', async () => {
    const phone = await openPage(
      browser,
      `${officeUrl(server.url, 'console', { eventId: competition.eventId, competitionId: competition.competitionId })}&lang=en`,
      PHONE_390,
    );
    await signIn(phone.page, headToken);
    const device = phone.page.locator(`.console-device[data-discipline-id="${deviceId}"] .device-head button[data-action="release"]`);
    await expect.poll(() => device.isDisabled()).toBe(false);
    await device.click();
    await phone.page.locator('#release-confirm[open]').waitFor();
    expect(await phone.page.textContent('#release-confirm')).toContain('2 of 6 scores are missing:');
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    expect(await insideWindowWidth(phone.page, '#release-confirm')).toBe(true);
    await saveScreenshot(phone.page, 'office-release-question-390');
    await phone.context.close();
  });
});
