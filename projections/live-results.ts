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
import type { RankNotation } from '../src/domain/all-around.js';
import { rankApparatus, type ApparatusTieBreak, type ScorePartFields } from '../src/domain/apparatus-ranking.js';
import { notFound } from '../src/domain/errors.js';
import { maskClass } from '../src/domain/input-mask.js';
import { partFieldIds, routineParts, selectPartValues, selectScorePartFields, type PartValues } from '../src/model/score-parts.js';

export interface LiveResultsQuery {
  eventId: number;
  disciplineId: number;
  competitionId?: number | undefined;
  /** True: only scores whose scope the head judge has released. */
  releasedOnly?: boolean | undefined;
}

/** Whose score a result is: a participant's, a group's (int_gruppenid) or a team's (int_mannschaftenid). */
export type LiveResultKind = 'individual' | 'group' | 'team';

export interface LiveResult {
  /** Ties share a rank (1, 1, 3, or 1, 1, 2 dense) unless the apparatus rule decides; null out of competition (bol_ak). */
  rank: number | null;
  /** The apparatus rule where it ranked this entry apart from an equal score; else null. */
  tieBreak: ApparatusTieBreak | null;
  /** E and D of the routine, loaded where an `e-then-d` rule needs them; else null. */
  e: number | null;
  d: number | null;
  kind: LiveResultKind;
  scoreId: number;
  competitionId: number;
  /** Null for a group or team; their name is in `lastName`. */
  participantId: number | null;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  squadName: string | null;
  score: number;
  attempt: number | null;
  outOfCompetition: boolean;
  /** The head judge has released the score's device (for its squad or all); unreleased scores are provisional. */
  released: boolean;
}

/** The apparatus tie-break rule and rank notation of a ranking. */
export interface ApparatusRankingRule {
  apparatusTieBreak: ApparatusTieBreak;
  rankNotation: RankNotation;
}

/** The rules of one competition, or with null the general ones (a ranking across competitions). */
export type ApparatusRules = (competitionId: number | null) => ApparatusRankingRule;

export interface LiveResults extends ApparatusRankingRule {
  eventId: number;
  disciplineId: number;
  disciplineName: string;
  competitionId: number | null;
  /** 'ascending' for a time mask (rank 1 = shortest time), else 'descending'. */
  order: 'ascending' | 'descending';
  /** Last outbox seq the results include: subscribe with `since: seq`. */
  seq: number;
  /**
   * Where the device keeps E and D (field ids), when a rule needed them; `e` null: the device has
   * no E field, so `e-then-d` ranks as `shared` there. Null: no rule needed them.
   */
  scoreParts: ScorePartFields | null;
  /** The rules of every competition listed, for a board ranking each competition on its own. */
  competitions: Array<ApparatusRankingRule & { competitionId: number }>;
  results: LiveResult[];
}

interface ScopeRow {
  event_found: boolean;
  discipline_name: string | null;
  input_mask: string | null;
}

