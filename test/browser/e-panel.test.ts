/**
 * The E-panel in Chromium against the real service (issue 21): the office sets up a panel of five
 * E-judges, five judges each score on their own portal (`&field=`, a 390 px phone), the head
 * judge's portal shows every judge's value, the aggregate (FIG trimmed mean) and the final, and a
 * deviating panel raises an alert on the head judge's portal and the console until it is confirmed.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompetition, insertField, insertRow, type Competition } from '../support/fixtures.js';
import { t } from '../support/tables.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, headToken } from '../support/tokens.js';
import { launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { seedCompetitors, type Competitor } from './support/portal-seed.js';
import { officeUrl, signIn } from './support/office.js';
import { noHorizontalOverflow, participantButton, waitForAck } from './support/portal.js';

const PHONE_390 = { width: 390, height: 844 } as const;
const LAPTOP = { width: 1366, height: 768 } as const;
const JUDGES = ['E1', 'E2', 'E3', 'E4', 'E5'] as const;

let server: TestServer;
let browser: Browser;
let competition: Competition;
let deviceId: number;
let fields: Record<'D' | 'E' | 'final' | (typeof JUDGES)[number], number>;
let people: Competitor[];
const judges: OpenedPage[] = [];
let dJudge: OpenedPage;
let head: OpenedPage;
let console_: OpenedPage;

const portalUrl = (query: Record<string, number | string> = {}) =>
  `${server.url}/jury/?${new URLSearchParams({
    eventId: String(competition.eventId),
    competitionId: String(competition.competitionId),
    disciplineId: String(deviceId),
    ...Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)])),
  })}`;

/** D-score (A), five E-judges (not formula letters), the E-score the panel computes (B) and the final D + E. */
async function seedPanelDevice(): Promise<void> {
  deviceId = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', {
    var_name: 'Sprung',
    var_formel: 'A + B',
    int_berechnung: 3,
  });
  const field = (name: string, shortName: string, sort: number, isFinal = false) =>
    insertField(server.pool, deviceId, { name, shortName, sort, sortColumns: ['int_sortierung'], extra: { bol_endwert: isFinal } });
  const D = await field('Schwierigkeit', 'D', 1);
  const judgeIds: number[] = [];
  for (const [index, name] of JUDGES.entries()) judgeIds.push(await field(`Ausführung ${name}`, name, 2 + index));
  const E = await field('Ausführung', 'E', 7);
  const final = await field('Endwert', 'End', 8, true);
  fields = { D, E, final, E1: judgeIds[0]!, E2: judgeIds[1]!, E3: judgeIds[2]!, E4: judgeIds[3]!, E5: judgeIds[4]! };
}

/** The judge's own portal: the current participant's name, then the value typed and saved with Enter. */
async function judgeSaves(page: Page, person: Competitor, value: string): Promise<void> {
  await page.locator(`.participant[data-participant-id="${person.participantId}"][aria-pressed="true"]`).waitFor({ timeout: 10_000 });
  const input = page.locator('.score-form--judge input');
  await expect.poll(() => input.evaluate((node) => node === document.activeElement)).toBe(true);
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
  await waitForAck(page, 'saved', person.lastName);
}

