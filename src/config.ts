import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { isValidRulePrefix } from './firewall/services.js';
// The prefix is spliced into SQL identifiers (it cannot be a bind parameter), so only a plain
// lowercase identifier is accepted.
import { TABLE_PREFIX_PATTERN } from './db/tables.js';

export type AuthMode = 'lan' | 'strict';
/** `hall`: the competition's own service; `public`: a read-only instance on a logical replica (docs/public-results.md). */
export type ServiceMode = 'hall' | 'public';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  databaseUrl: string | null;
  /** The embedded server used without DATABASE_URL: where it listens (the desktop program connects there). */
  embeddedDb: { host: string; port: number };
  port: number;
  host: string;
  jwtSecret: string;
  tablePrefix: string;
  logLevel: LogLevel;
  authMode: AuthMode;
  outboxRetentionHours: number;
  dataDir: string;
  rulePrefix: string;
  servicePorts: { backend: number; frontend: number; jury: number };
  /** Exact allowed origins from CORS_ORIGINS (`*` allows any); empty: the LAN client-port policy of `src/http/security.ts`. */
  corsOrigins: string[];
  /** Requests per minute per client address and route; 0 turns a limit off. */
  rateLimit: { adminPerMinute: number; readsPerMinute: number; scoreWritesPerMinute: number };
  /** Extra `Host` names from ALLOWED_HOSTS (`*` any, `.example.org` a domain and its subdomains); see `hostPolicy` in `src/http/security.ts`. */
  allowedHosts: string[];
  /** Time a client has to send a whole request, and its headers, in milliseconds. */
  timeouts: { requestMs: number; headersMs: number };
  /** A `join-competition` further behind than this many events of the event is told to reload instead of replaying. */
  replayMaxEvents: number;
  serviceMode: ServiceMode;
  /**
   * The embedded server's settings for publishing to public instances: `wal_level=logical` and the
   * most WAL a replication slot may hold (`max_slot_wal_keep_size`); null when not publishing.
   */
  publish: { maxSlotWalKeepSize: string } | null;
}

/** Thrown for a bad environment value; `main` prints its message as the one line that stops the start. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConfigError(name, `must be a port number between 1 and 65535, got "${raw}"`);
  }
  return Number(raw);
}

function readDatabaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a URL (expected postgres://user:password@host:port/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', `must start with postgres:// or postgresql://, got "${url.protocol}//"`);
  }
  return raw;
}

/**
 * The service keeps the generated JWT secret and the embedded database in DATA_DIR; a directory it
 * cannot write (a read-only mount, another owner's) stops the start here with one line instead of
 * a stack trace from the first file written.
 */
function requireWritableDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new ConfigError(
      'DATA_DIR',
      `must be a directory this service can write to (it keeps the JWT secret and the embedded database there), got "${dataDir}" (${code ?? message})`,
    );
  }
}

function readJwtSecret(env: Env, dataDir: string): string {
  const raw = env.JWT_SECRET;
  if (raw !== undefined && raw !== '') {
    if (raw.length < 16) throw new ConfigError('JWT_SECRET', 'must be at least 16 characters long');
    return raw;
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  requireWritableDataDir(dataDir);
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function readPositiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigError(name, `must be a positive number, got "${raw}"`);
  }
  return value;
}

function readLimit(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000) {
    throw new ConfigError(name, `must be a whole number of requests per minute (0 turns the limit off), got "${raw}"`);
  }
  return Number(raw);
}

/**
 * Normalised to what a browser sends in `Origin` (`scheme://host[:port]`, lowercase host, no
 * default port); an entry with a path or query could never match, so it stops the start instead.
 */
function readOrigins(env: Env): string[] {
  const entries = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    if (entry === '*') return entry;
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (
      url === null ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.pathname !== '/' ||
      url.search !== '' ||
      url.hash !== '' ||
      url.username !== ''
    ) {
      throw new ConfigError('CORS_ORIGINS', `must be comma-separated origins like http://192.168.1.20:5173 (or *), got "${entry}"`);
    }
    return url.origin;
  });
}

// A host name as it appears in a Host header, without port: labels of letters, digits and hyphens.
const HOST_NAME_PATTERN = /^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

function readHosts(env: Env): string[] {
  const entries = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  for (const entry of entries) {
    if (entry !== '*' && !HOST_NAME_PATTERN.test(entry)) {
      throw new ConfigError(
        'ALLOWED_HOSTS',
        `must be comma-separated host names without port, like gym-pc,scores.example.org,.example.org (or *), got "${entry}"`,
      );
    }
  }
  return entries;
}

