/**
 * Issue 16, "A database the desktop program can use": `npm start` without DATABASE_URL on
 * EMBEDDED_DB_PORT; a plain `pg` client with exactly what `npm run db:info` prints connects as the
 * desktop role, writes a legacy final score as the desktop program does (INSERT, then UPDATE of
 * the detail row), and a scoreboard receives each as a `source: "legacy"` event.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { withTables } from '../../src/db/pool.js';
import { t } from '../support/tables.js';
import { exited, killIfRunning, runScript, startService, stopClusterProcesses, type ServiceProcess } from '../support/process.js';
import { openScoreboard, waitForEvent, type Scoreboard } from '../support/realtime.js';
import { createCompetition, insertDiscipline, insertParticipantWithScoreRow } from '../support/fixtures.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-desktop-'));
const clusterDir = path.join(dataDir, 'pg');
let service: ServiceProcess | undefined;
let board: Scoreboard | undefined;
const clients: pg.Pool[] = [];

afterAll(async () => {
  board?.socket.disconnect();
  for (const client of clients) if (!client.ended) await client.end().catch(() => undefined);
  if (service) await killIfRunning(service);
  await stopClusterProcesses(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** `key: value` lines of `npm run db:info`. */
function parseInfo(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => /^(host|port|database|user|password|url):\s+(\S+)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );
}

describe('the desktop program on the embedded server', () => {
  it('connects with what db:info prints and its legacy final scores reach a scoreboard as source "legacy"', async () => {
    const embeddedPort = await freePort();
    const env = { DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(embeddedPort), LOG_LEVEL: 'warn' };
    service = await startService(env);

    const info = await runScript('scripts/db-info.ts', [], env);
    expect(info.code).toBe(0);
    expect(info.stderr).toBe('');
    const printed = parseInfo(info.stdout);
    expect(printed).toMatchObject({ host: '127.0.0.1', port: String(embeddedPort), database: 'gym', user: 'desktop' });
    // Generated once, readable by its owner only.
    const passwordFile = path.join(dataDir, 'desktop-password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    expect(printed.password).toBe(readFileSync(passwordFile, 'utf8').trim());

    // Exactly the printed fields, and the printed URL, each as the desktop program might use them.
    const desktop = withTables(
      new pg.Pool({
        host: printed.host,
        port: Number(printed.port),
        database: printed.database,
        user: printed.user,
        password: printed.password,
        max: 1,
      }),
      t,
    );
    const byUrl = new pg.Pool({ connectionString: printed.url, max: 1 });
    clients.push(desktop, byUrl);
    // The service stops its server below; the desktop's idle sessions end with it.
    for (const pool of clients) pool.on('error', () => undefined);
    expect((await byUrl.query('SELECT current_user AS "user", current_database() AS db')).rows).toEqual([{ user: 'desktop', db: 'gym' }]);
    // Not a superuser: it reads and writes the tables, nothing more.
    expect((await desktop.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows).toEqual([{ rolsuper: false }]);

    // The desktop program sets up its event and a score row, then writes the final score.
    const competition = await createCompetition(desktop, 'Desktop-Cup');
    const discipline = await insertDiscipline(desktop, { name: 'Reck' });
    const { scoreId } = await insertParticipantWithScoreRow(desktop, competition, { lastName: 'Vomdesktop' });
    board = await openScoreboard(service.url, competition.eventId);

    await desktop.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.25)`,
      [scoreId, discipline.id],
    );
    const inserted = await waitForEvent(board.events, (event) => event.scoreId === scoreId, 10_000);
    expect(inserted).toMatchObject({ source: 'legacy', scoreId, eventId: competition.eventId, score: 8.25, lastname: 'Vomdesktop' });

    await desktop.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.1 WHERE int_wertungenid = $1 AND int_kp = 0`, [scoreId]);
    const updated = await waitForEvent(board.events, (event) => event.scoreId === scoreId && event.seq > inserted.seq, 10_000);
    expect(updated).toMatchObject({ source: 'legacy', scoreId, score: expect.closeTo(9.1, 5) });

    // The role and its password survive a restart; the file stays what counts.
    await Promise.all([desktop.end(), byUrl.end()]);
    service.child.kill('SIGTERM');
    expect(await exited(service, 30_000)).toEqual({ code: 0, signal: null });
    service = await startService(env);
    const again = new pg.Client({ connectionString: printed.url });
    again.on('error', () => undefined);
    await again.connect();
    expect(
      (await again.query(`SELECT rel_leistung AS score FROM ${t.wertungen_details} WHERE int_wertungenid = $1`, [scoreId])).rows,
    ).toEqual([{ score: expect.closeTo(9.1, 5) }]);
    await again.end();
  }, 180_000);

  it('refuses to start with one line naming EMBEDDED_DB_PORT, or PORT, when that port is taken', async () => {
    // The running service's embedded server holds the port: a second service on another data
    // directory must not stack-trace but say which variable to change.
    const other = mkdtempSync(path.join(os.tmpdir(), 'gym-desktop-other-'));
    try {
      const pidFile = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
      const takenPort = pidFile[3]!;
      const result = await runScript(
        'src/main.ts',
        [],
        { DATA_DIR: other, EMBEDDED_DB_PORT: takenPort, PORT: String(await freePort()) },
        60_000,
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `Invalid configuration: EMBEDDED_DB_PORT ${takenPort} is already in use on 127.0.0.1 (another PostgreSQL?); set EMBEDDED_DB_PORT to a free port`,
      );

      // The same for the HTTP port: the running service holds its PORT.
      const httpTaken = await runScript('src/main.ts', [], { DATA_DIR: other, HOST: '127.0.0.1', PORT: String(service!.port) }, 60_000);
      expect(httpTaken.code).toBe(1);
      // node-cron may warn on stderr about its missed ticks on a busy machine; the refusal is the last line, without a stack.
      expect(httpTaken.stderr).not.toMatch(/^\s+at /m);
      expect(httpTaken.stderr.trim().split('\n').at(-1)).toBe(
        `Invalid configuration: PORT ${service!.port} is already in use on 127.0.0.1 (another instance?); stop it or set PORT to a free port`,
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 90_000);
});
