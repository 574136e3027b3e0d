/**
 * The squads page of the competition office in Chromium against the real service: sign-in by
 * token, the auto-assign dialog through its four steps (criteria → proposals → back → proposals →
 * applied → close), and the score rows in the database afterwards.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../web/office/office-api.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, juryToken } from '../support/tokens.js';
import { PHONE, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { generateProposals, officeUrl, seedSquadEvent, signIn, squadNamesOfEvent, type SquadEvent } from './support/office.js';
import { storeAppSetting } from '../support/fixtures.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let planned: SquadEvent;
let office: OpenedPage;

/** Stored defaults that differ from the built-in ones in every field, so the dialog shows where its values come from. */
const DEFAULTS = {
  description: 'Office test defaults',
  maxParticipantsPerSquad: 4,
  separateGenders: true,
  keepClubsTogether: false,
  groupByAgeCategory: false,
  ageCategoryRanges: '4-9,10-16',
  numberOfProposals: 2,
  namingPrefix: 'number',
  breakCount: 1,
};

const page = () => office.page;
const step = () => page().getAttribute('#auto-assign', 'data-step');

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  planned = await seedSquadEvent(server.pool, 'Riegen-Cup');
  await storeAppSetting(server.pool, 'squadAutoAssign', DEFAULTS);
  office = await openPage(browser, officeUrl(server.url, 'squads', { eventId: planned.competition.eventId }));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: squads and the auto-assign dialog', () => {
  it('shows the frontend and backend build badges in the header, with the same hash after one build', async () => {
    const backend = page().locator('.topbar [data-badge="backend"][data-state="ready"]');
    await backend.waitFor();
    const frontendHash = await page().getAttribute('.topbar [data-badge="frontend"]', 'data-hash');
    expect(await backend.getAttribute('data-hash')).toBe(frontendHash);
    expect(await backend.getAttribute('title')).toContain(`Hash: ${frontendHash}`);
  });

  it('lists the current squads from the score rows; auto-assign needs an admin token', async () => {
    const card = page().locator('.squad-card[data-squad="ALT"]');
    await card.waitFor();
    expect(await card.locator('li').count()).toBe(10);
    expect(await page().isDisabled('#auto-assign-open')).toBe(true);
    expect(await page().textContent('#auto-assign-hint')).toContain('admin token');

    await page().click('#sign-in');
    await page().fill('#token-input', 'not-a-token');
    await page().click('#token-submit');
    await page().locator('#token-error:not([hidden])').waitFor();
    expect(await page().textContent('#token-error')).toContain('invalid or expired');
    await page().click('#token-cancel');

    await signIn(page(), juryToken);
    expect(await page().textContent('#signed-in-as')).toBe('judge-1 · jury');
    expect(await page().isDisabled('#auto-assign-open')).toBe(true);
    await page().click('#sign-out');

    await signIn(page(), adminToken);
    expect(await page().textContent('#signed-in-as')).toBe('anna · admin');
    expect(await page().isDisabled('#auto-assign-open')).toBe(false);
    // The token stays in this tab's session storage and never reaches the address bar.
    expect(page().url()).not.toContain(adminToken);
    expect(await page().evaluate(() => sessionStorage.getItem('gym.office.session.v1'))).toContain(adminToken);
    expect(await page().evaluate(() => localStorage.getItem('gym.office.session.v1'))).toBeNull();
    await saveScreenshot(page(), 'office-squads');
  });

  it('step "criteria": defaults from the app settings, number limits, age ranges only with age grouping', async () => {
    await page().click('#auto-assign-open');
    await page().locator('#auto-assign[open]').waitFor();
    expect(await step()).toBe('criteria');
    await page().locator('#criteria-defaults', { hasText: 'Office test defaults' }).waitFor();
    expect(await page().inputValue('#crit-maxParticipantsPerSquad')).toBe('4');
    expect(await page().inputValue('#crit-numberOfProposals')).toBe('2');
    expect(await page().inputValue('#crit-breakCount')).toBe('1');
    expect(await page().inputValue('#crit-namingPrefix')).toBe('number');
    expect(await page().inputValue('#crit-ageCategoryRanges')).toBe('4-9,10-16');
    expect(await page().isChecked('#crit-separateGenders')).toBe(true);
    expect(await page().isChecked('#crit-keepClubsTogether')).toBe(false);

    const limits = await page().$$eval('#auto-assign input[type="number"]', (inputs) =>
      inputs.map((input) => [input.id, input.getAttribute('min'), input.getAttribute('max')]),
    );
    expect(limits).toEqual([
      ['crit-maxParticipantsPerSquad', '2', '50'],
      ['crit-numberOfProposals', '1', '10'],
      ['crit-breakCount', '0', '10'],
    ]);

    expect(await page().isDisabled('#crit-ageCategoryRanges')).toBe(true);
    await page().check('#crit-groupByAgeCategory');
    expect(await page().isDisabled('#crit-ageCategoryRanges')).toBe(false);
    await page().uncheck('#crit-groupByAgeCategory');
    expect(await page().isDisabled('#crit-ageCategoryRanges')).toBe(true);

    // Out of range: the form refuses before asking the server and stays on the criteria step.
    await page().fill('#crit-maxParticipantsPerSquad', '51');
    await page().click('#generate-proposals');
    await page().locator('#criteria-error:not([hidden])').waitFor();
    expect(await page().textContent('#criteria-error')).toContain('from 2 to 50');
    expect(await step()).toBe('criteria');
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('crit-maxParticipantsPerSquad');
    await page().fill('#crit-breakCount', '11');
    await page().fill('#crit-maxParticipantsPerSquad', '3');
    await page().click('#generate-proposals');
    expect(await page().textContent('#criteria-error')).toContain('from 0 to 10');
    await page().fill('#crit-breakCount', '0');
  });

  let generated: GenerateResponse;

  it('step "proposals": generated side by side with color, gender group, participants, clubs and stats, and the replace warning', async () => {
    await page().check('#crit-groupByAgeCategory');
    await page().selectOption('#crit-namingPrefix', 'gender');
    await page().fill('#crit-numberOfProposals', '3');
    const response = page().waitForResponse((candidate) => candidate.url().endsWith('/api/squad-management/auto-assign/generate'));
    await page().keyboard.press('Enter');
    generated = (await (await response).json()) as GenerateResponse;
    await page().locator('#auto-assign[data-step="proposals"]').waitFor();
    expect(generated.criteria).toMatchObject({
      maxParticipantsPerSquad: 3,
      numberOfProposals: 3,
      groupByAgeCategory: true,
      ageCategoryRanges: '4-9,10-16',
      namingPrefix: 'gender',
      breakCount: 0,
    });
    expect(generated.proposals).toHaveLength(3);

    const cards = page().locator('.proposal');
    expect(await cards.count()).toBe(3);
    const boxes = await Promise.all([0, 1, 2].map((index) => cards.nth(index).boundingBox()));
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);

    for (const [index, proposal] of generated.proposals.entries()) {
      const card = cards.nth(index);
      expect(await card.locator('.stats').textContent()).toContain(`Participants${proposal.stats.totalParticipants}`);
      expect(await card.locator('.proposal-squad').count()).toBe(proposal.squads.length);
      for (const squad of proposal.squads) {
        const item = card.locator(`.proposal-squad[data-squad="${squad.name}"]`);
        expect(await item.locator('.squad-meta').textContent()).toContain(`${squad.colorName} · ${squad.genderGroup}`);
        expect(await item.locator('.swatch').getAttribute('data-color')).toMatch(/^\d+$/);
        for (const participant of squad.participants)
          expect(await item.locator('.squad-people').textContent()).toContain(`${participant.firstname} ${participant.lastname}`);
        expect(await item.locator('.squad-clubs').textContent()).toContain(squad.participants[0]!.club);
      }
    }
    expect(await page().textContent('#apply-warning')).toContain('replaces the existing squad assignments');
    expect(await page().getAttribute('#apply-proposal', 'aria-describedby')).toBe('apply-warning');
    await saveScreenshot(page(), 'office-squads-proposals');
  });

  it('"back" returns to the criteria with every value kept; generating again shows new proposals', async () => {
    await page().click('#proposals-back');
    expect(await step()).toBe('criteria');
    expect(await page().inputValue('#crit-maxParticipantsPerSquad')).toBe('3');
    expect(await page().inputValue('#crit-numberOfProposals')).toBe('3');
    expect(await page().inputValue('#crit-namingPrefix')).toBe('gender');
    expect(await page().isChecked('#crit-groupByAgeCategory')).toBe(true);
    expect(await page().isDisabled('#crit-ageCategoryRanges')).toBe(false);
    await page().fill('#crit-numberOfProposals', '2');
    generated = await generateProposals(page());
    expect(await page().locator('.proposal').count()).toBe(2);
  });

  it('step "applied": the chosen proposal replaces every squad of the event in the database', async () => {
    await page().check('#proposal-2-choice');
    expect(await page().textContent('#apply-proposal')).toBe('Apply proposal 2');
    await page().click('#apply-proposal');
    await page().locator('#auto-assign[data-step="applied"]').waitFor();
    const chosen = generated.proposals[1]!;
    const assigned = chosen.squads.reduce((sum, squad) => sum + squad.participants.length, 0);
    expect(await page().textContent('#applied-message')).toContain(`applied to ${assigned} participants`);
    await saveScreenshot(page(), 'office-squads-applied');

    const stored = await squadNamesOfEvent(server.pool, planned.competition.eventId);
    const expected = new Map(
      chosen.squads.flatMap((squad) => squad.participants.map((participant) => [participant.id, squad.name] as const)),
    );
    expect(expected.size).toBe(10);
    for (const id of planned.participantIds) {
      // Every row of the participant, in both competitions: the old "ALT" is gone everywhere.
      expect(new Set(stored.get(id))).toEqual(new Set([expected.get(id)]));
    }
    expect(stored.get(planned.participantIds[0]!)).toHaveLength(2);
  });

  it('"close" closes the dialog and the page shows the applied squads', async () => {
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('applied-close');
    await page().keyboard.press('Enter');
    await page().locator('#auto-assign').waitFor({ state: 'hidden' });
    const chosen = generated.proposals[1]!.squads.filter((squad) => squad.participants.length > 0);
    await page().locator(`.squad-card[data-squad="${chosen[0]!.name}"]`).waitFor();
    expect(await page().locator('.squad-card[data-squad="ALT"]').count()).toBe(0);
    const shown = await page().$$eval('.squad-card[data-squad]', (cards) =>
      cards.map((card) => [card.getAttribute('data-squad'), card.querySelectorAll('li').length] as const),
    );
    expect(new Map(shown)).toEqual(new Map(chosen.map((squad) => [squad.name, squad.participants.length])));
    expect(await page().locator('#unassigned').count()).toBe(0);
    expect(office.errors).toEqual([]);
  });

  it('fits a phone screen, dialog included', async () => {
    const phone = await openPage(browser, officeUrl(server.url, 'squads', { eventId: planned.competition.eventId }), PHONE);
    await phone.page.locator('.squad-card').first().waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await signIn(phone.page, adminToken);
    await phone.page.click('#auto-assign-open');
    await phone.page.locator('#criteria-defaults', { hasText: 'Office test defaults' }).waitFor();
    await saveScreenshot(phone.page, 'office-squads-criteria-phone');
    await phone.page.click('#generate-proposals');
    await phone.page.locator('#auto-assign[data-step="proposals"]').waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-squads-proposals-phone');
    // Esc leaves the dialog without applying anything.
    await phone.page.keyboard.press('Escape');
    await phone.page.locator('#auto-assign').waitFor({ state: 'hidden' });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
