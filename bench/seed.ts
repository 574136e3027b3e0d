/**
 * Benchmark data, written set-wise straight into the legacy tables (never through the API): the
 * statement count does not depend on how many participants a scenario needs. Every transaction is
 * marked like a service command, so the legacy-write triggers do not turn the seed into outbox events
 * that would reach the scoreboards in the middle of a measurement.
 */
import type pg from 'pg';
import type { WithTables } from '../src/db/pool.js';
import { API_ORIGIN, ORIGIN_SETTING } from '../src/db/origin.js';

export interface BenchDiscipline {
  id: number;
  /** Field ids A, B, C and the final field; formula `A + B - C`. */
  fields: { A: number; B: number; C: number; final: number };
}

export interface BenchEvent {
  eventId: number;
  competitionId: number;
  /** Score rows (wertungenId) in participant order. */
  scoreIds: number[];
}

export interface BenchData {
  disciplines: BenchDiscipline[];
  /** Live latency and the memory soak: portals write field A, B and C are preset. */
  live: BenchEvent;
  /** Command throughput: its own rows, so the live room stays quiet. */
  throughput: BenchEvent;
  /** Read path: every score row has a detail row per discipline and jury results A, B, C, no final. */
  read: BenchEvent;
  squads: BenchEvent;
  /** Fan-out: a few portals write field A, thousands of scoreboards watch the room. */
  fanout: BenchEvent;
}

export interface SeedSizes {
  livePortals: number;
  throughputScores: number;
  readParticipants: number;
  readDisciplines: number;
  squadParticipants: number;
  fanoutPortals: number;
}

const CLUB_COUNT = 24;

