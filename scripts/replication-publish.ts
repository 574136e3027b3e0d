// `npm run replication:publish`: in the hall, publishes the tables the public instances read
// (docs/public-results.md). Creates or updates the `public_replica` role, whose password is
// generated once into DATA_DIR/replica-password (mode 0600), and the publication; prints what the
// public side subscribes with. The embedded server must run with PUBLISH_RESULTS=1.
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrateDatabase, openDatabase } from '../src/db/database.js';
import { readOrCreateSecret } from '../src/db/embedded.js';
import { PUBLICATION_NAME, publishForPublicInstances, REPLICATION_ROLE, ReplicationSetupError } from '../src/db/replication.js';
import { createTables } from '../src/db/tables.js';
import { createLogger } from '../src/logger.js';

const REPLICA_PASSWORD_FILE = 'replica-password';

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  try {
    const tables = createTables(config.tablePrefix);
    // The published tables must exist, also before the service's first start.
    await migrateDatabase(database.url, tables, logger);
    const password = readOrCreateSecret(config.dataDir, REPLICA_PASSWORD_FILE);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await publishForPublicInstances(admin, tables, password);
    } finally {
      await admin.end();
    }
    const hall = config.databaseUrl ? new URL(config.databaseUrl) : null;
    const port = hall ? Number(hall.port || 5432) : config.embeddedDb.port;
    const name = hall ? decodeURIComponent(hall.pathname.slice(1)) : new URL(database.url).pathname.slice(1);
    console.log(
      [
        `publication ${PUBLICATION_NAME} is ready; the public side subscribes as ${REPLICATION_ROLE}.`,
        '',
        'Open the tunnel from the hall (it ends on the hall at 127.0.0.1), for example:',
        `  ssh -N -R 127.0.0.1:15432:127.0.0.1:${port} tunnel@replica.example.org`,
        'then, on the replica host:',
        `  PUBLISHER_URL='postgres://${REPLICATION_ROLE}:${encodeURIComponent(password)}@127.0.0.1:15432/${name}' npm run replication:subscribe`,
      ].join('\n'),
    );
  } finally {
    await database.stop();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof ReplicationSetupError ? error.message : error);
  process.exit(1);
}
