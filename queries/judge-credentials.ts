/**
 * Reads of the judge credentials (issue 45): an event's list, whether a credential still counts
 * (asked on every request that carries its token), and what a score write touches, which a
 * credential's scope is compared with.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { judgeCredentialJson, type JudgeCredential } from '../src/model/judge-credential.js';

export async function listJudgeCredentials(db: Queryable, eventId: number): Promise<JudgeCredential[]> {
  const { rows } = await db.query<{ event_found: boolean; credentials: JudgeCredential[] }>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event_found,
            COALESCE((SELECT json_agg(${judgeCredentialJson(db.tables, 'k')} ORDER BY k.id)
                        FROM ${db.tables.svc_judge_credentials} k WHERE k.event_id = $1), '[]'::json) AS credentials`,
    [eventId],
  );
  if (!rows[0]!.event_found) throw notFound(`No event ${eventId}`);
  return rows[0]!.credentials;
}

/** Neither revoked nor expired (the stored expiry counts, whatever the token says). */
export async function judgeCredentialActive(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query<{ active: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.svc_judge_credentials} WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()) AS active`,
    [id],
  );
  return rows[0]!.active;
}

/** What a score write names; the fields' apparatus are looked up. */
export interface ScoreWriteTarget {
  /** The score row (wertungen id) the write goes to, when the body names one. */
  scoreId?: number | undefined;
  competitionId?: number | undefined;
  disciplineId?: number | undefined;
  fieldIds?: readonly number[] | undefined;
  /** The write stores a final score (not one judge field). */
  final: boolean;
}

export interface ResolvedWriteTarget {
  /** The events of the named score row and competition (none for one that does not exist: the command answers 404). */
  eventIds: Array<number | null>;
  /** The apparatus written: the named discipline and those of the named fields (null for an unknown field). */
  disciplineIds: Array<number | null>;
}

export async function resolveScoreWriteTarget(db: Queryable, target: ScoreWriteTarget): Promise<ResolvedWriteTarget> {
  const { rows } = await db.query<ResolvedWriteTarget>(
    `SELECT ARRAY(SELECT c.int_veranstaltungenid FROM ${db.tables.wertungen} w
                    LEFT JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                   WHERE w.int_wertungenid = $1
                  UNION ALL
                  SELECT int_veranstaltungenid FROM ${db.tables.wettkaempfe} WHERE int_wettkaempfeid = $2) AS "eventIds",
            ARRAY(SELECT $3::int WHERE $3::int IS NOT NULL
                  UNION ALL
                  SELECT (SELECT f.int_disziplinenid FROM ${db.tables.disziplinen_felder} f WHERE f.int_disziplinen_felderid = id)
                    FROM unnest($4::int[]) AS id) AS "disciplineIds"`,
    [target.scoreId ?? null, target.competitionId ?? null, target.disciplineId ?? null, target.fieldIds ?? []],
  );
  return rows[0]!;
}
