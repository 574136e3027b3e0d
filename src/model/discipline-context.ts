import type { Queryable } from '../db/pool.js';
import { compileFormula, type DisciplineFormula } from '../domain/final-score.js';
import { fieldJsonPairs, fieldOrdering, type ScoringField } from './scoring-context.js';

/**
 * A discipline's fields and formula without any score row: group and team saves need them before
 * the score row exists, which `scoring-context.ts` (keyed by score row) cannot serve.
 */

/** A field in the same shape `scoring-context.ts` uses, minus the jury result of a score. */
export type DisciplineField = Omit<ScoringField, 'resultId' | 'value'>;

export interface DisciplineContext {
  id: number;
  name: string;
  formula: DisciplineFormula;
  /** All fields, enabled or not, in ascending sort order (fields without one last, ties by id). */
  fields: DisciplineField[];
}

interface DisciplineContextRow {
  id: number;
  name: string;
  recordFormula: string | null;
  disciplineFormula: string | null;
  fields: DisciplineField[];
}

/** Set-wise, so a caller holding many disciplines still runs one statement. */
export async function selectDisciplineContexts(db: Queryable, disciplineIds: readonly number[]): Promise<Map<number, DisciplineContext>> {
  const { rows } = await db.query<DisciplineContextRow>(
    `SELECT d.int_disziplinenid AS id, d.var_name AS name, fo.var_formel AS "recordFormula", d.var_formel AS "disciplineFormula",
            COALESCE((
              SELECT json_agg(json_build_object(${fieldJsonPairs('f')}) ORDER BY ${fieldOrdering('f')})
                FROM ${db.tables.disziplinen_felder} f
               WHERE f.int_disziplinenid = d.int_disziplinenid
            ), '[]'::json) AS fields
       FROM ${db.tables.disziplinen} d
       LEFT JOIN ${db.tables.formeln} fo ON fo.int_formelid = d.int_formelid
      WHERE d.int_disziplinenid = ANY($1::int[])`,
    [disciplineIds],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, name: row.name, formula: compileFormula(row.recordFormula, row.disciplineFormula), fields: row.fields },
    ]),
  );
}

export async function selectDisciplineContext(db: Queryable, disciplineId: number): Promise<DisciplineContext | null> {
  return (await selectDisciplineContexts(db, [disciplineId])).get(disciplineId) ?? null;
}
