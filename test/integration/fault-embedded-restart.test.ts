/**
 * Issue 15 item 5 / issue 16 item 2: the embedded PostgreSQL is supervised. `kill -KILL` of its
 * postmaster: the service starts it again on the same data and port (stale postmaster.pid, old
 * backends still exiting), health goes degraded → ok within 10 s, the save acknowledged before the
 * kill is still there, a save after the recovery works, and SIGTERM still exits 0 within the grace
 * period with no postgres of that data directory left.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, isAlive } from '../../src/db/embedded.js';
import { withTables, type WithTables } from '../../src/db/pool.js';
import { t } from '../support/tables.js';
import { exited, killIfRunning, processesOfCluster, startService, stopClusterProcesses, type ServiceProcess } from '../support/process.js';
import { createCompetition, insertDiscipline, insertParticipantWithScoreRow } from '../support/fixtures.js';
import { waitFor } from '../support/server.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-fault-embedded-'));
const clusterDir = path.join(dataDir, 'pg');
let service: ServiceProcess | undefined;
let pool: (pg.Pool & WithTables) | undefined;
const postmasterPids = () =>
  processesOfCluster(clusterDir)
    .filter(({ command }) => command.includes(clusterDir))
    .map(({ pid }) => pid);

afterAll(async () => {
  if (pool && !pool.ended) await pool.end().catch(() => undefined);
  if (service) await killIfRunning(service);
  await stopClusterProcesses(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

const health = (url: string) =>
  fetch(`${url}/api/system/health`).then(
    async (response) => ({ status: response.status, body: (await response.json()) as { status: string } }),
    () => ({ status: 0, body: { status: 'unreachable' } }),
  );

describe('supervised embedded PostgreSQL', () => {
  it('restarts a postmaster killed with SIGKILL: health recovers, nothing acknowledged is lost, SIGTERM exits 0', async () => {
    const embeddedPort = await freePort();
    service = await startService({ DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(embeddedPort), LOG_LEVEL: 'warn' });
    const { url } = service;
    const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    pool = withTables(
      new pg.Pool({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${embeddedPort}/gym`, max: 2 }),
      t,
    );
    pool.on('error', () => undefined);
    const competition = await createCompetition(pool, 'Ausfall-Cup');
    const discipline = await insertDiscipline(pool);
    const { scoreId } = await insertParticipantWithScoreRow(pool, competition);
    const save = (fieldId: number, performance: number) =>
      fetch(`${url}/api/jury-results`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ participantId: scoreId, disciplineFieldId: fieldId, performance, attempt: 1, type: 0 }),
      });
    expect((await save(discipline.fields.A, 4.5)).ok).toBe(true);

    const [postmaster] = postmasterPids();
    expect(postmaster).toBeDefined();
    process.kill(postmaster!, 'SIGKILL');
    const killedAt = Date.now();
    await waitFor(() => !isAlive(postmaster!), { timeoutMs: 5_000 });
    // Degraded while it is gone (the health check runs a query), then ok on a new postmaster.
    await waitFor(async () => (await health(url)).body.status === 'degraded' || postmasterPids().some((pid) => pid !== postmaster), {
      timeoutMs: 10_000,
    });
    await waitFor(async () => (await health(url)).status === 200, { timeoutMs: 10_000, message: 'health ok within 10 s of the kill' });
    const recoveredMs = Date.now() - killedAt;
    expect(postmasterPids()).not.toContain(postmaster);
    expect(Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3])).toBe(embeddedPort);

    const after = await save(discipline.fields.B, 8.75);
    expect(after.status, await after.clone().text()).toBeLessThan(300);
    const { rows } = await pool.query<{ fieldId: number; value: number }>(
      `SELECT int_disziplinen_felderid AS "fieldId", rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 ORDER BY int_disziplinen_felderid`,
      [scoreId],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { fieldId: discipline.fields.A, value: 4.5 },
        { fieldId: discipline.fields.B, value: 8.75 },
      ]),
    );
    await pool.end();

    service.child.kill('SIGTERM');
    // The service's own forced exit comes after 20 s; a clean stop is well inside that.
    expect(await exited(service, 20_000)).toEqual({ code: 0, signal: null });
    expect(postmasterPids()).toEqual([]);
    console.log(`embedded PostgreSQL killed: health ok again after ${recoveredMs} ms`);
  }, 120_000);
});
