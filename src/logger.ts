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

/**
 * Pretty lines in a terminal, JSON lines otherwise; tokens and secrets never reach a log line.
 * `destination` replaces stdout (tests read what the service logs).
 */
export function createLogger(level: LogLevel, pretty: boolean = process.stdout.isTTY === true, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty && destination === undefined ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
