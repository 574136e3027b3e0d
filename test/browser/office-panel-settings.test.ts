/**
 * Issue 44, item 2 in Chromium: the E-panel settings page never hands stored values to the panel
 * unasked. It offers the empty field for the aggregate and says how many values each other field
 * holds; choosing a field with data shows how many values the panel would replace and saves only
 * once the admin confirms; "keep" saves nothing.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertField,
  insertJuryResults,
  insertPanelDiscipline,
  insertParticipantWithScoreRow,
  juryResultRows,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { t } from '../support/tables.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';
import { LAPTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';

let server: TestServer;
let browser: Browser;
let office: OpenedPage;
let device: PanelDiscipline;
let neutral: number;
let eventId: number;
const scoreIds: number[] = [];

const page = () => office.page;
const panelRows = async () =>
  (await server.pool.query(`SELECT aggregate_field_id FROM ${t.svc_panel_settings} WHERE discipline_id = $1`, [device.id])).rows;
const neutralValues = async () =>
  Promise.all(scoreIds.map(async (id) => (await juryResultRows(server.pool, id)).find((row) => row.fieldId === neutral)?.value));

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const competition = await createCompetition(server.pool, 'Kampfgerichtstag');
  eventId = competition.eventId;
  // D-Note, E1-E3, the empty E-Note, the final, and a neutral deduction holding two gymnasts' values.
  device = await insertPanelDiscipline(server.pool, { name: 'Balken', judges: 3 });
  neutral = await insertField(server.pool, device.id, {
    name: 'Neutraler Abzug',
    shortName: 'ND',
    sort: 20,
    sortColumns: ['int_sortierung'],
  });
  for (const value of [0.3, 0.1]) {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    await insertDetailRow(server.pool, scoreId, device.id, null);
    await insertJuryResults(server.pool, scoreId, [
      [device.difficulty, 4.2],
      ...device.judges.map((fieldId): [number, number] => [fieldId, 1.2]),
      [neutral, value],
    ]);
    scoreIds.push(scoreId);
  }
  office = await openPage(browser, `${officeUrl(server.url, 'panels', { eventId, disciplineId: device.id })}&lang=en`, LAPTOP);
  await page().locator('#panel-editor form').waitFor();
  await signIn(page(), adminToken);
  await page().locator('#panel-save:not([disabled])').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: panel settings never overwrite data', () => {
  it('offers the empty field and says what each other field holds', async () => {
    for (const fieldId of device.judges) await page().check(`#judge-field-${fieldId}`);
    expect(await page().inputValue('#panel-aggregate-field')).toBe(String(device.aggregate));
    const options = await page().$$eval('#panel-aggregate-field option', (nodes) => nodes.map((node) => node.textContent));
    expect(options).toEqual(['— choose —', 'D-Note (holds 2 values)', 'E-Note (empty)', 'Neutraler Abzug (holds 2 values)']);
    expect(await page().isHidden('#panel-no-empty-field')).toBe(true);
  });

  it('choosing a field with data: the count, nothing saved, and "keep" leaves it so', async () => {
    await page().selectOption('#panel-aggregate-field', String(neutral));
    await page().click('#panel-save');
    await page().locator('#panel-replace:not([hidden])').waitFor();
    expect(await page().textContent('#panel-replace-text')).toBe(
      '2 stored values of "Neutraler Abzug" are not what the panel computes; its aggregate would replace them (the audit trail keeps the old values). Replace them?',
    );
    expect(await page().textContent('#panel-replace-confirm')).toBe('Replace 2 values');
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('panel-replace-keep');
    expect(await panelRows()).toEqual([]);
    await saveScreenshot(page(), 'office-panel-replace-1366x768');

    await page().click('#panel-replace-keep');
    expect(await page().textContent('#panel-error')).toBe('Not saved: the stored values of Neutraler Abzug stay as they are.');
    expect(await page().isHidden('#panel-replace')).toBe(true);
    expect(await panelRows()).toEqual([]);
    expect(await neutralValues()).toEqual([expect.closeTo(0.3, 5), expect.closeTo(0.1, 5)]);
  });

  it('saves once the admin confirms the count; the next read writes the aggregate there', async () => {
    await page().click('#panel-save');
    await page().locator('#panel-replace:not([hidden])').waitFor();
    await page().click('#panel-replace-confirm');
    await page().locator(`#panel-devices tr[data-discipline-id="${device.id}"][data-panel="true"]`).waitFor();
    expect(await panelRows()).toEqual([{ aggregate_field_id: neutral }]);
    await fetch(`${server.url}/api/scores?eventId=${eventId}&limit=1000`);
    expect(await neutralValues()).toEqual([expect.closeTo(1.2, 5), expect.closeTo(1.2, 5)]);
    expect(office.errors).toEqual([]);
  });

  it('a device without an empty field says how to get one', async () => {
    await page().check(`#judge-field-${device.aggregate}`);
    // Only D-Note and the neutral deduction are left, both holding values.
    await page().locator('#panel-no-empty-field:not([hidden])').waitFor();
    expect(await page().inputValue('#panel-aggregate-field')).toBe(String(neutral));
  });
});
