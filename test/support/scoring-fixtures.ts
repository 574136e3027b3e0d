/**
 * Legacy rows for the individual-scoring tests (jury results, details, score rows). Builds on the
 * generic helpers of `group-team-fixtures.ts`; every helper makes its own rows, so tests in one
 * file stay independent while sharing a database.
 */
import type { Queryable } from '../../src/db/pool.js';
import { t } from './tables.js';
import { insertRow } from './group-team-fixtures.js';

export interface Arena {
  eventId: number;
  competitionId: number;
  clubId: number;
}

/** An event with one competition and a club; `startDate` is the event's dat_von. */
export async function createArena(pool: Queryable, name = 'Landesfinale', startDate: string | null = null): Promise<Arena> {
  const eventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: name, dat_von: startDate });
  const competitionId = await insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: eventId,
    var_name: `${name} WK`,
  });
  const clubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'TV Musterstadt' });
  return { eventId, competitionId, clubId };
}

export async function insertParticipant(
  pool: Queryable,
  arena: Arena,
  values: {
    firstName?: string;
    lastName?: string;
    gender?: number | null;
    startNumber?: string;
    clubId?: number | null;
    birthDate?: string | null;
  } = {},
): Promise<number> {
  return insertRow(pool, 'teilnehmer', 'int_teilnehmerid', {
    var_vorname: values.firstName ?? 'Anna',
    var_nachname: values.lastName ?? 'Muster',
    var_startnummer: values.startNumber ?? '17',
    int_vereineid: values.clubId === undefined ? arena.clubId : values.clubId,
    int_eventid: arena.eventId,
    int_geschlecht: values.gender === undefined ? 2 : values.gender,
    dat_geburtstag: values.birthDate ?? null,
  });
}

export interface DisciplineFieldIds {
  A: number;
  B: number;
  C: number;
  /** Absent when the discipline was made without a final field. */
  final: number | null;
}

export interface Discipline {
  id: number;
  fields: DisciplineFieldIds;
}

/**
 * Fields A (sort 1), B (2), C "AbzugAusf." (3) and the final field (4), inserted in reverse so that
 * id order and sort order differ. `sortColumn` picks which legacy sort column carries the order.
 */
export async function insertDiscipline(
  pool: Queryable,
  options: {
    name?: string;
    formula?: string | null;
    recordFormula?: string;
    withFinal?: boolean;
    sortColumn?: 'int_sortierung' | 'int_reihenfolge';
  } = {},
): Promise<Discipline> {
  const formulaId =
    options.recordFormula === undefined
      ? null
      : await insertRow(pool, 'formeln', 'int_formelid', { var_name: 'Formel', var_formel: options.recordFormula, var_typ: 'Endwert' });
  const id = await insertRow(pool, 'disziplinen', 'int_disziplinenid', {
    var_name: options.name ?? 'Boden',
    var_formel: options.formula === undefined ? 'A + B - C' : options.formula,
    int_formelid: formulaId,
  });
  const sortColumn = options.sortColumn ?? 'int_sortierung';
  const field = (name: string, shortName: string, sort: number, extra: Record<string, unknown> = {}) =>
    insertRow(pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
      int_disziplinenid: id,
      var_name: name,
      var_kurzname: shortName,
      [sortColumn]: sort,
      ...extra,
    });
  const final = options.withFinal === false ? null : await field('Endwert', 'End', 4, { bol_endwert: true });
  const C = await field('AbzugAusf.', 'Abz', 3);
  const B = await field('Ausführung', 'E', 2);
  const A = await field('Ausgangswert', 'D', 1, { bol_ausgangswert: true, int_gruppe: 1 });
  return { id, fields: { A, B, C, final } };
}

export async function insertScore(
  pool: Queryable,
  arena: Arena,
  participantId: number,
  values: { squadName?: string } = {},
): Promise<number> {
  return insertRow(pool, 'wertungen', 'int_wertungenid', {
    int_wettkaempfeid: arena.competitionId,
    int_teilnehmerid: participantId,
    int_statusid: 1,
    var_riege: values.squadName ?? null,
  });
}

/** A participant with a score row in the arena's competition. */
export async function insertParticipantScore(
  pool: Queryable,
  arena: Arena,
  values: { squadName?: string; lastName?: string } = {},
): Promise<{ participantId: number; scoreId: number }> {
  const participantId = await insertParticipant(pool, arena, { lastName: values.lastName });
  return { participantId, scoreId: await insertScore(pool, arena, participantId, values) };
}

export async function insertDetail(pool: Queryable, scoreId: number, disciplineId: number, value: number | null): Promise<number> {
  return insertRow(pool, 'wertungen_details', 'int_wertungen_detailsid', {
    int_wertungenid: scoreId,
    int_disziplinenid: disciplineId,
    int_versuch: 1,
    int_kp: 0,
    rel_leistung: value,
  });
}

