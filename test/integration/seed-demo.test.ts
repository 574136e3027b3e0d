import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPanelSettings } from '../../commands/panel-settings.js';
import { createCommandRunner } from '../../commands/run-command.js';
import { migrateDatabase } from '../../src/db/database.js';
import { DemoSeedRefused, seedDemo, type DemoSummary } from '../../scripts/demo-seed.js';
import { createPool, type Pool, type TxClient } from '../../src/db/pool.js';
import { createTables } from '../../src/db/tables.js';
import { TEST_TABLE_PREFIX } from '../support/tables.js';
import { bindLettersToResults, evaluate, parse } from '../../src/domain/formula.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { runScript } from '../support/process.js';
import { TEST_JWT_SECRET } from '../support/server.js';

const logger = pino({ level: 'silent' });
const databases: TestDatabase[] = [];
const pools: Pool[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-seed-'));

async function database(options: { empty?: boolean; prefix?: string } = {}): Promise<{ db: TestDatabase; pool: Pool }> {
  const db = await createTestDatabase(options);
  databases.push(db);
  const pool = createPool({ connectionString: db.url, tables: createTables(options.prefix ?? TEST_TABLE_PREFIX), max: 2 }, logger);
  pools.push(pool);
  return { db, pool };
}

/** Seeds in this process, counting the statements the seed runs inside its transaction. */
async function seedCounting(pool: Pool, options: { force?: boolean } = {}): Promise<{ summary: DemoSummary; statements: number }> {
  let statements = 0;
  const summary = await createCommandRunner(pool).run((tx) => {
    const counting = Object.create(tx) as TxClient;
    counting.query = ((...args: Parameters<TxClient['query']>) => {
      statements++;
      return (tx.query as (...a: unknown[]) => unknown)(...args);
    }) as TxClient['query'];
    return seedDemo(counting, options);
  });
  return { summary, statements };
}

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await Promise.all(databases.map((db) => db.drop()));
  rmSync(dataDir, { recursive: true, force: true });
});

let pool: Pool;
let summary: DemoSummary;
let statements: number;
beforeAll(async () => {
  ({ pool } = await database());
  ({ summary, statements } = await seedCounting(pool));
});

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> => (await pool.query(sql, params)).rows[0] as T;
const all = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await pool.query(sql, params)).rows as T[];

