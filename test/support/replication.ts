import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { migrateDatabase } from '../../src/db/database.js';
import {
  publishForPublicInstances,
  REPLICATION_ROLE,
  setSubscriptionEnabled,
  subscribeToHall,
  unsubscribeFromHall,
} from '../../src/db/replication.js';
import { PROJECT_ROOT } from '../../src/system/project-root.js';
import { startOwnedPostgres } from './owned-postgres.js';
import { startTestServer, type TestServer } from './server.js';
import { t } from './tables.js';

const run = promisify(execFile);

interface Cluster {
  /** Its `postgres` database, as the superuser. */
  url: string;
  dispose(): Promise<void>;
}

/**
 * A cluster of the same PostgreSQL as the suite's server, with `wal_level=logical`: the embedded
 * server's binaries on an embedded run; Debian's binaries of the suite server's major version
 * otherwise (`scripts/ci-postgres15.sh`, `PG15_BIN` to point elsewhere).
 */
async function startCluster(): Promise<Cluster> {
  if (inject('databaseKind') === 'embedded') {
    const owned = await startOwnedPostgres({ logicalReplication: true });
    return { url: owned.url, dispose: () => owned.dispose() };
  }
  const major = await withClient(inject('adminDatabaseUrl'), async (client) => {
    const { rows } = await client.query<{ version: number }>(`SELECT current_setting('server_version_num')::int AS version`);
    return Math.floor(rows[0]!.version / 10_000);
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-replication-pg-'));
  // The server runs as the unprivileged `postgres` user when the tests run as root.
  chmodSync(dir, 0o755);
  const script = path.join(PROJECT_ROOT, 'scripts/ci-postgres15.sh');
  const env = {
    ...process.env,
    PG15_BIN: process.env.PG15_BIN ?? `/usr/lib/postgresql/${major}/bin`,
    PG15_SERVER_OPTIONS: '-c wal_level=logical',
  };
  try {
    const { stdout } = await run(script, ['start', path.join(dir, 'cluster')], { env });
    return {
      url: stdout.trim(),
      dispose: async () => {
        await run(script, ['stop', path.join(dir, 'cluster')], { env }).catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`a PostgreSQL ${major} cluster did not start: ${(error as { stderr?: string }).stderr ?? ''}`, { cause: error });
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(clusterUrl: string, database: string, credentials?: { user: string; password: string }): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${database}`;
  if (credentials) {
    url.username = credentials.user;
    url.password = credentials.password;
  }
  return url.toString();
}

export interface ReplicationRig {
  /** The hall's service on the publishing cluster. */
  hall: TestServer;
  /** The public side's database (a superuser's URL), subscribed to the hall. */
  replicaUrl: string;
  /** A public instance (SERVICE_MODE=public) on the replica; `port` to come back on the same one. */
  startPublic(port?: number): Promise<TestServer>;
  /** Stops or resumes applying the hall's changes on the replica (the hall's slot keeps them). */
  setSubscriptionEnabled(enabled: boolean): Promise<void>;
  dispose(): Promise<void>;
}

const PASSWORD = 'replica-test-password';

/**
 * Two PostgreSQL clusters, as in docs/public-results.md: the hall's (publisher), with the hall's
 * service, and the public side's (subscriber), both migrated by the service, the replica subscribed
 * through the same functions `npm run replication:publish` and `replication:subscribe` call.
 */
export async function startReplicationRig(): Promise<ReplicationRig> {
  const cleanups: Array<() => Promise<void>> = [];
  const dispose = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const [publisher, subscriber] = await Promise.all([startCluster(), startCluster()]);
    cleanups.push(
      () => publisher.dispose(),
      () => subscriber.dispose(),
    );
    for (const [cluster, name] of [
      [publisher, 'hall'],
      [subscriber, 'replica'],
    ] as const)
      await withClient(cluster.url, (admin) => admin.query(`CREATE DATABASE ${name}`));
    const hallUrl = databaseUrl(publisher.url, 'hall');
    const replicaUrl = databaseUrl(subscriber.url, 'replica');
    const noDrop = async () => undefined;
    const hall = await startTestServer({ database: { name: 'hall', url: hallUrl, drop: noDrop } });
    cleanups.push(() => hall.stop());
    await withClient(hallUrl, (admin) => publishForPublicInstances(admin, t, PASSWORD));
    await migrateDatabase(replicaUrl, t, pino({ level: 'silent' }));
    const publisherForReplica = databaseUrl(publisher.url, 'hall', { user: REPLICATION_ROLE, password: PASSWORD });
    await withClient(replicaUrl, (admin) => subscribeToHall(admin, t, publisherForReplica));
    cleanups.push(() => withClient(replicaUrl, async (admin) => void (await unsubscribeFromHall(admin))));
    return {
      hall,
      replicaUrl,
      async startPublic(port) {
        const server = await startTestServer({
          database: { name: 'replica', url: replicaUrl, drop: noDrop },
          env: { SERVICE_MODE: 'public', ...(port === undefined ? {} : { PORT: String(port) }) },
        });
        cleanups.push(() => server.stop());
        return server;
      },
      setSubscriptionEnabled: (enabled) => withClient(replicaUrl, (admin) => setSubscriptionEnabled(admin, enabled)),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
