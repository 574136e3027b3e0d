/**
 * Issue 44, item 3 in Chromium: the office's auto-assign keeps the squads of groups and teams (G1,
 * T1) unless asked to clear them and keeps competitions apart; the squad page moves a gymnast
 * between squads, creates, renames and deletes a squad (admin), each checked in the database.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../web/office/office-api.js';
import { insertGroupOrTeam, insertRow } from '../support/fixtures.js';
import { t } from '../support/tables.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';
import { LAPTOP, launchBrowser, openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { generateProposals, officeUrl, seedSquadEvent, signIn, squadNamesOfEvent, type SquadEvent } from './support/office.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let planned: SquadEvent;
let office: OpenedPage;

const page = () => office.page;

/** The squad names of the event's group and team score rows. */
async function unitSquads(): Promise<string[]> {
  const { rows } = await server.pool.query<{ squad: string | null }>(
    `SELECT w.var_riege AS squad FROM ${t.wertungen} w JOIN ${t.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
      WHERE c.int_veranstaltungenid = $1 AND w.int_teilnehmerid IS NULL ORDER BY w.int_wertungenid`,
    [planned.competition.eventId],
  );
  return rows.map((row) => row.squad ?? '');
}

/** The squad card holding the gymnast on the page. */
const cardOf = (participantId: number) =>
  page().$eval(`.squad-card li[data-participant-id="${participantId}"]`, (item) =>
    item.closest('[data-squad]')?.getAttribute('data-squad'),
  );

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  planned = await seedSquadEvent(server.pool, 'Riegentag');
  const { eventId, competitionId, clubId } = planned.competition;
  for (const kind of ['group', 'team'] as const) {
    const unitId = await insertGroupOrTeam(server.pool, { eventId, clubId }, kind, kind === 'group' ? 'Gruppe Sonne' : 'Team Nord', '');
    await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: competitionId,
      [kind === 'group' ? 'int_gruppenid' : 'int_mannschaftenid']: unitId,
      int_statusid: 1,
      var_riege: kind === 'group' ? 'G1' : 'T1',
    });
  }
  office = await openPage(browser, `${officeUrl(server.url, 'squads', { eventId })}&lang=en`, LAPTOP);
  await page().locator('.squad-card[data-squad="ALT"]').waitFor();
  await signIn(page(), adminToken);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: squads by hand and by competition', () => {
  let generated: GenerateResponse;

  it('auto-assign keeps competitions apart and leaves group and team squads as they are', async () => {
    await page().click('#auto-assign-open');
    await page().locator('#criteria-defaults:not(:empty)').waitFor();
    await page().waitForFunction(() => !(document.querySelector('#generate-proposals') as HTMLButtonElement).disabled);
    expect(await page().isChecked('#crit-separateCompetitions')).toBe(true);
    await page().fill('#crit-numberOfProposals', '1');
    generated = await generateProposals(page());
    expect(generated.criteria.separateCompetitions).toBe(true);
    // Two gymnasts start in both competitions: they never share a squad with the others.
    const both = new Set(planned.participantIds.slice(0, 2));
    for (const squad of generated.proposals[0]!.squads.filter((candidate) => !candidate.isBreak)) {
      const kinds = new Set(squad.participants.map((participant) => both.has(participant.id)));
      expect(kinds.size).toBe(1);
      expect(squad.competitionIds!.length).toBe(kinds.has(true) ? 2 : 1);
    }
    expect(await page().isChecked('#apply-clear-units')).toBe(false);
    expect(await page().textContent('#apply-warning')).toContain('Group and team squads stay');
    await saveScreenshot(page(), 'office-squads-apply-1366x768');
    await page().click('#apply-proposal');
    await page().locator('#auto-assign[data-step="applied"]').waitFor();

    expect(await unitSquads()).toEqual(['G1', 'T1']);
    const stored = await squadNamesOfEvent(server.pool, planned.competition.eventId);
    const expected = new Map(generated.proposals[0]!.squads.flatMap((squad) => squad.participants.map((p) => [p.id, squad.name] as const)));
    for (const id of planned.participantIds) expect(new Set(stored.get(id))).toEqual(new Set([expected.get(id)]));
    await page().click('#applied-close');
    await page().locator('#auto-assign').waitFor({ state: 'hidden' });
  });

  it('moves a gymnast to another squad with the move list', async () => {
    const squads = generated.proposals[0]!.squads.filter((squad) => squad.participants.length > 0);
    const [from, to] = [squads[0]!, squads[1]!];
    const gymnast = from.participants[0]!;
    await page().locator(`.squad-card[data-squad="${from.name}"] li[data-participant-id="${gymnast.id}"]`).waitFor();
    await page().selectOption(`#move-${gymnast.id}`, `squad:${to.name}`);
    await page().locator(`.squad-card[data-squad="${to.name}"] li[data-participant-id="${gymnast.id}"]`).waitFor();
    expect(await page().textContent('#squads-edit-status')).toBe(`✓ ${gymnast.firstname} ${gymnast.lastname} is now in ${to.name}.`);
    expect(new Set((await squadNamesOfEvent(server.pool, planned.competition.eventId)).get(gymnast.id))).toEqual(new Set([to.name]));
    expect(await cardOf(gymnast.id)).toBe(to.name);
  });

  it('creates a squad with a first gymnast, renames it, refuses a taken name, and deletes it', async () => {
    const gymnast = planned.participantIds[5]!;
    await page().fill('#new-squad-name', 'Neu');
    await page().selectOption('#new-squad-first', String(gymnast));
    await page().click('#new-squad-create');
    await page().locator('.squad-card[data-squad="Neu"]').waitFor();
    expect(await cardOf(gymnast)).toBe('Neu');

    const card = page().locator('.squad-card[data-squad="Neu"]');
    await card.locator('[data-action="rename"]').click();
    await card.locator('.rename-input').fill('G1');
    await card.locator('.rename-input').press('Enter');
    await page().locator('#squads-edit-status[data-state="error"]').waitFor();
    expect(await page().textContent('#squads-edit-status')).toContain('"G1" exists already');
    expect(await unitSquads()).toEqual(['G1', 'T1']);

    await page().locator('.squad-card[data-squad="Neu"] [data-action="rename"]').click();
    await page().locator('.squad-card[data-squad="Neu"] .rename-input').fill('Gold');
    await page().locator('.squad-card[data-squad="Neu"] .rename-input').press('Enter');
    await page().locator('.squad-card[data-squad="Gold"]').waitFor();
    expect(new Set((await squadNamesOfEvent(server.pool, planned.competition.eventId)).get(gymnast))).toEqual(new Set(['Gold']));

    await page().locator('.squad-card[data-squad="Gold"] [data-action="delete"]').click();
    expect(await page().textContent('.squad-card[data-squad="Gold"] .delete-question')).toBe(
      'Delete squad Gold? Its 1 gymnasts will have no squad.',
    );
    await page().locator('.squad-card[data-squad="Gold"] [data-action="confirm-delete"]').click();
    await page().locator('.squad-card[data-squad="Gold"]').waitFor({ state: 'detached' });
    await page().locator(`#unassigned li[data-participant-id="${gymnast}"]`).waitFor({ state: 'attached' });
    expect(new Set((await squadNamesOfEvent(server.pool, planned.competition.eventId)).get(gymnast))).toEqual(new Set(['']));
    const { rows } = await server.pool.query(`SELECT action, actor FROM ${t.svc_squad_audit} ORDER BY id`);
    expect(rows).toEqual([
      { action: 'apply', actor: 'anna' },
      { action: 'move', actor: 'anna' },
      { action: 'create', actor: 'anna' },
      { action: 'rename', actor: 'anna' },
      { action: 'delete', actor: 'anna' },
    ]);
    expect(office.errors).toEqual([]);
  });

  it('fits a phone with the edit controls', async () => {
    const phone = await openPage(
      browser,
      `${officeUrl(server.url, 'squads', { eventId: planned.competition.eventId })}&lang=en`,
      PHONE_390,
    );
    await phone.page.locator('.squad-card').first().waitFor();
    await signIn(phone.page, adminToken);
    await phone.page.locator('#new-squad:not([hidden])').waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-squads-edit-390');
    await phone.context.close();
  });
});
