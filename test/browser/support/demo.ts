/** A file's service over a fresh database holding the demo event (`npm run seed:demo`'s data), and its Chromium. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { seedDemo, type DemoSummary } from '../../../scripts/demo-seed.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { launchBrowser } from './browser.js';

export interface DemoEvent {
  server: TestServer;
  browser: Browser;
  demo: DemoSummary;
}

/** Registers the hooks; the fields are set once `beforeAll` has run. */
export function useDemoEvent(env: Record<string, string> = {}): DemoEvent {
  const demoEvent = {} as DemoEvent;
  beforeAll(async () => {
    demoEvent.server = await startTestServer({ env });
    demoEvent.browser = await launchBrowser();
    demoEvent.demo = await demoEvent.server.commands.run((tx) => seedDemo(tx));
  });
  afterAll(async () => {
    await demoEvent.browser?.close();
    await demoEvent.server?.stop();
  });
  return demoEvent;
}
