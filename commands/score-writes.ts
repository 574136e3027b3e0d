/**
 * Write-side statements shared by the individual-scoring commands (capture, save-value,
 * jury-results). Every command takes the score row's lock first, so commands on one score run one
 * after the other: the last one wins on every row, a final score is always calculated from the
 * results the command sees, and two commands never lock jury and detail rows in opposite order.
 */
import type { TxClient } from '../src/db/pool.js';
import { sqlPerInstallation } from '../src/db/tables.js';
import { scoreValueUpdated, type OutboxEvent } from '../outbox/events.js';
import { calculatedScoreOf, finalFieldOfState, type DisciplineState } from '../src/model/scoring-context.js';

/** False when the score row does not exist. */
export async function lockScoreRow(tx: TxClient, scoreId: number): Promise<boolean> {
  // NO KEY UPDATE leaves inserts that only reference the row (FK checks) unblocked.
  const { rowCount } = await tx.query(`SELECT 1 FROM ${tx.tables.wertungen} WHERE int_wertungenid = $1 FOR NO KEY UPDATE`, [scoreId]);
  return rowCount === 1;
}

/**
 * The score row's lock (as `lockScoreRow`) and fieldId → disciplineId for those of `fieldIds` that
 * exist, in one round trip; `found` is false when the score row does not exist.
 */
export async function lockScoreRowWithFields(
  tx: TxClient,
  scoreId: number,
  fieldIds: readonly number[],
): Promise<{ found: boolean; fieldDisciplines: Map<number, number> }> {
  const { rows } = await tx.query<{ found: boolean; field_id: number | null; discipline_id: number | null }>(
    `WITH locked AS (SELECT 1 FROM ${tx.tables.wertungen} WHERE int_wertungenid = $1 FOR NO KEY UPDATE)
     SELECT EXISTS (SELECT 1 FROM locked) AS found, f.int_disziplinen_felderid AS field_id, f.int_disziplinenid AS discipline_id
       FROM (SELECT 1) AS one
       LEFT JOIN ${tx.tables.disziplinen_felder} f ON f.int_disziplinen_felderid = ANY($2::int[])`,
    [scoreId, fieldIds],
  );
  const fieldDisciplines = new Map<number, number>();
  for (const row of rows) if (row.field_id !== null && row.discipline_id !== null) fieldDisciplines.set(row.field_id, row.discipline_id);
  return { found: rows[0]?.found === true, fieldDisciplines };
}

/** What `lockScoreRowAndUpsertJuryResult` found and wrote. */
export interface LockedJuryResultWrite {
  /** False when the score row does not exist (nothing written). */
  found: boolean;
  /** The field's discipline; null when the field does not exist (nothing written). */
  disciplineId: number | null;
  /**
   * The row as stored, `inserted` when it did not exist before; null when the score or field is
   * missing or the stored value was not the one `expected` named (the row is then left as it was).
   */
  stored: { id: number; value: number; inserted: boolean } | null;
}

const lockAndUpsertJuryResultSql = sqlPerInstallation(
  (tables) =>
    `WITH locked AS (
       SELECT int_wertungenid FROM ${tables.wertungen} WHERE int_wertungenid = $1 FOR NO KEY UPDATE
     ), field AS (
       SELECT int_disziplinenid AS discipline_id FROM ${tables.disziplinen_felder} WHERE int_disziplinen_felderid = $2
     ), stored AS (
       INSERT INTO ${tables.jury_results} AS j (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
       SELECT locked.int_wertungenid, $2, $3, 1, COALESCE($4::int, 0) FROM locked, field
       ON CONFLICT (int_wertungenid, int_disziplinen_felderid, int_versuch)
       DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung, int_kp = COALESCE($4::int, j.int_kp)
          WHERE NOT $5::boolean OR j.rel_leistung IS NOT DISTINCT FROM $6::float8::real
       RETURNING j.int_juryresultsid AS id, j.rel_leistung AS value, j.xmax = 0 AS inserted
     )
     SELECT EXISTS (SELECT 1 FROM locked) AS found, (SELECT discipline_id FROM field) AS discipline_id, stored.id, stored.value, stored.inserted
       FROM (SELECT 1) AS one LEFT JOIN stored ON true`,
);

