/**
 * GET /api/disciplines/:disciplineId/field-values: how many score rows hold a value in each field
 * of the discipline, so the office offers an empty field to receive an E-panel's aggregate.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { fieldOrdering } from '../src/model/scoring-context.js';

export interface FieldValueCounts {
  disciplineId: number;
  fields: Array<{ fieldId: number; storedValues: number }>;
}

export async function selectFieldValueCounts(db: Queryable, disciplineId: number): Promise<FieldValueCounts> {
  const { rows } = await db.query<{ fields: FieldValueCounts['fields'] }>(
    `SELECT COALESCE((
              SELECT json_agg(json_build_object('fieldId', f.int_disziplinen_felderid, 'storedValues', (
                       SELECT count(*) FROM ${db.tables.jury_results} j
                        WHERE j.int_disziplinen_felderid = f.int_disziplinen_felderid AND j.int_versuch = 1
                          AND j.rel_leistung IS NOT NULL)) ORDER BY ${fieldOrdering('f')})
                FROM ${db.tables.disziplinen_felder} f WHERE f.int_disziplinenid = d.int_disziplinenid
            ), '[]'::json) AS fields
       FROM ${db.tables.disziplinen} d WHERE d.int_disziplinenid = $1`,
    [disciplineId],
  );
  if (rows.length === 0) throw notFound(`No discipline ${disciplineId}`);
  return { disciplineId, fields: rows[0]!.fields };
}