describe('npm run seed:demo', () => {
  it('writes the event in one transaction of set-wise statements', () => {
    // LOCK, the emptiness check and one INSERT per table (scores twice: individual and group/team).
    expect(statements).toBeLessThanOrEqual(20);
  });

  it('creates clubs and 80+ individual participants of both genders aged 6-18 on the first day', async () => {
    expect(summary.clubs.length).toBeGreaterThanOrEqual(4);
    const people = await one<{ total: number; female: number; male: number; youngest: number; oldest: number; undated: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE int_geschlecht = 2)::int AS female,
              count(*) FILTER (WHERE int_geschlecht = 1)::int AS male,
              min(date_part('year', age(e.dat_von, p.dat_geburtstag)))::int AS youngest,
              max(date_part('year', age(e.dat_von, p.dat_geburtstag)))::int AS oldest,
              count(*) FILTER (WHERE dat_geburtstag IS NULL)::int AS undated
         FROM app_teilnehmer p JOIN app_veranstaltungen e ON e.int_veranstaltungenid = p.int_eventid
        WHERE p.var_typ IS DISTINCT FROM 'Gruppe'`,
    );
    expect(people.total).toBeGreaterThanOrEqual(80);
    expect(people.female).toBeGreaterThan(0);
    expect(people.male).toBeGreaterThan(0);
    expect(people).toMatchObject({ youngest: 6, oldest: 18, undated: 0 });
    const clubs = await one<{ clubs: number }>('SELECT count(DISTINCT int_vereineid)::int AS clubs FROM app_teilnehmer');
    expect(clubs.clubs).toBeGreaterThanOrEqual(4);
  });

  it('gives regular devices 5+ fields plus one final field and a formula with a start value', async () => {
    const apparatus = summary.disciplines.filter((d) => d.kind === 'apparatus');
    expect(apparatus.length).toBeGreaterThanOrEqual(4);
    for (const discipline of apparatus) {
      const fields = await all<{ final: boolean }>(
        'SELECT bol_endwert AS final FROM app_disziplinen_felder WHERE int_disziplinenid = $1 ORDER BY COALESCE(int_sortierung, int_reihenfolge)',
        [discipline.id],
      );
      expect(fields.filter((field) => !field.final).length, discipline.name).toBeGreaterThanOrEqual(5);
      expect(fields.map((field) => field.final).lastIndexOf(true), discipline.name).toBe(fields.length - 1);
      expect(fields.filter((field) => field.final)).toHaveLength(1);
      expect(discipline.formula, discipline.name).toMatch(/^\s*\(*\d/);
    }
  });

  it('gives P devices exactly a stage field, AbzugAusf. and the final Endwert', async () => {
    const pDevices = summary.disciplines.filter((d) => d.kind === 'p-device');
    expect(pDevices.length).toBeGreaterThanOrEqual(3);
    const rows = await all<{ discipline: number; names: string[]; finals: boolean[] }>(
      `SELECT int_disziplinenid AS discipline, array_agg(var_name ORDER BY int_sortierung) AS names, array_agg(bol_endwert ORDER BY int_sortierung) AS finals
         FROM app_disziplinen_felder WHERE int_disziplinenid = ANY($1::int[]) GROUP BY 1`,
      [pDevices.map((d) => d.id)],
    );
    expect(rows).toHaveLength(pDevices.length);
    for (const row of rows) expect(row).toMatchObject({ names: ['Stufe', 'AbzugAusf.', 'Endwert'], finals: [false, false, true] });
  });

  it('keeps some formulas as records and some on the discipline, with input masks and decimals', async () => {
    const disciplines = await all<{
      name: string;
      record: string | null;
      own: string | null;
      mask: string | null;
      decimals: number | null;
    }>(
      `SELECT d.var_name AS name, f.var_formel AS record, d.var_formel AS own, d.var_eingabemaske AS mask, d.int_berechnung AS decimals
         FROM app_disziplinen d LEFT JOIN app_formeln f ON f.int_formelid = d.int_formelid`,
    );
    expect(disciplines.filter((d) => d.record !== null).length).toBeGreaterThan(0);
    expect(disciplines.filter((d) => d.record === null && d.own !== null).length).toBeGreaterThan(0);
    expect(new Set(disciplines.map((d) => d.mask))).toEqual(new Set(['00.000', '00,00', '0,00', '0:00.00']));
    expect(disciplines.every((d) => d.decimals !== null && d.decimals >= 2)).toBe(true);
  });

  it('adds a group competition with groups and group-type participants, and a team competition with teams', async () => {
    const group = summary.competitions.find((c) => c.kind === 'group')!;
    const team = summary.competitions.find((c) => c.kind === 'team')!;
    expect(await one(`SELECT bol_gruppe FROM app_wettkaempfe WHERE int_wettkaempfeid = $1`, [group.id])).toEqual({ bol_gruppe: true });
    expect(summary.groups.length).toBeGreaterThanOrEqual(2);
    expect(summary.teams.length).toBeGreaterThanOrEqual(2);
    expect(summary.participants.groupMembers).toBeGreaterThan(0);
    const members = await one<{ count: number }>(
      `SELECT count(*)::int AS count FROM app_teilnehmer WHERE var_typ = 'Gruppe' AND int_eventid = $1`,
      [summary.event.id],
    );
    expect(members.count).toBe(summary.participants.groupMembers);
    const rows = await all<{ participant: number | null; group: number | null; team: number | null }>(
      `SELECT int_teilnehmerid AS participant, int_gruppenid AS group, int_mannschaftenid AS team FROM app_wertungen WHERE int_wettkaempfeid = ANY($1::int[])`,
      [[group.id, team.id]],
    );
    expect(rows.filter((row) => row.group !== null && row.participant === null)).toHaveLength(summary.groups.length);
    expect(rows.filter((row) => row.team !== null && row.participant === null)).toHaveLength(summary.teams.length);
  });

  it('plans every individual participant into a squad of at most 5 characters, with one detail row per discipline', async () => {
    const rows = await all<{ squad: string | null; details: number; disciplines: number }>(
      `SELECT w.var_riege AS squad, count(d.*)::int AS details,
              (SELECT count(*) FROM app_wertungen_details x WHERE x.int_wertungenid = w.int_wertungenid)::int AS disciplines
         FROM app_wertungen w LEFT JOIN app_wertungen_details d ON d.int_wertungenid = w.int_wertungenid AND d.int_kp = 0
        WHERE w.int_teilnehmerid IS NOT NULL GROUP BY w.int_wertungenid`,
    );
    expect(rows.length).toBe(summary.participants.individual);
    for (const row of rows) {
      expect(row.squad).toMatch(/^.{1,5}$/);
      expect(row.details).toBeGreaterThanOrEqual(3);
    }
  });

  it('stores captured individual scores whose jury results and detail value agree with the formula', async () => {
    const captured = await all<{ formula: string; values: number[]; final: number; detail: number }>(
      `SELECT COALESCE(f.var_formel, d.var_formel) AS formula,
              -- With an E-panel the formula's letters skip the judges' fields.
              array_agg(j.rel_leistung ORDER BY ff.int_sortierung)
                FILTER (WHERE NOT ff.bol_endwert AND ff.int_disziplinen_felderid <> ALL(COALESCE(ps.judge_field_ids, '{}'))) AS values,
              max(j.rel_leistung) FILTER (WHERE ff.bol_endwert) AS final,
              max(det.rel_leistung) AS detail
         FROM app_jury_results j
         JOIN app_disziplinen_felder ff ON ff.int_disziplinen_felderid = j.int_disziplinen_felderid
         JOIN app_disziplinen d ON d.int_disziplinenid = ff.int_disziplinenid
         LEFT JOIN app_formeln f ON f.int_formelid = d.int_formelid
         LEFT JOIN app_svc_panel_settings ps ON ps.discipline_id = d.int_disziplinenid
         JOIN app_wertungen_details det ON det.int_wertungenid = j.int_wertungenid AND det.int_disziplinenid = d.int_disziplinenid AND det.int_kp = 0
        GROUP BY j.int_wertungenid, d.int_disziplinenid, f.var_formel, d.var_formel, ps.judge_field_ids`,
    );
    expect(captured.length).toBe(summary.scores.capturedValues);
    expect(captured.length).toBeGreaterThanOrEqual(10);
    for (const score of captured) {
      const parsed = parse(score.formula);
      if (!parsed.ok) throw new Error(parsed.error);
      const expected = evaluate(parsed.expr, bindLettersToResults(parsed.expr, score.values))!;
      expect(score.final).toBeCloseTo(expected, 4);
      expect(score.detail).toBe(score.final);
    }
    const withValue = await one<{ count: number }>(
      'SELECT count(*)::int AS count FROM app_wertungen_details WHERE int_kp = 0 AND rel_leistung IS NOT NULL',
    );
    expect(withValue.count).toBe(summary.scores.capturedValues);
  });

  it('stores a captured group and team score as one detail row per field, the final one consistent with the formula', async () => {
    for (const example of [summary.scores.groupExample, summary.scores.teamExample]) {
      const discipline = summary.disciplines.find((d) => d.id === example.disciplineId)!;
      const rows = await all<{ field: number; value: number }>(
        'SELECT int_kp AS field, rel_leistung AS value FROM app_wertungen_details WHERE int_wertungenid = $1 AND int_disziplinenid = $2 AND int_versuch = 1 ORDER BY int_kp',
        [example.scoreId, discipline.id],
      );
      expect(rows.map((row) => row.field)).toEqual(discipline.fields.map((field) => field.id));
      const values = new Map(discipline.fields.map((field, index) => [field.shortName, rows[index]!.value]));
      const parsed = parse(discipline.formula!);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(evaluate(parsed.expr, values)).toBeCloseTo(rows.at(-1)!.value, 4);
      expect(rows.at(-1)!.value).toBeCloseTo(example.finalScore, 4);
    }
  });

  it('sets up a device with a five-judge E-panel whose stored aggregates are what the panel computes', async () => {
    const panelled = summary.disciplines.filter((d) => d.panel !== null);
    expect(panelled.map((d) => d.name)).toEqual(['Balken']);
    const { judgeFieldIds, aggregateFieldId } = panelled[0]!.panel!;
    expect(judgeFieldIds).toHaveLength(5);
    const captured = await one<{ count: number }>(
      `SELECT count(*)::int AS count FROM app_jury_results WHERE int_disziplinen_felderid = $1 AND rel_leistung IS NOT NULL`,
      [aggregateFieldId],
    );
    expect(captured.count).toBeGreaterThan(0);
    // The seeded aggregates are the panel's own: saving the settings again replaces nothing (no 409).
    const saved = await createCommandRunner(pool).run((tx) =>
      setPanelSettings(tx, panelled[0]!.id, { judgeFieldIds, aggregation: 'trimmed-mean', aggregateFieldId }, 'test'),
    );
    expect(saved).toMatchObject({ judgeFieldIds, aggregateFieldId, size: 5, tolerance: 0.5 });
  });

  it('does not announce the demo rows as live score events', async () => {
    expect(await one('SELECT count(*)::int AS count FROM app_svc_outbox')).toEqual({ count: 0 });
  });

  it('is deterministic: a second empty database gets the same ids, names and values', async () => {
    const { pool: other } = await database();
    const { summary: again } = await seedCounting(other);
    expect(again).toEqual(summary);
  });

  it('refuses a database that already holds an event unless forced', async () => {
    const before = await one<{ count: number }>('SELECT count(*)::int AS count FROM app_teilnehmer');
    await expect(seedCounting(pool)).rejects.toBeInstanceOf(DemoSeedRefused);
    expect(await one('SELECT count(*)::int AS count FROM app_teilnehmer')).toEqual(before);

    const { summary: forced } = await seedCounting(pool, { force: true });
    expect(forced.event.id).not.toBe(summary.event.id);
    expect(await one('SELECT count(*)::int AS count FROM app_veranstaltungen')).toEqual({ count: 2 });
  });

  it('writes only through the configured table prefix', async () => {
    const { db, pool: prefixed } = await database({ empty: true, prefix: 'xyz_' });
    await migrateDatabase(db.url, prefixed.tables, logger);
    const { summary: inPrefix } = await seedCounting(prefixed);
    expect((await prefixed.query('SELECT count(*)::int AS count FROM xyz_teilnehmer')).rows[0]).toEqual({
      count: inPrefix.participants.individual + inPrefix.participants.groupMembers,
    });
  });

  it('runs as a command: prints the ids and curl examples, and refuses politely the second time', async () => {
    const { db, pool: target } = await database();
    const env = { DATABASE_URL: db.url, JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: dataDir, PORT: '3999' };
    const first = await runScript('scripts/seed-demo.ts', [], env, 60_000);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const { capturedExample, pendingExample } = summary.scores;
    expect(first.stdout).toContain(`Demo event ${summary.event.id}: ${summary.event.name}`);
    expect(first.stdout).toContain(
      `score ${capturedExample.scoreId} (${capturedExample.participant}, ${capturedExample.discipline} = ${capturedExample.finalScore})`,
    );
    expect(first.stdout).toContain(`curl -s 'http://127.0.0.1:3999/api/scores?eventId=${summary.event.id}&limit=5'`);
    expect(first.stdout).toContain(`"participantId": ${pendingExample.scoreId}`);

    const second = await runScript('scripts/seed-demo.ts', ['--json'], env, 60_000);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toMatch(/^Nothing seeded: the database already holds 1 event\(s\)\. .*--force/);
    expect((await target.query('SELECT count(*)::int AS count FROM app_veranstaltungen')).rows[0]).toEqual({ count: 1 });
  });
});
