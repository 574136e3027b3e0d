/**
 * Issue 43, the desktop program's trust boundary: with exactly what `npm run db:info` prints, the
 * `desktop` role reads and writes the legacy tables (its writes reach the scoreboards as
 * `source: "legacy"`), and cannot forge or erase the record: no service marker, no service table,
 * no TRUNCATE, no service function, no advisory lock, no table of its own, no temporary table
 * standing in for the outbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { RELEASE_SCOPE_LOCK_CLASS, RETENTION_LOCK_KEY, SEQUENCER_LOCK_KEY } from '../../src/db/advisory-locks.js';
import { withTables, type WithTables } from '../../src/db/pool.js';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { killIfRunning, runScript, startService, stopClusterProcesses, type ServiceProcess } from '../support/process.js';
import { openScoreboard, waitForEvent, type Scoreboard } from '../support/realtime.js';
import { waitFor } from '../support/server.js';
import { t } from '../support/tables.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-desktop-trust-'));
let service: ServiceProcess;
let board: Scoreboard | undefined;
let desktop: pg.Pool & WithTables;
let competition: Competition;
let discipline: Discipline;
let scoreId: number;

beforeAll(async () => {
  const env = { DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  service = await startService(env);
  const info = await runScript('scripts/db-info.ts', [], env);
  const url = /^url:\s+(\S+)$/m.exec(info.stdout)?.[1];
  expect(url).toMatch(/^postgres:\/\/desktop:/);
  desktop = withTables(new pg.Pool({ connectionString: url, max: 2 }), t);
  desktop.on('error', () => undefined);

  // What the desktop program has always done: its event, discipline, participants and scores.
  competition = await createCompetition(desktop, 'Vereinsmeisterschaft');
  discipline = await insertDiscipline(desktop, { name: 'Pauschenpferd' });
  ({ scoreId } = await insertParticipantWithScoreRow(desktop, competition, { lastName: 'Vomdesktop', squadName: 'R1' }));
  board = await openScoreboard(service.url, competition.eventId);
}, 180_000);

afterAll(async () => {
  board?.socket.disconnect();
  await desktop?.end().catch(() => undefined);
  if (service) await killIfRunning(service);
  await stopClusterProcesses(path.join(dataDir, 'pg'));
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** The SQLSTATE a statement of the desktop role fails with (null: it succeeded). */
async function refusal(sql: string, values: unknown[] = []): Promise<string | null> {
  const client = await desktop.connect();
  try {
    await client.query('BEGIN');
    await client.query(sql, values);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

const finalValue = async () =>
  (await desktop.query<{ value: number }>(`SELECT rel_leistung AS value FROM ${t.wertungen_details} WHERE int_wertungenid = $1`, [scoreId]))
    .rows;

describe('the desktop role', () => {
  it('writes the legacy tables, and its writes reach the scoreboards as source "legacy"', async () => {
    await desktop.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.5)`,
      [scoreId, discipline.id],
    );
    expect(await waitForEvent(board!.events, (event) => event.scoreId === scoreId, 10_000)).toMatchObject({ source: 'legacy', score: 8.5 });
  });

  it('cannot pass its write off as an API save by setting the service marker', async () => {
    const client = await desktop.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `SELECT set_config('gym.origin', 'api', true), set_config('gym.actor', 'Head Judge Maria', true), set_config('gym.role', 'head', true)`,
      );
      const forged = await client.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.9 WHERE int_wertungenid = $1`, [scoreId]).then(
        () => null,
        (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
      );
      expect(forged).toEqual({ code: '42501', message: 'gym.origin is set by the service only' });
      await client.query('ROLLBACK');
      // Nor a squad move: the score rows' trigger asks the same question.
      await client.query('BEGIN');
      await client.query(`SELECT set_config('gym.origin', 'api', true)`);
      await expect(client.query(`UPDATE ${t.wertungen} SET var_riege = 'ZZ' WHERE int_wertungenid = $1`, [scoreId])).rejects.toMatchObject({
        code: '42501',
      });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await finalValue()).toEqual([{ value: 8.5 }]);
  });

  it('cannot read or change the service tables, truncate, call service functions, take the service locks or create tables', async () => {
    // A release the desktop program would like to undo.
    const released = await postJson(
      `${service.url}/api/releases`,
      { competitionId: competition.competitionId, disciplineId: discipline.id },
      { authorization: `Bearer ${await headToken()}` },
    );
    expect(released.status).toBe(200);
    const statements: Array<[string, unknown[]]> = [
      [`DELETE FROM ${t.svc_score_audit}`, []],
      [`SELECT * FROM ${t.svc_score_audit}`, []],
      [`DELETE FROM ${t.svc_releases}`, []],
      [`SELECT * FROM ${t.svc_releases}`, []],
      [
        `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload) VALUES ('score-updated', $1, 'api', '{"scoreId": 1, "score": 10}')`,
        [competition.eventId],
      ],
      [`UPDATE ${t.svc_outbox} SET payload = '{}'`, []],
      [`SELECT nextval('${t.svc_outbox_seq}')`, []],
      [`DELETE FROM ${t.svc_panel_settings}`, []],
      [`SELECT * FROM ${t.svc_settings}`, []],
      [`DELETE FROM ${t.svc_migrations}`, []],
      [`TRUNCATE ${t.jury_results}`, []],
      [`TRUNCATE ${t.wertungen_details}`, []],
      [`TRUNCATE ${t.wertungen} CASCADE`, []],
      [`SELECT ${t.prefix}svc_apply_legacy_captures('{}'::bigint[])`, []],
      [`SELECT ${t.prefix}svc_audit_change($1, $2, NULL, 1, 8.5, 1, false)`, [scoreId, discipline.id]],
      [`SELECT ${t.prefix}svc_limit_desktop_role('desktop')`, []],
      [`SELECT pg_try_advisory_lock($1)`, [SEQUENCER_LOCK_KEY]],
      [`SELECT pg_try_advisory_xact_lock($1)`, [RETENTION_LOCK_KEY]],
      [`SELECT pg_try_advisory_xact_lock($1, $2)`, [RELEASE_SCOPE_LOCK_CLASS, competition.competitionId]],
      [`CREATE TABLE ${t.prefix}own_table (id integer)`, []],
    ];
    const answers = [];
    for (const [sql, values] of statements) answers.push([sql.split(' ').slice(0, 3).join(' '), await refusal(sql, values)]);
    expect(answers).toEqual(statements.map(([sql]) => [sql.split(' ').slice(0, 3).join(' '), '42501']));
    // Still released, still recorded, still its value.
    const refusedWrite = await postJson(`${service.url}/api/scores/save-value`, {
      competitionId: competition.competitionId,
      participantId: scoreId,
      disciplineId: discipline.id,
      score: 1,
    });
    expect(refusedWrite.status).toBe(409);
    expect(await finalValue()).toEqual([{ value: 8.5 }]);
    const history = await fetch(`${service.url}/api/scores/${scoreId}/history`, {
      headers: { authorization: `Bearer ${await headToken()}` },
    }).then((response) => response.json());
    expect(history.changes).toEqual([expect.objectContaining({ source: 'legacy', to: 8.5 })]);
  });

  it('cannot divert the capture of its write into a temporary table of its own', async () => {
    const client = await desktop.connect();
    try {
      await client.query(
        `CREATE TEMPORARY TABLE ${t.svc_outbox} (id bigserial, topic text, event_id integer, source text, payload jsonb, seq bigint,
                                                created_at timestamptz DEFAULT now(), sequenced_at timestamptz)`,
      );
      const seen = board!.events.length;
      await client.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 7.25 WHERE int_wertungenid = $1`, [scoreId]);
      expect((await client.query(`SELECT count(*)::int AS n FROM ${t.svc_outbox}`)).rows).toEqual([{ n: 0 }]);
      await waitFor(() => board!.events.slice(seen).find((event) => event.scoreId === scoreId && event.score === 7.25), {
        timeoutMs: 10_000,
        message: 'the desktop write reached the scoreboard',
      });
    } finally {
      client.release();
    }
  });
});

/** A head judge's token, signed with the service's generated secret (as `npm run token` does). */
async function headToken(): Promise<string> {
  const printed = await runScript('scripts/token.ts', ['--sub', 'oberkampfrichter', '--role', 'head'], {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  return printed.stdout.trim().split('\n').at(-1)!;
}
