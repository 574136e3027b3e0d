import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type pg from 'pg';
import { t } from './tables.js';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { loadConfig, type Config } from '../../src/config.js';
import type { Firewall } from '../../src/firewall/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough';

export interface TestServer extends RunningServer {
  database: TestDatabase;
  config: Config;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

/**
 * The real service (fastify, Socket.IO, outbox relay) on a free port over a fresh database.
 * `env` takes the same variables as `npm start` (PORT included); `firewall` replaces the host firewall and `logger`
 * the silent one, for tests that assert on what the service logs.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; database?: TestDatabase; firewall?: Firewall; logger?: Logger } = {},
): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-test-data-'));
  const config: Config = {
    ...loadConfig({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', HOST: '127.0.0.1', DATA_DIR: dataDir, ...options.env }),
    // A free port unless the test names one: a restart on the same port is where clients reconnect.
    port: options.env?.PORT ? Number(options.env.PORT) : 0,
  };
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const server = await startServer(config, database.url, logger, { firewall: options.firewall });
  return {
    ...server,
    database,
    config,
    async stop() {
      await server.close();
      if (!options.database) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A Socket.IO client connected to the test server; resolves once connected. `reconnectionDelayMax`
 * shortens the client's back-off for tests that restart the server under it.
 */
export async function openSocket(
  baseUrl: string,
  options: { auth?: Record<string, unknown>; reconnectionDelayMax?: number } = {},
): Promise<Socket> {
  const socket = connectSocket(baseUrl, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: true,
    auth: options.auth,
    ...(options.reconnectionDelayMax === undefined
      ? {}
      : { reconnectionDelay: Math.min(1_000, options.reconnectionDelayMax), reconnectionDelayMax: options.reconnectionDelayMax }),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * Waits until the sequencer has numbered every outbox row: a legacy write's capture becomes its
 * `score-updated` event then (migration 0016), and what readers see is numbered rows.
 */
export async function waitForNumbered(pool: pg.Pool): Promise<void> {
  await waitFor(async () => (await pool.query(`SELECT 1 FROM ${t.svc_outbox} WHERE seq IS NULL LIMIT 1`)).rowCount === 0, {
    message: 'outbox rows numbered',
  });
}

/** Waits for `condition` to hold, polling; fails with `message` after the deadline. No fixed sleeps. */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: { timeoutMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out: ${options.message ?? 'condition not met'}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
