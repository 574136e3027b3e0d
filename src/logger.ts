import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Where a secret could end up in a log line: request headers (wherever they are logged), a config
 * dump, or an object carrying a token or password. The leading `*.` forms cover the same keys one
 * level down, e.g. `{ err: { config } }`.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
  'password',
  '*.password',
  'jwtSecret',
  '*.jwtSecret',
  'databaseUrl',
  '*.databaseUrl',
];

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
