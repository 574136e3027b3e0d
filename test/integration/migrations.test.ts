import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/db/database.js';
import { readMigrations } from '../../src/db/migrate.js';
import { createTables } from '../../src/db/tables.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const logger = pino({ level: 'silent' });
const databases: TestDatabase[] = [];
const clients: pg.Client[] = [];

async function freshDatabase(options: { empty?: boolean } = { empty: true }): Promise<{ db: TestDatabase; client: pg.Client }> {
  const db = await createTestDatabase(options);
  databases.push(db);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  clients.push(client);
  return { db, client };
}

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await Promise.all(databases.map((db) => db.drop()));
});

/** Every relation, column, constraint, index, function and trigger in schema public, as text. */
async function layoutOf(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ item: string }>(
    `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '') AS item
       FROM information_schema.columns WHERE table_schema = 'public'
     UNION ALL
     SELECT 'relation ' || c.relname || ' ' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
     UNION ALL
     SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
     UNION ALL
     SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL
     SELECT 'function ' || p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
     UNION ALL
     SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
     ORDER BY 1`,
  );
  return rows.map((row) => row.item);
}

describe('migrations', () => {
  it('apply every migration once; a second run applies nothing and changes nothing', async () => {
    const { db, client } = await freshDatabase();
    const applied = await migrateDatabase(db.url, createTables('app_'), logger);
    expect(applied).toEqual(readMigrations().map((migration) => migration.name));
    const before = await layoutOf(client);

    expect(await migrateDatabase(db.url, createTables('app_'), logger)).toEqual([]);
    expect(await layoutOf(client)).toEqual(before);
    const { rows } = await client.query('SELECT id, name FROM app_svc_migrations ORDER BY id');
    expect(rows.map((row) => row.name)).toEqual(applied);
  });

  it('two instances migrating the same database at once apply each migration exactly once', async () => {
    const { db } = await freshDatabase();
    const [first, second] = await Promise.all([
      migrateDatabase(db.url, createTables('app_'), logger),
      migrateDatabase(db.url, createTables('app_'), logger),
    ]);
    expect([...first, ...second].sort()).toEqual(readMigrations().map((migration) => migration.name));
  });

  it('with TABLE_PREFIX xyz_ every object created in schema public carries the prefix', async () => {
    const { db, client } = await freshDatabase();
    await migrateDatabase(db.url, createTables('xyz_'), logger);
    const { rows: relations } = await client.query<{ name: string; kind: string }>(
      `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
    );
    const tables = relations.filter((relation) => relation.kind === 'r' || relation.kind === 'p');
    expect(tables.length).toBeGreaterThanOrEqual(17);
    expect(relations.filter((relation) => !relation.name.startsWith('xyz_'))).toEqual([]);
    const { rows: functions } = await client.query<{ name: string }>(
      `SELECT proname AS name FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
    );
    expect(functions.filter((fn) => !fn.name.startsWith('xyz_'))).toEqual([]);
    const { rows: statuses } = await client.query('SELECT int_statusid AS id, var_name AS name FROM xyz_status ORDER BY 1');
    expect(statuses).toEqual([
      { id: 1, name: 'Pending' },
      { id: 9, name: 'Leistung erfasst' },
    ]);
  });

  it('create the contract layout: foreign keys, the jury-result key and status rows', async () => {
    const { client } = await freshDatabase({ empty: false });
    const { rows } = await client.query<{ link: string }>(
      `SELECT c.conrelid::regclass || '.' || a.attname || ' -> ' || c.confrelid::regclass AS link
         FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
    );
    expect(rows.map((row) => row.link)).toEqual(
      expect.arrayContaining([
        'app_wertungen.int_wettkaempfeid -> app_wettkaempfe',
        'app_wertungen.int_teilnehmerid -> app_teilnehmer',
        'app_wertungen.int_gruppenid -> app_gruppen',
        'app_wertungen.int_mannschaftenid -> app_mannschaften',
        'app_wertungen.int_statusid -> app_status',
        'app_wertungen_details.int_wertungenid -> app_wertungen',
        'app_wertungen_details.int_disziplinenid -> app_disziplinen',
        'app_jury_results.int_wertungenid -> app_wertungen',
        'app_jury_results.int_disziplinen_felderid -> app_disziplinen_felder',
        'app_disziplinen_felder.int_disziplinenid -> app_disziplinen',
        'app_disziplinen.int_formelid -> app_formeln',
        'app_wettkaempfe.int_veranstaltungenid -> app_veranstaltungen',
      ]),
    );
    const { rows: indexes } = await client.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'app_jury_results'`,
    );
    expect(indexes.map((index) => index.indexdef)).toContainEqual(
      expect.stringMatching(/^CREATE UNIQUE INDEX .* \(int_wertungenid, int_disziplinen_felderid, int_versuch\)$/),
    );
    const { rows: statuses } = await client.query('SELECT int_statusid AS id FROM app_status ORDER BY 1');
    expect(statuses).toEqual([{ id: 1 }, { id: 9 }]);
  });
});

