/**
 * Issue 44, item 4: the board made for the projector. On the demo event's 28 P-level girls the rows
 * fill the height (at least 12 at 1920×1080 and 9 at 1366×768), no row is cut at the bottom, the
 * provisional mark has a legend in the page's language, and neither the language switch nor the
 * build badges are shown. The all-around board at 1366×768 does not cut its last row either.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../support/http.js';
import { FULL_HD, LAPTOP, openPage, saveScreenshot, type Viewport } from './support/browser.js';
import { useDemoEvent } from './support/demo.js';

const context = useDemoEvent();

/** The rows on the current page: how many, and whether the last one ends above the legend and the window's bottom. */
async function visibleRows(page: Page): Promise<{ count: number; lastBottom: number; limit: number; legendBottom: number | null }> {
  return page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('.ranking tbody tr')).filter((row) => !row.hidden);
    const legend = document.querySelector<HTMLElement>('.legend:not(:empty)');
    return {
      count: rows.length,
      lastBottom: rows.at(-1)?.getBoundingClientRect().bottom ?? 0,
      limit: legend ? legend.getBoundingClientRect().top : window.innerHeight,
      legendBottom: legend ? legend.getBoundingClientRect().bottom : null,
    };
  });
}

async function openBoard(query: string, viewport: Viewport) {
  const { demo, server, browser } = context;
  const opened = await openPage(browser, `${server.url}/board/?eventId=${demo.event.id}&${query}`, viewport);
  await opened.page.locator('.ranking tbody tr').first().waitFor();
  // The pager has measured once "page n of m" is shown.
  await opened.page.locator('.page-info:not(:empty)').waitFor();
  return opened;
}

const girls = () => context.demo.competitions.find((competition) => /^P-Stufen weiblich/.test(competition.name))!;
const vault = () => context.demo.disciplines.find((discipline) => discipline.name === 'P-Sprung')!;

beforeAll(async () => {
  // Every girl gets a vault score, as a jury portal saves it: 28 rows, more than a screen holds.
  const { server, demo } = context;
  const scores = await getJson(`${server.url}/api/scores?eventId=${demo.event.id}&competitionId=${girls().id}&limit=1000`);
  const rows = (scores.body.results as Array<{ id: number; disciplineId: number | null; score: number | null }>).filter(
    (row) => row.disciplineId === vault().id && row.score === null,
  );
  for (const [index, row] of rows.entries()) {
    const saved = await postJson(`${server.url}/api/scores/save-value`, {
      competitionId: girls().id,
      participantId: row.id,
      disciplineId: vault().id,
      score: 9 + (index % 10) / 10,
    });
    expect(saved.status).toBe(200);
  }
});

describe('the projector board', () => {
  it.each([
    ['1920x1080', FULL_HD, 12],
    ['1366x768', LAPTOP, 9],
  ] as const)('at %s fills the height with at least the rows a hall needs, none cut', async (size, viewport, minimum) => {
    const board = await openBoard(`competitionId=${girls().id}&disciplineId=${vault().id}&lang=de`, viewport);
    const shown = await visibleRows(board.page);
    expect(shown.count).toBeGreaterThanOrEqual(minimum);
    expect(shown.lastBottom).toBeLessThanOrEqual(shown.limit);
    expect(shown.legendBottom).not.toBeNull();
    expect(shown.legendBottom!).toBeLessThanOrEqual(viewport.height);
    // The provisional mark is explained, in German as the address asks.
    expect(await board.page.locator('.score[data-provisional="true"]').count()).toBeGreaterThan(0);
    expect(await board.page.textContent('#board-legend')).toBe('* vorläufig: noch nicht vom Oberkampfrichter freigegeben');
    // Nothing to click and no build information on a projected page.
    expect(await board.page.locator('.lang-switch, [data-badge], button, select, input').count()).toBe(0);
    await saveScreenshot(board.page, `board-projector-${size}`);
    expect(board.errors).toEqual([]);
    await board.context.close();
  });

  it('the all-around board at 1366x768 shows whole rows only', async () => {
    const board = await openBoard(`competitionId=${girls().id}&view=all-around&groupBy=ageClass`, LAPTOP);
    const shown = await visibleRows(board.page);
    expect(shown.count).toBeGreaterThanOrEqual(6);
    expect(shown.lastBottom).toBeLessThanOrEqual(shown.limit);
    await saveScreenshot(board.page, 'board-projector-all-around-1366x768');
    await board.context.close();
  });
});

