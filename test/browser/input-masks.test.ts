/**
 * Input mask rules 7-9 in the jury portal: values are normalised when a field loses focus, never
 * while typing, for decimal, comma and time masks and for a discipline with only a decimal count.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { detailRows, juryResultRows } from '../support/fixtures.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { LAPTOP, PHONE_390, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { createCompetition } from '../support/fixtures.js';
import { seedCompetitors, seedDevice, type Competitor, type Device } from './support/portal-seed.js';
import { participantButton, waitForAck, waitForParticipantStatus } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let portal: OpenedPage;
let judge: Competitor;
const devices: Record<'decimal' | 'comma' | 'time' | 'decimals', Device> = {} as never;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const competition = await createCompetition(server.pool, 'Mask Meet');
  devices.decimal = await seedDevice(server.pool, { name: 'Decimal mask', mask: '00.00' });
  devices.comma = await seedDevice(server.pool, { name: 'Comma mask', mask: '0,00' });
  devices.time = await seedDevice(server.pool, { name: 'Time mask', mask: '0:00.00', formula: 'A + B + C' });
  devices.decimals = await seedDevice(server.pool, { name: 'Two decimals', mask: null, decimals: 2 });
  [judge] = (await seedCompetitors(server.pool, competition, [['Greta', 'Gross']])) as [Competitor];
  portal = await openPage(browser, `${server.url}/jury/?eventId=${competition.eventId}&disciplineId=${devices.decimal.id}`);
  await waitForParticipantStatus(portal.page, judge.participantId, 'pending');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function showDevice(page: Page, device: Device): Promise<void> {
  await page.selectOption('#device-select', String(device.id));
  await waitForParticipantStatus(page, judge.participantId, 'pending');
  await participantButton(page, judge.participantId).click();
  await page.locator('#field-A').waitFor();
}

/** Types into a field and checks the text stays as typed until the field is left. */
async function typeThenBlur(page: Page, field: string, typed: string): Promise<string> {
  await page.fill(field, '');
  await page.focus(field);
  await page.keyboard.type(typed);
  expect(await page.inputValue(field)).toBe(typed);
  await page.keyboard.press('Tab');
  return page.inputValue(field);
}

describe('blur normalisation by the input mask', () => {
  it('decimal mask 00.00 pads and rounds on blur, and flags text that is no number', async () => {
    await showDevice(portal.page, devices.decimal);
    expect(await typeThenBlur(portal.page, '#field-A', '5')).toBe('05.00');
    expect(await typeThenBlur(portal.page, '#field-A', '7,255')).toBe('07.26');
    expect(await typeThenBlur(portal.page, '#field-B', 'x1')).toBe('x1');
    expect(await portal.page.getAttribute('#field-B', 'aria-invalid')).toBe('true');
    expect(await portal.page.locator('#field-B-error').textContent()).toContain('is not a valid value');
    expect(await typeThenBlur(portal.page, '#field-B', '9.5')).toBe('09.50');
    expect(await portal.page.getAttribute('#field-B', 'aria-invalid')).toBeNull();
  });

  it('comma mask 0,00 writes a comma whichever separator was typed, and saves the number', async () => {
    await showDevice(portal.page, devices.comma);
    expect(await typeThenBlur(portal.page, '#field-A', '5')).toBe('5,00');
    expect(await typeThenBlur(portal.page, '#field-A', '5.5')).toBe('5,50');
    expect(await typeThenBlur(portal.page, '#field-B', '8,5')).toBe('8,50');
    expect(await typeThenBlur(portal.page, '#field-C', '0,75')).toBe('0,75');
    expect(await portal.page.locator('#final-score').textContent()).toBe('13.25');
    await portal.page.keyboard.press('Enter');
    // Messages show numbers with the page language's separator (English here), inputs keep the mask's.
    await waitForAck(portal.page, 'saved', '13.25');
    await waitFor(async () => (await detailRows(server.pool, judge.scoreId)).some((row) => row.disciplineId === devices.comma.id), {
      message: 'comma detail row',
    });
    const detail = (await detailRows(server.pool, judge.scoreId)).find((row) => row.disciplineId === devices.comma.id);
    expect(detail!.value).toBeCloseTo(13.25, 5);
  });

  it('time mask 0:00.00 turns seconds and typed time notation into minutes:seconds', async () => {
    await showDevice(portal.page, devices.time);
    expect(await typeThenBlur(portal.page, '#field-A', '65.5')).toBe('1:05.50');
    expect(await typeThenBlur(portal.page, '#field-A', '1:5.5')).toBe('1:05.50');
    expect(await typeThenBlur(portal.page, '#field-B', '75')).toBe('1:15.00');
    expect(await typeThenBlur(portal.page, '#field-C', '0:09.5')).toBe('0:09.50');
    expect(await portal.page.locator('#final-score').textContent()).toBe('2:30.00');
  });

  it('a discipline with only a decimal count (2) pads by it', async () => {
    await showDevice(portal.page, devices.decimals);
    expect(await typeThenBlur(portal.page, '#field-A', '5')).toBe('5.00');
    expect(await typeThenBlur(portal.page, '#field-B', '8,125')).toBe('8.13');
    expect(portal.errors).toEqual([]);
  });
});