async function inTransaction<T>(client: pg.Client & WithTables, work: () => Promise<T>): Promise<T> {
  await client.query(`BEGIN; SET LOCAL ${ORIGIN_SETTING} = '${API_ORIGIN}'`);
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function insertClubs(client: pg.Client & WithTables): Promise<number[]> {
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO ${client.tables.vereine} (var_name) SELECT 'Bench-Verein ' || n FROM generate_series(1, $1::int) AS n RETURNING int_vereineid AS id`,
    [CLUB_COUNT],
  );
  return rows.map((row) => row.id);
}

/** `count` disciplines, each with fields A (sort 1), B (2), C (3) and the final field (4). */
async function insertDisciplines(client: pg.Client & WithTables, count: number): Promise<BenchDiscipline[]> {
  const { rows } = await client.query<{ discipline_id: number; field_ids: number[] }>(
    `WITH d AS (
       INSERT INTO ${client.tables.disziplinen} (var_name, var_kurzname, var_formel, var_eingabemaske)
       SELECT 'Bench-Gerät ' || n, 'BG' || n, 'A + B - C', '00.000' FROM generate_series(1, $1::int) AS n
       RETURNING int_disziplinenid
     ), f AS (
       INSERT INTO ${client.tables.disziplinen_felder} (int_disziplinenid, var_name, var_kurzname, int_sortierung, bol_endwert, bol_ausgangswert)
       SELECT d.int_disziplinenid, x.name, x.short, x.sort, x.final, x.starting
         FROM d CROSS JOIN (VALUES ('Ausgangswert', 'D', 1, false, true), ('Ausführung', 'E', 2, false, false),
                                   ('AbzugAusf.', 'Abz', 3, false, false), ('Endwert', 'End', 4, true, false))
                         AS x(name, short, sort, final, starting)
       RETURNING int_disziplinenid, int_disziplinen_felderid, int_sortierung
     )
     SELECT int_disziplinenid AS discipline_id, array_agg(int_disziplinen_felderid ORDER BY int_sortierung) AS field_ids
       FROM f GROUP BY int_disziplinenid ORDER BY int_disziplinenid`,
    [count],
  );
  return rows.map((row) => {
    const [A, B, C, final] = row.field_ids as [number, number, number, number];
    return { id: row.discipline_id, fields: { A, B, C, final } };
  });
}

/**
 * An event with one competition and `count` participants with one score row each: clubs round
 * robin, genders alternating, ages 6 to 18 on the event's start date.
 */
async function insertEvent(client: pg.Client & WithTables, name: string, count: number, clubIds: readonly number[]): Promise<BenchEvent> {
  const { rows } = await client.query<{ event_id: number; competition_id: number; score_ids: number[] }>(
    `WITH e AS (
       INSERT INTO ${client.tables.veranstaltungen} (var_name, dat_von, dat_bis) VALUES ($1, DATE '2025-05-17', DATE '2025-05-18')
       RETURNING int_veranstaltungenid
     ), c AS (
       INSERT INTO ${client.tables.wettkaempfe} (int_veranstaltungenid, var_name) SELECT int_veranstaltungenid, $1 || ' WK' FROM e
       RETURNING int_wettkaempfeid, int_veranstaltungenid
     ), p AS (
       INSERT INTO ${client.tables.teilnehmer} (var_vorname, var_nachname, var_startnummer, int_vereineid, int_eventid, var_typ, int_geschlecht, dat_geburtstag)
       SELECT 'Vorname' || n, 'Turner ' || n, n::text, ($3::int[])[1 + n % array_length($3::int[], 1)], e.int_veranstaltungenid,
              'Einzel', 1 + n % 2, DATE '2025-05-17' - ((6 + n % 13) * 365 + n % 300)
         FROM e CROSS JOIN generate_series(1, $2::int) AS n
       RETURNING int_teilnehmerid
     ), w AS (
       INSERT INTO ${client.tables.wertungen} (int_wettkaempfeid, int_teilnehmerid, int_statusid)
       SELECT c.int_wettkaempfeid, p.int_teilnehmerid, 1 FROM c CROSS JOIN p ORDER BY p.int_teilnehmerid
       RETURNING int_wertungenid
     )
     SELECT (SELECT int_veranstaltungenid FROM e) AS event_id, (SELECT int_wettkaempfeid FROM c) AS competition_id,
            (SELECT array_agg(int_wertungenid ORDER BY int_wertungenid) FROM w) AS score_ids`,
    [name, count, clubIds],
  );
  const row = rows[0]!;
  return { eventId: row.event_id, competitionId: row.competition_id, scoreIds: row.score_ids };
}

/** Detail rows (value NULL: nothing final yet) and jury results A, B, C for every score × discipline. */
async function insertScoringRows(
  client: pg.Client & WithTables,
  scoreIds: readonly number[],
  disciplines: readonly BenchDiscipline[],
  fields: 'ABC' | 'BC',
): Promise<void> {
  const disciplineIds = disciplines.map((discipline) => discipline.id);
  await client.query(
    `INSERT INTO ${client.tables.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT s, d, 1, 0, NULL FROM unnest($1::int[]) AS s CROSS JOIN unnest($2::int[]) AS d`,
    [scoreIds, disciplineIds],
  );
  const fieldIds = disciplines.flatMap((discipline) =>
    (fields === 'ABC' ? [discipline.fields.A] : []).concat(discipline.fields.B, discipline.fields.C),
  );
  // Values a judge could type (0.0 to 9.9), varied per row so the page is not one repeated value.
  await client.query(
    `INSERT INTO ${client.tables.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
     SELECT s, f, ((s * 7 + f * 3) % 100) / 10.0, 1, 0 FROM unnest($1::int[]) AS s CROSS JOIN unnest($2::int[]) AS f`,
    [scoreIds, fieldIds],
  );
}

export async function seedBenchData(client: pg.Client & WithTables, sizes: SeedSizes): Promise<BenchData> {
  const data = await inTransaction(client, async () => {
    const clubIds = await insertClubs(client);
    const disciplines = await insertDisciplines(client, sizes.readDisciplines);
    const primary = disciplines.slice(0, 1);
    const live = await insertEvent(client, 'Bench Live', sizes.livePortals, clubIds);
    await insertScoringRows(client, live.scoreIds, primary, 'BC');
    const throughput = await insertEvent(client, 'Bench Durchsatz', sizes.throughputScores, clubIds);
    await insertScoringRows(client, throughput.scoreIds, primary, 'BC');
    const read = await insertEvent(client, 'Bench Lesen', sizes.readParticipants, clubIds);
    await insertScoringRows(client, read.scoreIds, disciplines, 'ABC');
    const squads = await insertEvent(client, 'Bench Riegen', sizes.squadParticipants, clubIds);
    const fanout = await insertEvent(client, 'Bench Fan-out', sizes.fanoutPortals, clubIds);
    await insertScoringRows(client, fanout.scoreIds, primary, 'BC');
    return { disciplines, live, throughput, read, squads, fanout };
  });
  // A long-running database has statistics; a freshly loaded one must not be measured without.
  await client.query('ANALYZE');
  return data;
}

/**
 * Puts the read event back to "nothing calculated yet" so the next read is cold again: the final
 * fields' jury results go, the detail values become NULL.
 */
export async function resetReadEvent(
  client: pg.Client & WithTables,
  read: BenchEvent,
  disciplines: readonly BenchDiscipline[],
): Promise<void> {
  await inTransaction(client, async () => {
    await client.query(
      `DELETE FROM ${client.tables.jury_results} WHERE int_wertungenid = ANY($1::int[]) AND int_disziplinen_felderid = ANY($2::int[])`,
      [read.scoreIds, disciplines.map((discipline) => discipline.fields.final)],
    );
    await client.query(
      `UPDATE ${client.tables.wertungen_details} SET rel_leistung = NULL WHERE int_wertungenid = ANY($1::int[]) AND rel_leistung IS NOT NULL`,
      [read.scoreIds],
    );
  });
}
