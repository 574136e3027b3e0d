import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
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
  const database = await openDatabase(config, logger);
  let server;
  try {
    server = await startServer(config, database.url, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'start failed');
    await database.stop();
    process.exit(1);
  }
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
      await database.stop();
      logger.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
