/**
 * E and D of routines for the apparatus tie-break (`src/domain/apparatus-ranking.ts`), as the
 * reads that rank load them: which fields hold them per discipline (one statement for any number
 * of disciplines) and their values per score row and attempt (one statement for any number of
 * score rows). An individual's field values are its jury results; a group's or team's are its
 * detail rows under the field's id (`int_kp`).
 */
import type { Queryable } from '../db/pool.js';
import { scorePartFields, scoreParts, type FieldDefinition, type ScorePartFields } from '../domain/apparatus-ranking.js';
import { fieldJsonPairs, fieldOrdering } from './scoring-context.js';

export async function selectScorePartFields(db: Queryable, disciplineIds: readonly number[]): Promise<Map<number, ScorePartFields>> {
  const { rows } = await db.query<{ disciplineId: number; aggregateFieldId: number | null; fields: FieldDefinition[] }>(
    `SELECT d.int_disziplinenid AS "disciplineId", p.aggregate_field_id AS "aggregateFieldId",
            COALESCE((SELECT json_agg(json_build_object(${fieldJsonPairs('f')}) ORDER BY ${fieldOrdering('f')})
                        FROM ${db.tables.disziplinen_felder} f WHERE f.int_disziplinenid = d.int_disziplinenid), '[]'::json) AS fields
       FROM ${db.tables.disziplinen} d
       LEFT JOIN ${db.tables.svc_panel_settings} p ON p.discipline_id = d.int_disziplinenid
      WHERE d.int_disziplinenid = ANY($1::int[])`,
    [disciplineIds],
  );
  return new Map(rows.map((row) => [row.disciplineId, scorePartFields(row.fields, row.aggregateFieldId)]));
}

/** Field values by `scoreId:attempt`, then field id. */
export type PartValues = Map<string, Map<number, number>>;

export const partKey = (scoreId: number, attempt: number | null) => `${scoreId}:${attempt ?? 1}`;

/** The values of `fieldIds` for the given score rows, every attempt. */
export async function selectPartValues(db: Queryable, scoreIds: readonly number[], fieldIds: readonly number[]): Promise<PartValues> {
  const values: PartValues = new Map();
  if (scoreIds.length === 0 || fieldIds.length === 0) return values;
  const { rows } = await db.query<{ scoreId: number; attempt: number; fieldId: number; value: number }>(
    `SELECT j.int_wertungenid AS "scoreId", COALESCE(j.int_versuch, 1) AS attempt, j.int_disziplinen_felderid AS "fieldId", j.rel_leistung AS value
       FROM ${db.tables.jury_results} j
      WHERE j.int_wertungenid = ANY($1::int[]) AND j.int_disziplinen_felderid = ANY($2::int[]) AND j.rel_leistung IS NOT NULL
      UNION ALL
     SELECT d.int_wertungenid, COALESCE(d.int_versuch, 1), d.int_kp, d.rel_leistung
       FROM ${db.tables.wertungen_details} d
       JOIN ${db.tables.wertungen} w ON w.int_wertungenid = d.int_wertungenid AND w.int_teilnehmerid IS NULL
      WHERE d.int_wertungenid = ANY($1::int[]) AND d.int_kp = ANY($2::int[]) AND d.rel_leistung IS NOT NULL`,
    [scoreIds, fieldIds],
  );
  for (const row of rows) {
    const key = partKey(row.scoreId, row.attempt);
    values.set(key, (values.get(key) ?? new Map<number, number>()).set(row.fieldId, row.value));
  }
  return values;
}

/** Every field id the parts of these disciplines name. */
export function partFieldIds(fields: Iterable<ScorePartFields>): number[] {
  return [...fields].flatMap((parts) => [...(parts.e?.fieldIds ?? []), ...(parts.d?.fieldIds ?? [])]);
}

/** E and D of one routine; both null when the discipline has no such fields or none was loaded. */
export function routineParts(
  parts: ScorePartFields | undefined,
  values: PartValues,
  scoreId: number,
  attempt: number | null,
): { e: number | null; d: number | null } {
  const found = values.get(partKey(scoreId, attempt));
  if (!parts || !found) return { e: null, d: null };
  return scoreParts(parts, (fieldId) => found.get(fieldId));
}
