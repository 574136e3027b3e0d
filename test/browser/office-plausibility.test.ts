/**
 * Issue 44, item 1: the office's group and team score entry use the portal's plausibility rule. A
 * typo (35 for 3.5) is held until "Save anyway", a negative value where none can be is refused at
 * its cell, nothing reaches the database before that, and the hint states the ranges in words.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroupTeamEvent, detailRows, insertGroupOrTeam, type GroupTeamEvent } from '../support/fixtures.js';
import { t } from '../support/tables.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage, type Viewport } from './support/browser.js';
import { officeUrl } from './support/office.js';
import { insideWindowWidth, noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let event: GroupTeamEvent;

const cell = (attempt: number, fieldId: number | 'final') => `#cell-${attempt}-${fieldId}`;

async function typeAndLeave(opened: OpenedPage, selector: string, text: string): Promise<void> {
  await opened.page.focus(selector);
  await opened.page.keyboard.press('Control+A');
  await opened.page.keyboard.type(text);
  await opened.page.keyboard.press('Tab');
}

/** Types D, E and Abz of one attempt, leaving each cell as a keyboard user does. */
async function fillRow(opened: OpenedPage, attempt: number, [d, e, abz]: [string, string, string]): Promise<void> {
  const { D, E, Abz } = event.fields;
  await typeAndLeave(opened, cell(attempt, D), d);
  await typeAndLeave(opened, cell(attempt, E), e);
  await typeAndLeave(opened, cell(attempt, Abz), abz);
}

/** Waits for the refusal at the cell and answers its text; the cell is marked and the row says "not saved". */
async function refusal(opened: OpenedPage, attempt: number, fieldId: number): Promise<string | null> {
  const selector = cell(attempt, fieldId);
  await opened.page.locator(`${selector}-error:not([hidden])`).waitFor();
  expect(await opened.page.getAttribute(selector, 'aria-invalid')).toBe('true');
  expect(await opened.page.textContent(`#status-${attempt}`)).toBe('Not saved: correct the marked value.');
  return opened.page.textContent(`${selector}-error`);
}

/** Every stored value of the unit's score rows, as text with three decimals, in ascending order. */
async function storedValues(column: 'int_gruppenid' | 'int_mannschaftenid', unitId: number): Promise<string[]> {
  const { rows } = await server.pool.query<{ id: number }>(`SELECT int_wertungenid AS id FROM ${t.wertungen} WHERE ${column} = $1`, [
    unitId,
  ]);
  const details = await Promise.all(rows.map((row) => detailRows(server.pool, row.id)));
  return details
    .flat()
    .map((row) => row.value ?? Number.NaN)
    .sort((a, b) => a - b)
    .map((value) => value.toFixed(3));
}

