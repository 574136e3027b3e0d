/**
 * Participants in the office, in Chromium: a registrations file whose headers the server cannot
 * all place is mapped by hand, the preview names each row's problems and stores nothing, the
 * import enters the good rows, and the same file again would change nothing. Then a late entry,
 * and did-not-start ticked in the list lands in the legacy column.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { postJson } from '../support/http.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';
import { officeUrl, signIn } from './support/office.js';
import { participantButton } from './support/portal.js';
import { LAPTOP, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
let office: OpenedPage;
let floorId: number;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Gaucup');
  const floor = await insertDiscipline(server.pool, { name: 'Boden' });
  floorId = floor.id;
  const participantId = await insertParticipant(server.pool, competition, {
    firstName: 'Lena',
    lastName: 'Adler',
    birthDate: '2012-03-04',
  });
  await insertDetailRow(server.pool, await insertScoreRow(server.pool, competition, participantId), floor.id, null);
});
afterAll(async () => {
  await office?.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
});

/** "Family" is no header the server knows: the last name has to be mapped by hand. */
const FILE = {
  name: 'meldungen.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    [
      'Vorname;Family;Geburtsdatum;Verein;Wettkampf',
      'Lena;Adler;04.03.2012;TV Musterstadt;Gaucup WK',
      'Mia;Berg;06.05.2013;SV Nord;Gaucup WK',
      'Nora;Clausen;31.02.2013;SV Nord;Gaucup WK',
      'Ola;Dorn;01.01.2013;SV Nord;Bezirksliga',
    ].join('\r\n'),
    'utf8',
  ),
};

const participants = async () => (await server.pool.query(`SELECT count(*)::int AS n FROM ${t.teilnehmer}`)).rows[0].n as number;

/** Line → the preview's import column. */
const previewRows = () =>
  office.page.$$eval('#import-preview tbody tr', (rows) =>
    rows.map((row) => [row.getAttribute('data-line'), row.querySelector('.import-status')?.textContent ?? '']),
  );

describe('participants in the office', () => {
  it('maps a column by hand, previews each row’s problems without storing, imports the good rows, and a second import changes nothing', async () => {
    office = await openPage(browser, `${officeUrl(server.url, 'participants', { eventId: competition.eventId })}&lang=en`, LAPTOP);
    await signIn(office.page, adminToken);
    const { page } = office;
    await page.locator('#entries tbody tr').first().waitFor();
    await page.setInputFiles('#import-file', FILE);
    await page.locator('#map-lastName').waitFor();
    // The guess: every column but "Family".
    expect(await page.inputValue('#map-firstName')).toBe('0');
    expect(await page.inputValue('#map-lastName')).toBe('');
    expect(await page.inputValue('#map-competition')).toBe('4');
    await waitFor(async () => (await previewRows()).length === 4);
    expect((await previewRows()).every(([, status]) => String(status).includes('first or last name missing'))).toBe(true);

    await page.selectOption('#map-lastName', '1');
    await waitFor(async () => (await previewRows())[1]?.[1] === 'new', { message: 'the preview follows the mapping' });
    expect(await previewRows()).toEqual([
      ['2', 'entered already'],
      ['3', 'new'],
      ['4', 'birth date not readable (DD.MM.YYYY)'],
      ['5', 'competition not of this event'],
    ]);
    expect(await page.textContent('#import-confirm')).toBe('Import 1 row');
    expect(await participants()).toBe(1);
    await saveScreenshot(page, 'office-participants-preview-1366x768');

    await page.click('#import-confirm');
    await waitFor(async () => (await page.textContent('#import-message'))?.startsWith('Imported: 1 gymnasts, 1 entries, 1 clubs created'), {
      message: 'the import is reported',
    });
    expect(await participants()).toBe(2);
    await page.locator('#entries tr:has-text("Berg, Mia")').waitFor();
    // Read again after the import: nothing left to import.
    await waitFor(async () => (await previewRows())[1]?.[1] === 'entered already');
    expect(await page.isDisabled('#import-confirm')).toBe(true);
    await page.setInputFiles('#import-file', FILE);
    await waitFor(async () => (await page.textContent('#import-message'))?.startsWith('0 new, 0 new entries, 2 entered already'));
    expect(await participants()).toBe(2);
    expect(office.errors).toEqual([]);
  });

  it('enters a gymnast late and marks an entry as did not start', async () => {
    const { page } = office;
    await page.fill('#late-first', 'Rosa');
    await page.fill('#late-last', 'Roth');
    await page.fill('#late-born', '31.02.2013');
    await page.click('#late-submit');
    await waitFor(async () => (await page.textContent('#late-message'))?.includes('birth date not readable'));
    await page.fill('#late-born', '09.09.2013');
    await page.selectOption('#late-gender', 'w');
    await page.fill('#late-club', 'SV Nord');
    await page.click('#late-submit');
    await page.locator('#entries tr:has-text("Roth, Rosa")').waitFor();
    expect(await page.textContent('#late-message')).toBe('Rosa Roth is entered.');

    const row = page.locator('#entries tr:has-text("Adler, Lena")');
    const scoreId = Number(await row.getAttribute('data-score-id'));
    await row.locator('.entry-didNotStart').check();
    await waitFor(async () => (await page.textContent('#entries-message')) === 'Lena Adler: did not start.');
    const { rows } = await server.pool.query(`SELECT bol_startet_nicht, bol_ak FROM ${t.wertungen} WHERE int_wertungenid = $1`, [scoreId]);
    expect(rows[0]).toEqual({ bol_startet_nicht: true, bol_ak: false });
    await saveScreenshot(page, 'office-participants-1366x768');
    expect(office.errors).toEqual([]);
  });

  it('shows a late entry in an open jury portal without a reload', async () => {
    const portal = await openPage(browser, `${server.url}/jury/?eventId=${competition.eventId}&disciplineId=${floorId}`);
    try {
      await portal.page.locator('.participant').first().waitFor();
      const entered = await postJson(
        `${server.url}/api/events/${competition.eventId}/participants`,
        { competitionId: competition.competitionId, firstName: 'Sina', lastName: 'Spät', clubName: 'SV Nord' },
        bearer(adminToken),
      );
      expect(entered.status).toBe(200);
      await participantButton(portal.page, entered.body.participantId).waitFor();
      expect(await participantButton(portal.page, entered.body.participantId).textContent()).toContain('Spät');
      expect(portal.errors).toEqual([]);
    } finally {
      await portal.context.close();
    }
  });
});