export async function selectLiveResultsScope(db: Queryable, query: LiveResultsQuery): Promise<ScopeRow> {
  const { rows } = await db.query<ScopeRow>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event_found,
            (SELECT var_name FROM ${db.tables.disziplinen} WHERE int_disziplinenid = $2) AS discipline_name,
            (SELECT var_eingabemaske FROM ${db.tables.disziplinen} WHERE int_disziplinenid = $2) AS input_mask`,
    [query.eventId, query.disciplineId],
  );
  return rows[0]!;
}

/**
 * The final score of a participant is its detail row with int_kp 0, of a group or team the row of
 * the discipline's final field (they keep every field in int_kp); with several
 * attempts the latest one that carries a value counts. Did-not-start rows are left out;
 * out-of-competition rows are listed without a rank and do not take one from anybody. `ascending`
 * ranks the smallest value first (a time mask: the fastest time wins).
 */
type LiveRow = Omit<LiveResult, 'rank' | 'tieBreak' | 'e' | 'd'>;

export async function selectLiveResults(db: Queryable, query: LiveResultsQuery, ascending = false): Promise<LiveRow[]> {
  const { rows } = await db.query<LiveRow>(
    `WITH latest AS (
       SELECT DISTINCT ON (w.int_wertungenid)
              w.int_wertungenid, w.int_wettkaempfeid, w.int_teilnehmerid, w.int_gruppenid, w.int_mannschaftenid, w.var_riege,
              COALESCE(w.bol_ak, false) AS out_of_competition, d.rel_leistung, d.int_versuch,
              CASE WHEN $4 THEN d.rel_leistung ELSE -d.rel_leistung END AS order_value,
              ${db.tables.svc_scope_released}(w.int_wettkaempfeid, $2, w.var_riege) AS released
         FROM ${db.tables.wertungen} w
         JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
         JOIN ${db.tables.wertungen_details} d
           ON d.int_wertungenid = w.int_wertungenid AND d.int_disziplinenid = $2 AND d.rel_leistung IS NOT NULL
          AND CASE WHEN w.int_teilnehmerid IS NOT NULL THEN COALESCE(d.int_kp, 0) = 0
                   -- group and team rows keep each field in int_kp; the final is the final field's row
                   ELSE d.int_kp IN (SELECT f.int_disziplinen_felderid FROM ${db.tables.disziplinen_felder} f
                                      WHERE f.int_disziplinenid = $2 AND COALESCE(f.bol_endwert, false)) END
        WHERE c.int_veranstaltungenid = $1
          AND ($3::int IS NULL OR w.int_wettkaempfeid = $3)
          AND (w.int_teilnehmerid IS NOT NULL OR w.int_gruppenid IS NOT NULL OR w.int_mannschaftenid IS NOT NULL)
          AND NOT COALESCE(w.bol_startet_nicht, false)
        ORDER BY w.int_wertungenid, d.int_versuch DESC NULLS LAST
     ), shown AS (
       SELECT * FROM latest WHERE NOT $5::boolean OR released
     )
     SELECT CASE WHEN l.int_teilnehmerid IS NOT NULL THEN 'individual' WHEN l.int_gruppenid IS NOT NULL THEN 'group' ELSE 'team' END AS kind,
            l.int_wertungenid AS "scoreId", l.int_wettkaempfeid AS "competitionId", l.int_teilnehmerid AS "participantId",
            p.var_vorname AS "firstName", COALESCE(p.var_nachname, g.var_name, m.var_name) AS "lastName",
            COALESCE(p.var_startnummer, g.int_startnummer::text, m.int_startnummer::text) AS "startNumber",
            v.var_name AS "clubName", l.var_riege AS "squadName", l.rel_leistung AS score, l.int_versuch AS attempt,
            l.out_of_competition AS "outOfCompetition", l.released
       FROM shown l
       LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = l.int_teilnehmerid
       LEFT JOIN ${db.tables.gruppen} g ON g.int_gruppenid = l.int_gruppenid AND l.int_teilnehmerid IS NULL
       LEFT JOIN ${db.tables.mannschaften} m ON m.int_mannschaftenid = l.int_mannschaftenid AND l.int_teilnehmerid IS NULL AND l.int_gruppenid IS NULL
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = COALESCE(p.int_vereineid, g.int_vereineid, m.int_vereineid)
      ORDER BY l.out_of_competition, l.order_value, 6, 5, l.int_wertungenid`,
    [query.eventId, query.disciplineId, query.competitionId ?? null, ascending, query.releasedOnly ?? false],
  );
  return rows;
}

/** Ranks `rows` (in the statement's order) with `rule`; the listing keeps ranked entries first, by rank. */
function ranked(
  rows: readonly LiveRow[],
  parts: (row: LiveRow) => { e: number | null; d: number | null },
  rule: ApparatusRankingRule,
  ascending: boolean,
): LiveResult[] {
  const withParts = rows.map((row) => ({ ...row, ...parts(row) }));
  const ranks = rankApparatus(withParts, {
    rule: rule.apparatusTieBreak,
    notation: rule.rankNotation,
    order: ascending ? 'ascending' : 'descending',
  });
  return withParts
    .map((row, index) => ({ rank: ranks[index]!.rank, tieBreak: ranks[index]!.tieBreak, ...row }))
    .sort((a, b) => Number(a.outOfCompetition) - Number(b.outOfCompetition) || (a.rank ?? 0) - (b.rank ?? 0));
}

/** E and D where a rule of this list needs them: one statement for the fields, one for the values. */
async function loadParts(
  db: Queryable,
  disciplineId: number,
  rows: readonly LiveRow[],
): Promise<{ fields: ScorePartFields | null; values: PartValues }> {
  const fields = (await selectScorePartFields(db, [disciplineId])).get(disciplineId) ?? null;
  const values = fields ? await selectPartValues(db, [...new Set(rows.map((row) => row.scoreId))], partFieldIds([fields])) : new Map();
  return { fields, values };
}

export async function loadLiveResults(
  db: Queryable,
  query: LiveResultsQuery,
  relayCursor: () => number,
  loadRules: () => Promise<ApparatusRules>,
): Promise<LiveResults> {
  // Read before the query, never after: see the module comment.
  const seq = relayCursor();
  // The rules are read after the cursor too, so a change they miss has its tie-break-changed event after `seq`.
  const [scope, rules] = await Promise.all([selectLiveResultsScope(db, query), loadRules()]);
  if (!scope.event_found) throw notFound(`No event ${query.eventId}`);
  if (scope.discipline_name === null) throw notFound(`No discipline ${query.disciplineId}`);
  const ascending = scope.input_mask !== null && maskClass(scope.input_mask.trim()) === 'time';
  const rows = await selectLiveResults(db, query, ascending);
  const rule = rules(query.competitionId ?? null);
  const competitions = [
    ...new Set([...(query.competitionId === undefined ? [] : [query.competitionId]), ...rows.map((row) => row.competitionId)]),
  ]
    .sort((a, b) => a - b)
    .map((competitionId) => ({ competitionId, ...rules(competitionId) }));
  const needsParts = [rule, ...competitions].some((candidate) => candidate.apparatusTieBreak === 'e-then-d');
  const { fields, values } = needsParts ? await loadParts(db, query.disciplineId, rows) : { fields: null, values: new Map() };
  return {
    eventId: query.eventId,
    disciplineId: query.disciplineId,
    disciplineName: scope.discipline_name,
    competitionId: query.competitionId ?? null,
    order: ascending ? 'ascending' : 'descending',
    ...rule,
    seq,
    scoreParts: fields,
    competitions,
    results: ranked(rows, (row) => routineParts(fields ?? undefined, values, row.scoreId, row.attempt), rule, ascending),
  };
}
