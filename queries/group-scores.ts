import type { Queryable } from '../src/db/pool.js';
import { fieldSortOrder } from '../src/model/scoring-context.js';

export interface GroupHeader {
  id: number;
  name: string;
  startNumber: number | null;
}

export interface ScoreComponent {
  fieldId: number;
  fieldName: string | null;
  value: number | null;
}

export interface GroupScoreEntry {
  id: number;
  competitionId: number;
  disciplineId: number;
  disciplineName: string;
  attemptNumber: number;
  finalScore: number | null;
  statusId: number;
  components?: ScoreComponent[];
}

export interface GroupScoresFilter {
  competitionId?: number | undefined;
  disciplineId?: number | undefined;
  includeComponents: boolean;
}

export async function selectGroupHeader(db: Queryable, groupId: number): Promise<GroupHeader | null> {
  const { rows } = await db.query<GroupHeader>(
    `SELECT int_gruppenid AS id, var_name AS name, int_startnummer AS "startNumber" FROM ${db.tables.gruppen} WHERE int_gruppenid = $1`,
    [groupId],
  );
  return rows[0] ?? null;
}

/**
 * One entry per (score row, discipline, attempt). Detail rows are matched to fields of their own
 * discipline through int_kp; rows that match no field (legacy int_kp 0) are neither component nor final.
 */
export async function selectGroupScoreEntries(
  db: Queryable,
  groupId: number,
  filter: GroupScoresFilter,
): Promise<Required<GroupScoreEntry>[]> {
  const { rows } = await db.query<Required<GroupScoreEntry>>(
    `SELECT w.int_wertungenid AS id, w.int_wettkaempfeid AS "competitionId", d.int_disziplinenid AS "disciplineId",
            dz.var_name AS "disciplineName", d.int_versuch AS "attemptNumber", w.int_statusid AS "statusId",
            (array_agg(d.rel_leistung ORDER BY d.int_kp) FILTER (WHERE f.bol_endwert))[1] AS "finalScore",
            COALESCE(
              json_agg(json_build_object('fieldId', d.int_kp, 'fieldName', f.var_name, 'value', d.rel_leistung)
                       ORDER BY ${fieldSortOrder('f')} NULLS LAST, d.int_kp)
                FILTER (WHERE f.int_disziplinen_felderid IS NOT NULL AND NOT COALESCE(f.bol_endwert, false)),
              '[]'::json) AS components
       FROM ${db.tables.wertungen} w
       JOIN ${db.tables.wertungen_details} d ON d.int_wertungenid = w.int_wertungenid
       JOIN ${db.tables.disziplinen} dz ON dz.int_disziplinenid = d.int_disziplinenid
       LEFT JOIN ${db.tables.disziplinen_felder} f
              ON f.int_disziplinen_felderid = d.int_kp AND f.int_disziplinenid = d.int_disziplinenid
      WHERE w.int_gruppenid = $1
        AND ($2::int IS NULL OR w.int_wettkaempfeid = $2)
        AND ($3::int IS NULL OR d.int_disziplinenid = $3)
      GROUP BY w.int_wertungenid, d.int_disziplinenid, dz.var_name, d.int_versuch
      ORDER BY w.int_wettkaempfeid, d.int_disziplinenid, d.int_versuch, w.int_wertungenid`,
    [groupId, filter.competitionId ?? null, filter.disciplineId ?? null],
  );
  return rows;
}

/** GET /api/scores/group/:groupId; null when the group does not exist. */
export async function getGroupScores(
  db: Queryable,
  groupId: number,
  filter: GroupScoresFilter,
): Promise<{ group: GroupHeader; scores: GroupScoreEntry[] } | null> {
  const group = await selectGroupHeader(db, groupId);
  if (!group) return null;
  const entries = await selectGroupScoreEntries(db, groupId, filter);
  const scores = filter.includeComponents ? entries : entries.map(({ components: _dropped, ...entry }) => entry);
  return { group, scores };
}
