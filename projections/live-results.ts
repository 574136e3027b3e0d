/**
 * Live results: per event and discipline, each individual score's latest final score, ranked.
 *
 * The read model is evaluated from the legacy rows on request instead of being copied into a table
 * of its own: the desktop program writes and deletes those rows too (deletes produce no event), so
 * a copy maintained from the stream could drift, while the rows are authoritative and one indexed
 * query is cheap at competition sizes. What ties it to the outbox stream is `seq`: the relay's cursor
 * read BEFORE the query. Every event up to it had committed before the query started, so the query
 * already reflects it; a scoreboard that then joins with `since: seq` gets every later event, at
 * worst one it already reflects (applying a score twice is harmless), never a gap.
 */
import type { Queryable } from '../src/db/pool.js';
import { t } from '../src/db/tables.js';
import { notFound } from '../src/domain/errors.js';

export interface LiveResultsQuery {
  eventId: number;
  disciplineId: number;
  competitionId?: number | undefined;
}

export interface LiveResult {
  /** Standard competition ranking (1, 1, 3); null for a participant out of competition (bol_ak). */
  rank: number | null;
  scoreId: number;
  competitionId: number;
  participantId: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  squadName: string | null;
  score: number;
  attempt: number | null;
  outOfCompetition: boolean;
}

export interface LiveResults {
  eventId: number;
  disciplineId: number;
  disciplineName: string;
  competitionId: number | null;
  /** Last outbox seq the results include: subscribe with `since: seq`. */
  seq: number;
  results: LiveResult[];
}

export async function selectLiveResultsScope(db: Queryable, query: LiveResultsQuery): Promise<{ event_found: boolean; discipline_name: string | null }> {
  const { rows } = await db.query<{ event_found: boolean; discipline_name: string | null }>(
    `SELECT EXISTS (SELECT 1 FROM ${t('veranstaltungen')} WHERE int_veranstaltungenid = $1) AS event_found,
            (SELECT var_name FROM ${t('disziplinen')} WHERE int_disziplinenid = $2) AS discipline_name`,
    [query.eventId, query.disciplineId],
  );
  return rows[0]!;
}

/**
 * The final score of an individual is its detail row with int_kp 0; with several attempts the
 * latest one that carries a value counts. Did-not-start rows are left out; out-of-competition rows
 * are listed without a rank and do not take one from anybody.
 */
export async function selectLiveResults(db: Queryable, query: LiveResultsQuery): Promise<LiveResult[]> {
  const { rows } = await db.query<LiveResult>(
    `WITH latest AS (
       SELECT DISTINCT ON (w.int_wertungenid)
              w.int_wertungenid, w.int_wettkaempfeid, w.int_teilnehmerid, w.var_riege,
              COALESCE(w.bol_ak, false) AS out_of_competition, d.rel_leistung, d.int_versuch
         FROM ${t('wertungen')} w
         JOIN ${t('wettkaempfe')} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
         JOIN ${t('wertungen_details')} d
           ON d.int_wertungenid = w.int_wertungenid AND d.int_disziplinenid = $2
          AND COALESCE(d.int_kp, 0) = 0 AND d.rel_leistung IS NOT NULL
        WHERE c.int_veranstaltungenid = $1
          AND ($3::int IS NULL OR w.int_wettkaempfeid = $3)
          AND w.int_teilnehmerid IS NOT NULL
          AND NOT COALESCE(w.bol_startet_nicht, false)
        ORDER BY w.int_wertungenid, d.int_versuch DESC NULLS LAST
     )
     SELECT CASE WHEN l.out_of_competition THEN NULL
                 ELSE rank() OVER (PARTITION BY l.out_of_competition ORDER BY l.rel_leistung DESC) END::int AS rank,
            l.int_wertungenid AS "scoreId", l.int_wettkaempfeid AS "competitionId", l.int_teilnehmerid AS "participantId",
            p.var_vorname AS "firstName", p.var_nachname AS "lastName", p.var_startnummer AS "startNumber",
            v.var_name AS "clubName", l.var_riege AS "squadName", l.rel_leistung AS score, l.int_versuch AS attempt,
            l.out_of_competition AS "outOfCompetition"
       FROM latest l
       JOIN ${t('teilnehmer')} p ON p.int_teilnehmerid = l.int_teilnehmerid
       LEFT JOIN ${t('vereine')} v ON v.int_vereineid = p.int_vereineid
      ORDER BY l.out_of_competition, l.rel_leistung DESC, p.var_nachname, p.var_vorname, l.int_wertungenid`,
    [query.eventId, query.disciplineId, query.competitionId ?? null],
  );
  return rows;
}

export async function loadLiveResults(db: Queryable, query: LiveResultsQuery, relayCursor: () => number): Promise<LiveResults> {
  // Read before the query, never after: see the module comment.
  const seq = relayCursor();
  const scope = await selectLiveResultsScope(db, query);
  if (!scope.event_found) throw notFound(`No event ${query.eventId}`);
  if (scope.discipline_name === null) throw notFound(`No discipline ${query.disciplineId}`);
  const results = await selectLiveResults(db, query);
  return { eventId: query.eventId, disciplineId: query.disciplineId, disciplineName: scope.discipline_name, competitionId: query.competitionId ?? null, seq, results };
}
