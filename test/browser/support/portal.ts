/** What a judge does in the jury portal, as playwright steps, and what the pages show. */
import type { Page } from 'playwright-core';

export const participantButton = (page: Page, participantId: number) =>
  page.locator(`.participant[data-participant-id="${participantId}"]`);

export async function waitForParticipantStatus(
  page: Page,
  participantId: number,
  status: 'pending' | 'completed' | 'waiting' | 'error',
  timeout = 10_000,
): Promise<void> {
  await page.locator(`.participant[data-participant-id="${participantId}"][data-status="${status}"]`).waitFor({ timeout });
}

/**
 * Picks the participant, then types each value and leaves the field with Tab, as a judge with
 * only a keyboard does (Tab A → B → C → save); Enter on the focused save button saves.
 */
export async function scoreWithKeyboard(page: Page, participantId: number, values: readonly string[]): Promise<void> {
  await participantButton(page, participantId).click();
  await page.locator('#field-A').waitFor();
  await page.focus('#field-A');
  for (const value of values) {
    await page.keyboard.press('Control+A');
    await page.keyboard.type(value);
    await page.keyboard.press('Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.id);
  if (focused !== 'save-button') throw new Error(`after the last field, Tab reached #${focused ?? 'nothing'} instead of the save button`);
  await page.keyboard.press('Enter');
}

export async function waitForAck(page: Page, state: 'saved' | 'waiting' | 'error', containing: string, timeout = 10_000): Promise<string> {
  const ack = page.locator(`.ack[data-state="${state}"]`, { hasText: containing });
  await ack.waitFor({ timeout });
  return (await ack.textContent()) ?? '';
}

export const boardRow = (page: Page, participantId: number) => page.locator(`.ranking tbody tr[data-participant-id="${participantId}"]`);

/** Rows of the scoreboard as shown: rank, name and score text, top to bottom. */
export function boardRows(page: Page): Promise<Array<{ rank: string; name: string; score: string }>> {
  return page.$$eval('.ranking tbody tr', (rows) =>
    rows.map((row) => ({
      rank: row.querySelector('.rank')?.textContent ?? '',
      name: row.querySelector('.name')?.textContent ?? '',
      score: row.querySelector('.score')?.textContent ?? '',
    })),
  );
}

export async function noHorizontalOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Whether the element is wholly inside the window's width (not cut at either side). */
export async function insideWindowWidth(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const width = await page.evaluate(() => window.innerWidth);
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}
