/**
 * The judges' evaluation page (issue 47) in Chromium against the real service: asks a head judge to
 * sign in, then shows per apparatus each E-panel judge's routines, mean deviation, the routines
 * outside the tolerance and the largest deviations with the gymnast; in German with German numbers;
 * printed to an A4 PDF (one sheet per apparatus, no navigation). Screenshots and the first PDF
 * page go to test-artifacts/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertJuryResults,
  insertPanelDiscipline,
  insertParticipant,
  insertScoreRow,
  type Competition,
  type PanelDiscipline,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';
import { ARTIFACTS_DIR, DESKTOP, launchBrowser, openPage, saveScreenshot } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';

let server: TestServer;
let browser: Browser;
let competition: Competition;
const apparatus: PanelDiscipline[] = [];
const people = new Map<string, number>();

async function routine(discipline: PanelDiscipline, startNumber: string, name: string, judges: number[], references: number[]) {
  const [firstName, lastName] = name.split(' ');
  const participantId = await insertParticipant(server.pool, competition, { firstName, lastName, startNumber });
  const scoreId = await insertScoreRow(server.pool, competition, participantId);
  people.set(name, participantId);
  await insertJuryResults(server.pool, scoreId, [
    ...judges.map((value, index) => [discipline.judges[index]!, value] as const),
    ...references.map((value, index) => [discipline.references[index]!, value] as const),
  ]);
}

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  competition = await createCompetition(server.pool, 'Landesfinale Kampfrichter');
  for (const name of ['Stufenbarren', 'Schwebebalken']) {
    const discipline = await insertPanelDiscipline(server.pool, { name, references: 2 });
    const put = await sendJson(
      'PUT',
      `${server.url}/api/disciplines/${discipline.id}/panel`,
      {
        judgeFieldIds: discipline.judges,
        aggregation: 'trimmed-mean',
        aggregateFieldId: discipline.aggregate,
        reference: { fieldIds: discipline.references },
      },
      bearer(adminToken),
    );
    expect(put.status).toBe(200);
    apparatus.push(discipline);
  }
  // Stufenbarren: aggregates 8.400 and 7.300; E5 is 0.5 and 0.9 above them (both outside 0.30 / 0.50).
  await routine(apparatus[0]!, '101', 'Anna Adler', [8.1, 8.3, 8.4, 8.5, 8.9], [8.5, 8.6]);
  await routine(apparatus[0]!, '102', 'Berta Bach', [7.0, 7.2, 7.3, 7.4, 8.2], [7.3, 7.3]);
  // Schwebebalken: the judges within; Dora's reference judges 0.5 and 0.6 above the aggregate 8.400
  // (outside 0.30), which moves her E to the mean of 8.400 and 8.950.
  await routine(apparatus[1]!, '103', 'Clara Cramer', [8.0, 8.1, 8.1, 8.1, 8.2], [8.1, 8.1]);
  await routine(apparatus[1]!, '104', 'Dora Dorn', [8.3, 8.4, 8.4, 8.4, 8.5], [8.9, 9.0]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("office: judges' evaluation", () => {
  it('asks for a head judge, then lists each judge per apparatus with the largest deviations', async () => {
    const office = await openPage(browser, officeUrl(server.url, 'judges-evaluation', { eventId: competition.eventId }), DESKTOP);
    const page = office.page;
    await page.locator('#jeval-message', { hasText: 'head judge or admin token' }).waitFor();
    expect(await page.locator('.evaluation-sheet').count()).toBe(0);

    await signIn(page, headToken);
    const bars = page.locator(`.evaluation-sheet[data-discipline-id="${apparatus[0]!.id}"]`);
    await bars.waitFor({ timeout: 10_000 });
    expect(await page.locator('.evaluation-sheet h3').allTextContents()).toEqual(['Schwebebalken', 'Stufenbarren']);
    const e5 = bars.locator(`tr[data-field-id="${apparatus[0]!.judges[4]}"]`);
    expect(await e5.locator('th').textContent()).toBe('E5');
    expect(await e5.locator('[data-cell="routines"]').textContent()).toBe('2');
    expect(await e5.locator('[data-cell="mean"]').textContent()).toBe('+0.700');
    expect(await e5.locator('[data-cell="outside"]').textContent()).toBe('2');
    expect(await e5.locator('.largest li').allTextContents()).toEqual([
      'No. 102 Berta Bach (TV Musterstadt): 8.200 to 7.300, +0.900 (tolerance 0.500)',
      'No. 101 Anna Adler (TV Musterstadt): 8.900 to 8.400, +0.500 (tolerance 0.300)',
    ]);
    const r1 = bars.locator(`tr[data-field-id="${apparatus[0]!.references[0]}"]`);
    expect(await r1.locator('th').textContent()).toBe('R1 (reference judge)');
    const beam = page.locator(`.evaluation-sheet[data-discipline-id="${apparatus[1]!.id}"]`);
    expect(await beam.locator('[data-cell="outside"]').allTextContents()).toEqual(['0', '0', '0', '0', '0', '1', '1']);
    await saveScreenshot(page, 'office-judges-evaluation-1280');
    expect(office.errors).toEqual([]);

    // Print: A4, one sheet per apparatus, without the office's navigation.
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.emulateMedia({ media: 'print' });
    const pdf = path.join(ARTIFACTS_DIR, 'office-judges-evaluation.pdf');
    writeFileSync(pdf, await page.pdf({ format: 'A4', printBackground: true }));
    await page.emulateMedia({ media: 'screen' });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]);
    expect(pages).toBe(2);
    const text = (pageNumber: number) =>
      execFileSync('pdftotext', ['-layout', '-f', String(pageNumber), '-l', String(pageNumber), pdf, '-'], { encoding: 'utf8' });
    expect(text(1)).toContain('Schwebebalken');
    expect(text(2)).toContain('Stufenbarren');
    expect(text(2)).toContain('Berta Bach');
    expect(text(1)).not.toContain("Judges' evaluation ·");
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '2',
      '-l',
      '2',
      '-singlefile',
      pdf,
      path.join(ARTIFACTS_DIR, 'office-judges-evaluation-print'),
    ]);
    await office.context.close();
  });

  it('in German: German texts and numbers', async () => {
    const office = await openPage(
      browser,
      `${officeUrl(server.url, 'judges-evaluation', { eventId: competition.eventId })}&lang=de`,
      DESKTOP,
    );
    const page = office.page;
    await signIn(page, headToken);
    const bars = page.locator(`.evaluation-sheet[data-discipline-id="${apparatus[0]!.id}"]`);
    await bars.waitFor({ timeout: 10_000 });
    expect(await page.locator('.evaluation-view h2').textContent()).toBe('Kampfrichterauswertung · Landesfinale Kampfrichter');
    expect(await bars.locator('thead th').allTextContents()).toEqual([
      'Kampfrichter/in',
      'Übungen',
      'Mittlere Abweichung',
      'Mittlere |Abweichung|',
      'Außerhalb der Toleranz',
      'Größte Abweichungen',
    ]);
    const e1 = bars.locator(`tr[data-field-id="${apparatus[0]!.judges[0]}"]`);
    // −0.3 and −0.3: mean −0,300, within the tolerance both times.
    expect(await e1.locator('[data-cell="mean"]').textContent()).toBe('−0,300');
    expect(await e1.locator('.largest li').first().textContent()).toBe(
      'Nr. 101 Anna Adler (TV Musterstadt): 8,100 zu 8,400, −0,300 (Toleranz 0,300)',
    );
    await saveScreenshot(page, 'office-judges-evaluation-de-1280');
    expect(office.errors).toEqual([]);
    await office.context.close();
  });

  it("the head judge's portal shows the reference judges' rule applied", async () => {
    const portal = await openPage(
      browser,
      `${server.url}/jury/?${new URLSearchParams({
        eventId: String(competition.eventId),
        competitionId: String(competition.competitionId),
        disciplineId: String(apparatus[1]!.id),
      })}`,
      DESKTOP,
    );
    const page = portal.page;
    await page.locator(`.participant[data-participant-id="${people.get('Dora Dorn')}"]`).click();
    const reference = page.locator('#panel-reference[data-applied="true"]');
    await reference.waitFor({ timeout: 10_000 });
    expect(await reference.textContent()).toBe(
      'Reference judges R1 8.900 · R2 9.000: reference score 8.950 · panel 8.400 differs by 0.550, more than the tolerance 0.200: E = mean 8.675',
    );
    expect(await page.locator('#panel-aggregate').textContent()).toBe('8.675');
    await saveScreenshot(page, 'jury-head-reference-judges-1280');
    expect(portal.errors).toEqual([]);
    await portal.context.close();
  });

  it('the settings page sets the reference judges, an edited table, the missing-judge rule and an absent judge (German)', async () => {
    const discipline = await insertPanelDiscipline(server.pool, { name: 'Boden', references: 2 });
    const office = await openPage(
      browser,
      `${officeUrl(server.url, 'panels', { eventId: competition.eventId, disciplineId: discipline.id })}&lang=de`,
      DESKTOP,
    );
    const page = office.page;
    await page.locator('#panel-editor form').waitFor();
    await signIn(page, adminToken);
    await page.locator('#panel-save:not([disabled])').waitFor();
    for (const fieldId of discipline.judges) await page.check(`#judge-field-${fieldId}`);
    await page.selectOption('#panel-aggregate-field', String(discipline.aggregate));
    // The FIG table is offered in the page's notation, highest row first.
    expect((await page.inputValue('#panel-reference-tolerances')).split('\n')).toEqual([
      '9,600 0,050',
      '9,400 0,100',
      '9,000 0,150',
      '8,500 0,200',
      '8,000 0,300',
      '7,500 0,400',
      '0,000 0,500',
    ]);
    await page.selectOption('#panel-missing-judge', 'mean-of-given');
    await page.check(`#absent-field-${discipline.judges[4]}`);
    await page.selectOption('#panel-reference-1', String(discipline.references[0]));
    await page.selectOption('#panel-reference-2', String(discipline.references[1]));
    await page.fill('#panel-reference-agreement', '0,4');
    await page.fill('#panel-reference-tolerances', '9,5 0,1\n0 0,6');
    await saveScreenshot(page, 'office-panel-rules-de-1280');
    await page.click('#panel-save');
    await page.locator('#panels-message', { hasText: 'Boden' }).waitFor({ timeout: 10_000 });

    const catalog = await sendJson('GET', `${server.url}/api/disciplines`, undefined, {});
    expect(catalog.body.find((entry: { id: number }) => entry.id === discipline.id).panel).toMatchObject({
      missingJudge: 'mean-of-given',
      absentFieldIds: [discipline.judges[4]],
      reference: {
        fieldIds: discipline.references,
        agreement: 0.4,
        tolerances: [
          { from: 9.5, tolerance: 0.1 },
          { from: 0, tolerance: 0.6 },
        ],
      },
    });
    // The reference judges get their own portal links like the judges (the editor renders again after the save).
    await page.locator('#judge-links a').nth(6).waitFor({ timeout: 10_000 });
    expect(await page.locator('#judge-links a').count()).toBe(7);
    expect(office.errors).toEqual([]);
    await office.context.close();
  });
});