async function openSheet(view: 'group-scores' | 'teams', viewport: Viewport = LAPTOP): Promise<OpenedPage> {
  const unit: Record<string, number> = view === 'teams' ? { teamId: event.teamId } : { groupId: event.groupId };
  const competitionId = view === 'teams' ? event.plainCompetitionId : event.groupCompetitionId;
  const opened = await openPage(
    browser,
    `${officeUrl(server.url, view, { eventId: event.eventId, ...unit, competitionId, disciplineId: event.disciplineId })}&lang=en`,
    viewport,
  );
  await opened.page.locator(cell(1, event.fields.D)).waitFor();
  return opened;
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  event = await createGroupTeamEvent(server.pool);
  await server.pool.query(`UPDATE ${t.disziplinen} SET var_eingabemaske = '00.000' WHERE int_disziplinenid = $1`, [event.disciplineId]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: one plausibility rule for group and team entry', () => {
  it('group entry holds Ausführung = 35 until confirmed, and "Correct it" goes back to the cell', async () => {
    const office = await openSheet('group-scores');
    const { E } = event.fields;
    expect(await office.page.textContent('#sheet-hint')).toContain('Usual range: 0.000 to 10.000 per field; final score 0.000 to 20.000.');
    await fillRow(office, 1, ['3.5', '35', '0.3']);
    await office.page.locator('#prompt-1:not([hidden])').waitFor();
    const question = await office.page.textContent('#prompt-1');
    expect(question).toContain('Ausführung = 35.000 (usual 0.000–10.000)');
    expect(question).toContain('Final score = 38.200 (usual 0.000–20.000)');
    expect(await office.page.textContent('#status-1')).toBe('Not saved yet: please check the values.');
    expect(await office.page.evaluate(() => document.activeElement?.id)).toBe('correct-1');
    expect(await storedValues('int_gruppenid', event.groupId)).toEqual([]);
    await saveScreenshot(office.page, 'office-plausibility-group-1366x768');

    await office.page.click('#correct-1');
    expect(await office.page.evaluate(() => document.activeElement?.id)).toBe(`cell-1-${E}`);
    expect(await office.page.isHidden('#prompt-1')).toBe(true);
    await office.page.keyboard.press('Control+A');
    await office.page.keyboard.type('3.5');
    await office.page.keyboard.press('Tab');
    await office.page.locator('#status-1[data-state="saved"]').waitFor();
    await office.page.locator('#final-1', { hasText: '6.700' }).waitFor();
    expect(await storedValues('int_gruppenid', event.groupId)).toEqual(['0.300', '3.500', '3.500', '6.700']);
    expect(office.errors).toEqual([]);
    await office.context.close();
  });

  it('group entry refuses a negative deduction at its cell and saves nothing', async () => {
    const office = await openSheet('group-scores');
    const { Abz } = event.fields;
    await fillRow(office, 2, ['3.5', '3.4', '-1']);
    expect(await refusal(office, 2, Abz)).toBe('Abzug: -1.000 is negative; this field cannot be negative. Nothing was saved.');
    expect(await storedValues('int_gruppenid', event.groupId)).toHaveLength(4);
    await office.context.close();
  });

  it('team entry uses the same rule: refused, then a confirmed unusual value is saved', async () => {
    const office = await openSheet('teams');
    const { D } = event.fields;
    await fillRow(office, 1, ['-2', '8.2', '0']);
    expect(await refusal(office, 1, D)).toContain('Schwierigkeit: -2.000 is negative');
    expect(await storedValues('int_mannschaftenid', event.teamId)).toEqual([]);

    await typeAndLeave(office, cell(1, D), '12');
    await office.page.locator('#prompt-1:not([hidden])').waitFor();
    expect(await office.page.textContent('#prompt-1')).toContain('Schwierigkeit = 12.000 (usual 0.000–10.000)');
    expect(await storedValues('int_mannschaftenid', event.teamId)).toEqual([]);
    await office.page.click('#confirm-1');
    await office.page.locator('#status-1[data-state="saved"]').waitFor();
    expect(await office.page.textContent('#final-1')).toBe('20.200');
    expect(await storedValues('int_mannschaftenid', event.teamId)).toEqual(['0.000', '8.200', '12.000', '20.200']);
    expect(office.errors).toEqual([]);
    await office.context.close();
  });

  it('fits a phone with the question open', async () => {
    const office = await openSheet('teams', PHONE_390);
    await fillRow(office, 2, ['45', '8', '0']);
    await office.page.locator('#prompt-2:not([hidden])').waitFor();
    expect(await noHorizontalOverflow(office.page)).toBe(true);
    // The question stays in view although the table is wider than the phone.
    expect(await insideWindowWidth(office.page, '#prompt-2 .row-prompt')).toBe(true);
    await saveScreenshot(office.page, 'office-plausibility-team-390');
    await office.context.close();
  });
});

describe('office entry in German', () => {
  it('shows the decimal comma in the cells and the final as the portal does, and stores the same numbers', async () => {
    const groupId = await insertGroupOrTeam(server.pool, event, 'group', 'Gruppe Komma', 'R2');
    const url = officeUrl(server.url, 'group-scores', {
      eventId: event.eventId,
      groupId,
      competitionId: event.groupCompetitionId,
      disciplineId: event.disciplineId,
    });
    const office = await openPage(browser, `${url}&lang=de`, LAPTOP);
    const { D, E, Abz } = event.fields;
    await office.page.locator(cell(1, D)).waitFor();
    expect(await office.page.getAttribute(cell(1, D), 'placeholder')).toBe('9,500');
    await fillRow(office, 1, ['3.8', '9,15', '0.3']);
    expect([
      await office.page.inputValue(cell(1, D)),
      await office.page.inputValue(cell(1, E)),
      await office.page.inputValue(cell(1, Abz)),
    ]).toEqual(['3,800', '9,150', '0,300']);
    await office.page.locator('#status-1[data-state="saved"]').waitFor();
    await office.page.locator('#final-1', { hasText: '12,650' }).waitFor();
    expect(await storedValues('int_gruppenid', groupId)).toEqual(['0.300', '3.800', '9.150', '12.650']);
    await saveScreenshot(office.page, 'office-de-group-entry-1366x768');
    await office.page.setViewportSize(PHONE_390);
    await saveScreenshot(office.page, 'office-de-group-entry-390');
    expect(office.errors).toEqual([]);
    await office.context.close();
  });
});
