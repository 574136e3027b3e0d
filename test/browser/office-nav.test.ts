/**
 * The office's navigation in Chromium: the pages grouped by the phase of a competition day, one
 * row of group buttons on the office laptop and the hall's full-HD screen, every page reachable by
 * mouse and by keyboard without a reload, `aria-current` on the shown page and the marker on its
 * group, and on a phone a row that fits the screen with menus that stay inside it.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_HD, LAPTOP, openPage, PHONE_390, saveScreenshot, type OpenedPage, type Viewport } from './support/browser.js';
import { useDemoEvent } from './support/demo.js';
import { openOfficeView } from './support/office.js';

const demoEvent = useDemoEvent();
const opened: OpenedPage[] = [];
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
});

async function open(view: string, viewport: Viewport, lang = 'en'): Promise<Page> {
  const office = await openPage(
    demoEvent.browser,
    `${demoEvent.server.url}/office/?view=${view}&eventId=${demoEvent.demo.event.id}&lang=${lang}`,
    viewport,
  );
  opened.push(office);
  await office.page.locator(`nav a[data-view="${view}"][aria-current="page"]`).waitFor({ state: 'attached' });
  return office.page;
}

/** The top row: one button per group, or the link of a group of one page. */
const topControls = (page: Page) => page.locator('nav.office-nav .nav-groups > li > .nav-top');

/** Each page of the navigation with the index of its group in the row and its place in the group's menu. */
async function navPages(page: Page): Promise<Array<{ view: string; group: number; index: number }>> {
  return page.$$eval('nav.office-nav .nav-groups > li', (groups) =>
    groups.flatMap((group, groupIndex) =>
      Array.from(group.querySelectorAll('a[data-view]')).map((link, index) => ({
        view: link.getAttribute('data-view')!,
        group: groupIndex,
        index,
      })),
    ),
  );
}

/** The row's height and the distinct tops of its controls: one row has one top. */
async function rowShape(page: Page): Promise<{ height: number; tops: number[] }> {
  const box = await page.locator('nav.office-nav').boundingBox();
  const tops = await topControls(page).evaluateAll((controls) =>
    controls.map((control) => Math.round(control.getBoundingClientRect().top)),
  );
  return { height: box!.height, tops: [...new Set(tops)] };
}

/** Waits until the page shows `view` by the address, the marked link and the marked group, with every menu closed. */
async function expectShown(page: Page, view: string): Promise<void> {
  await page.waitForURL((url) => url.searchParams.get('view') === view);
  const current = page.locator('nav a[aria-current="page"]');
  await expect.poll(() => current.evaluateAll((links) => links.map((link) => link.getAttribute('data-view')))).toEqual([view]);
  // The marker: the accent line under the group (the accent of web/shared/base.css).
  const marked = await page.$$eval('nav.office-nav .nav-groups > li', (groups) =>
    groups
      .filter((group) => getComputedStyle(group.querySelector('.nav-top')!).borderBottomColor === 'rgb(11, 92, 213)')
      .map((group) => Array.from(group.querySelectorAll('a[data-view]')).map((link) => link.getAttribute('data-view'))),
  );
  expect(marked).toHaveLength(1);
  expect(marked[0]).toContain(view);
  expect(await page.locator('nav [aria-expanded="true"]').count()).toBe(0);
  expect(await page.locator('nav .nav-menu:visible').count()).toBe(0);
}

const focusedView = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-view') ?? document.activeElement?.textContent);

/** Marks the window, so a full page load (which forgets the mark) shows in `stillSamePage`. */
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { officeNavMark: boolean }).officeNavMark = true));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { officeNavMark?: boolean }).officeNavMark === true);

async function clickOpen(page: Page, group: Locator): Promise<void> {
  await group.click();
  expect(await group.getAttribute('aria-expanded')).toBe('true');
}

