/**
 * The device board and the office's print list show the same ranks for a constructed E-then-D tie
 * (FIG Technical Regulations: at equal scores on an apparatus the higher E score, then the higher
 * D score), also after a live score and after the rule is changed.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertJuryResults,
  insertParticipant,
  insertScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';
import { DESKTOP, FULL_HD, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl } from './support/office.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let floor: Discipline;
let board: OpenedPage;
const scoreIds = new Map<string, number>();

async function gymnast(lastName: string, d: number, e: number, deduction: number): Promise<void> {
  const participantId = await insertParticipant(server.pool, competition, { lastName, firstName: 'Lea', startNumber: lastName });
  const scoreId = await insertScoreRow(server.pool, competition, participantId);
  scoreIds.set(lastName, scoreId);
  await insertJuryResults(server.pool, scoreId, [
    [floor.fields.A, d],
    [floor.fields.B, e],
    [floor.fields.C, deduction],
  ]);
  await insertDetailRow(server.pool, scoreId, floor.id, d + e - deduction);
}

const setRule = async (apparatusTieBreak: string) =>
  expect(
    (
      await sendJson(
        'PUT',
        `${server.url}/api/events/${competition.eventId}/competitions/${competition.competitionId}/tie-break`,
        { tieBreak: 'none', apparatusTieBreak },
        bearer(adminToken),
      )
    ).status,
  ).toBe(200);

/** "rank name" per row of the device board, in its order. */
const boardRanks = () =>
  board.page.$$eval('table.ranking tbody tr', (rows) =>
    rows.map((row) => `${row.querySelector('.rank')!.textContent} ${row.querySelector('.name')!.textContent}`),
  );

/** The same from the office's print list: the floor column's device rank, in rank order. */
async function printListRanks(): Promise<string[]> {
  const office = await openPage(
    browser,
    `${officeUrl(server.url, 'results', { eventId: competition.eventId, competitionId: competition.competitionId })}&groupBy=none&lang=en`,
    DESKTOP,
  );
  await office.page.locator('.result-sheet tbody tr').first().waitFor();
  const rows = await office.page.$$eval('.result-sheet tbody tr', (cells) =>
    cells.map((row) => `${row.querySelector('td.score .device-rank')!.textContent} ${row.querySelector('td.name')!.textContent}`),
  );
  await saveScreenshot(office.page, 'tie-break-print-list-1280');
  // Notes are there only when there is something to explain.
  const notes = (await office.page.locator('.sheet-notes').count()) > 0 ? await office.page.textContent('.sheet-notes') : '';
  expect(office.errors).toEqual([]);
  await office.context.close();
  return [...rows.sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b)), notes ?? ''];
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Kantonalfinal', '2024-06-01');
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  // 14.000 three times: Ahorn E 9.0 / D 5.0, Zeder E 8.5 / D 5.6 (0.1 deducted), Birke E 8.5 / D 5.5. Dorn 13.000.
  await gymnast('Ahorn', 5, 9, 0);
  await gymnast('Birke', 5.5, 8.5, 0);
  await gymnast('Zeder', 5.6, 8.5, 0.1);
  await gymnast('Dorn', 5, 8, 0);
  await setRule('e-then-d');
  board = await openPage(
    browser,
    `${server.url}/board/?eventId=${competition.eventId}&disciplineId=${floor.id}&competitionId=${competition.competitionId}&lang=en`,
    FULL_HD,
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('one ranking on the board and the print list', () => {
  it('e-then-d: the board and the print list rank the tie by E, then D', async () => {
    const expected = ['1. Lea Ahorn', '2. Lea Zeder', '3. Lea Birke', '4. Lea Dorn'];
    await waitFor(async () => (await boardRanks()).join('|') === expected.join('|'), { message: 'the board’s ranks' });
    const list = await printListRanks();
    expect(list.slice(0, 4)).toEqual(expected);
    expect(list[4]).toContain('the higher E score ranks first, then the higher D score');
    await saveScreenshot(board.page, 'tie-break-board-1920');
  });

  it('a live score joins the tie: the board re-ranks with its E and D as the print list does', async () => {
    // Dorn 14.000 = D 5.4 + E 8.6: second after Ahorn's E 9.0.
    const dorn = scoreIds.get('Dorn')!;
    await server.pool.query(`UPDATE ${t.jury_results} SET rel_leistung = $2 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $3`, [
      dorn,
      5.4,
      floor.fields.A,
    ]);
    await server.pool.query(`UPDATE ${t.jury_results} SET rel_leistung = $2 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $3`, [
      dorn,
      8.6,
      floor.fields.B,
    ]);
    await server.pool.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 14 WHERE int_wertungenid = $1`, [dorn]);
    const expected = ['1. Lea Ahorn', '2. Lea Dorn', '3. Lea Zeder', '4. Lea Birke'];
    await waitFor(async () => (await boardRanks()).join('|') === expected.join('|'), { message: 'the board’s ranks after the live score' });
    expect((await printListRanks()).slice(0, 4)).toEqual(expected);
  });

  it('a rule change reaches the board: shared puts the four on one rank, as on the print list', async () => {
    await setRule('shared');
    const expected = ['1. Lea Ahorn', '1. Lea Birke', '1. Lea Dorn', '1. Lea Zeder'];
    await waitFor(async () => (await boardRanks()).join('|') === expected.join('|'), { message: 'the board’s ranks' });
    expect((await printListRanks()).slice(0, 4)).toEqual(expected);
    expect(board.errors).toEqual([]);
  });
});
