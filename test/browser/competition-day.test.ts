/**
 * Issue 17 in Chromium against the demo event (`npm run seed:demo`'s data): portal and board follow
 * the competition, next-participant focus, the 409 flow, the plausibility confirmation, a reload
 * while the server cannot be reached, group and team scores and a timed discipline on boards,
 * projector paging to the last row, and screenshots at 390 px, 1366×768 and 1920×1080.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoSummary } from '../../scripts/demo-seed.js';
import { t } from '../support/tables.js';
import { waitFor, type TestServer } from '../support/server.js';
import { FULL_HD, LAPTOP, openPage, PHONE_390 as PHONE, saveScreenshot, type OpenedPage } from './support/browser.js';
import { boardRows, noHorizontalOverflow, participantButton, waitForAck } from './support/portal.js';
import { signIn } from './support/office.js';
import { useDemoEvent } from './support/demo.js';
import { adminToken } from '../support/tokens.js';

let server: TestServer;
let browser: Browser;
let demo: DemoSummary;
const opened: OpenedPage[] = [];

interface Entry {
  id: number;
  participantId: number;
  competitionId: number;
  disciplineId: number | null;
  score: number | null;
  firstName: string;
  lastName: string;
  startNumber: string;
}

const competition = (name: RegExp) => demo.competitions.find((candidate) => name.test(candidate.name))!;
const discipline = (name: string) => demo.disciplines.find((candidate) => candidate.name === name)!;

async function entries(competitionId: number): Promise<Entry[]> {
  const response = await fetch(`${server.url}/api/scores?eventId=${demo.event.id}&competitionId=${competitionId}&limit=1000`);
  return ((await response.json()) as { results: Entry[] }).results;
}

async function open(url: string, viewport = LAPTOP, options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<OpenedPage> {
  const page = await openPage(browser, `${server.url}${url}`, viewport, options);
  opened.push(page);
  return page;
}

async function saveValue(body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/scores/save-value`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function storedFinal(scoreId: number, disciplineId: number): Promise<number | null> {
  const { rows } = await server.pool.query<{ value: number | null }>(
    `SELECT rel_leistung AS value FROM ${t.wertungen_details} WHERE int_wertungenid = $1 AND int_disziplinenid = $2 AND int_versuch = 1 AND int_kp = 0`,
    [scoreId, disciplineId],
  );
  return rows[0]?.value ?? null;
}

const listedNames = (page: Page) => page.$$eval('.participant .name', (names) => names.map((name) => name.textContent ?? ''));
const fullName = (entry: Entry) => `${entry.firstName} ${entry.lastName}`;

const demoEvent = useDemoEvent();
beforeAll(() => void ({ server, browser, demo } = demoEvent));
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
});

describe('jury portal on competition day', () => {
  it('lists only the chosen competition’s participants of the device, in start-number order, with the selection in the URL', async () => {
    const girls = competition(/^P-Stufen weiblich/);
    const kuer = competition(/^Kür weiblich/);
    const vault = discipline('P-Sprung');
    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${girls.id}&disciplineId=${vault.id}`);
    const mine = (await entries(girls.id)).filter((entry) => entry.disciplineId === vault.id);
    await portal.page.locator(`.participant[data-participant-id="${mine[0]!.participantId}"]`).waitFor();
    const names = await listedNames(portal.page);
    expect(names.length).toBe(mine.length);
    for (const other of await entries(kuer.id)) expect(names).not.toContain(fullName(other));
    const numbers = await portal.page.$$eval('.participant .start-number', (cells) => cells.map((cell) => Number(cell.textContent)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // The device picker offers only the competition's devices: no Kür vault for a P-level girl.
    const devices = await portal.page.$$eval('#device-select option', (options) => options.map((option) => option.textContent));
    expect(devices).not.toContain('Sprung');
    // A squad narrows the list and is kept in the address.
    await portal.page.selectOption('#squad-select', girls.squads[0]!);
    await waitFor(async () => (await listedNames(portal.page)).length < names.length, { message: 'squad narrows the list' });
    const url = new URL(portal.page.url());
    expect([url.searchParams.get('competitionId'), url.searchParams.get('disciplineId'), url.searchParams.get('squad')]).toEqual([
      String(girls.id),
      String(vault.id),
      girls.squads[0],
    ]);
    await saveScreenshot(portal.page, 'competition-day-portal-1366x768');
    expect(portal.errors).toEqual([]);
  });

  it('moves the focus to the next pending participant after a confirmed save, keyboard only', async () => {
    const boys = competition(/^P-Stufen männlich/);
    const floor = discipline('P-Boden');
    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${boys.id}&disciplineId=${floor.id}`);
    const pending = (await entries(boys.id)).filter((entry) => entry.disciplineId === floor.id && entry.score === null);
    const first = pending[0]!;
    await participantButton(portal.page, first.participantId).waitFor();
    await participantButton(portal.page, first.participantId).focus();
    await portal.page.keyboard.press('Enter');
    await portal.page.locator('#field-A').waitFor();
    expect(await portal.page.evaluate(() => document.activeElement?.id)).toBe('field-A');
    await portal.page.keyboard.type('4');
    await portal.page.keyboard.press('Tab');
    await portal.page.keyboard.type('0,5');
    await portal.page.keyboard.press('Tab');
    expect(await portal.page.evaluate(() => document.activeElement?.id)).toBe('save-button');
    await portal.page.keyboard.press('Enter');
    await waitForAck(portal.page, 'saved', fullName(first));
    // The next pending participant (by start number) is chosen and its first field has the focus.
    const listed = await portal.page.$$eval('.participant', (buttons) =>
      buttons.map((button) => [button.getAttribute('data-participant-id'), button.getAttribute('data-status')]),
    );
    const nextId = listed.find(([id, status]) => status === 'pending' && id !== String(first.participantId))![0];
    await portal.page.locator(`.participant[data-participant-id="${nextId}"][aria-pressed="true"]`).waitFor();
    await waitFor(async () => (await portal.page.evaluate(() => document.activeElement?.id)) === 'field-A', {
      message: 'focus on the next participant’s first field',
    });
    expect(await storedFinal(first.id, floor.id)).toBeCloseTo(11, 5);
  });

  it('never overwrites a newer score silently: a notice, then both values and a knowing overwrite', async () => {
    const kuer = competition(/^Kür weiblich/);
    const vault = discipline('Sprung');
    const captured = (await entries(kuer.id)).find((entry) => entry.disciplineId === vault.id && entry.score !== null)!;
    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${kuer.id}&disciplineId=${vault.id}`);
    await participantButton(portal.page, captured.participantId).click();
    await waitFor(async () => (await portal.page.inputValue('#field-A')) !== '', { message: 'stored values loaded' });
    // The judge starts typing: from now on the form is the judge's work.
    await portal.page.focus('#field-F');
    await portal.page.keyboard.press('Control+A');
    await portal.page.keyboard.type('0.1');
    await portal.page.keyboard.press('Tab');
    const typedBefore = await portal.page.inputValue('#field-A');
    const typedF = await portal.page.inputValue('#field-F');
    // The desktop program changes the final score meanwhile.
    expect((await saveValue({ competitionId: kuer.id, participantId: captured.id, disciplineId: vault.id, score: 14.25 })).status).toBe(
      200,
    );
    const notice = portal.page.locator('.elsewhere-notice:not([hidden])');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain('14.250');
    expect(await portal.page.inputValue('#field-A')).toBe(typedBefore);
    expect(await portal.page.inputValue('#field-F')).toBe(typedF);

    await portal.page.focus('#save-button');
    await portal.page.keyboard.press('Enter');
    const prompt = portal.page.locator('.prompt[data-kind="conflict"]:not([hidden])');
    await prompt.waitFor({ timeout: 10_000 });
    const text = (await prompt.textContent()) ?? '';
    expect(text).toContain('14.250');
    const mine = Number(await portal.page.locator('#final-score').getAttribute('data-value'));
    expect(text).toContain(mine.toFixed(3));
    expect(await storedFinal(captured.id, vault.id)).toBeCloseTo(14.25, 5);
    await saveScreenshot(portal.page, 'competition-day-portal-conflict-1366x768');
    await portal.page.locator('#conflict-overwrite').click();
    await waitForAck(portal.page, 'saved', captured.lastName);
    expect(await storedFinal(captured.id, vault.id)).toBeCloseTo(mine, 3);
    expect(portal.errors).toEqual([]);
  });

  it('holds an implausible value (45 for 4.5) for a confirmation; it never reaches the board unconfirmed; negative is refused', async () => {
    const girls = competition(/^P-Stufen weiblich/);
    const beam = discipline('P-Balken');
    const target = (await entries(girls.id)).find((entry) => entry.disciplineId === beam.id && entry.score === null)!;
    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${beam.id}&competitionId=${girls.id}`);
    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${girls.id}&disciplineId=${beam.id}`);
    await participantButton(portal.page, target.participantId).click();
    await portal.page.locator('#field-A').waitFor();
    await portal.page.focus('#field-A');
    await portal.page.keyboard.type('-3');
    await portal.page.keyboard.press('Tab');
    await portal.page.keyboard.type('0.5');
    await portal.page.keyboard.press('Tab');
    await portal.page.keyboard.press('Enter');
    await waitForAck(portal.page, 'error', 'negative');

    await portal.page.fill('#field-A', '45');
    await portal.page.focus('#save-button');
    await portal.page.keyboard.press('Enter');
    const prompt = portal.page.locator('.prompt[data-kind="confirm"]:not([hidden])');
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('45');
    expect(await portal.page.evaluate(() => document.activeElement?.id)).toBe('plausibility-correct');
    await saveScreenshot(portal.page, 'competition-day-portal-plausibility-390').catch(() => undefined);
    expect(await storedFinal(target.id, beam.id)).toBeNull();
    expect((await boardRows(board.page)).some((row) => row.name === fullName(target))).toBe(false);
    // Correct it: back to the first field, typed right, saved without a question.
    await portal.page.keyboard.press('Enter');
    expect(await portal.page.evaluate(() => document.activeElement?.id)).toBe('field-A');
    await portal.page.keyboard.press('Control+A');
    await portal.page.keyboard.type('4.5');
    await portal.page.keyboard.press('Tab');
    await portal.page.focus('#save-button');
    await portal.page.keyboard.press('Enter');
    await waitForAck(portal.page, 'saved', fullName(target));
    expect(await storedFinal(target.id, beam.id)).toBeCloseTo(11.25, 5);
    await waitFor(async () => (await boardRows(board.page)).some((row) => row.name === fullName(target)), {
      message: 'confirmed value on the board',
    });
  });

  it('opens with its waiting saves and last list when reloaded while the server cannot be reached', async () => {
    const kuer = competition(/^Kür männlich/);
    const floor = discipline('Boden');
    const portal = await open(`/jury/?eventId=${demo.event.id}&competitionId=${kuer.id}&disciplineId=${floor.id}`, LAPTOP, {
      serviceWorkers: 'allow',
    });
    const target = (await entries(kuer.id)).find((entry) => entry.disciplineId === floor.id && entry.score === null)!;
    await participantButton(portal.page, target.participantId).waitFor();
    await portal.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    // Once the worker controls the page, every answer it passes on is kept for later.
    await portal.page.reload();
    await waitFor(() => portal.page.evaluate(() => navigator.serviceWorker.controller !== null), {
      message: 'service worker controls the page',
    });
    await participantButton(portal.page, target.participantId).waitFor();

    await portal.context.setOffline(true);
    await participantButton(portal.page, target.participantId).click();
    await portal.page.locator('#field-A').waitFor();
    for (const [field, value] of [
      ['#field-A', '3'],
      ['#field-B', '1'],
      ['#field-C', '1'],
      ['#field-D', '1'],
      ['#field-E', '0'],
    ] as const)
      await portal.page.fill(field, value);
    await portal.page.click('#save-button');
    await waitForAck(portal.page, 'waiting', fullName(target), 20_000);

    await portal.page.reload();
    await participantButton(portal.page, target.participantId).waitFor({ timeout: 15_000 });
    await portal.page.locator(`.participant[data-participant-id="${target.participantId}"][data-status="waiting"]`).waitFor();
    expect((await listedNames(portal.page)).length).toBeGreaterThan(1);
    await saveScreenshot(portal.page, 'competition-day-portal-offline-reload-1366x768');
    expect(await storedFinal(target.id, floor.id)).toBeNull();

    await portal.context.setOffline(false);
    await portal.page
      .locator(`.participant[data-participant-id="${target.participantId}"][data-status="completed"]`)
      .waitFor({ timeout: 30_000 });
    expect(await storedFinal(target.id, floor.id)).toBeCloseTo(12, 5);
  });
});

describe('scoreboard on competition day', () => {
  it('honours competitionId: names of another competition are absent', async () => {
    const girls = competition(/^Kür weiblich/);
    const boys = competition(/^Kür männlich/);
    const floor = discipline('Boden');
    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${floor.id}&competitionId=${girls.id}`, FULL_HD);
    await board.page.locator('.ranking tbody tr').first().waitFor();
    const shown = await board.page.$$eval('.ranking tbody tr .name', (cells) => cells.map((cell) => cell.textContent ?? ''));
    for (const other of await entries(boys.id)) expect(shown).not.toContain(fullName(other));
    expect(await board.page.locator('.ranking').count()).toBe(1);
    await saveScreenshot(board.page, 'competition-day-board-1920x1080');
    // Without competitionId: one ranking per competition, each starting at rank 1.
    const both = await open(`/board/?eventId=${demo.event.id}&disciplineId=${floor.id}`, LAPTOP);
    await both.page.locator('.ranking tbody tr').first().waitFor();
    expect(await both.page.locator('table.ranking').count()).toBeGreaterThanOrEqual(2);
  });

  it('shows group and team scores', async () => {
    const group = demo.scores.groupExample;
    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${group.disciplineId}`, LAPTOP);
    const groupName = demo.groups.find((candidate) => candidate.id === group.groupId)!.name;
    await board.page.locator('.ranking tbody tr[data-kind="group"] .name', { hasText: groupName }).waitFor();
    await saveScreenshot(board.page, 'competition-day-board-group-1366x768');
    const team = demo.scores.teamExample;
    const teamBoard = await open(`/board/?eventId=${demo.event.id}&disciplineId=${team.disciplineId}`, PHONE);
    const teamName = demo.teams.find((candidate) => candidate.id === team.teamId)!.name;
    await teamBoard.page.locator('.ranking tbody tr[data-kind="team"] .name', { hasText: teamName }).waitFor();
    expect(await noHorizontalOverflow(teamBoard.page)).toBe(true);
    await saveScreenshot(teamBoard.page, 'competition-day-board-team-390');
  });

  it('ranks a timed discipline ascending: the shortest time first', async () => {
    const boys = competition(/^P-Stufen männlich/);
    const rope = discipline('Tauklettern');
    const rows = (await entries(boys.id)).filter((entry) => entry.disciplineId === rope.id).slice(0, 3);
    for (const [index, row] of rows.entries()) {
      expect(
        (await saveValue({ competitionId: boys.id, participantId: row.id, disciplineId: rope.id, score: [41.5, 29.75, 65][index] })).status,
      ).toBe(200);
    }
    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${rope.id}&competitionId=${boys.id}`, LAPTOP);
    await board.page.locator('.ranking tbody tr').nth(2).waitFor();
    const shown = await boardRows(board.page);
    expect(shown.slice(0, 3).map((row) => [row.rank, row.score])).toEqual([
      ['1.', '29.75'],
      ['2.', '41.50'],
      ['3.', '1:05.00'],
    ]);
  });

  it('pages through every row at the projector pace and reaches the last row (1366×768)', async () => {
    const girls = competition(/^P-Stufen weiblich/);
    const floor = discipline('P-Boden');
    // Every girl gets a floor score, so the ranking is longer than one screen.
    for (const [index, entry] of (await entries(girls.id)).filter((candidate) => candidate.disciplineId === floor.id).entries()) {
      await saveValue({ competitionId: girls.id, participantId: entry.id, disciplineId: floor.id, score: 8 + (index % 17) / 10 });
    }
    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${floor.id}&competitionId=${girls.id}&pace=1`, LAPTOP);
    await board.page.locator('.ranking tbody tr').first().waitFor();
    const total = await board.page.locator('.ranking tbody tr').count();
    expect(total).toBeGreaterThan(15);
    expect(Number(await board.page.locator('.rankings').getAttribute('data-pages'))).toBeGreaterThan(1);
    const last = board.page.locator('.ranking tbody tr').nth(total - 1);
    await last.waitFor({ state: 'visible', timeout: 20_000 });
    const box = await last.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(LAPTOP.height);
    await saveScreenshot(board.page, 'competition-day-board-paged-1366x768');
  });
});

describe('office on competition day', () => {
  it('keeps group members in the service: a second browser shows what the first added', async () => {
    const group = demo.groups[0]!;
    const first = await open(`/office/?view=groups&eventId=${demo.event.id}&groupId=${group.id}`, LAPTOP);
    await first.page.click('#sign-in');
    await first.page.locator('.sign-in-dialog[open] #token-cancel').waitFor();
    // The dialog's buttons are readable: dark text on a light button, light text on the primary one.
    const colours = await first.page.$eval('#token-cancel', (button) => [
      getComputedStyle(button).color,
      getComputedStyle(button).backgroundColor,
    ]);
    expect(colours[0]).not.toBe(colours[1]);
    await saveScreenshot(first.page, 'competition-day-office-sign-in-1366x768');
    await first.page.click('#token-cancel');
    await signIn(first.page, adminToken);
    await first.page.locator('#members-storage', { hasText: 'stored by the service' }).waitFor();
    const add = first.page.locator('button[data-add]').first();
    const memberId = await add.getAttribute('data-add');
    await add.click();
    await first.page.locator(`#members [data-member-id="${memberId}"]`).waitFor();
    await waitFor(
      async () =>
        (
          await server.pool.query(`SELECT 1 FROM ${t.svc_group_members} WHERE group_id = $1 AND participant_id = $2`, [
            group.id,
            Number(memberId),
          ])
        ).rowCount === 1,
      { message: 'member stored' },
    );

    const second = await open(`/office/?view=groups&eventId=${demo.event.id}&groupId=${group.id}`, LAPTOP);
    await signIn(second.page, adminToken);
    await second.page.locator(`#members [data-member-id="${memberId}"]`).waitFor();
    expect(await second.page.locator(`button[data-add="${memberId}"]`).count()).toBe(0);
  });
});

describe('group and team score entry in the office (point 8)', () => {
  const optionTexts = (page: Page, selector: string) =>
    page.$$eval(`${selector} option`, (options) =>
      (options as HTMLOptionElement[]).filter((option) => option.value !== '').map((option) => option.textContent ?? ''),
    );

  it('enters a group score next to team entry, and the board of that group discipline shows it', async () => {
    const groupCompetition = demo.competitions.find((candidate) => candidate.kind === 'group')!;
    const dance = discipline('Gymnastik & Tanz');
    // A group without a captured score yet.
    const group = demo.groups.find((candidate) => candidate.id !== demo.scores.groupExample.groupId)!;
    const office = await open(`/office/?view=group-scores&eventId=${demo.event.id}`, LAPTOP);
    await office.page.locator('nav a[data-view="group-scores"][aria-current="page"]').waitFor({ state: 'attached' });
    await expect.poll(() => office.page.locator('nav a[data-view="teams"]').count()).toBe(1);
    await signIn(office.page, adminToken);
    await office.page.locator('#group-select option', { hasText: group.name }).waitFor({ state: 'attached' });
    await office.page.selectOption('#group-select', String(group.id));
    expect(await optionTexts(office.page, '#competition-select')).toEqual([expect.stringContaining(groupCompetition.name)]);
    await office.page.selectOption('#competition-select', String(groupCompetition.id));
    expect(await optionTexts(office.page, '#discipline-select')).toEqual(['Gymnastik & Tanz (Gruppe)']);
    await office.page.selectOption('#discipline-select', String(dance.id));
    await office.page.locator('#score-sheet').waitFor();
    const values = ['2,5', '3,4', '1,6', '0,8', '0,1'];
    for (const [index, field] of dance.fields.filter((candidate) => !candidate.isFinal).entries()) {
      await office.page.focus(`#cell-1-${field.id}`);
      await office.page.keyboard.type(values[index]!);
      await office.page.keyboard.press('Tab');
    }
    await office.page.locator('#status-1[data-state="saved"]').waitFor();
    // 2.5 + 3.4 + 1.6 + 0.8 - 0.1 by the discipline's formula, shown by its mask without a leading zero.
    expect(await office.page.textContent('#final-1')).toBe('8.20');
    await saveScreenshot(office.page, 'competition-day-office-group-scores-1366x768');

    const board = await open(`/board/?eventId=${demo.event.id}&disciplineId=${dance.id}&competitionId=${groupCompetition.id}`, LAPTOP);
    const row = board.page.locator('.ranking tbody tr[data-kind="group"]', { hasText: group.name });
    await row.waitFor();
    expect(await row.locator('.score').textContent()).toBe('8.20');
  });

  it('offers a team only the competitions it is entered in and the devices of that competition', async () => {
    const teamCompetition = demo.competitions.find((candidate) => candidate.kind === 'team')!;
    const team = demo.teams[0]!;
    const office = await open(`/office/?view=teams&eventId=${demo.event.id}&teamId=${team.id}`, LAPTOP);
    await office.page.locator('#competition-select:not([disabled])').waitFor();
    expect(await optionTexts(office.page, '#competition-select')).toEqual([expect.stringContaining(teamCompetition.name)]);
    await office.page.selectOption('#competition-select', String(teamCompetition.id));
    const devices = await optionTexts(office.page, '#discipline-select');
    expect(devices.sort()).toEqual(['TeamGym Boden', 'TeamGym Trampolin']);
  });
});

describe('screenshots at 390 px, 1366×768 and 1920×1080', () => {
  it('portal, board and office fit each size, in German and English', async () => {
    const girls = competition(/^P-Stufen weiblich/);
    const vault = discipline('P-Sprung');
    for (const [name, viewport] of [
      ['390', PHONE],
      ['1366x768', LAPTOP],
      ['1920x1080', FULL_HD],
    ] as const) {
      for (const lang of ['en', 'de'] as const) {
        const portal = await open(
          `/jury/?eventId=${demo.event.id}&competitionId=${girls.id}&disciplineId=${vault.id}&lang=${lang}`,
          viewport,
        );
        await portal.page.locator('.participant').first().click();
        await portal.page.locator('#field-A').waitFor();
        expect(await noHorizontalOverflow(portal.page)).toBe(true);
        await saveScreenshot(portal.page, `competition-day-portal-${lang}-${name}`);
        const board = await open(
          `/board/?eventId=${demo.event.id}&disciplineId=${vault.id}&competitionId=${girls.id}&lang=${lang}`,
          viewport,
        );
        await board.page.locator('.ranking tbody tr').first().waitFor();
        expect(await noHorizontalOverflow(board.page)).toBe(true);
        expect(await board.page.locator('.ranking th.score').textContent()).toBe(lang === 'de' ? 'Wertung' : 'Score');
        await saveScreenshot(board.page, `competition-day-board-${lang}-${name}`);
        const team = demo.scores.teamExample;
        const teamCompetition = demo.competitions.find((candidate) => candidate.kind === 'team')!;
        const office = await open(
          `/office/?view=teams&eventId=${demo.event.id}&teamId=${team.teamId}&competitionId=${teamCompetition.id}&disciplineId=${team.disciplineId}&lang=${lang}`,
          viewport,
        );
        await office.page.locator('#final-1', { hasText: /\d/ }).waitFor();
        expect(await noHorizontalOverflow(office.page)).toBe(true);
        await saveScreenshot(office.page, `competition-day-office-${lang}-${name}`);
      }
    }
  });
});
