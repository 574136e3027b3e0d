/**
 * Reads of inquiries (FIG Art. 8.5): an event's inquiries with the server's clock, the scores a
 * coach can pick from on an apparatus, and a competition's deadlines.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { FIG_DEADLINES, lastOfRotationSql, selectInquiries, type Inquiry, type InquiryDeadlines } from '../src/model/inquiry.js';

export interface InquiryList {
  eventId: number;
  /** The server's clock when it answered, so a page counts the deadlines down without trusting its own. */
  now: string;
  inquiries: Inquiry[];
}

export async function listInquiries(db: Queryable, eventId: number): Promise<InquiryList> {
  const { now, inquiries } = await selectInquiries(db, { eventId });
  return { eventId, now: now.toISOString(), inquiries };
}

export interface InquiryCandidate {
  scoreId: number;
  competitionId: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  finalScore: number | null;
  /** When the score was last shown (its final stored). */
  shownAt: string;
  /** The first showing of another gymnast's score after it: from then on an inquiry is late. Null: none yet. */
  nextShownAt: string | null;
  /** The last gymnast of a rotation: the verbal inquiry is due by then. Null: only the next score closes it. */
  verbalDeadline: string | null;
  /** The routine's inquiry, if one was filed. */
  inquiryId: number | null;
}

export interface InquiryCandidates {
  eventId: number;
  disciplineId: number;
  now: string;
  /** Most recently shown first. */
  scores: InquiryCandidate[];
}

const CANDIDATE_LIMIT = 12;

/** The most recently shown scores on one apparatus of the event, one statement. */
export async function listInquiryCandidates(db: Queryable, eventId: number, disciplineId: number): Promise<InquiryCandidates> {
  const { rows } = await db.query<{ found: boolean; now: Date; scores: InquiryCandidate[] | null }>(
    `WITH shown AS (
       SELECT a.score_id, max(a.at) AS shown_at, min(a.at) AS first_at FROM ${db.tables.svc_score_audit} a
        WHERE a.event_id = $1 AND a.discipline_id = $2 AND a.field_id IS NULL AND a.new_value IS NOT NULL AND COALESCE(a.attempt, 1) = 1
        GROUP BY a.score_id
     ), latest AS (
       SELECT s.*, (SELECT min(o.first_at) FROM shown o WHERE o.score_id <> s.score_id AND o.first_at > s.shown_at) AS next_shown_at
         FROM shown s ORDER BY s.shown_at DESC LIMIT ${CANDIDATE_LIMIT}
     )
     SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1)
            AND EXISTS (SELECT 1 FROM ${db.tables.disziplinen} WHERE int_disziplinenid = $2) AS found,
            now() AS now,
            (SELECT json_agg(json_build_object(
                      'scoreId', l.score_id, 'competitionId', w.int_wettkaempfeid,
                      'firstName', p.var_vorname, 'lastName', p.var_nachname, 'startNumber', p.var_startnummer, 'clubName', v.var_name,
                      'finalScore', d.rel_leistung,
                      'shownAt', to_char(l.shown_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                      'nextShownAt', to_char(l.next_shown_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                      'verbalDeadline', CASE WHEN ${lastOfRotationSql(db.tables, { score: 'l.score_id', competition: 'w.int_wettkaempfeid', squad: 'w.var_riege', discipline: '$2' })}
                        THEN to_char((l.shown_at + make_interval(secs => COALESCE(s.last_gymnast_seconds, $3))) AT TIME ZONE 'UTC',
                                     'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END,
                      'inquiryId', q.id) ORDER BY l.shown_at DESC)
               FROM latest l
               JOIN ${db.tables.wertungen} w ON w.int_wertungenid = l.score_id AND w.int_teilnehmerid IS NOT NULL
               LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
               LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
               LEFT JOIN ${db.tables.wertungen_details} d
                 ON d.int_wertungenid = l.score_id AND d.int_disziplinenid = $2 AND d.int_versuch = 1 AND d.int_kp = 0
               LEFT JOIN ${db.tables.svc_inquiries} q ON q.score_id = l.score_id AND q.discipline_id = $2
               LEFT JOIN ${db.tables.svc_inquiry_settings} s ON s.competition_id = w.int_wettkaempfeid) AS scores`,
    [eventId, disciplineId, FIG_DEADLINES.lastGymnastSeconds],
  );
  const row = rows[0]!;
  if (!row.found) throw notFound(`No event ${eventId} or no apparatus ${disciplineId}`);
  return { eventId, disciplineId, now: row.now.toISOString(), scores: row.scores ?? [] };
}

export interface InquiryDeadlinesReply extends InquiryDeadlines {
  competitionId: number;
  /** False: the FIG defaults, nothing stored for the competition. */
  stored: boolean;
}

export async function selectInquiryDeadlines(db: Queryable, eventId: number, competitionId: number): Promise<InquiryDeadlinesReply> {
  const { rows } = await db.query<{ last_gymnast_seconds: number | null; written_seconds: number | null }>(
    `SELECT s.last_gymnast_seconds, s.written_seconds
       FROM ${db.tables.wettkaempfe} c LEFT JOIN ${db.tables.svc_inquiry_settings} s ON s.competition_id = c.int_wettkaempfeid
      WHERE c.int_wettkaempfeid = $2 AND c.int_veranstaltungenid = $1`,
    [eventId, competitionId],
  );
  const row = rows[0];
  if (row === undefined) throw notFound(`No competition ${competitionId} in event ${eventId}`);
  return {
    competitionId,
    lastGymnastSeconds: row.last_gymnast_seconds ?? FIG_DEADLINES.lastGymnastSeconds,
    writtenSeconds: row.written_seconds ?? FIG_DEADLINES.writtenSeconds,
    stored: row.last_gymnast_seconds !== null,
  };
}
