/**
 * Team score entry in Chromium against the real service (spec "Team scoring", entry client rules):
 * the three-step selector, the inline table with one row per attempt and one column per field,
 * normalisation by the input mask and a save when a cell is left, the stored values loaded back,
 * and errors shown in the cell. The server runs with AUTH_MODE=strict, so a save needs a token.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { createGroupTeamEvent, detailRows, type GroupTeamEvent } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { juryToken } from '../support/tokens.js';
import { PHONE, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let event: GroupTeamEvent;
let office: OpenedPage;
const posted: Array<Record<string, unknown>> = [];

const page = () => office.page;
const cell = (attempt: number, fieldId: number | 'final') => `#cell-${attempt}-${fieldId}`;

/** Types into a cell and leaves it with Tab, as a keyboard user does. */
async function typeAndLeave(selector: string, text: string): Promise<void> {
  await page().focus(selector);
  await page().keyboard.press('Control+A');
  if (text === '') await page().keyboard.press('Backspace');
  else await page().keyboard.type(text);
  await page().keyboard.press('Tab');
}

async function teamScoreId(competitionId: number): Promise<number> {
  const { rows } = await server.pool.query<{ id: number }>(
    `SELECT int_wertungenid AS id FROM ${t.wertungen} WHERE int_mannschaftenid = $1 AND int_wettkaempfeid = $2`,
    [event.teamId, competitionId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

beforeAll(async () => {
  server = await startTestServer({ env: { AUTH_MODE: 'strict' } });
  browser = await launchBrowser();
  event = await createGroupTeamEvent(server.pool);
  await server.pool.query(`UPDATE ${t.disziplinen} SET var_eingabemaske = '00.000' WHERE int_disziplinenid = $1`, [event.disciplineId]);
  office = await openPage(browser, 'about:blank');
  office.page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/scores/team'))
      posted.push(request.postDataJSON() as Record<string, unknown>);
  });
  await office.page.goto(officeUrl(server.url, 'teams', { eventId: event.eventId }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: team score entry', () => {
  it('offers team, then competition, then discipline, and then the table of attempts and fields', async () => {
    await page().locator('#team-select option', { hasText: 'Team Nord' }).waitFor({ state: 'attached' });
    expect(await page().isDisabled('#competition-select')).toBe(true);
    expect(await page().isDisabled('#discipline-select')).toBe(true);
    expect(await page().textContent('#teams-message')).toBe('Step 1: choose a team.');
    await page().selectOption('#team-select', String(event.teamId));
    expect(await page().isDisabled('#competition-select')).toBe(false);
    expect(await page().isDisabled('#discipline-select')).toBe(true);
    await page().selectOption('#competition-select', String(event.plainCompetitionId));
    expect(await page().isDisabled('#discipline-select')).toBe(false);
    await page().selectOption('#discipline-select', String(event.disciplineId));
    await page().locator('#score-sheet').waitFor();

    // int_versuche is 2: one row per attempt; one column per non-final field, then the final score.
    expect(await page().locator('#score-sheet tbody tr[data-attempt]').count()).toBe(2);
    const headers = await page().$$eval('#score-sheet thead th', (cells) => cells.map((header) => header.textContent));
    expect(headers).toEqual(['Attempt', 'DSchwierigkeit', 'EAusführung', 'AbzAbzug', 'Endwert', 'Status']);
    expect(await page().textContent('#final-1')).toBe('—');
    expect(page().url()).toContain(`disciplineId=${event.disciplineId}`);
  });

  it('normalises each cell by the mask when it is left, and waits for every field the formula needs', async () => {
    const { D, E } = event.fields;
    await typeAndLeave(cell(1, D), '4.5');
    expect(await page().inputValue(cell(1, D))).toBe('04.500');
    expect(await page().textContent('#status-1')).toBe('Not saved yet: the final score needs E, Abz.');
    await typeAndLeave(cell(1, E), '8,2');
    expect(await page().inputValue(cell(1, E))).toBe('08.200');
    expect(await page().textContent('#status-1')).toBe('Not saved yet: the final score needs Abz.');
    expect(posted).toEqual([]);
  });

  it('shows a refused save in the cell that was left', async () => {
    const { Abz } = event.fields;
    await typeAndLeave(cell(1, Abz), '.3');
    expect(await page().inputValue(cell(1, Abz))).toBe('00.300');
    await page()
      .locator(`${cell(1, Abz)}-error:not([hidden])`)
      .waitFor();
    expect(await page().textContent(`${cell(1, Abz)}-error`)).toContain('A bearer token is required');
    expect(await page().getAttribute(cell(1, Abz), 'aria-invalid')).toBe('true');
    expect(await page().textContent('#status-1')).toBe('✗ Not saved');
    expect(posted).toHaveLength(1);
  });

  it('saves on leaving the cell once signed in, and loads the stored values and final score back', async () => {
    const { D, E, Abz, final } = event.fields;
    await signIn(page(), juryToken);
    // The typed values survive signing in; leaving the cell again saves the attempt.
    expect(await page().inputValue(cell(1, E))).toBe('08.200');
    await page().focus(cell(1, Abz));
    await page().keyboard.press('Tab');
    await page().locator('#status-1[data-state="saved"]').waitFor();
    await page().locator('#final-1', { hasText: '12.400' }).waitFor();
    expect(await page().getAttribute(cell(1, Abz), 'aria-invalid')).toBeNull();
    expect(posted.at(-1)).toEqual({
      teamId: event.teamId,
      competitionId: event.plainCompetitionId,
      disciplineId: event.disciplineId,
      attempt: 1,
      components: [
        { fieldId: D, value: 4.5 },
        { fieldId: E, value: 8.2 },
        { fieldId: Abz, value: 0.3 },
      ],
    });
    const details = await detailRows(server.pool, await teamScoreId(event.plainCompetitionId));
    // One detail row per field, int_kp = field id, the final score under the final field.
    expect(new Set(details.map((row) => `${row.disciplineId}/${row.attempt}/${row.kp}=${row.value?.toFixed(3)}`))).toEqual(
      new Set([
        `${event.disciplineId}/1/${D}=4.500`,
        `${event.disciplineId}/1/${E}=8.200`,
        `${event.disciplineId}/1/${Abz}=0.300`,
        `${event.disciplineId}/1/${final}=12.400`,
      ]),
    );
    await saveScreenshot(page(), 'office-teams');
  });

  it('marks a value the mask cannot read in its cell and sends nothing', async () => {
    const { D } = event.fields;
    const before = posted.length;
    await typeAndLeave(cell(2, D), 'abc');
    expect(await page().getAttribute(cell(2, D), 'aria-invalid')).toBe('true');
    expect(await page().textContent(`${cell(2, D)}-error`)).toContain('"abc" is not a valid value');
    expect(await page().textContent('#status-2')).toBe('Not saved: correct the marked value.');
    expect(posted).toHaveLength(before);
    await typeAndLeave(cell(2, D), '');
    expect(await page().getAttribute(cell(2, D), 'aria-invalid')).toBeNull();
  });

  it('shows the stored, normalised values after a reload, and Enter saves a change and moves down', async () => {
    const { D, E, Abz } = event.fields;
    await page().reload();
    await page().locator('#final-1', { hasText: '12.400' }).waitFor();
    expect([await page().inputValue(cell(1, D)), await page().inputValue(cell(1, E)), await page().inputValue(cell(1, Abz))]).toEqual([
      '04.500',
      '08.200',
      '00.300',
    ]);
    expect(await page().inputValue(cell(2, D))).toBe('');

    await page().focus(cell(1, E));
    await page().keyboard.press('Control+A');
    await page().keyboard.type('8.5');
    await page().keyboard.press('Enter');
    expect(await page().evaluate(() => document.activeElement?.id)).toBe(`cell-2-${E}`);
    await page().locator('#final-1', { hasText: '12.700' }).waitFor();
    expect(await page().inputValue(cell(1, E))).toBe('08.500');
    const details = await detailRows(server.pool, await teamScoreId(event.plainCompetitionId));
    expect(details.find((row) => row.kp === E)?.value).toBeCloseTo(8.5, 5);
  });

  it('takes a typed final score for a discipline without a formula', async () => {
    const { D, final } = event.plainFields;
    await page().selectOption('#discipline-select', String(event.plainDisciplineId));
    await page().locator(cell(1, 'final')).waitFor();
    expect(await page().textContent('#score-sheet caption')).toContain('no usable formula');
    await typeAndLeave(cell(1, D), '3');
    expect(await page().textContent('#status-1')).toBe('Not saved yet: type the final score (this discipline has no usable formula).');
    await typeAndLeave(cell(1, 'final'), '7,25');
    await page().locator('#status-1[data-state="saved"]').waitFor();
    expect(await page().inputValue(cell(1, 'final'))).toBe('7.25');
    expect(posted.at(-1)).toMatchObject({
      disciplineId: event.plainDisciplineId,
      attempt: 1,
      components: [{ fieldId: D, value: 3 }],
      finalScore: 7.25,
    });
    const details = await detailRows(server.pool, await teamScoreId(event.plainCompetitionId));
    expect(new Set(details.filter((row) => row.disciplineId === event.plainDisciplineId).map((row) => `${row.kp}=${row.value}`))).toEqual(
      new Set([`${D}=3`, `${final}=7.25`]),
    );
    expect(office.errors).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const phone = await openPage(
      browser,
      `${officeUrl(server.url, 'teams', { eventId: event.eventId })}&teamId=${event.teamId}&competitionId=${event.plainCompetitionId}&disciplineId=${event.disciplineId}`,
      PHONE,
    );
    await phone.page.locator('#final-1', { hasText: '12.700' }).waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-teams-phone');
    await phone.context.close();
  });
});