describe('German portal: inputs read like the finals', () => {
  it('shows 3,800 in the field (not 03.800), accepts either separator, saves 3.8, and shows the stored value so again', async () => {
    const competition = await createCompetition(server.pool, 'Gaumeisterschaft');
    const device = await seedDevice(server.pool, { name: 'Sprung', mask: '00.000' });
    const [gymnast] = (await seedCompetitors(server.pool, competition, [['Lena', 'Kurz']])) as [Competitor];
    const german = await openPage(browser, `${server.url}/jury/?eventId=${competition.eventId}&disciplineId=${device.id}`, PHONE_390, {
      locale: 'de-DE',
    });
    const { page } = german;
    await waitForParticipantStatus(page, gymnast.participantId, 'pending');
    await participantButton(page, gymnast.participantId).click();
    await page.locator('#field-A').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getAttribute('#field-A', 'placeholder')).toBe('9,500');
    expect(await typeThenBlur(page, '#field-A', '3.8')).toBe('3,800');
    expect(await typeThenBlur(page, '#field-A', '3,8')).toBe('3,800');
    expect(await typeThenBlur(page, '#field-B', '9,15')).toBe('9,150');
    expect(await typeThenBlur(page, '#field-C', '0.3')).toBe('0,300');
    expect(await page.locator('#final-score').textContent()).toBe('12,650');
    await saveScreenshot(page, 'portal-german-inputs-390');
    await page.keyboard.press('Enter');
    await waitForAck(page, 'saved', '12,650');
    await waitFor(async () => (await juryResultRows(server.pool, gymnast.scoreId)).length === 4, { message: 'four jury results' });
    const stored = new Map((await juryResultRows(server.pool, gymnast.scoreId)).map((row) => [row.fieldId, row.value]));
    expect(stored.get(device.fields.A)).toBeCloseTo(3.8, 5);
    expect(stored.get(device.fields.final)).toBeCloseTo(12.65, 5);
    // Opened again, the stored values come back in the same notation.
    await page.reload();
    await waitForParticipantStatus(page, gymnast.participantId, 'completed');
    await participantButton(page, gymnast.participantId).click();
    await page.locator('#field-A').waitFor();
    await expect.poll(() => page.inputValue('#field-A')).toBe('3,800');
    expect(await page.inputValue('#field-C')).toBe('0,300');
    await page.setViewportSize(LAPTOP);
    await saveScreenshot(page, 'portal-german-inputs-1366');
    expect(german.errors).toEqual([]);
    await german.context.close();
  });
});

describe('client setting useJuryResults', () => {
  it('off: the portal takes the final score only and saves it as the single detail value', async () => {
    // Runs last in this file: the setting is global to the database.
    await server.pool.query(
      `INSERT INTO ${t.svc_settings} (key, value) VALUES ('scoreCapture', '{"useJuryResults": false}') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
    await portal.page.reload();
    await showDeviceFinalOnly(portal.page, devices.decimal);
    expect(await portal.page.locator('.field input').count()).toBe(1);
    expect(await typeThenBlur(portal.page, '#field-final', '9,5')).toBe('09.50');
    expect(await portal.page.evaluate(() => document.activeElement?.id)).toBe('save-button');
    await portal.page.keyboard.press('Enter');
    await waitForAck(portal.page, 'saved', '9.50');
    const detail = (await detailRows(server.pool, judge.scoreId)).find((row) => row.disciplineId === devices.decimal.id);
    expect(detail!.value).toBeCloseTo(9.5, 5);
    const fieldIds = Object.values(devices.decimal.fields);
    const { rows } = await server.pool.query(
      `SELECT 1 FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid <> $2 AND int_disziplinen_felderid = ANY($3::int[])`,
      [judge.scoreId, devices.decimal.fields.final, fieldIds],
    );
    // Only save-value ran: it keeps the final field's jury result in step, but no field values were sent.
    expect(rows).toHaveLength(0);
  });
});

async function showDeviceFinalOnly(page: Page, device: Device): Promise<void> {
  await page.selectOption('#device-select', String(device.id));
  await participantButton(page, judge.participantId).click();
  await page.locator('#field-final').waitFor();
}
