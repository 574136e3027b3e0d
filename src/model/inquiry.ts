/**
 * Inquiries (FIG Art. 8.5) as commands and reads both see them: one statement reads an event's
 * inquiries, or one, with the gymnast's and the apparatus' names and the server's clock.
 */
import type { Queryable } from '../db/pool.js';
import type { Tables } from '../db/tables.js';

export interface InquiryDeadlines {
  /** The last gymnast of a rotation: seconds after the score was shown to file verbally. */
  lastGymnastSeconds: number;
  /** Seconds after the verbal inquiry to confirm it in writing. */
  writtenSeconds: number;
}

/** FIG Art. 8.5: one minute for the last gymnast of a rotation, four minutes for the written form. */
export const FIG_DEADLINES: InquiryDeadlines = { lastGymnastSeconds: 60, writtenSeconds: 240 };

/**
 * SQL: whether the score row `score` (its competition and squad given as SQL expressions) is the last
 * of its rotation on apparatus `discipline`: no other score row of the competition and squad, did-not-
 * start rows excepted, is still without a final there.
 */
export function lastOfRotationSql(tables: Tables, at: { score: string; competition: string; squad: string; discipline: string }): string {
  return `NOT EXISTS (
    SELECT 1 FROM ${tables.wertungen} other
     WHERE other.int_wettkaempfeid = ${at.competition} AND other.int_wertungenid <> ${at.score}
       AND NOT COALESCE(other.bol_startet_nicht, false)
       AND COALESCE(btrim(other.var_riege), '') = COALESCE(btrim(${at.squad}), '')
       AND NOT EXISTS (SELECT 1 FROM ${tables.wertungen_details} d
                        WHERE d.int_wertungenid = other.int_wertungenid AND d.int_disziplinenid = ${at.discipline}
                          AND d.int_versuch = 1 AND d.int_kp = 0 AND d.rel_leistung IS NOT NULL))`;
}

export type InquiryState = 'filed' | 'confirmed' | 'lapsed' | 'upheld' | 'rejected';

export interface Inquiry {
  id: number;
  eventId: number;
  competitionId: number;
  scoreId: number;
  disciplineId: number;
  disciplineName: string | null;
  /** The D field the inquiry is about. */
  fieldId: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  coach: string;
  /** The head judge who recorded it for the coach; null when the coach filed it. */
  recordedBy: string | null;
  state: InquiryState;
  /** ISO 8601, all from the database server's clock. */
  shownAt: string;
  filedAt: string;
  /** null: due before the next gymnast's score on the apparatus was shown (no fixed time). */
  verbalDeadline: string | null;
  writtenDeadline: string;
  confirmedAt: string | null;
  confirmedBy: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  decision: 'upheld' | 'rejected' | null;
  dBefore: number | null;
  dAfter: number | null;
  finalBefore: number | null;
  finalAfter: number | null;
  note: string | null;
}

/** `lapsed`: filed, not confirmed in writing, and the written deadline has passed. */
export function inquiryState(
  inquiry: { decision: 'upheld' | 'rejected' | null; confirmedAt: unknown; writtenDeadline: string },
  now: Date,
): InquiryState {
  if (inquiry.decision !== null) return inquiry.decision;
  if (inquiry.confirmedAt !== null) return 'confirmed';
  return now.getTime() > Date.parse(inquiry.writtenDeadline) ? 'lapsed' : 'filed';
}

const isoOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

type InquiryRow = Omit<Inquiry, 'state'> & { now: Date };

/** One statement: the inquiries of an event (`eventId`) or the one `inquiryId` names, oldest first, with the server's now. */
export async function selectInquiries(
  db: Queryable,
  filter: { eventId: number; inquiryId?: undefined } | { inquiryId: number; eventId?: undefined },
): Promise<{ now: Date; inquiries: Inquiry[] }> {
  const { rows } = await db.query<InquiryRow>(
    `SELECT q.id, q.event_id AS "eventId", q.competition_id AS "competitionId", q.score_id AS "scoreId",
            q.discipline_id AS "disciplineId", d.var_name AS "disciplineName", q.field_id AS "fieldId",
            p.var_vorname AS "firstName", p.var_nachname AS "lastName", p.var_startnummer AS "startNumber", v.var_name AS "clubName",
            q.coach, q.recorded_by AS "recordedBy",
            ${isoOf('q.shown_at')} AS "shownAt", ${isoOf('q.filed_at')} AS "filedAt",
            ${isoOf('q.verbal_deadline')} AS "verbalDeadline", ${isoOf('q.written_deadline')} AS "writtenDeadline",
            ${isoOf('q.confirmed_at')} AS "confirmedAt", q.confirmed_by AS "confirmedBy",
            ${isoOf('q.decided_at')} AS "decidedAt", q.decided_by AS "decidedBy", q.decision,
            q.d_before AS "dBefore", q.d_after AS "dAfter", q.final_before AS "finalBefore", q.final_after AS "finalAfter", q.note,
            now() AS now
       FROM (SELECT now()) AS clock
       LEFT JOIN ${db.tables.svc_inquiries} q ON ($1::int IS NULL OR q.event_id = $1) AND ($2::int IS NULL OR q.id = $2)
       LEFT JOIN ${db.tables.wertungen} w ON w.int_wertungenid = q.score_id
       LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
       LEFT JOIN ${db.tables.disziplinen} d ON d.int_disziplinenid = q.discipline_id
      ORDER BY q.filed_at, q.id`,
    [filter.eventId ?? null, filter.inquiryId ?? null],
  );
  const now = rows[0]!.now;
  const inquiries = rows.filter((row) => row.id !== null).map(({ now: _now, ...row }) => ({ ...row, state: inquiryState(row, now) }));
  return { now, inquiries };
}
