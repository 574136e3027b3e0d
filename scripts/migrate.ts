// `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded server) and exits.
import { ConfigError, loadConfig } from '../src/config.js';
import { migrateDatabase, openDatabase } from '../src/db/database.js';
import { createTables } from '../src/db/tables.js';
import { createLogger } from '../src/logger.js';

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  try {
    const applied = await migrateDatabase(database.url, createTables(config.tablePrefix), logger);
    logger.info({ applied }, applied.length ? `${applied.length} migration(s) applied` : 'database is up to date');
  } finally {
    await database.stop();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
