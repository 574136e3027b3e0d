/** GET /api/discipline-fields: a bare array (spec), optionally one discipline's fields. */
import type { Queryable } from '../src/db/pool.js';
import { fieldOrdering, fieldSortOrder } from '../src/model/scoring-context.js';

export interface DisciplineField {
  id: number;
  disciplineId: number;
  name: string | null;
  shortName: string | null;
  sortOrder: number | null;
  isFinalScore: boolean;
  isStartingScore: boolean;
  enabled: boolean;
  group: number | null;
}

/** Disabled fields are included: the portal filters by `enabled` itself (spec). */
export async function selectDisciplineFields(db: Queryable, disciplineId: number | null): Promise<DisciplineField[]> {
  const { rows } = await db.query<DisciplineField>(
    `SELECT f.int_disziplinen_felderid AS id, f.int_disziplinenid AS "disciplineId", f.var_name AS name,
            f.var_kurzname AS "shortName", ${fieldSortOrder('f')} AS "sortOrder",
            COALESCE(f.bol_endwert, false) AS "isFinalScore", COALESCE(f.bol_ausgangswert, false) AS "isStartingScore",
            COALESCE(f.bol_enabled, true) AS enabled, f.int_gruppe AS "group"
       FROM ${db.tables.disziplinen_felder} f
      WHERE $1::int IS NULL OR f.int_disziplinenid = $1
      ORDER BY f.int_disziplinenid, ${fieldOrdering('f')}`,
    [disciplineId],
  );
  return rows;
}
