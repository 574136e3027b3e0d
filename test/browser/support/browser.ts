/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser build), plus what every
 * browser test needs: isolated pages, console capture and screenshots kept in test-artifacts/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts');
export const WEB_DIST_INDEX = path.join(REPO_ROOT, 'web/dist/jury/index.html');

// Without the background-networking flags Chromium keeps dialling out, which this network refuses.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM_PATH)) {
    missing.push(
      `Chromium is not installed at ${CHROMIUM_PATH}: run \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH).`,
    );
  }
  if (!existsSync(WEB_DIST_INDEX))
    missing.push('The web client is not built: run `npm run build:web` (npm run test:browser does it first).');
  return missing;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Every console message as `type: text`, for asserting on what the page logged. */
  console: string[];
  /** Uncaught exceptions in the page; a test ends by asserting there were none. */
  errors: Error[];
}

export const PHONE = { width: 360, height: 740 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;
/** The sizes of a competition day: a judge's phone, the office laptop, the hall's projector. */
export interface Viewport {
  width: number;
  height: number;
}
export const PHONE_390: Viewport = { width: 390, height: 844 };
export const LAPTOP: Viewport = { width: 1366, height: 768 };
export const FULL_HD: Viewport = { width: 1920, height: 1080 };

/** A page in a context of its own, so each has its own localStorage (its own save queue). */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = DESKTOP,
  options: { serviceWorkers?: 'allow' | 'block'; locale?: string } = {},
): Promise<OpenedPage> {
  // Service workers are blocked unless a test is about them: requests a worker answers bypass page.route().
  const context = await browser.newContext({
    viewport,
    serviceWorkers: options.serviceWorkers ?? 'block',
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const page = await context.newPage();
  const opened: OpenedPage = { page, context, console: [], errors: [] };
  page.on('console', (message: ConsoleMessage) => opened.console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => opened.errors.push(error));
  await page.goto(url);
  return opened;
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A port that was free a moment ago, for a server that must come back on the same one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
