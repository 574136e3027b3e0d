import type { Queryable } from '../src/db/pool.js';

export interface TeamScoreComponent {
  fieldId: number;
  fieldName: string | null;
  value: number | null;
}

export interface TeamScoreEntry {
  id: number;
  teamId: number;
  competitionId: number;
  disciplineId: number;
  attempt: number;
  /** Not in the spec's entry; the value of the final field, which is also among the components. */
  finalScore: number | null;
  components: TeamScoreComponent[];
  club: { name: string | null };
  discipline: { name: string };
}

export interface TeamScoresFilter {
  teamId?: number | undefined;
  competitionId?: number | undefined;
  disciplineId?: number | undefined;
  limit: number;
  offset: number;
}

export interface TeamScoresPage {
  results: TeamScoreEntry[];
  pagination: { total: number; limit: number; offset: number };
}

/** `id` is null only on the single row that carries the total of an empty page. */
type TeamScoreRow = { total: number; id: number | null } & Omit<TeamScoreEntry, 'id'>;

export async function selectTeamExists(db: Queryable, teamId: number): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM ${db.tables.mannschaften} WHERE int_mannschaftenid = $1`, [teamId]);
  return rows.length > 0;
}

/**
 * One entry per (score row, discipline, attempt), paged, with the total in the same statement: the
 * page is joined onto the count so an empty page (offset past the end) still reports the total.
 * Components follow the spec: detail rows joined to the discipline's fields on int_kp, by int_kp.
 */
export async function selectTeamScorePage(db: Queryable, filter: TeamScoresFilter): Promise<TeamScoreRow[]> {
  const { rows } = await db.query<TeamScoreRow>(
    `WITH entries AS (
       SELECT w.int_wertungenid AS id, d.int_disziplinenid AS discipline_id, d.int_versuch AS attempt
         FROM ${db.tables.wertungen} w
         JOIN ${db.tables.wertungen_details} d ON d.int_wertungenid = w.int_wertungenid
        WHERE w.int_mannschaftenid IS NOT NULL
          AND ($1::int IS NULL OR w.int_mannschaftenid = $1)
          AND ($2::int IS NULL OR w.int_wettkaempfeid = $2)
          AND ($3::int IS NULL OR d.int_disziplinenid = $3)
        GROUP BY w.int_wertungenid, d.int_disziplinenid, d.int_versuch
     ), page AS (
       SELECT * FROM entries ORDER BY id, discipline_id, attempt LIMIT $4 OFFSET $5
     ), total AS (
       SELECT count(*)::int AS total FROM entries
     )
     SELECT total.total, p.id, w.int_mannschaftenid AS "teamId", w.int_wettkaempfeid AS "competitionId",
            p.discipline_id AS "disciplineId", p.attempt,
            json_build_object('name', v.var_name) AS club,
            json_build_object('name', dz.var_name) AS discipline,
            cs.components, cs."finalScore"
       FROM total
       LEFT JOIN page p ON true
       LEFT JOIN ${db.tables.wertungen} w ON w.int_wertungenid = p.id
       LEFT JOIN ${db.tables.mannschaften} m ON m.int_mannschaftenid = w.int_mannschaftenid
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = m.int_vereineid
       LEFT JOIN ${db.tables.disziplinen} dz ON dz.int_disziplinenid = p.discipline_id
       LEFT JOIN LATERAL (
         SELECT COALESCE(json_agg(json_build_object('fieldId', d.int_kp, 'fieldName', f.var_name, 'value', d.rel_leistung)
                                  ORDER BY d.int_kp), '[]'::json) AS components,
                (array_agg(d.rel_leistung ORDER BY d.int_kp) FILTER (WHERE f.bol_endwert))[1] AS "finalScore"
           FROM ${db.tables.wertungen_details} d
           JOIN ${db.tables.disziplinen_felder} f
             ON f.int_disziplinen_felderid = d.int_kp AND f.int_disziplinenid = d.int_disziplinenid
          WHERE d.int_wertungenid = p.id AND d.int_disziplinenid = p.discipline_id AND d.int_versuch = p.attempt
       ) cs ON p.id IS NOT NULL
      ORDER BY p.id, p.discipline_id, p.attempt`,
    [filter.teamId ?? null, filter.competitionId ?? null, filter.disciplineId ?? null, filter.limit, filter.offset],
  );
  return rows;
}

/** GET /api/scores/team and GET /api/scores/team/:teamId. */
export async function listTeamScores(db: Queryable, filter: TeamScoresFilter): Promise<TeamScoresPage> {
  const rows = await selectTeamScorePage(db, filter);
  const total = rows[0]?.total ?? 0;
  const results = rows.flatMap(({ total: _total, ...entry }) => (entry.id === null ? [] : [entry as TeamScoreEntry]));
  return { results, pagination: { total, limit: filter.limit, offset: filter.offset } };
}
