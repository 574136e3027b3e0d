/**
 * The bare address people type or scan: the root page in the browser's language with the pages'
 * look (a styled header and cards, not a bare list), its icon, and the favicon a browser asks for.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { LAPTOP, PHONE_390, launchBrowser, openPage, saveScreenshot } from './support/browser.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('root page', () => {
  it.each([
    ['de-DE', 'de', ['Kampfrichter-Portal', 'Anzeigetafel', 'Wettkampfbüro', 'Live-Ergebnisse', 'API-Dokumentation'], 'English'],
    ['en-GB', 'en', ['Jury portal', 'Scoreboard', 'Competition office', 'Live results', 'API documentation'], 'Deutsch'],
  ])('in %s: the pages as styled cards, the icon loaded, the other language one click away', async (locale, lang, names, other) => {
    for (const [viewport, size] of [
      [PHONE_390, '390'],
      [LAPTOP, '1366'],
    ] as const) {
      const opened = await openPage(browser, `${server.url}/`, viewport, { locale });
      const { page } = opened;
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await page.$$eval('li a strong', (items) => items.map((item) => item.textContent))).toEqual(names);
      // Styled: the cards are boxes with the accent colour, not underlined blue links.
      const card = await page
        .locator('li a')
        .first()
        .evaluate((link) => {
          const style = getComputedStyle(link);
          return { display: style.display, decoration: style.textDecorationLine, border: style.borderTopStyle };
        });
      expect(card).toEqual({ display: 'block', decoration: 'none', border: 'solid' });
      expect(await page.locator('header img').evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      expect(await page.textContent('header a')).toBe(other);
      expect(await noHorizontalOverflow(page)).toBe(true);
      await saveScreenshot(page, `root-page-${lang}-${size}`);
      expect(opened.errors).toEqual([]);
      expect(opened.console.filter((line) => line.startsWith('error'))).toEqual([]);
      await opened.context.close();
    }
  });

  it('answers /favicon.ico with an icon the browser can draw', async () => {
    const opened = await openPage(browser, `${server.url}/favicon.ico`);
    const size = await opened.page.evaluate(async () => {
      const image = new Image();
      image.src = '/favicon.ico';
      await image.decode();
      return image.naturalWidth;
    });
    expect(size).toBeGreaterThanOrEqual(16);
    await opened.context.close();
  });
});