function readWholeNumber(env: Env, name: string, fallback: number, minimum: number, maximum: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < minimum || Number(raw) > maximum) {
    throw new ConfigError(name, `must be a whole number between ${minimum} and ${maximum}, got "${raw}"`);
  }
  return Number(raw);
}

function readListenAddress(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (isIP(raw) === 0)
    throw new ConfigError(name, `must be an IP address of this machine (127.0.0.1, a LAN address, or 0.0.0.0 for all), got "${raw}"`);
  return raw;
}

function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function readTimeouts(env: Env): Config['timeouts'] {
  const requestMs = readWholeNumber(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  const headersMs = readWholeNumber(env, 'HEADERS_TIMEOUT_MS', Math.min(10_000, requestMs), 100, 600_000);
  // Node refuses a headers timeout above the request timeout: the request would end first anyway.
  if (headersMs > requestMs)
    throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${requestMs}), got "${headersMs}"`);
  return { requestMs, headersMs };
}

function readPublish(env: Env): Config['publish'] {
  if (readEnum(env, 'PUBLISH_RESULTS', ['0', '1'] as const, '0') === '0') return null;
  const raw = env.PUBLISH_MAX_SLOT_WAL || '4GB';
  // Spliced into the server's command line as a setting value: a size in PostgreSQL's units only.
  if (!/^[1-9]\d{0,6}(MB|GB|TB)$/.test(raw))
    throw new ConfigError('PUBLISH_MAX_SLOT_WAL', `must be a size like 512MB or 4GB, got "${raw}"`);
  return { maxSlotWalKeepSize: raw };
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const dataDir = path.resolve(cwd, env.DATA_DIR || '.data');
  const tablePrefix = env.TABLE_PREFIX || 'app_';
  if (!TABLE_PREFIX_PATTERN.test(tablePrefix)) {
    throw new ConfigError(
      'TABLE_PREFIX',
      `must be lowercase letters, digits and underscores starting with a letter (at most 20), got "${tablePrefix}"`,
    );
  }
  const host = env.HOST || '0.0.0.0';
  const rulePrefix = env.RULE_PREFIX || 'App';
  // Same rule as the firewall module's: the prefix becomes part of a netsh `name=` argument.
  if (!isValidRulePrefix(rulePrefix)) {
    throw new ConfigError('RULE_PREFIX', 'must be 1-64 ASCII letters, digits, spaces or ._()- and not start or end with a space');
  }
  const port = readPort(env, 'PORT', 3001);
  const databaseUrl = readDatabaseUrl(env);
  if (databaseUrl === null) requireWritableDataDir(dataDir);
  return {
    databaseUrl,
    embeddedDb: { host: readListenAddress(env, 'EMBEDDED_DB_HOST', '127.0.0.1'), port: readPort(env, 'EMBEDDED_DB_PORT', 5432) },
    port,
    host,
    jwtSecret: readJwtSecret(env, dataDir),
    tablePrefix,
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    authMode: readEnum(env, 'AUTH_MODE', ['lan', 'strict'] as const, 'lan'),
    outboxRetentionHours: readPositiveNumber(env, 'OUTBOX_RETENTION_HOURS', 48),
    dataDir,
    rulePrefix,
    servicePorts: {
      backend: port,
      frontend: readPort(env, 'FRONTEND_PORT', 5173),
      jury: readPort(env, 'JURY_PORT', 5174),
    },
    corsOrigins: readOrigins(env),
    rateLimit: {
      adminPerMinute: readLimit(env, 'RATE_LIMIT_PER_MINUTE', 60),
      // The head judge's console reads completeness and the corrections log again after every
      // score event of the competition (a few a second on a busy day), with a token.
      readsPerMinute: readLimit(env, 'RATE_LIMIT_READS_PER_MINUTE', 600),
      // Portals behind the stand-alone client port share one address, and an offline save queue
      // flushes in bursts, so score writes get ten times the room of admin actions.
      scoreWritesPerMinute: readLimit(env, 'RATE_LIMIT_SCORE_WRITES_PER_MINUTE', 600),
    },
    allowedHosts: readHosts(env),
    timeouts: readTimeouts(env),
    replayMaxEvents: readWholeNumber(env, 'REPLAY_MAX_EVENTS', 5_000, 1, 1_000_000),
    serviceMode: readEnum(env, 'SERVICE_MODE', ['hall', 'public'] as const, 'hall'),
    publish: readPublish(env),
  };
}