// A database the legacy desktop program created: its own shape (one sort column only, no input
// mask or decimals on disciplines, a status row named differently) and rows of a running event.
const LEGACY_LAYOUT = `
  CREATE TABLE app_veranstaltungen (int_veranstaltungenid serial PRIMARY KEY, var_name varchar(100) NOT NULL, dat_von date, dat_bis date);
  CREATE TABLE app_wettkaempfe (int_wettkaempfeid serial PRIMARY KEY, int_veranstaltungenid integer NOT NULL REFERENCES app_veranstaltungen, var_name varchar(100), bol_gruppe boolean DEFAULT false, int_versuche integer DEFAULT 1);
  CREATE TABLE app_vereine (int_vereineid serial PRIMARY KEY, var_name varchar(100) NOT NULL);
  CREATE TABLE app_status (int_statusid integer PRIMARY KEY, var_name varchar(50));
  CREATE TABLE app_teilnehmer (int_teilnehmerid serial PRIMARY KEY, var_vorname varchar(100), var_nachname varchar(100), var_startnummer varchar(20),
    int_vereineid integer REFERENCES app_vereine, int_eventid integer, var_typ varchar(20), int_geschlecht integer, dat_geburtstag date);
  CREATE TABLE app_formeln (int_formelid serial PRIMARY KEY, var_name varchar(100) NOT NULL, var_formel varchar(500) NOT NULL, var_typ varchar(20), int_typ integer);
  CREATE TABLE app_disziplinen (int_disziplinenid serial PRIMARY KEY, int_bereicheid integer, int_sportid integer, var_name varchar(100) NOT NULL,
    var_anzeigename varchar(100), var_kurzname varchar(20), bol_m boolean, bol_w boolean, int_extsystemid integer, var_formel varchar(500), int_formelid integer REFERENCES app_formeln);
  CREATE TABLE app_disziplinen_felder (int_disziplinen_felderid serial PRIMARY KEY, int_disziplinenid integer NOT NULL REFERENCES app_disziplinen,
    var_name varchar(50), var_kurzname varchar(10), int_reihenfolge integer, bol_endwert boolean DEFAULT false, bol_ausgangswert boolean DEFAULT false, int_gruppe integer, bol_enabled boolean DEFAULT true);
  CREATE TABLE app_wertungen (int_wertungenid serial PRIMARY KEY, int_wettkaempfeid integer NOT NULL REFERENCES app_wettkaempfe, int_teilnehmerid integer REFERENCES app_teilnehmer,
    int_gruppenid integer, int_mannschaftenid integer, int_statusid integer NOT NULL REFERENCES app_status, int_runde smallint DEFAULT 1, int_startnummer integer,
    bol_ak boolean DEFAULT false, bol_startet_nicht boolean DEFAULT false, var_riege varchar(5), var_comment varchar(150));
  CREATE TABLE app_wertungen_details (int_wertungen_detailsid serial PRIMARY KEY, int_wertungenid integer NOT NULL REFERENCES app_wertungen, int_disziplinenid integer NOT NULL REFERENCES app_disziplinen,
    int_versuch smallint DEFAULT 1, rel_leistung real, int_kp smallint DEFAULT 0);
  CREATE TABLE app_jury_results (int_juryresultsid serial PRIMARY KEY, int_wertungenid integer REFERENCES app_wertungen, int_disziplinen_felderid integer REFERENCES app_disziplinen_felder,
    rel_leistung real, int_versuch integer DEFAULT 1, int_kp integer DEFAULT 0);

  INSERT INTO app_veranstaltungen (var_name, dat_von, dat_bis) VALUES ('Kreisturnfest 2019', '2019-06-01', '2019-06-02');
  INSERT INTO app_wettkaempfe (int_veranstaltungenid, var_name) VALUES (1, 'Einzel AK 10');
  INSERT INTO app_vereine (var_name) VALUES ('TV Altstadt'), ('SV Neudorf');
  INSERT INTO app_status VALUES (1, 'Offen'), (5, 'Disqualifiziert'), (9, 'Leistung erfasst');
  INSERT INTO app_teilnehmer (var_vorname, var_nachname, var_startnummer, int_vereineid, int_eventid, var_typ, int_geschlecht, dat_geburtstag)
    VALUES ('Eva', 'Roth', '7', 1, 1, NULL, 2, '2009-03-04'), ('Max', 'Bauer', '8', 2, 1, 'Gruppe', 1, NULL);
  INSERT INTO app_formeln (var_name, var_formel, var_typ) VALUES ('Kür', '10 + A - B', 'Endwert');
  INSERT INTO app_disziplinen (var_name, bol_m, bol_w, var_formel, int_formelid) VALUES ('Boden', true, true, NULL, 1), ('Sprung', true, true, 'A - B', NULL);
  INSERT INTO app_disziplinen_felder (int_disziplinenid, var_name, var_kurzname, int_reihenfolge, bol_endwert) VALUES (1, 'D-Note', 'D', 1, false), (1, 'Abzug', 'E', 2, false), (1, 'Endwert', 'EW', 3, true);
  INSERT INTO app_wertungen (int_wettkaempfeid, int_teilnehmerid, int_statusid, var_riege) VALUES (1, 1, 9, 'R1'), (1, 2, 5, NULL);
  INSERT INTO app_wertungen_details (int_wertungenid, int_disziplinenid, rel_leistung) VALUES (1, 1, 12.35), (2, 1, NULL);
  INSERT INTO app_jury_results (int_wertungenid, int_disziplinen_felderid, rel_leistung) VALUES (1, 1, 3.5), (1, 2, 1.15), (1, 3, 12.35);
`;

