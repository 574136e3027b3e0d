import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { readOrCreateSecret, startEmbeddedDatabase } from './embedded.js';
import { migrate } from './migrate.js';
import { DESKTOP_ROLE } from './origin.js';
import { createTables, type Tables } from './tables.js';

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export const EMBEDDED_DATABASE_NAME = 'gym';
/** The desktop program's password on the embedded server, generated once. */
export const DESKTOP_PASSWORD_FILE = 'desktop-password';

export interface DesktopConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  url: string;
}

/**
 * What the desktop program connects with on the embedded server: `EMBEDDED_DB_HOST` (for a
 * wildcard, the first LAN address, else loopback), `EMBEDDED_DB_PORT`, the `desktop` role and
 * its password file, created here when missing.
 */
export function desktopConnection(config: Config, lanAddresses: readonly string[]): DesktopConnection {
  const { host: listen, port } = config.embeddedDb;
  const host = listen === '0.0.0.0' || listen === '::' ? (lanAddresses[0] ?? '127.0.0.1') : listen;
  const password = readOrCreateSecret(config.dataDir, DESKTOP_PASSWORD_FILE);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `postgres://${DESKTOP_ROLE}:${encodeURIComponent(password)}@${urlHost}:${port}/${EMBEDDED_DATABASE_NAME}`;
  return { host, port, database: EMBEDDED_DATABASE_NAME, user: DESKTOP_ROLE, password, url };
}

/**
 * The desktop role may log in with the password of its file (set again at every start, so the
 * file is what counts), and read and write the legacy tables, nothing else (migration 0020's
 * `svc_limit_desktop_role`, applied again here so a role an administrator changed gets its limits
 * back; on a first start the migrations that follow create the function and apply it).
 */
async function provideDesktopRole(admin: pg.Client, password: string, tables: Tables): Promise<void> {
  const literal = admin.escapeLiteral(password);
  const { rowCount } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [DESKTOP_ROLE]);
  await admin.query(`${rowCount ? 'ALTER' : 'CREATE'} ROLE ${DESKTOP_ROLE} WITH LOGIN PASSWORD ${literal}`);
  await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${EMBEDDED_DATABASE_NAME} TO ${DESKTOP_ROLE}`);
  await admin.query(`GRANT USAGE ON SCHEMA public TO ${DESKTOP_ROLE}`);
  const { rows } = await admin.query<{ present: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS present', [
    `${tables.svc_limit_desktop_role}(name)`,
  ]);
  if (rows[0]?.present) await admin.query(`SELECT ${tables.svc_limit_desktop_role}($1)`, [DESKTOP_ROLE]);
}

async function withClient<T>(url: string, logger: Logger, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => logger.warn({ err: error }, 'embedded admin connection error'));
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `DATABASE_URL` when configured, else the embedded server with its data under the data
 * directory, supervised (restarted when it dies) and with the desktop program's role.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => undefined };
  const server = await startEmbeddedDatabase(config.dataDir, logger, {
    ...config.embeddedDb,
    lan: { database: EMBEDDED_DATABASE_NAME, role: DESKTOP_ROLE },
    publish: config.publish,
  });
  const url = new URL(server.url);
  url.pathname = `/${EMBEDDED_DATABASE_NAME}`;
  try {
    await withClient(server.url, logger, async (admin) => {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE_NAME]);
      if (!rowCount) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE_NAME}`);
    });
    await withClient(url.toString(), logger, (admin) =>
      provideDesktopRole(admin, readOrCreateSecret(config.dataDir, DESKTOP_PASSWORD_FILE), createTables(config.tablePrefix)),
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  logger.info(
    {
      dataDir: server.dataDir,
      host: config.embeddedDb.host,
      port: config.embeddedDb.port,
      database: EMBEDDED_DATABASE_NAME,
      desktopUser: DESKTOP_ROLE,
    },
    'no DATABASE_URL set: using the embedded PostgreSQL server (`npm run db:info` prints how the desktop program connects)',
  );
  return { url: url.toString(), embedded: true, stop: () => server.stop() };
}

export async function migrateDatabase(url: string, tables: Tables, logger: Logger): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => logger.warn({ err: error }, 'migration connection error'));
  await client.connect();
  try {
    return await migrate(client, tables, logger);
  } finally {
    await client.end();
  }
}