async function storedFinal(scoreId: number): Promise<number | null> {
  const response = await fetch(
    `${server.url}/api/scores?eventId=${competition.eventId}&competitionId=${competition.competitionId}&limit=1000`,
  );
  const body = (await response.json()) as { results: Array<{ id: number; disciplineId: number | null; score: number | null }> };
  return body.results.find((entry) => entry.id === scoreId && entry.disciplineId === deviceId)?.score ?? null;
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'E-Panel-Cup');
  await seedPanelDevice();
  people = await seedCompetitors(server.pool, competition, [
    ['Anna', 'Adler'],
    ['Berta', 'Bach'],
    ['Clara', 'Cramer'],
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('E-panel: five judge portals, the head judge and the console', () => {
  it('sets up the panel on the office page (admin)', async () => {
    const office = await openPage(
      browser,
      officeUrl(server.url, 'panels', { eventId: competition.eventId, disciplineId: deviceId }),
      LAPTOP,
    );
    const page = office.page;
    await page.locator('#panel-editor form').waitFor();
    expect(await page.locator('#panel-save').isDisabled()).toBe(true);
    await signIn(page, adminToken);
    await expect.poll(() => page.locator('#panel-save').isDisabled()).toBe(false);
    for (const judge of JUDGES) await page.check(`#judge-field-${fields[judge]}`);
    await page.selectOption('#panel-aggregation', 'trimmed-mean');
    await page.selectOption('#panel-aggregate-field', String(fields.E));
    await page.fill('#panel-tolerance', '0.5');
    await page.click('#panel-save');
    await page.locator(`#panel-devices tr[data-discipline-id="${deviceId}"][data-panel="true"]`).waitFor({ timeout: 10_000 });
    // The editor renders again with the saved panel (its fields load first): one link per judge.
    await page.locator('#judge-links a').nth(4).waitFor({ timeout: 10_000 });
    expect(await page.locator('#judge-links a').count()).toBe(5);

    const disciplines = (await (await fetch(`${server.url}/api/disciplines`)).json()) as Array<{ id: number; panel: unknown }>;
    expect(disciplines.find((discipline) => discipline.id === deviceId)?.panel).toEqual({
      judgeFieldIds: JUDGES.map((judge) => fields[judge]),
      aggregation: 'trimmed-mean',
      aggregateFieldId: fields.E,
      tolerance: 0.5,
      size: 5,
      reference: null,
      missingJudge: 'fewer-values',
      absentFieldIds: [],
    });
    await saveScreenshot(page, 'e-panel-settings-1366');
    expect(office.errors).toEqual([]);
    await office.context.close();
  });

  it('five saves give the FIG trimmed mean and the final; each judge moves on to the next participant', async () => {
    head = await openPage(browser, portalUrl(), LAPTOP);
    await participantButton(head.page, people[0]!.participantId).click();
    await head.page.locator('#panel-summary').waitFor();
    await head.page.locator('.connection[data-status="live"]').waitFor({ timeout: 10_000 });

    dJudge = await openPage(browser, portalUrl({ field: fields.D }), PHONE_390);
    for (const [index, judge] of JUDGES.entries())
      judges.push(await openPage(browser, portalUrl({ field: fields[judge], ...(index === 0 ? { lang: 'de' } : {}) }), PHONE_390));
    for (const opened of [dJudge, ...judges]) {
      await opened.page.locator('#judge-field').waitFor();
      expect(await opened.page.locator('.score-form--judge input').count()).toBe(1);
    }

    const anna = people[0]!;
    await judgeSaves(dJudge.page, anna, '5.0');
    const values = ['8.5', '8.7', '8.6', '8.4', '8.9'];
    for (const [index, opened] of judges.slice(0, 3).entries()) await judgeSaves(opened.page, anna, values[index]!);
    // Three of five: the head judge sees the values so far and a provisional aggregate.
    await head.page.locator('#panel-state.provisional').waitFor({ timeout: 10_000 });
    await expect.poll(() => head.page.locator('#panel-summary li[data-filled="true"]').count(), { timeout: 10_000 }).toBe(3);
    expect(await head.page.locator('#panel-state').textContent()).toBe('provisional: 3 of 5 judges');

    for (const [index, opened] of judges.slice(3).entries()) await judgeSaves(opened.page, anna, values[3 + index]!);
    // 8.4 and 8.9 dropped, (8.5 + 8.7 + 8.6) / 3 = 8.6; final 5 + 8.6.
    await head.page.locator('#panel-state.complete').waitFor({ timeout: 10_000 });
    await expect.poll(() => head.page.locator('#panel-aggregate').textContent(), { timeout: 10_000 }).toBe('8.600');
    expect(await head.page.locator('#panel-summary .judge-values .value').allTextContents()).toEqual([
      '8.500',
      '8.700',
      '8.600',
      '8.400',
      '8.900',
    ]);
    await expect
      .poll(() => participantButton(head.page, anna.participantId).locator('.status-text').textContent(), { timeout: 10_000 })
      .toBe('13.600');
    expect(await storedFinal(anna.scoreId)).toBeCloseTo(13.6, 6);

    // Every judge's portal went on to Berta, focus in the judge's own field.
    for (const opened of judges) {
      await opened.page
        .locator(`.participant[data-participant-id="${people[1]!.participantId}"][aria-pressed="true"]`)
        .waitFor({ timeout: 10_000 });
    }
    expect(await judges[0]!.page.locator('#judge-field').textContent()).toBe('Ihr Feld: Ausführung E1');
    expect(await noHorizontalOverflow(judges[0]!.page)).toBe(true);
    await saveScreenshot(judges[0]!.page, 'e-panel-judge-390');
    await saveScreenshot(head.page, 'e-panel-head-1366');
  });

  it('a deviating panel alerts the head judge and the console until the head judge confirms it', async () => {
    const berta = people[1]!;
    console_ = await openPage(
      browser,
      officeUrl(server.url, 'console', { eventId: competition.eventId, competitionId: competition.competitionId }),
      LAPTOP,
    );
    await signIn(console_.page, headToken);
    await console_.page.locator('#no-deviations').waitFor({ timeout: 10_000 });
    await console_.page.locator('#console-live[data-state="live"]').waitFor({ timeout: 10_000 });

    // Two judges far below the others: the counted values spread 1.4, the tolerance is 0.5.
    for (const [index, value] of ['8.5', '8.6', '7.0', '7.1', '8.5'].entries()) await judgeSaves(judges[index]!.page, berta, value);

    const headAlert = head.page.locator(`#deviation-alerts .deviation-alert[data-score-id="${berta.scoreId}"]`);
    const consoleAlert = console_.page.locator(`#deviation-alerts .deviation-alert[data-score-id="${berta.scoreId}"]`);
    await headAlert.waitFor({ timeout: 10_000 });
    await consoleAlert.waitFor({ timeout: 10_000 });
    expect(await headAlert.locator('.deviation-values .value').allTextContents()).toEqual(['8.500', '8.600', '7.000', '7.100', '8.500']);
    // A judge's own portal: one line with the count, no alert pushing the judge's input down.
    const judgeCount = judges[0]!.page.locator('#deviation-alerts:not([hidden]) #deviation-count');
    await judgeCount.waitFor({ timeout: 10_000 });
    expect(await judgeCount.textContent()).toBe('⚠ 1 Abweichung im Kampfgericht ist offen; der Oberkampfrichter klärt sie.');
    expect(await judges[0]!.page.locator('.deviation-alert').count()).toBe(0);
    await saveScreenshot(judges[0]!.page, 'e-panel-judge-deviation-count-390');
    expect(await consoleAlert.locator('.deviation-text').first().textContent()).toContain(
      'Berta Bach · Sprung: spread 1.400 exceeds the tolerance 0.500',
    );

    // After a reload the console lists the open one from the service.
    await console_.page.reload();
    await consoleAlert.waitFor({ timeout: 10_000 });
    await saveScreenshot(console_.page, 'e-panel-console-1366');
    await head.page.click(`#deviation-alerts .deviation-alert[data-score-id="${berta.scoreId}"] .deviation-open`);
    await head.page.locator('#panel-summary[data-deviation="true"]').waitFor({ timeout: 10_000 });
    await saveScreenshot(head.page, 'e-panel-head-deviation-1366');

    await consoleAlert.locator('button[data-action="confirm-deviation"]').click();
    await consoleAlert.waitFor({ state: 'detached', timeout: 10_000 });
    await headAlert.waitFor({ state: 'detached', timeout: 10_000 });
    await judges[0]!.page.locator('#deviation-alerts[hidden]').waitFor({ state: 'attached', timeout: 10_000 });
    await console_.page.locator('#no-deviations').waitFor();
    await waitFor(
      async () => {
        const response = await fetch(`${server.url}/api/panel-deviations?eventId=${competition.eventId}`, {
          headers: { authorization: `Bearer ${headToken}` },
        });
        return response.ok && ((await response.json()) as unknown[]).length === 0;
      },
      { timeoutMs: 10_000 },
    );
  });

  it("a judge's save goes through the portal's checks and queue: a typo is held, a save without the server waits, a value changed elsewhere is not overwritten", async () => {
    const clara = people[2]!;
    const first = judges[0]!.page;
    await first.locator(`.participant[data-participant-id="${clara.participantId}"][aria-pressed="true"]`).waitFor({ timeout: 10_000 });
    // 85 for 8.5: held for a second look, nothing sent.
    await first.keyboard.type('85');
    await first.keyboard.press('Enter');
    await first.locator('.prompt[data-kind="confirm"]:not([hidden])').waitFor();
    expect(await first.evaluate(() => document.activeElement?.id)).toBe('plausibility-correct');
    await first.keyboard.press('Enter');
    await first.fill('.score-form--judge input', '8.5');
    await first.keyboard.press('Enter');
    await waitForAck(first, 'saved', clara.lastName);

    // The second judge's connection drops: the save waits on the device and arrives once it is back.
    const second = judges[1]!.page;
    const cutOff = (route: Route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue());
    await second.route('**/api/jury-results', cutOff);
    await second.locator(`.participant[data-participant-id="${clara.participantId}"][aria-pressed="true"]`).waitFor({ timeout: 10_000 });
    await second.keyboard.type('8.6');
    await second.keyboard.press('Enter');
    await second.locator(`.participant[data-participant-id="${clara.participantId}"][data-status="waiting"]`).waitFor({ timeout: 10_000 });
    await second.unroute('**/api/jury-results');
    await waitForAck(second, 'saved', clara.lastName, 20_000);

    // Someone else stored the third judge's value meanwhile: the save asks instead of overwriting it.
    const third = judges[2]!.page;
    await third.locator(`.participant[data-participant-id="${clara.participantId}"][aria-pressed="true"]`).waitFor({ timeout: 10_000 });
    await insertRow(server.pool, 'jury_results', 'int_juryresultsid', {
      int_wertungenid: clara.scoreId,
      int_disziplinen_felderid: fields.E3,
      rel_leistung: 9,
      int_versuch: 1,
      int_kp: 0,
    });
    await third.keyboard.type('8.7');
    await third.keyboard.press('Enter');
    const conflict = third.locator('.prompt[data-kind="conflict"]:not([hidden])');
    await conflict.waitFor({ timeout: 10_000 });
    expect(await conflict.locator('.prompt-message').textContent()).toBe(
      '⚠ E3 of Clara Cramer was changed elsewhere meanwhile. Stored E3 now: 9.000. Your E3: 8.700. Nothing of yours was saved over it.',
    );
    await third.click('#conflict-keep');

    const { rows } = await server.pool.query<{ value: number }>(
      `SELECT rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = ANY($2::int[]) ORDER BY int_disziplinen_felderid`,
      [clara.scoreId, [fields.E1, fields.E2, fields.E3]],
    );
    expect(rows.map((row) => Number(row.value))).toEqual([8.5, 8.6, 9]);
    for (const opened of [head, console_, dJudge, ...judges]) expect(opened.errors).toEqual([]);
  });
});
