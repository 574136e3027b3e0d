// `npm run replication:subscribe [-- --name NAME]` with PUBLISHER_URL: on the public side, applies
// the service's migrations to DATABASE_URL (or the embedded server of DATA_DIR), empties the
// published tables and subscribes to the hall's publication; returns once the hall's rows are
// copied. `--drop` removes the subscription and its slot in the hall (docs/public-results.md).
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrateDatabase, openDatabase } from '../src/db/database.js';
import { DEFAULT_SUBSCRIPTION_NAME, ReplicationSetupError, subscribeToHall, unsubscribeFromHall } from '../src/db/replication.js';
import { createTables } from '../src/db/tables.js';
import { createLogger } from '../src/logger.js';

const { values } = parseArgs({
  options: { name: { type: 'string', default: DEFAULT_SUBSCRIPTION_NAME }, drop: { type: 'boolean', default: false } },
  strict: true,
});

function publisherUrl(): string {
  const raw = process.env.PUBLISHER_URL ?? '';
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:'))
    throw new ConfigError('PUBLISHER_URL', 'must be the hall’s postgres:// URL as `npm run replication:publish` prints it');
  return raw;
}

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const tables = createTables(config.tablePrefix);
  const publisher = values.drop ? '' : publisherUrl();
  const database = await openDatabase(config, logger);
  try {
    if (!values.drop) await migrateDatabase(database.url, tables, logger);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      if (!values.drop) {
        await subscribeToHall(admin, tables, publisher, { name: values.name });
        console.log(`subscribed as ${values.name}: the hall's rows are copied`);
      } else if ((await unsubscribeFromHall(admin, values.name)) === 'dropped') {
        console.log(`subscription ${values.name} and its slot in the hall removed`);
      } else {
        console.log(
          `subscription ${values.name} removed here; the hall did not answer or has no such slot. ` +
            `Should the hall still have it: SELECT pg_drop_replication_slot('${values.name}') there`,
        );
      }
    } finally {
      await admin.end();
    }
  } finally {
    await database.stop();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof ReplicationSetupError ? error.message : error);
  process.exit(1);
}
