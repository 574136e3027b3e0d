import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Keys whose value is a secret wherever they appear: headers, a config dump, a client's options. */
const SECRET_KEYS = ['authorization', 'cookie', 'token', 'password', 'jwtSecret', 'databaseUrl'];

/**
 * Each secret key at the top level and up to two levels down (`{ config }`, `{ req: { headers } }`,
 * `{ err: { config } }`): deep enough for every object the service logs, without the cost of
 * redacting arbitrary depths on every line.
 */
const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

/** Keys pino writes on every line itself; pino appends a logged object's keys without checking them. */
const CORE_KEYS = ['pid', 'hostname', 'level', 'time'];

/**
 * `logger.warn({ pid }, …)` about another process (the embedded PostgreSQL) would print `"pid"`
 * twice, which JSON parsers resolve differently (most keep the last, i.e. the wrong process).
 * Such a key is renamed to `targetPid` etc., so every line is JSON with unique keys.
 */
export function withoutCoreKeys(object: Record<string, unknown>): Record<string, unknown> {
  if (!CORE_KEYS.some((key) => Object.hasOwn(object, key))) return object;
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [CORE_KEYS.includes(key) ? `target${key[0]!.toUpperCase()}${key.slice(1)}` : key, value]),
  );
}

/**
 * Pretty lines in a terminal, JSON lines otherwise; tokens and secrets never reach a log line.
 * `destination` replaces stdout (tests read what the service logs).
 */
export function createLogger(level: LogLevel, pretty: boolean = process.stdout.isTTY === true, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { log: withoutCoreKeys },
    ...(pretty && destination === undefined
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
