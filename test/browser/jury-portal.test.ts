/**
 * The jury portal and the scoreboard in Chromium against the real service: a judge scores three
 * participants end to end, a second browser shows each score live in the right rank, and what the
 * database holds afterwards is checked row by row.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { detailRows, juryResultRows } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { PHONE, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { createCompetition } from '../support/fixtures.js';
import { seedCompetitors, seedDevice, type Competitor, type Device } from './support/portal-seed.js';
import {
  boardRow,
  boardRows,
  noHorizontalOverflow,
  participantButton,
  scoreWithKeyboard,
  waitForAck,
  waitForParticipantStatus,
} from './support/portal.js';

let server: TestServer;
let browser: Browser;
let eventId: number;
let floor: Device;
let people: Competitor[];
let portal: OpenedPage;
let board: OpenedPage;

const portalUrl = () => `${server.url}/jury/?eventId=${eventId}&disciplineId=${floor.id}`;
const boardUrl = () => `${server.url}/board/?eventId=${eventId}&disciplineId=${floor.id}`;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const competition = await createCompetition(server.pool, 'Browser Cup');
  eventId = competition.eventId;
  floor = await seedDevice(server.pool, { name: 'Floor', mask: '00.000', formula: 'A + B - C' });
  people = await seedCompetitors(server.pool, competition, [
    ['Anna', 'Adler'],
    ['Ben', 'Berg'],
    ['Clara', 'Copp'],
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('jury portal and scoreboard', () => {
  it('loads the event, the device fields A, B, C and every participant as pending', async () => {
    board = await openPage(browser, boardUrl());
    portal = await openPage(browser, portalUrl());
    for (const person of people) await waitForParticipantStatus(portal.page, person.participantId, 'pending');
    await participantButton(portal.page, people[0]!.participantId).click();
    const labels = await portal.page.$$eval('.field label', (nodes) => nodes.map((node) => node.textContent));
    expect(labels).toEqual(['ADifficulty', 'BExecution', 'CPenalty']);
    await portal.page.locator('.connection[data-status="live"]').waitFor();
    await board.page.locator('.live-indicator[data-status="live"]').waitFor();
    expect(await board.page.locator('.board-message').textContent()).toBe('No scores yet.');
  });

  it('scores three participants with the keyboard; each shows on the scoreboard, in rank', async () => {
    const sheets = [
      { person: people[0]!, typed: ['4.5', '8.2', '0.3'], shown: '12.400', expectedRanks: [['1.', 'Anna Adler', '12.400']] },
      {
        person: people[1]!,
        typed: ['5', '8,6', '.5'],
        shown: '13.100',
        expectedRanks: [
          ['1.', 'Ben Berg', '13.100'],
          ['2.', 'Anna Adler', '12.400'],
        ],
      },
      {
        person: people[2]!,
        typed: ['4', '8.9', '0.5'],
        shown: '12.400',
        expectedRanks: [
          ['1.', 'Ben Berg', '13.100'],
          ['2.', 'Anna Adler', '12.400'],
          ['2.', 'Clara Copp', '12.400'],
        ],
      },
    ];
    for (const sheet of sheets) {
      const name = `${sheet.person.firstName} ${sheet.person.lastName}`;
      await scoreWithKeyboard(portal.page, sheet.person.participantId, sheet.typed);
      // The live final, computed in the browser with the shared formula engine, is what gets saved.
      expect(await portal.page.locator('#final-score').textContent()).toBe(sheet.shown);
      const ack = await waitForAck(portal.page, 'saved', name);
      expect(ack).toContain(sheet.shown);
      expect(ack).toContain('confirmed by the server');
      // How fast the board follows is for `npm run bench`; here it must follow before a generous deadline.
      await boardRow(board.page, sheet.person.participantId).locator('.score', { hasText: sheet.shown }).waitFor({ timeout: 15_000 });
      expect(await boardRow(board.page, sheet.person.participantId).getAttribute('data-changed')).not.toBeNull();
      expect((await boardRows(board.page)).map((row) => [row.rank, row.name, row.score])).toEqual(sheet.expectedRanks);
      await waitForParticipantStatus(portal.page, sheet.person.participantId, 'completed');
      expect(await participantButton(portal.page, sheet.person.participantId).locator('.status-text').textContent()).toBe(sheet.shown);
    }
    // Blur normalisation by the mask 00.000 happened on the way (Tab left each field).
    expect(await portal.page.inputValue('#field-A')).toBe('04.000');
    expect(await portal.page.inputValue('#field-C')).toBe('00.500');
  });

  it('stored jury results for A, B, C and the final field, and one detail value per participant', async () => {
    const expected = [
      [4.5, 8.2, 0.3, 12.4],
      [5, 8.6, 0.5, 13.1],
      [4, 8.9, 0.5, 12.4],
    ];
    for (const [index, person] of people.entries()) {
      const rows = await juryResultRows(server.pool, person.scoreId);
      const byField = new Map(rows.map((row) => [row.fieldId, row]));
      const [a, b, c, final] = expected[index]!;
      expect(rows).toHaveLength(4);
      expect(byField.get(floor.fields.A)?.value).toBeCloseTo(a!, 5);
      expect(byField.get(floor.fields.B)?.value).toBeCloseTo(b!, 5);
      expect(byField.get(floor.fields.C)?.value).toBeCloseTo(c!, 5);
      expect(byField.get(floor.fields.final)?.value).toBeCloseTo(final!, 5);
      expect(rows.every((row) => row.attempt === 1 && row.kind === 0)).toBe(true);
      const details = await detailRows(server.pool, person.scoreId);
      expect(details).toHaveLength(1);
      expect(details[0]!.disciplineId).toBe(floor.id);
      expect(details[0]!.value).toBeCloseTo(final!, 5);
    }
    const { rows } = await server.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${t.wertungen} WHERE int_teilnehmerid = ANY($1::int[])`,
      [people.map((person) => person.participantId)],
    );
    expect(rows[0]!.count).toBe(3);
  });

  it('moves Tab from A to B to C to save', async () => {
    await participantButton(portal.page, people[0]!.participantId).click();
    await portal.page.focus('#field-A');
    const order = [await portal.page.evaluate(() => document.activeElement?.id)];
    for (let step = 0; step < 3; step++) {
      await portal.page.keyboard.press('Tab');
      order.push(await portal.page.evaluate(() => document.activeElement?.id));
    }
    expect(order).toEqual(['field-A', 'field-B', 'field-C', 'save-button']);
  });

  it('marks a participant completed from a live event without touching what the judge is typing', async () => {
    const typing = people[2]!;
    const other = people[0]!;
    await participantButton(portal.page, typing.participantId).click();
    await waitFor(async () => (await portal.page.inputValue('#field-A')) === '04.000', { message: 'pre-filled A' });
    await portal.page.fill('#field-A', '7');
    // Another judge (here: a direct API call) saves a new final score for a different participant.
    const response = await fetch(`${server.url}/api/scores/save-value`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        competitionId: await competitionOf(other.scoreId),
        participantId: other.scoreId,
        disciplineId: floor.id,
        score: 11,
      }),
    });
    expect(response.status).toBe(200);
    await participantButton(portal.page, other.participantId).locator('.status-text', { hasText: '11.000' }).waitFor({ timeout: 15_000 });
    expect(await portal.page.inputValue('#field-A')).toBe('7');
    expect(await portal.page.inputValue('#field-B')).toBe('08.900');
    // The scoreboard re-ranks: Anna drops from a shared second place to third.
    await boardRow(board.page, other.participantId).locator('.score', { hasText: '11.000' }).waitFor({ timeout: 15_000 });
    expect((await boardRows(board.page)).map((row) => [row.rank, row.name])).toEqual([
      ['1.', 'Ben Berg'],
      ['2.', 'Clara Copp'],
      ['3.', 'Anna Adler'],
    ]);
  });

  it('pre-fills saved values after a reload and recomputes the final on the client', async () => {
    await portal.page.reload();
    await waitForParticipantStatus(portal.page, people[1]!.participantId, 'completed');
    await participantButton(portal.page, people[1]!.participantId).click();
    await waitFor(async () => (await portal.page.inputValue('#field-A')) === '05.000', { message: 'pre-filled A after reload' });
    expect(await portal.page.inputValue('#field-B')).toBe('08.600');
    expect(await portal.page.inputValue('#field-C')).toBe('00.500');
    expect(await portal.page.locator('#final-score').textContent()).toBe('13.100');
  });

  it('logs to the console when the final jury result differs from the detail score', async () => {
    const checker = await openPage(browser, portalUrl());
    await checker.page.route('**/api/jury-results?*', async (route) => {
      const original = await route.fetch();
      const body = (await original.json()) as { results: Array<{ isFinalScore: boolean; performance: number }> };
      for (const result of body.results) if (result.isFinalScore) result.performance += 1;
      await route.fulfill({ response: original, json: body });
    });
    await waitForParticipantStatus(checker.page, people[1]!.participantId, 'completed');
    await participantButton(checker.page, people[1]!.participantId).click();
    await waitFor(() => checker.console.some((line) => line.startsWith('warning:') && line.includes('differs from the detail score')), {
      message: 'mismatch warning',
    });
    // The mismatch is only reported: the inputs still show the saved field values.
    expect(await checker.page.inputValue('#field-A')).toBe('05.000');
    expect(checker.errors).toEqual([]);
    await checker.context.close();
  });

  it('shows frontend and backend build badges with a tooltip, a placeholder while loading and an error text', async () => {
    const version = (await (await fetch(`${server.url}/api/system/version`)).json()) as { build: { gitHash: string; gitBranch: string } };
    const frontend = portal.page.locator('[data-badge="frontend"]');
    const backend = portal.page.locator('[data-badge="backend"][data-state="ready"]');
    await backend.waitFor();
    expect(await backend.textContent()).toBe(`Backend ${version.build.gitHash}`);
    const frontendTitle = (await frontend.getAttribute('title')) ?? '';
    expect(frontendTitle).toMatch(/Hash: \S+/);
    expect(frontendTitle).toContain('Branch: ');
    expect(frontendTitle).toContain('Built: ');
    expect(await backend.getAttribute('title')).toContain(`Branch: ${version.build.gitBranch}`);
    // One build of client and server: the hashes agree (spec "Versioning" 3).
    expect(await frontend.textContent()).toBe(`Frontend ${version.build.gitHash}`);

    const slow = await openPage(browser, 'about:blank');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await slow.page.route('**/api/system/version', async (route) => {
      await held;
      await route.continue();
    });
    // The badges are the portal's and the office's; a projected board shows none.
    await slow.page.goto(portalUrl());
    const placeholder = slow.page.locator('[data-badge="backend"][data-state="loading"]');
    await placeholder.waitFor();
    expect(await placeholder.textContent()).toBe('Backend …');
    release();
    await slow.page.locator('[data-badge="backend"][data-state="ready"]').waitFor();

    await slow.page.unroute('**/api/system/version');
    await slow.page.route('**/api/system/version', (route) =>
      route.fulfill({ status: 503, json: { statusCode: 503, error: 'Service Unavailable', code: 'UNAVAILABLE', message: 'down' } }),
    );
    await slow.page.reload();
    const failed = slow.page.locator('[data-badge="backend"][data-state="error"]');
    await failed.waitFor();
    expect(await failed.textContent()).toBe('Backend version unavailable');
    await slow.context.close();
  });

  it('fits a 360 px phone and a 1280 px desktop (screenshots in test-artifacts/)', async () => {
    await participantButton(portal.page, people[1]!.participantId).click();
    await saveScreenshot(portal.page, 'jury-portal-1280');
    await saveScreenshot(board.page, 'scoreboard-1280');
    expect(await noHorizontalOverflow(portal.page)).toBe(true);
    expect(await noHorizontalOverflow(board.page)).toBe(true);

    const phonePortal = await openPage(browser, portalUrl(), PHONE);
    await waitForParticipantStatus(phonePortal.page, people[1]!.participantId, 'completed');
    await participantButton(phonePortal.page, people[1]!.participantId).click();
    await waitFor(async () => (await phonePortal.page.inputValue('#field-A')) === '05.000', { message: 'phone pre-fill' });
    await phonePortal.page.locator('[data-badge="backend"][data-state="ready"]').waitFor();
    expect(await noHorizontalOverflow(phonePortal.page)).toBe(true);
    const saveBox = await phonePortal.page.locator('#save-button').boundingBox();
    expect(saveBox!.x).toBeGreaterThanOrEqual(0);
    expect(saveBox!.x + saveBox!.width).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(phonePortal.page, 'jury-portal-360');

    const phoneBoard = await openPage(browser, boardUrl(), PHONE);
    await phoneBoard.page.locator('.ranking tbody tr').first().waitFor();
    expect(await noHorizontalOverflow(phoneBoard.page)).toBe(true);
    await saveScreenshot(phoneBoard.page, 'scoreboard-360');
    expect([...phonePortal.errors, ...phoneBoard.errors, ...portal.errors, ...board.errors]).toEqual([]);
    await phonePortal.context.close();
    await phoneBoard.context.close();
  });
});

async function competitionOf(scoreId: number): Promise<number> {
  const { rows } = await server.pool.query<{ id: number }>(
    `SELECT int_wettkaempfeid AS id FROM ${t.wertungen} WHERE int_wertungenid = $1`,
    [scoreId],
  );
  return rows[0]!.id;
}
