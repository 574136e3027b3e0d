/**
 * The office's result lists and certificates printed by Chromium (`page.pdf`, A4, the page's own
 * print styles): a page break per age class, event and date on every page, page numbers, no
 * navigation. The first page of each PDF is rendered to PNG (poppler's pdftoppm) into
 * test-artifacts/ to be looked at.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { insertRow, createCompetition, insertDetailRow, insertParticipant, insertScoreRow, type Competition } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { ARTIFACTS_DIR, DESKTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl } from './support/office.js';
import { FEMALE_NAMES, LAST_NAMES } from '../../scripts/demo-seed.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let office: OpenedPage;

const EVENT_NAME = 'Kreismeisterschaften Gerätturnen 2025';
const DEVICES = [
  ['Sprung', 'SP'],
  ['Stufenbarren', 'SB'],
  ['Schwebebalken', 'BA'],
  ['Boden', 'BO'],
] as const;
// The demo's names (scripts/demo-seed.ts); the last gymnast's 'Zoë' checks a diacritic in the PDF.
const FIRST = [...FEMALE_NAMES.slice(0, 20), 'Zoë'];
const LAST = LAST_NAMES.slice(0, 21);

/** Prints the current page to an A4 PDF, keeps it and its first page as PNG in test-artifacts/. */
async function printToPdf(name: string): Promise<{ pdf: string; png: string; pages: number; text: (page: number) => string }> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await office.page.emulateMedia({ media: 'print' });
  const buffer = await office.page.pdf({ format: 'A4', preferCSSPageSize: true, printBackground: true });
  await office.page.emulateMedia({ media: 'screen' });
  const pdf = path.join(ARTIFACTS_DIR, `${name}.pdf`);
  writeFileSync(pdf, buffer);
  const prefix = path.join(ARTIFACTS_DIR, `${name}-page`);
  execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
  const text = (page: number) =>
    execFileSync('pdftotext', ['-layout', '-f', String(page), '-l', String(page), pdf, '-'], { encoding: 'utf8' });
  return { pdf, png: `${prefix}.png`, pages, text };
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, EVENT_NAME, '2025-05-17');
  await server.pool.query(`UPDATE ${t.veranstaltungen} SET dat_bis = '2025-05-18' WHERE int_veranstaltungenid = $1`, [competition.eventId]);
  await server.pool.query(`UPDATE ${t.wettkaempfe} SET var_name = 'Kür weiblich AK 9-12' WHERE int_wettkaempfeid = $1`, [
    competition.competitionId,
  ]);
  const otherClub = await insertRow(server.pool, 'vereine', 'int_vereineid', { var_name: 'Turnerschaft Waldkirchen 1861 e. V.' });
  const devices: number[] = [];
  for (const [name, shortName] of DEVICES) {
    devices.push(
      await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', {
        var_name: name,
        var_kurzname: shortName,
        var_eingabemaske: '00.000',
        int_berechnung: 3,
      }),
    );
  }
  // 21 gymnasts: born 2015 (class 9-10 under birth-year), 2013 (11-12) and one without a birth date.
  for (let n = 0; n < 21; n++) {
    const birthDate =
      n === 20 ? null : n < 14 ? `2015-${String(1 + (n % 12)).padStart(2, '0')}-15` : `2013-0${1 + (n % 9)}-0${1 + (n % 9)}`;
    const participantId = await insertParticipant(server.pool, competition, {
      firstName: FIRST[n]!,
      lastName: LAST[n]!,
      startNumber: String(101 + n),
      birthDate,
      clubId: n % 3 === 0 ? otherClub : competition.clubId,
    });
    const scoreId = await insertScoreRow(server.pool, competition, participantId);
    for (const [index, device] of devices.entries()) {
      // Two of the 2015 class tie (12.5 everywhere); two have not done floor yet.
      const value =
        (n === 12 || n === 13) && index === 3 ? null : n === 1 || n === 2 ? 12.5 : 11 + ((n * 7 + index * 3) % 20) / 10 + n / 100;
      await insertDetailRow(server.pool, scoreId, device, value === null ? null : Math.round(value * 1000) / 1000);
    }
  }
  office = await openPage(
    browser,
    officeUrl(server.url, 'results', { eventId: competition.eventId, competitionId: competition.competitionId }),
    DESKTOP,
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: result lists and certificates', () => {
  it('shows one sheet per age class with the ranking and the CSV link', async () => {
    await office.page.locator('.result-sheet').first().waitFor();
    expect(await office.page.locator('.result-sheet').count()).toBe(3);
    const classes = await office.page.$$eval('.result-sheet .sheet-class', (cells) => cells.map((cell) => cell.textContent));
    expect(classes).toEqual(['Age class 9-10', 'Age class 11-12', 'Age unknown']);
    const firstRow = await office.page.$$eval('.result-sheet:first-child tbody tr:first-child td', (cells) =>
      cells.map((cell) => cell.textContent),
    );
    expect(firstRow[0]).toBe('1.');
    expect(firstRow).toHaveLength(9);
    expect(await office.page.getAttribute('#results-csv', 'href')).toBe(
      `/api/results.csv?eventId=${competition.eventId}&competitionId=${competition.competitionId}&groupBy=ageClass`,
    );
    expect(await office.page.getAttribute('#results-board', 'href')).toBe(
      `/board/?eventId=${competition.eventId}&competitionId=${competition.competitionId}&groupBy=ageClass&view=all-around`,
    );
    await saveScreenshot(office.page, 'office-results-1280');
    expect(office.errors).toEqual([]);
  });

  it('prints A4 with a page break per age class, event and date on every page, page numbers and no navigation', async () => {
    const { png, pages, text } = await printToPdf('office-results');
    expect(png).toMatch(/office-results-page\.png$/);
    expect(pages).toBe(3);
    for (let page = 1; page <= pages; page++) {
      const content = text(page);
      expect(content).toContain(EVENT_NAME);
      expect(content).toContain('17.05.2025 – 18.05.2025');
      expect(content).toContain(`Page ${page} of ${pages}`);
      expect(content).not.toContain('Competition office');
      expect(content).not.toContain('Network access');
      expect(content).not.toContain('CSV download');
    }
    expect(text(1)).toContain('Age class 9-10');
    expect(text(2)).toContain('Age class 11-12');
    expect(text(3)).toContain('Age unknown');
  });

  it('prints a certificate page for places 1-3 of each class, without page numbers', async () => {
    await office.page.selectOption('#results-sheet', 'certificates');
    await office.page.locator('.certificate').first().waitFor();
    const places = await office.page.$$eval('.certificate', (sheets) => sheets.map((sheet) => sheet.getAttribute('data-place')));
    // Class 9-10 has two on 2nd place (tied), so nobody is 3rd there; the one gymnast of "unknown" is 1st.
    expect(places).toEqual(['1', '2', '2', '1', '2', '3', '1']);
    expect(office.page.url()).toContain('sheet=certificates');
    const { pages, text } = await printToPdf('office-certificates');
    expect(pages).toBe(places.length);
    expect(text(1).replaceAll(' ', '')).toContain('CERTIFICATE');
    expect(text(1)).toContain('1st place');
    expect(text(1)).toContain(EVENT_NAME);
    expect(text(1)).not.toContain('Page 1');
    expect(office.errors).toEqual([]);
  });

  it('leaves an incomplete all-around out of the certificates unless chosen, and marks it in the list', async () => {
    // The one gymnast without a birth date (class "unknown", rank 1 there) has not done floor yet.
    const { rows } = await server.pool.query<{ id: number }>(
      `SELECT w.int_wertungenid AS id FROM ${t.wertungen} w JOIN ${t.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
        WHERE w.int_wettkaempfeid = $1 AND p.dat_geburtstag IS NULL`,
      [competition.competitionId],
    );
    await server.pool.query(
      `UPDATE ${t.wertungen_details} d SET rel_leistung = NULL FROM ${t.disziplinen} z
        WHERE d.int_wertungenid = $1 AND z.int_disziplinenid = d.int_disziplinenid AND z.var_name = 'Boden'`,
      [rows[0]!.id],
    );
    await office.page.reload();
    await office.page.locator('.certificate').first().waitFor();
    await office.page.locator('#results-left-out:not([hidden])').waitFor();
    expect(await office.page.textContent('#results-left-out')).toContain(`No certificate for ${FIRST[20]} ${LAST[20]} (1.)`);
    const places = () => office.page.$$eval('.certificate', (sheets) => sheets.map((sheet) => sheet.getAttribute('data-place')));
    expect(await places()).toEqual(['1', '2', '2', '1', '2', '3']);
    await saveScreenshot(office.page, 'office-certificates-left-out-1366');

    await office.page.check('#results-include-incomplete');
    await expect.poll(places).toEqual(['1', '2', '2', '1', '2', '3', '1']);
    expect(office.page.url()).toContain('incomplete=include');
    expect(await office.page.isHidden('#results-left-out')).toBe(true);

    await office.page.selectOption('#results-sheet', 'list');
    const total = office.page.locator('tr.incomplete td.total', { hasText: '3 of 4' });
    await total.first().waitFor();
    expect(await office.page.textContent('.sheet-notes')).toContain('* not every discipline scored yet');
    expect(office.errors).toEqual([]);
  });
});
