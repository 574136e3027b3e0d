import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCommandRunner } from '../../commands/run-command.js';
import pino, { type Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import type { AppDeps, TypedApp } from '../../src/http/app-types.js';
import type { RelayStatus } from '../../outbox/relay.js';
import { loadConfig } from '../../src/config.js';
import { createPool } from '../../src/db/pool.js';
import { createTestDatabase } from './database.js';
import { TEST_JWT_SECRET } from './server.js';
import { t } from './tables.js';

export interface TestApp {
  app: TypedApp;
  deps: AppDeps;
  url: string;
  stop(): Promise<void>;
}

/**
 * The service's fastify app (error handling, auth, OpenAPI, every route module) listening on a free
 * port, without relay or Socket.IO, so a test can add routes of its own before it starts: a body
 * schema to violate, a handler that fails, a role-protected handler.
 */
export async function startTestApp(
  options: { env?: Record<string, string>; logger?: Logger; routes?: (app: TypedApp, deps: AppDeps) => void } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-test-app-'));
  const config = loadConfig({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...options.env });
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const pool = createPool({ connectionString: database.url, tables: t, max: 2 }, logger);
  const relayStatus: RelayStatus = { state: 'listening', delivered: 0, cursor: 0, sequencer: true };
  const deps: AppDeps = { config, pool, commands: createCommandRunner(pool), logger, relay: { status: () => relayStatus } };
  const app = await buildApp(deps);
  options.routes?.(app, deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    deps,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await app.close();
      await pool.end();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