/**
 * jury-results in one round trip: the score row's lock (as `lockScoreRow`), the field's discipline
 * and the insert-or-update of the attempt-1 result (as `upsertJuryResults`). With `expected` (the
 * optimistic check) an existing row is only updated while it still holds that value as a float4;
 * ON CONFLICT compares against the latest committed version of the row, also when this statement
 * waited for the score's lock, so a value committed meanwhile is never overwritten unseen. The
 * caller applies the check's rule (`checkExpectedPerformance`) to whatever was not updated.
 */
export async function lockScoreRowAndUpsertJuryResult(
  tx: TxClient,
  scoreId: number,
  value: FieldValue,
  kind: 0 | 1 | null,
  expected: number | null | undefined,
): Promise<LockedJuryResultWrite> {
  const { rows } = await tx.query<{
    found: boolean;
    discipline_id: number | null;
    id: number | null;
    value: number | null;
    inserted: boolean | null;
  }>(lockAndUpsertJuryResultSql(tx.tables), [scoreId, value.fieldId, value.value, kind, expected !== undefined, expected ?? null]);
  const row = rows[0]!;
  return {
    found: row.found,
    disciplineId: row.discipline_id,
    stored: row.id === null ? null : { id: row.id, value: row.value!, inserted: row.inserted === true },
  };
}

/** The stored attempt-1 value of one field of a score (null: none). */
export async function selectJuryResultValue(tx: TxClient, scoreId: number, fieldId: number): Promise<number | null> {
  const { rows } = await tx.query<{ value: number | null }>(
    `SELECT rel_leistung AS value FROM ${tx.tables.jury_results}
      WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2 AND int_versuch = 1`,
    [scoreId, fieldId],
  );
  return rows[0]?.value ?? null;
}

export interface FieldValue {
  fieldId: number;
  value: number;
}

const upsertJuryResultsSql = sqlPerInstallation(
  (tables) =>
    `INSERT INTO ${tables.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
     SELECT $1, v.field_id, v.value, 1, COALESCE($4::int, 0)
       FROM unnest($2::int[], $3::float8[]) AS v(field_id, value)
      ORDER BY v.field_id
     ON CONFLICT (int_wertungenid, int_disziplinen_felderid, int_versuch)
     DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung, int_kp = COALESCE($4::int, ${tables.jury_results}.int_kp)
     RETURNING int_juryresultsid AS id, int_disziplinen_felderid AS "fieldId", rel_leistung AS value`,
);

/**
 * Insert-or-update keyed by (score, field, attempt 1). `kind` (0 compulsory, 1 free) goes to
 * int_kp; null keeps a stored kind and inserts 0. Field ids must be distinct (one statement
 * cannot update a row twice). Returns the stored rows: `value` is what the real column kept.
 */
export async function upsertJuryResults(
  tx: TxClient,
  scoreId: number,
  values: readonly FieldValue[],
  kind: 0 | 1 | null,
): Promise<Array<{ id: number; fieldId: number; value: number }>> {
  const { rows } = await tx.query<{ id: number; fieldId: number; value: number }>(upsertJuryResultsSql(tx.tables), [
    scoreId,
    values.map((item) => item.fieldId),
    values.map((item) => item.value),
    kind,
  ]);
  return rows;
}

const upsertDetailValueSql = sqlPerInstallation(
  (tables) =>
    `INSERT INTO ${tables.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     VALUES ($1, $2, 1, 0, $3)
     ON CONFLICT (int_wertungenid, int_disziplinenid, int_versuch, int_kp) DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung
     RETURNING rel_leistung AS value`,
);

/** The attempt-1 detail row is created when missing; returns the value as stored. */
export async function upsertDetailValue(tx: TxClient, scoreId: number, disciplineId: number, value: number): Promise<number> {
  const { rows } = await tx.query<{ value: number }>(upsertDetailValueSql(tx.tables), [scoreId, disciplineId, value]);
  return rows[0]!.value;
}

/**
 * Rule 7's last two steps: the final score into the final field's jury result (when the
 * discipline has a final field) and into the detail value. Returns the stored detail value.
 */
export async function storeFinalScore(tx: TxClient, state: DisciplineState, value: number): Promise<number> {
  const finalField = finalFieldOfState(state);
  if (finalField !== null) await upsertJuryResults(tx, state.scoreId, [{ fieldId: finalField.fieldId, value }], null);
  return upsertDetailValue(tx, state.scoreId, state.disciplineId, value);
}

/** Event 2 of `score-updated` (save-value and capture), from the state as stored. */
export function scoreValueEvent(state: DisciplineState): OutboxEvent {
  return scoreValueUpdated(state, calculatedScoreOf(state));
}