const LEGACY_TABLES = [
  'veranstaltungen',
  'wettkaempfe',
  'vereine',
  'status',
  'teilnehmer',
  'formeln',
  'disziplinen',
  'disziplinen_felder',
  'wertungen',
  'wertungen_details',
  'jury_results',
];

/** Row contents plus physical identity (ctid, xmin): an UPDATE or a table rewrite changes the latter. */
async function legacyRows(client: pg.Client): Promise<Record<string, Array<{ row: Record<string, unknown>; version: string }>>> {
  const snapshot: Record<string, Array<{ row: Record<string, unknown>; version: string }>> = {};
  for (const table of LEGACY_TABLES) {
    const { rows } = await client.query<{ row: Record<string, unknown>; version: string }>(
      `SELECT to_jsonb(t) AS row, ctid::text || '/' || xmin::text AS version FROM app_${table} t ORDER BY ctid`,
    );
    snapshot[table] = rows;
  }
  return snapshot;
}

describe('migrations on a database the legacy program already uses', () => {
  it('keep every legacy row as it is and add only what is missing', async () => {
    const { db, client } = await freshDatabase();
    await client.query(LEGACY_LAYOUT);
    const before = await legacyRows(client);

    await migrateDatabase(db.url, createTables('app_'), logger);

    const after = await legacyRows(client);
    for (const table of LEGACY_TABLES) {
      const oldRows = before[table]!;
      const newRows = after[table]!;
      expect(
        newRows.map((entry) => entry.version),
        table,
      ).toEqual(oldRows.map((entry) => entry.version));
      // Added columns are NULL on old rows; every legacy column keeps its value.
      newRows.forEach((entry, index) => {
        const old = oldRows[index]!.row;
        const added = Object.keys(entry.row).filter((column) => !(column in old));
        expect(Object.fromEntries(added.map((column) => [column, entry.row[column]])), table).toEqual(
          Object.fromEntries(added.map((column) => [column, null])),
        );
        expect(Object.fromEntries(Object.keys(old).map((column) => [column, entry.row[column]])), table).toEqual(old);
      });
    }
    const { rows: added } = await client.query<{ column: string }>(
      `SELECT table_name || '.' || column_name AS column FROM information_schema.columns
        WHERE table_schema = 'public' AND (table_name, column_name) IN (('app_disziplinen', 'var_eingabemaske'), ('app_disziplinen', 'int_berechnung'), ('app_disziplinen_felder', 'int_sortierung'))`,
    );
    expect(added.map((row) => row.column).sort()).toEqual([
      'app_disziplinen.int_berechnung',
      'app_disziplinen.var_eingabemaske',
      'app_disziplinen_felder.int_sortierung',
    ]);
    const { rows: uniqueness } = await client.query(
      `SELECT 1 FROM pg_indexes WHERE tablename = 'app_jury_results' AND indexdef LIKE 'CREATE UNIQUE INDEX % (int_wertungenid, int_disziplinen_felderid, int_versuch)'`,
    );
    expect(uniqueness).toHaveLength(1);
    // The legacy name of status 1 stays; the tables the legacy program lacked now exist.
    expect((await client.query('SELECT var_name FROM app_status WHERE int_statusid = 1')).rows).toEqual([{ var_name: 'Offen' }]);
    expect(
      (await client.query(`SELECT to_regclass('app_gruppen') IS NOT NULL AS groups, to_regclass('app_mannschaften') IS NOT NULL AS teams`))
        .rows,
    ).toEqual([{ groups: true, teams: true }]);
  });

  it('fail loudly, and apply nothing of that migration, when legacy jury results break the insert-or-update key', async () => {
    const { db, client } = await freshDatabase();
    await client.query(LEGACY_LAYOUT);
    await client.query('INSERT INTO app_jury_results (int_wertungenid, int_disziplinen_felderid, rel_leistung) VALUES (1, 1, 3.6)');
    const before = await legacyRows(client);

    await expect(migrateDatabase(db.url, createTables('app_'), logger)).rejects.toThrow(
      /0001_legacy_layout\.sql failed: could not create unique index/,
    );

    expect(await legacyRows(client)).toEqual(before);
    expect((await client.query(`SELECT to_regclass('app_gruppen') AS groups`)).rows).toEqual([{ groups: null }]);
  });
});
