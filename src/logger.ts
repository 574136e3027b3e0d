import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Pretty lines in a terminal, JSON lines otherwise; tokens and secrets never reach a log line. */
export function createLogger(level: LogLevel, pretty: boolean = process.stdout.isTTY === true): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.password', '*.jwtSecret', 'config.jwtSecret', 'config.databaseUrl'],
      censor: '[redacted]',
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  });
}
