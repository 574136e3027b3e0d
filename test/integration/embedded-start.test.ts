// `npm start` without DATABASE_URL, as a real child process: the embedded PostgreSQL starts, is
// shared with `npm run seed:demo`, stops with the service, and survives a SIGKILL of the service.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, runScript, startService, type ServiceProcess } from '../support/process.js';
import { waitFor } from '../support/server.js';
import { embeddedSocketDir, isAlive } from '../../src/db/embedded.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-embedded-start-'));
const clusterDir = path.join(dataDir, 'pg');
const services: ServiceProcess[] = [];

/** Postmasters serving this test's cluster (only the postmaster names the data directory). */
function postmastersOfCluster(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(clusterDir);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function startEmbeddedService(): Promise<ServiceProcess> {
  const service = await startService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  services.push(service);
  return service;
}

afterAll(async () => {
  for (const service of services) if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  for (const pid of postmastersOfCluster()) process.kill(pid, 'SIGINT');
  await waitFor(() => postmastersOfCluster().length === 0, { timeoutMs: 15_000 }).catch(() =>
    postmastersOfCluster().forEach((pid) => process.kill(pid, 'SIGKILL')),
  );
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the Unix socket of the embedded server', () => {
  it('lies in DATA_DIR/pg-socket, and there is none where a socket cannot be or PostgreSQL would misread the path', () => {
    expect(embeddedSocketDir('/srv/gym/.data', 5432)).toBe('/srv/gym/.data/pg-socket');
    // sun_path holds 107 bytes and a zero: `<dir>/pg-socket/.s.PGSQL.5432` must fit.
    const fits = `/${'d'.repeat(107 - '/pg-socket/.s.PGSQL.5432'.length - 1)}`;
    expect(embeddedSocketDir(fits, 5432)).toBe(`${fits}/pg-socket`);
    expect(embeddedSocketDir(`${fits}x`, 5432)).toBeNull();
    expect(embeddedSocketDir('/srv/gym data', 5432)).toBeNull();
    expect(embeddedSocketDir('/srv/gym,2026', 5432)).toBeNull();
    expect(embeddedSocketDir("/srv/o'brien", 5432)).toBeNull();
  });
});

describe('npm start without DATABASE_URL', () => {
  it('serves health 200 on an embedded PostgreSQL that seed:demo shares, and stops it on SIGTERM with exit 0', async () => {
    const service = await startEmbeddedService();
    const { url } = service;
    const [postmaster] = postmastersOfCluster();
    expect(postmaster).toBeDefined();

    // A second program on the same data directory uses the running server instead of stopping it.
    const seed = await runScript('scripts/seed-demo.ts', [], { DATA_DIR: dataDir }, 60_000);
    expect(seed.stderr).toBe('');
    expect(seed.code).toBe(0);
    expect(seed.stdout).toMatch(/^Demo event 1: /);
    expect(postmastersOfCluster()).toEqual([postmaster]);
    expect((await fetch(`${url}/api/system/health`)).status).toBe(200);

    // The service's own connections come over the Unix socket (no client address); TCP stays for
    // everyone else, this check's own connection included.
    const port = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const { rows } = await admin.query<{ application_name: string; over_tcp: boolean }>(
        `SELECT application_name, client_addr IS NOT NULL AS over_tcp FROM pg_stat_activity
          WHERE application_name LIKE 'gym-competition-service%' OR pid = pg_backend_pid()`,
      );
      const own = rows.filter((row) => row.application_name.startsWith('gym-competition-service'));
      expect(own.length).toBeGreaterThan(0);
      expect(own.filter((row) => row.over_tcp)).toEqual([]);
      expect(rows.filter((row) => !row.application_name.startsWith('gym-competition-service'))).toEqual([
        { application_name: '', over_tcp: true },
      ]);
    } finally {
      await admin.end();
    }

    service.child.kill('SIGTERM');
    expect(await exited(service, 30_000)).toEqual({ code: 0, signal: null });
    const log = service
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const shutdown = log.slice(log.findIndex((entry) => entry.msg === 'shutting down'));
    expect(shutdown.at(-1)?.msg).toBe('stopped cleanly');
    // The database went down after the service had let go of it, not underneath it: no warnings.
    expect(shutdown.filter((entry) => entry.level >= 40)).toEqual([]);
    expect(postmastersOfCluster()).toEqual([]);
    expect(existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('recovers after the service was killed with SIGKILL, keeping the data', async () => {
    const killed = await startEmbeddedService();
    const [orphan] = postmastersOfCluster();
    killed.child.kill('SIGKILL');
    await exited(killed, 10_000);
    // The situation to recover from: the postgres child outlives its service.
    expect(isAlive(orphan!)).toBe(true);

    const service = await startEmbeddedService();
    expect(isAlive(orphan!)).toBe(false);
    const [postmaster] = postmastersOfCluster();
    expect(postmaster).not.toBe(orphan);

    // postmaster.pid line 4 is the port; the seeded event from the first test is still there.
    const port = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3];
    const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    const client = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/gym` });
    await client.connect();
    try {
      expect((await client.query('SELECT count(*)::int AS count FROM app_veranstaltungen')).rows).toEqual([{ count: 1 }]);
    } finally {
      await client.end();
    }

    service.child.kill('SIGTERM');
    expect(await exited(service, 30_000)).toEqual({ code: 0, signal: null });
    expect(postmastersOfCluster()).toEqual([]);
  }, 120_000);
});
