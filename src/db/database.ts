import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { startEmbeddedDatabase } from './embedded.js';
import { migrate } from './migrate.js';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE_NAME = 'gym';

/** `DATABASE_URL` when configured, else the embedded server with its data under the data directory. */
export async function openDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const server = await startEmbeddedDatabase(config.dataDir, logger);
  const admin = new pg.Client({ connectionString: server.url });
  admin.on('error', (error) => logger.warn({ err: error }, 'embedded admin connection error'));
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE_NAME]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${EMBEDDED_DATABASE_NAME}`;
  logger.info({ dataDir: server.dataDir, host: url.hostname, port: Number(url.port), database: EMBEDDED_DATABASE_NAME }, 'no DATABASE_URL set: using the embedded PostgreSQL server');
  return { url: url.toString(), embedded: true, stop: () => server.stop() };
}

export async function migrateDatabase(url: string, prefix: string, logger: Logger): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => logger.warn({ err: error }, 'migration connection error'));
  await client.connect();
  try {
    return await migrate(client, prefix, logger);
  } finally {
    await client.end();
  }
}
