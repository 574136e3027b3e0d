/**
 * The live all-around board in Chromium against the real service: the ranking of
 * GET /api/results, then a save (POST /api/scores/save-value, as a jury portal sends it) that
 * changes a total and the order on the board, arriving through `score-updated`, not by polling.
 * The latency target (within a second) belongs to `npm run bench`; here the board must show it
 * before a generous deadline.
 */
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { insertRow, createCompetition, insertDetailRow, insertParticipant, insertScoreRow, type Competition } from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { DESKTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let board: OpenedPage;
const devices: number[] = [];
const scoreIds: Record<string, number> = {};
const resultRequests: string[] = [];

/** Board rows as [rank, name, total]. */
const rows = () =>
  board.page.$$eval('#all-around tbody tr', (trs) =>
    trs
      .map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? ''))
      .map((cells) => [cells[0], cells[1], cells[cells.length - 1]]),
  );

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Gauturnfest', '2025-05-17');
  await server.pool.query(`UPDATE ${t.wettkaempfe} SET var_name = 'Mehrkampf weiblich' WHERE int_wettkaempfeid = $1`, [
    competition.competitionId,
  ]);
  for (const [name, shortName] of [
    ['Sprung', 'SP'],
    ['Balken', 'BA'],
    ['Boden', 'BO'],
  ]) {
    devices.push(
      await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', {
        var_name: name,
        var_kurzname: shortName,
        var_eingabemaske: '00.000',
        int_berechnung: 3,
      }),
    );
  }
  const people: Array<[string, Array<number | null>]> = [
    ['Adler', [12, 12, 12]],
    ['Berg', [11.5, 11.5, 11.5]],
    ['Christ', [11, 11, null]],
  ];
  for (const [lastName, values] of people) {
    const participantId = await insertParticipant(server.pool, competition, { firstName: 'Eva', lastName, birthDate: '2012-03-04' });
    const scoreId = await insertScoreRow(server.pool, competition, participantId);
    for (const [index, value] of values.entries()) await insertDetailRow(server.pool, scoreId, devices[index]!, value);
    scoreIds[lastName] = scoreId;
  }
  board = await openPage(browser, 'about:blank', DESKTOP);
  board.page.on('request', (request: Request) => {
    if (new URL(request.url()).pathname === '/api/results') resultRequests.push(request.url());
  });
  await board.page.goto(`${server.url}/board/?eventId=${competition.eventId}&competitionId=${competition.competitionId}&view=all-around`);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('board: live all-around ranking', () => {
  it('shows the ranking with the device scores and the totals', async () => {
    await board.page.locator('.live-indicator[data-status="live"]').waitFor({ timeout: 15_000 });
    await waitFor(async () => (await rows()).length === 3, { timeoutMs: 15_000, message: 'three rows' });
    expect(await rows()).toEqual([
      ['1.', 'Eva Adler', '36.000'],
      ['2.', 'Eva Berg', '34.500'],
      ['3.', 'Eva Christ', '22.000'],
    ]);
    expect(await board.page.textContent('h1')).toBe('Mehrkampf weiblich');
    const headers = await board.page.$$eval('#all-around thead th', (cells) => cells.map((cell) => cell.textContent));
    expect(headers).toEqual(['Rank', 'Name', 'Club', 'SP', 'BA', 'BO', 'Total']);
  });

  it('moves a gymnast up when a save completes her all-around, through score-updated (no polling)', async () => {
    const requestsBefore = resultRequests.length;
    // Christ's floor: 11 + 11 + 13.5 = 35.5 puts her second.
    const response = await postJson(`${server.url}/api/scores/save-value`, {
      competitionId: competition.competitionId,
      participantId: scoreIds.Christ,
      disciplineId: devices[2],
      score: 13.5,
    });
    expect(response.status).toBe(200);
    await waitFor(
      async () =>
        JSON.stringify(await rows()) ===
        JSON.stringify([
          ['1.', 'Eva Adler', '36.000'],
          ['2.', 'Eva Christ', '35.500'],
          ['3.', 'Eva Berg', '34.500'],
        ]),
      {
        timeoutMs: 15_000,
        message: 'the board shows the new total and order',
      },
    );
    expect(await board.page.getAttribute('#all-around tr[data-changed]', 'data-total')).toBe('35.5');
    // One fetch per event (a save is one event), never a timer of its own.
    expect(resultRequests.length - requestsBefore).toBeGreaterThanOrEqual(1);
    expect(resultRequests.length - requestsBefore).toBeLessThanOrEqual(2);
    await saveScreenshot(board.page, 'board-all-around-1280');
    expect(board.errors).toEqual([]);
  });

  it('pages a long ranking on a projector, as the device board does', async () => {
    const long = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: competition.eventId,
      var_name: 'Viele',
    });
    for (let n = 0; n < 30; n++) {
      const participantId = await insertParticipant(server.pool, competition, { lastName: `Turnerin${String(n).padStart(2, '0')}` });
      const scoreId = await insertScoreRow(server.pool, { ...competition, competitionId: long }, participantId);
      await insertDetailRow(server.pool, scoreId, devices[0]!, 5 + n / 10);
    }
    const projector = await openPage(
      browser,
      `${server.url}/board/?eventId=${competition.eventId}&competitionId=${long}&view=all-around&pace=60`,
      { width: 1280, height: 720 },
    );
    try {
      await projector.page
        .locator('.page-info')
        .filter({ hasText: /Page 1 of [2-9]/ })
        .waitFor({ timeout: 15_000 });
      const visible = await projector.page.$$eval('#all-around tbody tr', (trs) => trs.filter((tr) => !(tr as HTMLElement).hidden).length);
      expect(visible).toBeGreaterThan(2);
      expect(visible).toBeLessThan(30);
      await saveScreenshot(projector.page, 'board-all-around-paged-1280x720');
      expect(projector.errors).toEqual([]);
    } finally {
      await projector.context.close();
    }
  });

  it('ignores events of another competition of the event', async () => {
    const other = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: competition.eventId,
      var_name: 'Andere',
    });
    const participantId = await insertParticipant(server.pool, competition, { lastName: 'Fremd' });
    await insertScoreRow(server.pool, { ...competition, competitionId: other }, participantId);
    const before = resultRequests.length;
    const response = await postJson(`${server.url}/api/scores/save-value`, {
      competitionId: other,
      participantId,
      disciplineId: devices[0],
      score: 9,
    });
    expect(response.status).toBe(200);
    // A save on this competition after it: once the board has fetched for that one, the other caused nothing.
    await postJson(`${server.url}/api/scores/save-value`, {
      competitionId: competition.competitionId,
      participantId: scoreIds.Berg,
      disciplineId: devices[0],
      score: 12,
    });
    await waitFor(async () => (await rows()).some((row) => row[1] === 'Eva Berg' && row[2] === '35.000'), {
      timeoutMs: 15_000,
      message: 'Berg at 35.000',
    });
    expect(resultRequests.length - before).toBe(1);
  });
});
