/**
 * Reads of the audit record (migration 0008's `svc_score_audit`, filled by triggers on the legacy
 * score tables and, since 0021, on the releases table): one score's history, oldest first, and an
 * event's corrections log, newest first, releases and reopenings included. Names are joined at read
 * time and may be null when the row they came from was deleted since.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';

/**
 * What an audit row records: a changed value, the head judge's confirmation of a panel deviation,
 * or a scope released or reopened (no score: `scoreId` null in the log).
 */
export type AuditKind = 'change' | 'panel-confirmed' | 'release' | 'reopen';
export const AUDIT_KINDS: readonly AuditKind[] = ['change', 'panel-confirmed', 'release', 'reopen'];

export interface ScoreChange {
  id: number;
  kind: AuditKind;
  at: string;
  source: 'api' | 'legacy';
  actor: string;
  disciplineId: number;
  fieldId: number | null;
  attempt: number | null;
  from: number | null;
  to: number | null;
  afterRelease: boolean;
}

export interface ScoreHistory {
  scoreId: number;
  changes: ScoreChange[];
}

const CHANGE_COLUMNS = `a.id, COALESCE(a.kind, 'change') AS kind, to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, a.source, a.actor,
  a.discipline_id AS "disciplineId", a.field_id AS "fieldId", a.attempt, a.old_value AS "from", a.new_value AS "to",
  a.after_release AS "afterRelease"`;

export async function selectScoreHistory(db: Queryable, scoreId: number): Promise<ScoreHistory> {
  const { rows } = await db.query<ScoreChange>(
    `SELECT ${CHANGE_COLUMNS} FROM ${db.tables.svc_score_audit} a WHERE a.score_id = $1 ORDER BY a.id`,
    [scoreId],
  );
  if (rows.length === 0) {
    // A score without changes has an empty history; only an id that never was a score is unknown.
    const found = await db.query(`SELECT 1 FROM ${db.tables.wertungen} WHERE int_wertungenid = $1`, [scoreId]);
    if (found.rowCount === 0) throw notFound(`No score ${scoreId} and no recorded change of it`);
  }
  return { scoreId, changes: rows };
}

export interface AuditQuery {
  eventId: number;
  /** ISO 8601: only changes at or after this moment. */
  since?: string | undefined;
  /** Paging: only changes with a smaller id (the previous page's `nextBefore`). */
  before?: number | undefined;
  competitionId?: number | undefined;
  disciplineId?: number | undefined;
  limit: number;
}

export interface AuditEntry extends ScoreChange {
  /** null for a release or reopening, which concerns a device or squad rather than one score. */
  scoreId: number | null;
  eventId: number;
  competitionId: number | null;
  disciplineName: string | null;
  fieldName: string | null;
  /** Participant "first last", or the group's or team's name. */
  name: string | null;
  /** The score's squad; for a release or reopening the squad it concerns, null for the whole device. */
  squadName: string | null;
}

export interface AuditPage {
  eventId: number;
  changes: AuditEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}

export async function selectAuditPage(db: Queryable, query: AuditQuery): Promise<AuditPage> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${CHANGE_COLUMNS}, a.score_id AS "scoreId", a.event_id AS "eventId", a.competition_id AS "competitionId",
            d.var_name AS "disciplineName", f.var_name AS "fieldName",
            COALESCE(NULLIF(concat_ws(' ', p.var_vorname, p.var_nachname), ''), g.var_name, m.var_name) AS name,
            CASE WHEN a.score_id IS NULL THEN a.squad_name ELSE w.var_riege END AS "squadName"
       FROM ${db.tables.svc_score_audit} a
       LEFT JOIN ${db.tables.disziplinen} d ON d.int_disziplinenid = a.discipline_id
       LEFT JOIN ${db.tables.disziplinen_felder} f ON f.int_disziplinen_felderid = a.field_id
       LEFT JOIN ${db.tables.wertungen} w ON w.int_wertungenid = a.score_id
       LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
       LEFT JOIN ${db.tables.gruppen} g ON g.int_gruppenid = w.int_gruppenid
       LEFT JOIN ${db.tables.mannschaften} m ON m.int_mannschaftenid = w.int_mannschaftenid
      WHERE a.event_id = $1
        AND ($2::timestamptz IS NULL OR a.at >= $2::timestamptz)
        AND ($3::bigint IS NULL OR a.id < $3::bigint)
        AND ($4::int IS NULL OR a.competition_id = $4::int)
        AND ($5::int IS NULL OR a.discipline_id = $5::int)
      ORDER BY a.id DESC
      LIMIT $6 + 1`,
    [query.eventId, query.since ?? null, query.before ?? null, query.competitionId ?? null, query.disciplineId ?? null, query.limit],
  );
  const more = rows.length > query.limit;
  const changes = more ? rows.slice(0, query.limit) : rows;
  return { eventId: query.eventId, changes, nextBefore: more ? changes[changes.length - 1]!.id : null };
}