describe('the board setup screen in the office', () => {
  it("offers the competition's devices only and gives the address and its QR code, which open that board", async () => {
    const { demo, server, browser } = context;
    const office = await openPage(browser, `${server.url}/office/?view=board&eventId=${demo.event.id}&lang=en`, LAPTOP);
    await office.page.locator(`#board-competition option[value="${girls().id}"]`).waitFor({ state: 'attached' });
    await office.page.selectOption('#board-competition', String(girls().id));
    await office.page.locator('#board-devices input').first().waitFor();
    const own = await office.page.$$eval('#board-devices input', (boxes) => boxes.map((box) => Number((box as HTMLInputElement).value)));
    expect(new Set(own)).toEqual(new Set(demo.competitions.find((competition) => competition.id === girls().id)!.disciplineIds));
    expect(own.length).toBeLessThan(demo.disciplines.length);

    const first = own[0]!;
    const url = () => office.page.textContent('#board-url');
    expect(await url()).toBe(`${server.url}/board/?eventId=${demo.event.id}&competitionId=${girls().id}&disciplineId=${first}&lang=en`);
    await office.page.check(`#board-device-${own[1]}`);
    await office.page.fill('#board-pace', '5');
    await office.page.check('#board-released-only');
    await office.page.selectOption('#board-lang', 'de');
    const rotating = `${server.url}/board/?eventId=${demo.event.id}&competitionId=${girls().id}&rotate=${first}%2C${own[1]}&released=only&pace=5&lang=de`;
    expect(await url()).toBe(rotating);
    expect(await office.page.getAttribute('#board-qr svg', 'data-qr-text')).toBe(rotating);
    expect(await office.page.getAttribute('#board-open', 'href')).toBe(rotating);

    await office.page.selectOption('#board-view', 'all-around');
    await office.page.check('#board-age-classes');
    expect(await url()).toBe(
      `${server.url}/board/?eventId=${demo.event.id}&competitionId=${girls().id}&view=all-around&groupBy=ageClass&pace=5&lang=de`,
    );
    await saveScreenshot(office.page, 'office-board-setup-1366x768');
    expect(office.errors).toEqual([]);

    // Nothing is released yet: the first of the two boards says so, in German.
    const board = await openPage(browser, rotating, FULL_HD);
    await board.page.locator('.board-message', { hasText: 'Noch keine Wertungen.' }).waitFor();
    expect(await board.page.getAttribute('body', 'data-rotation')).toBe('1/2');
    await office.context.close();
    await board.context.close();
  });
});

describe("the board's own picker", () => {
  it("offers a chosen competition's devices only", async () => {
    const { demo, server, browser } = context;
    const picker = await openPage(browser, `${server.url}/board/?lang=en`, LAPTOP);
    await picker.page.locator(`#board-competition option[value="${girls().id}"]`).waitFor({ state: 'attached' });
    expect(await picker.page.locator('#board-discipline option').count()).toBe(demo.disciplines.length);
    await picker.page.selectOption('#board-competition', String(girls().id));
    const own = demo.competitions.find((competition) => competition.id === girls().id)!.disciplineIds;
    await expect.poll(() => picker.page.locator('#board-discipline option').count()).toBe(own.length);
    const offered = await picker.page.$$eval('#board-discipline option', (options) =>
      options.map((option) => Number((option as HTMLOptionElement).value)),
    );
    expect(new Set(offered)).toEqual(new Set(own));
    await picker.context.close();
  });
});