export async function insertJuryResults(
  pool: Queryable,
  scoreId: number,
  values: ReadonlyArray<readonly [fieldId: number, value: number]>,
): Promise<void> {
  for (const [fieldId, value] of values) {
    await insertRow(pool, 'jury_results', 'int_juryresultsid', {
      int_wertungenid: scoreId,
      int_disziplinen_felderid: fieldId,
      rel_leistung: value,
      int_versuch: 1,
      int_kp: 0,
    });
  }
}

export interface JuryRow {
  id: number;
  fieldId: number;
  value: number | null;
  attempt: number;
  kind: number;
}

export async function juryRows(pool: Queryable, scoreId: number): Promise<JuryRow[]> {
  const { rows } = await pool.query<JuryRow>(
    `SELECT int_juryresultsid AS id, int_disziplinen_felderid AS "fieldId", rel_leistung AS value, int_versuch AS attempt, int_kp AS kind
       FROM ${t.jury_results} WHERE int_wertungenid = $1 ORDER BY int_disziplinen_felderid`,
    [scoreId],
  );
  return rows;
}

export async function detailRows(pool: Queryable, scoreId: number): Promise<Array<{ disciplineId: number; value: number | null }>> {
  const { rows } = await pool.query<{ disciplineId: number; value: number | null }>(
    `SELECT int_disziplinenid AS "disciplineId", rel_leistung AS value FROM ${t.wertungen_details} WHERE int_wertungenid = $1 ORDER BY int_wertungen_detailsid`,
    [scoreId],
  );
  return rows;
}

/** Payloads of the events the service's own commands appended for one score, oldest first. */
export async function apiEvents(pool: Queryable, scoreId: number): Promise<Array<{ eventId: number; payload: Record<string, unknown> }>> {
  const { rows } = await pool.query<{ eventId: number; payload: Record<string, unknown> }>(
    `SELECT event_id AS "eventId", payload FROM ${t.svc_outbox}
      WHERE source = 'api' AND topic = 'score-updated' AND (payload->>'scoreId')::int = $1 ORDER BY id`,
    [scoreId],
  );
  return rows;
}

/** Everything a refused command must leave as it was. */
export async function scoringRowCounts(pool: Queryable): Promise<{ scores: number; details: number; jury: number; outbox: number }> {
  const { rows } = await pool.query<{ scores: number; details: number; jury: number; outbox: number }>(
    `SELECT (SELECT count(*) FROM ${t.wertungen})::int AS scores, (SELECT count(*) FROM ${t.wertungen_details})::int AS details,
            (SELECT count(*) FROM ${t.jury_results})::int AS jury, (SELECT count(*) FROM ${t.svc_outbox})::int AS outbox`,
  );
  return rows[0]!;
}

/** `count` participants with a score row each in the arena's competition, set-wise; returns the score ids. */
export async function insertParticipantScores(pool: Queryable, arena: Arena, count: number, squadName: string): Promise<number[]> {
  const { rows } = await pool.query<{ score_id: number }>(
    `WITH people AS (
       INSERT INTO ${t.teilnehmer} (var_vorname, var_nachname, var_startnummer, int_vereineid, int_eventid, int_geschlecht)
       SELECT 'Bulk', 'Turner ' || n, n::text, $2, $1, 1 + n % 2 FROM generate_series(1, $3::int) AS n
       RETURNING int_teilnehmerid
     )
     INSERT INTO ${t.wertungen} (int_wettkaempfeid, int_teilnehmerid, int_statusid, var_riege)
     SELECT $4, int_teilnehmerid, 1, $5 FROM people
     RETURNING int_wertungenid AS score_id`,
    [arena.eventId, arena.clubId, count, arena.competitionId, squadName],
  );
  return rows.map((row) => row.score_id).sort((a, b) => a - b);
}

/**
 * `count` participants with a score row each, a detail row (value 0) in the discipline and jury
 * results A=9, B=8, C=1 but no final: every row is due for the auto-calculation on read. Set-wise,
 * so a thousand rows cost three statements.
 */
export async function insertScoresDueForCalculation(
  pool: Queryable,
  arena: Arena,
  discipline: Discipline,
  count: number,
  squadName: string,
): Promise<void> {
  const scoreIds = await insertParticipantScores(pool, arena, count, squadName);
  await pool.query(
    `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT id, $2, 1, 0, 0 FROM unnest($1::int[]) AS id`,
    [scoreIds, discipline.id],
  );
  await pool.query(
    `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
     SELECT id, f.field_id, f.value, 1, 0 FROM unnest($1::int[]) AS id
     CROSS JOIN (VALUES ($2::int, 9::real), ($3::int, 8::real), ($4::int, 1::real)) AS f(field_id, value)`,
    [scoreIds, discipline.fields.A, discipline.fields.B, discipline.fields.C],
  );
}

/** Stores an app setting as an operator would (the service has no write endpoint for these). */
export async function storeAppSetting(pool: Queryable, key: string, value: unknown): Promise<void> {
  await pool.query(
    `INSERT INTO ${t.svc_settings} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
