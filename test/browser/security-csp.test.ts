/**
 * Issue 10 item 11, in a real browser: the pages the backend serves render and go live under the
 * security headers it sends (helmet's CSP with script-src 'self' and no upgrade to https), and
 * Swagger UI at /docs renders under the same policy. Every CSP violation the browser reports
 * fails the test, whichever page causes it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_PAGES } from '../../src/http/routes/web.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { launchBrowser, openPage, type OpenedPage } from './support/browser.js';
import { createCompetition } from '../support/fixtures.js';
import { seedDevice } from './support/portal-seed.js';

let server: TestServer;
let browser: Browser;
let query = '';
const opened: OpenedPage[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const competition = await createCompetition(server.pool, 'CSP Meet');
  const device = await seedDevice(server.pool, { name: 'Vault', mask: '00.00' });
  query = `?eventId=${competition.eventId}&disciplineId=${device.id}`;
});

afterAll(async () => {
  await Promise.all(opened.map((page) => page.context.close()));
  await browser?.close();
  await server?.stop();
});

/** Opens the page with a recorder for the browser's CSP violation events installed before any script runs. */
async function openRecorded(path: string): Promise<OpenedPage> {
  const page = await openPage(browser, 'about:blank');
  await page.context.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  opened.push(page);
  await page.page.goto(`${server.url}${path}`);
  return page;
}

async function violationsOf(opened: OpenedPage): Promise<string[]> {
  const reported = await opened.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const logged = opened.console.filter((line) => /Content Security Policy|Refused to/i.test(line));
  return [...reported, ...logged];
}

describe('pages under their security headers', () => {
  it('renders Swagger UI at /docs with the API title and operations, without a CSP violation', async () => {
    const docs = await openRecorded('/docs');
    await docs.page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
    expect(await docs.page.locator('.swagger-ui .info .title').textContent()).toContain('Gymnastics competition service');
    await docs.page.locator('.opblock').first().waitFor();
    expect(await docs.page.locator('.opblock').count()).toBeGreaterThan(10);
    expect(await violationsOf(docs)).toEqual([]);
    expect(docs.errors).toEqual([]);
  });

  it.each(WEB_PAGES)('renders /%s/ (and goes live, where the page has a live feed) without a CSP violation', async (name) => {
    const page = await openRecorded(`/${name}/${query}`);
    await page.page.locator('#app > *').first().waitFor({ timeout: 15_000 });
    // The jury portal and the scoreboard show their Socket.IO state; connect-src must admit it.
    const indicator = page.page.locator('.connection, .live-indicator');
    if ((await indicator.count()) > 0) {
      await page.page.waitForFunction(
        () => document.querySelector('.connection, .live-indicator')?.getAttribute('data-status') === 'live',
        undefined,
        { timeout: 15_000 },
      );
    }
    await page.page.waitForLoadState('load');
    expect(await violationsOf(page)).toEqual([]);
    expect(page.errors).toEqual([]);
  });

  it('notices a violation when there is one (the recorder is not blind)', async () => {
    const page = await openRecorded('/docs');
    await page.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
    });
    await page.page.waitForFunction(() => (window as unknown as { cspViolations: string[] }).cspViolations.length > 0);
    expect(await page.page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
  });
});
