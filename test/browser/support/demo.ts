/** A file's service over a fresh database holding the demo event (`npm run seed:demo`'s data), and its Chromium. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { runCommand } from '../../../commands/run-command.js';
import { seedDemo, type DemoSummary } from '../../../scripts/demo-seed.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { launchBrowser } from './browser.js';

export interface DemoWorld {
  server: TestServer;
  browser: Browser;
  demo: DemoSummary;
}

/** Registers the hooks; the fields are set once `beforeAll` has run. */
export function useDemoWorld(env: Record<string, string> = {}): DemoWorld {
  const world = {} as DemoWorld;
  beforeAll(async () => {
    world.server = await startTestServer({ env });
    world.browser = await launchBrowser();
    world.demo = await runCommand(world.server.pool, (tx) => seedDemo(tx));
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.server?.stop();
  });
  return world;
}
