/**
 * The head judge console in Chromium against the real service (issue 20): completeness per device
 * and squad, releasing a device as head judge, and a late desktop correction appearing live and
 * highlighted in the corrections log, with the score's history one click away.
 */
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { headToken } from '../support/tokens.js';
import { DESKTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';

let server: TestServer;
let browser: Browser;
let office: OpenedPage;
let competition: Competition;
let device: Discipline;
let scored: number;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Konsolen-Cup');
  device = await insertDiscipline(server.pool, { name: 'Schwebebalken' });
  scored = (await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName: 'Adler' })).scoreId;
  await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName: 'Bach' });
  await insertDetailRow(server.pool, scored, device.id, 12.5);
  office = await openPage(
    browser,
    officeUrl(server.url, 'console', { eventId: competition.eventId, competitionId: competition.competitionId }),
    DESKTOP,
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: head judge console', () => {
  it('asks for a sign-in, then shows completeness, releases as head judge, logs the release and highlights a late desktop correction live', async () => {
    const page = office.page;
    // Completeness and the log name judges: nothing is shown (or asked for) before a sign-in.
    await page.locator('#completeness-sign-in').waitFor();
    expect(await page.locator('#console-hint').isVisible()).toBe(true);
    expect(await page.locator('.console-device').count()).toBe(0);

    await signIn(page, headToken);
    const deviceCard = page.locator(`.console-device[data-discipline-id="${device.id}"]`);
    const squadRow = deviceCard.locator('tr[data-squad="R1"]');
    await squadRow.waitFor({ timeout: 10_000 });
    expect(await squadRow.locator('td').first().textContent()).toBe('1/2');
    expect(await squadRow.locator('.missing').textContent()).toBe('Anna Bach');
    const release = deviceCard.locator('.device-head button[data-action="release"]');
    await expect.poll(() => release.isDisabled(), { timeout: 10_000 }).toBe(false);
    expect(await page.locator('#console-hint').isVisible()).toBe(false);
    await release.click();
    // Bach's score is missing: the console asks first (office-release.test.ts covers the question).
    await page.locator('#release-confirm[open] #release-anyway').click();
    await page.locator(`.console-device[data-discipline-id="${device.id}"][data-released="true"]`).waitFor({ timeout: 10_000 });
    const { rows } = await server.pool.query(`SELECT released_by FROM ${t.svc_releases} WHERE competition_id = $1 AND discipline_id = $2`, [
      competition.competitionId,
      device.id,
    ]);
    expect(rows).toEqual([{ released_by: 'oberkampfrichter' }]);
    const logged = page.locator('#corrections-log tr.release-entry[data-kind="release"]');
    await logged.waitFor({ timeout: 10_000 });
    expect((await logged.locator('td').allTextContents()).slice(1, 8)).toEqual([
      'all squads',
      'Schwebebalken',
      'released',
      '',
      '',
      '',
      'oberkampfrichter',
    ]);
    await page.locator('#console-live[data-state="live"]').waitFor({ timeout: 10_000 });

    // The desktop program corrects the score after the release: no reload, the row appears highlighted.
    const desktop = new pg.Client({ connectionString: server.database.url, application_name: 'TurnerDesk' });
    await desktop.connect();
    try {
      await desktop.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 13 WHERE int_wertungenid = $1 AND int_disziplinenid = $2`, [
        scored,
        device.id,
      ]);
    } finally {
      await desktop.end();
    }
    const late = page.locator(`#corrections-log tr.after-release[data-score-id="${scored}"]`);
    await late.waitFor({ timeout: 10_000 });
    const cells = await late.locator('td').allTextContents();
    expect(cells.slice(1, 9)).toEqual([
      'Anna Adler · R1',
      'Schwebebalken',
      'final',
      '1',
      '12.5',
      '13',
      'TurnerDesk',
      'legacy after release',
    ]);
    const earlier = page.locator(`#corrections-log tr[data-score-id="${scored}"]:not(.after-release)`);
    expect(await earlier.count()).toBe(1);

    await late.locator('button.history-open').click();
    const history = page.locator('#score-history[open]');
    await history.locator('tbody tr').nth(1).waitFor();
    expect(await history.locator('tbody tr').count()).toBe(2);
    expect(await history.locator('tbody tr.after-release').count()).toBe(1);
    await saveScreenshot(page, 'office-console-history-1280');
    await page.click('#history-close');
    await saveScreenshot(page, 'office-console-1280');
    expect(office.errors).toEqual([]);
  });
});