describe('office navigation by the phases of a competition day', () => {
  for (const [name, viewport] of [
    ['1366', LAPTOP],
    ['1920', FULL_HD],
  ] as const) {
    it(`is one row of five groups at ${name} px, in English and in German`, async () => {
      for (const lang of ['en', 'de']) {
        const page = await open('console', viewport, lang);
        expect(await topControls(page).allTextContents()).toEqual(
          lang === 'en'
            ? ['Preparation', 'Competition', 'Print', 'Results', 'Network']
            : ['Vorbereitung', 'Wettkampf', 'Drucken', 'Ergebnisse', 'Netzwerk'],
        );
        const shape = await rowShape(page);
        expect(shape.tops).toHaveLength(1);
        expect(shape.height).toBeLessThan(60);
        await clickOpen(page, page.locator('nav button', { hasText: lang === 'en' ? 'Competition' : 'Wettkampf' }));
        await saveScreenshot(page, `office-nav-${lang}-${viewport.width}x${viewport.height}`);
      }
    });
  }

  it('reaches every page by mouse, in place and marked', async () => {
    const page = await open('squads', LAPTOP);
    const pages = await navPages(page);
    expect(pages.map((entry) => entry.view).sort()).toEqual(
      [
        'participants',
        'squads',
        'groups',
        'rotations',
        'panels',
        'credentials',
        'console',
        'board',
        'teams',
        'group-scores',
        'inquiry',
        'inquiries',
        'startlists',
        'sheets',
        'results',
        'judges-evaluation',
        'network',
      ].sort(),
    );
    await markWindow(page);
    for (const { view } of pages) {
      expect(await page.locator(`nav a[data-view="${view}"]`).getAttribute('href')).toBe(
        `?view=${view}&eventId=${demoEvent.demo.event.id}`,
      );
      await openOfficeView(page, view);
      await expectShown(page, view);
    }
    expect(await stillSamePage(page)).toBe(true);
    // A click elsewhere closes an open menu.
    await clickOpen(page, page.locator('nav button', { hasText: 'Print' }));
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => page.locator('nav .nav-menu:visible').count()).toBe(0);
  });

  it('reaches every page by keyboard: arrows along the row and the menu, Enter, Escape and Tab', async () => {
    const page = await open('squads', LAPTOP);
    const pages = await navPages(page);
    await markWindow(page);
    await topControls(page).first().focus();
    for (const { view, group, index } of pages) {
      await page.keyboard.press('Home');
      for (let step = 0; step < group; step += 1) await page.keyboard.press('ArrowRight');
      const control = topControls(page).nth(group);
      expect(await control.evaluate((element) => element === document.activeElement)).toBe(true);
      if ((await control.evaluate((element) => element.tagName)) === 'BUTTON') {
        await page.keyboard.press('Enter');
        expect(await control.getAttribute('aria-expanded')).toBe('true');
        await page.keyboard.press('ArrowDown');
        for (let step = 0; step < index; step += 1) await page.keyboard.press('ArrowDown');
      }
      expect(await focusedView(page)).toBe(view);
      await page.keyboard.press('Enter');
      await expectShown(page, view);
      // The keyboard stays in the row, on the group of the page it opened.
      expect(await control.evaluate((element) => element === document.activeElement)).toBe(true);
    }
    expect(await stillSamePage(page)).toBe(true);

    // Space opens, Escape closes and leaves the focus on the button; Tab walks into the open menu.
    const prepare = topControls(page).first();
    await page.keyboard.press('Home');
    await page.keyboard.press('Space');
    expect(await prepare.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await focusedView(page)).toBe('participants');
    await page.keyboard.press('ArrowUp');
    expect(await focusedView(page)).toBe('credentials');
    await page.keyboard.press('Escape');
    expect(await prepare.getAttribute('aria-expanded')).toBe('false');
    expect(await prepare.evaluate((element) => element === document.activeElement)).toBe(true);
    // Tabbing past the last link of an open menu closes it.
    await page.keyboard.press('Enter');
    for (let step = 0; step < 7; step += 1) await page.keyboard.press('Tab');
    expect(await prepare.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedView(page)).toBe('Competition');
  });

  it('fits a 390 px phone: one row, menus inside the screen, no sideways scrolling of the page', async () => {
    for (const lang of ['en', 'de']) {
      const page = await open('judges-evaluation', PHONE_390, lang);
      expect((await rowShape(page)).tops).toHaveLength(1);
      const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await pageWidth()).toBe(390);
      // English fits the screen; the longer German labels scroll sideways within the row.
      const rowOverflow = await page.$eval('.nav-groups', (row) => row.scrollWidth > row.clientWidth);
      expect(rowOverflow).toBe(lang === 'de');
      // The group of the shown page is in sight.
      const results = await topControls(page).nth(3).boundingBox();
      expect(results!.x).toBeGreaterThanOrEqual(0);
      expect(results!.x + results!.width).toBeLessThanOrEqual(390);
      for (const [group, view] of [
        [1, 'inquiry'],
        [3, 'results'],
        [0, 'participants'],
      ] as const) {
        await clickOpen(page, topControls(page).nth(group));
        const menu = await page.locator('nav .nav-menu:visible').boundingBox();
        expect(menu!.x).toBeGreaterThanOrEqual(0);
        expect(menu!.x + menu!.width).toBeLessThanOrEqual(390);
        expect(await pageWidth()).toBe(390);
        if (group === 1) await saveScreenshot(page, `office-nav-${lang}-390x844`);
        await page.locator(`nav a[data-view="${view}"]`).click();
        await expectShown(page, view);
      }
      await topControls(page).nth(4).click();
      await expectShown(page, 'network');
      expect(await pageWidth()).toBe(390);
    }
  });
});
