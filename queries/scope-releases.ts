/**
 * Which devices (and squads) of a competition the head judge has released: the jury portal reads
 * it without a token to show those scores read-only. Names and times stay in the completeness read.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';

export interface ScopeReleases {
  competitionId: number;
  /** `squadName` null: the whole device (every squad). */
  releases: Array<{ disciplineId: number; squadName: string | null }>;
}

export async function selectScopeReleases(db: Queryable, competitionId: number): Promise<ScopeReleases> {
  const { rows } = await db.query<{ found: boolean; releases: ScopeReleases['releases'] }>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.wettkaempfe} WHERE int_wettkaempfeid = $1) AS found,
            COALESCE((SELECT json_agg(json_build_object('disciplineId', r.discipline_id, 'squadName', NULLIF(r.squad_name, ''))
                                      ORDER BY r.discipline_id, r.squad_name)
                        FROM ${db.tables.svc_releases} r WHERE r.competition_id = $1), '[]'::json) AS releases`,
    [competitionId],
  );
  const row = rows[0]!;
  if (!row.found) throw notFound(`competition ${competitionId} not found`);
  return { competitionId, releases: row.releases };
}
