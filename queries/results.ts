/**
 * Result lists (all-around per competition, optionally per age class; team results), computed
 * from the legacy rows at request time like the live results: the desktop program writes and
 * deletes those rows too, so a copy could drift.
 *
 * The legacy layout has no table naming a competition's disciplines: they are the disciplines its
 * score rows have detail rows for (the desktop program and the demo seed write the start list as
 * detail rows without a value), in the order of their first detail row. A discipline's score is
 * the final value: for an individual the detail row with int_kp 0, for a team the row under the
 * discipline's final field (bol_endwert); the best attempt counts. Did-not-start rows are left out.
 *
 * Three statements per request (scope, disciplines, entries) plus the settings reads, however
 * many rows: each entry arrives with its final values aggregated into arrays. Under the apparatus
 * rule `e-then-d` two more load E and D (`src/model/score-parts.ts`).
 */
import type { Queryable } from '../src/db/pool.js';
import type { Tables } from '../src/db/tables.js';
import {
  ageByRule,
  ageCategoryOf,
  ageClassOrder,
  parseAgeCategoryRanges,
  parseIsoDate,
  referenceDay,
  type AgeRule,
} from '../src/domain/age.js';
import { listingOrder, rankAllAround, type RankingOptions, type RankNotation, type TieBreakRule } from '../src/domain/all-around.js';
import type { ApparatusTieBreak } from '../src/domain/apparatus-ranking.js';
import { notFound } from '../src/domain/errors.js';
import { partFieldIds, routineParts, selectPartValues, selectScorePartFields } from '../src/model/score-parts.js';
import { competitionRanking, readAgeRule, readAppSetting } from './app-settings.js';

export interface ResultsQuery {
  eventId: number;
  competitionId: number;
  groupBy?: 'ageClass' | undefined;
}

export interface ResultDiscipline {
  disciplineId: number;
  name: string;
  shortName: string | null;
}

export interface DisciplineResult {
  disciplineId: number;
  /** Best attempt's final value; null while the discipline has none. */
  score: number | null;
  /** Rank in this discipline within the class (apparatus tie-break rule, notation); null without a score or out of competition. */
  rank: number | null;
  /** The apparatus rule where it ranked this entry apart from an equal score; else null. */
  tieBreak: ApparatusTieBreak | null;
}

interface RankedFields {
  rank: number | null;
  scoreId: number;
  total: number;
  complete: boolean;
  outOfCompetition: boolean;
  disciplines: DisciplineResult[];
  /** The rule that ranked this entry apart from an equal total; null when none did. */
  tieBreak: TieBreakRule | null;
}

export interface AllAroundResult extends RankedFields {
  participantId: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  birthYear: number | null;
}

export interface ResultClass {
  /** Age class label (`6-8`, `other`, `unknown`); null without groupBy. */
  ageClass: string | null;
  results: AllAroundResult[];
}

interface ListHeader {
  eventId: number;
  eventName: string;
  /** dat_von / dat_bis as `YYYY-MM-DD`. */
  dateFrom: string | null;
  dateTo: string | null;
  competitionId: number;
  competitionName: string | null;
  tieBreak: TieBreakRule;
  /** The per-discipline ranks' rule. */
  apparatusTieBreak: ApparatusTieBreak;
  rankNotation: RankNotation;
  /** Relay cursor read before the queries: follow with `join-competition {since: seq}`. */
  seq: number;
  disciplines: ResultDiscipline[];
}

export interface AllAroundResults extends ListHeader {
  ageRule: AgeRule;
  groupBy: 'ageClass' | null;
  classes: ResultClass[];
}

export interface TeamResult extends RankedFields {
  teamId: number;
  name: string;
  startNumber: number | null;
  clubName: string | null;
}

export interface TeamResults extends ListHeader {
  results: TeamResult[];
}

type EntryKind = 'individual' | 'team';

/** Which score rows belong to a list; constants of this module, never request text. */
const KIND_COLUMN: Record<EntryKind, string> = { individual: 'int_teilnehmerid', team: 'int_mannschaftenid' };

interface ScopeRow {
  event_name: string;
  date_from: string | null;
  date_to: string | null;
  competition_found: boolean;
  competition_name: string | null;
}

export async function selectResultsScope(db: Queryable, eventId: number, competitionId: number): Promise<ScopeRow | null> {
  const { rows } = await db.query<ScopeRow>(
    `SELECT e.var_name AS event_name, e.dat_von AS date_from, e.dat_bis AS date_to,
            c.int_wettkaempfeid IS NOT NULL AS competition_found, c.var_name AS competition_name
       FROM ${db.tables.veranstaltungen} e
       LEFT JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = $2 AND c.int_veranstaltungenid = e.int_veranstaltungenid
      WHERE e.int_veranstaltungenid = $1`,
    [eventId, competitionId],
  );
  return rows[0] ?? null;
}

export async function selectCompetitionDisciplines(db: Queryable, competitionId: number, kind: EntryKind): Promise<ResultDiscipline[]> {
  const { rows } = await db.query<ResultDiscipline>(
    `SELECT dz.int_disziplinenid AS "disciplineId", COALESCE(NULLIF(dz.var_anzeigename, ''), dz.var_name) AS name, dz.var_kurzname AS "shortName"
       FROM ${db.tables.wertungen} w
       JOIN ${db.tables.wertungen_details} d ON d.int_wertungenid = w.int_wertungenid
       JOIN ${db.tables.disziplinen} dz ON dz.int_disziplinenid = d.int_disziplinenid
      WHERE w.int_wettkaempfeid = $1 AND w.${KIND_COLUMN[kind]} IS NOT NULL
      GROUP BY dz.int_disziplinenid
      ORDER BY min(d.int_wertungen_detailsid)`,
    [competitionId],
  );
  return rows;
}

interface EntryRow {
  entryId: number;
  scoreId: number;
  outOfCompetition: boolean;
  /** Best final value per discipline id. */
  scores: Record<string, number>;
  /** Per discipline id: the score row and attempt of that best value (where its E and D are). */
  routines: Record<string, { scoreId: number; attempt: number | null }>;
}

export interface ParticipantRow extends EntryRow {
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  birthDate: string | null;
}

export interface TeamRow extends EntryRow {
  name: string;
  startNumber: number | null;
  clubName: string | null;
}

/** As the statement returns an entry: every final value of its score rows, the discipline, score row and attempt of each beside it. */
type FinalsRow<R extends EntryRow> = Omit<R, 'scores' | 'routines'> & {
  disciplineIds: number[];
  finals: number[];
  finalScoreIds: number[];
  attempts: Array<number | null>;
};

/** The best attempt per discipline (the highest value, also over several score rows of one entry). */
function withBestScores<R extends EntryRow>({ disciplineIds, finals, finalScoreIds, attempts, ...entry }: FinalsRow<R>): R {
  const scores: Record<string, number> = {};
  const routines: EntryRow['routines'] = {};
  disciplineIds.forEach((disciplineId, index) => {
    const key = String(disciplineId);
    if (finals[index]! <= (scores[key] ?? Number.NEGATIVE_INFINITY)) return;
    scores[key] = finals[index]!;
    routines[key] = { scoreId: finalScoreIds[index]!, attempt: attempts[index] ?? null };
  });
  return { ...entry, scores, routines } as unknown as R;
}

/** The participant or team table of a list, joined with its club; `columns` select from them. */
interface EntryUnit {
  join: string;
  key: string;
  club: string;
  columns: string;
}

/**
 * The entries of a competition (one per participant or team, whatever number of score rows the
 * desktop program wrote for it; its lowest score row id is `scoreId`) with every final value of
 * their score rows. One join of tables by their keys and one aggregation, so no plan can grow
 * faster than the rows: with the entries and their best scores aggregated apart and then joined,
 * statistics from before a large start list was entered (autovacuum analyzes a minute or more
 * later) made the planner expect one row and pick a nested loop that aggregated every entry's
 * scores again for each entry; 20,000 participants ran into the statement timeout.
 */
function entriesSql(tables: Tables, kind: EntryKind, unit: EntryUnit): string {
  const column = KIND_COLUMN[kind];
  // Individuals keep their final value under int_kp 0; team rows under the final field's id.
  const finalRow =
    kind === 'individual'
      ? 'COALESCE(d.int_kp, 0) = 0'
      : `EXISTS (SELECT 1 FROM ${tables.disziplinen_felder} f
                  WHERE f.int_disziplinen_felderid = d.int_kp AND f.int_disziplinenid = d.int_disziplinenid AND f.bol_endwert)`;
  // The arrays are filled from the same rows in the same order, so their positions pair up.
  return `SELECT ${unit.key} AS "entryId", min(w.int_wertungenid) AS "scoreId",
                 bool_or(COALESCE(w.bol_ak, false)) AS "outOfCompetition",
                 COALESCE(array_agg(d.int_disziplinenid) FILTER (WHERE d.int_wertungenid IS NOT NULL), '{}') AS "disciplineIds",
                 COALESCE(array_agg(d.rel_leistung) FILTER (WHERE d.int_wertungenid IS NOT NULL), '{}') AS finals,
                 COALESCE(array_agg(d.int_wertungenid) FILTER (WHERE d.int_wertungenid IS NOT NULL), '{}') AS "finalScoreIds",
                 COALESCE(array_agg(d.int_versuch) FILTER (WHERE d.int_wertungenid IS NOT NULL), '{}') AS attempts,
                 ${unit.columns}
            FROM ${tables.wertungen} w
            ${unit.join}
            LEFT JOIN ${tables.vereine} v ON v.int_vereineid = ${unit.club}
            LEFT JOIN ${tables.wertungen_details} d
              ON d.int_wertungenid = w.int_wertungenid AND d.rel_leistung IS NOT NULL AND ${finalRow}
           WHERE w.int_wettkaempfeid = $1 AND w.${column} IS NOT NULL AND NOT COALESCE(w.bol_startet_nicht, false)
           GROUP BY ${unit.key}, v.int_vereineid`;
}

export async function selectParticipantEntries(db: Queryable, competitionId: number): Promise<ParticipantRow[]> {
  const { rows } = await db.query<FinalsRow<ParticipantRow>>(
    entriesSql(db.tables, 'individual', {
      join: `JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid`,
      key: 'p.int_teilnehmerid',
      club: 'p.int_vereineid',
      columns: `p.var_vorname AS "firstName", p.var_nachname AS "lastName", p.var_startnummer AS "startNumber",
                v.var_name AS "clubName", p.dat_geburtstag AS "birthDate"`,
    }),
    [competitionId],
  );
  return rows.map(withBestScores);
}

export async function selectTeamEntries(db: Queryable, competitionId: number): Promise<TeamRow[]> {
  const { rows } = await db.query<FinalsRow<TeamRow>>(
    entriesSql(db.tables, 'team', {
      join: `JOIN ${db.tables.mannschaften} m ON m.int_mannschaftenid = w.int_mannschaftenid`,
      key: 'm.int_mannschaftenid',
      club: 'm.int_vereineid',
      columns: `m.var_name AS name, m.int_startnummer AS "startNumber", v.var_name AS "clubName"`,
    }),
    [competitionId],
  );
  return rows.map(withBestScores);
}

/** E and D of an entry's best routine on a discipline; null where unknown or not needed. */
type RoutineParts = (row: EntryRow, disciplineId: number) => { e: number | null; d: number | null } | null;

const noParts: RoutineParts = () => null;

/**
 * Under `e-then-d`, E and D of every entry's best routines: two statements (the disciplines' E and
 * D fields, their values for every score row of the list), whatever the number of entries.
 */
async function loadRoutineParts(
  db: Queryable,
  rule: ApparatusTieBreak,
  disciplines: readonly ResultDiscipline[],
  rows: readonly EntryRow[],
): Promise<RoutineParts> {
  if (rule !== 'e-then-d' || rows.length === 0) return noParts;
  const fields = await selectScorePartFields(
    db,
    disciplines.map((discipline) => discipline.disciplineId),
  );
  const scoreIds = [...new Set(rows.flatMap((row) => Object.values(row.routines).map((routine) => routine.scoreId)))];
  const values = await selectPartValues(db, scoreIds, partFieldIds(fields.values()));
  return (row, disciplineId) => {
    const routine = row.routines[String(disciplineId)];
    return routine ? routineParts(fields.get(disciplineId), values, routine.scoreId, routine.attempt) : null;
  };
}

/** Ranks one class of entries and lists it (ranked by rank, then the others), names breaking ties in the listing. */
function rankClass<R extends EntryRow, T extends RankedFields>(
  rows: readonly R[],
  disciplines: readonly ResultDiscipline[],
  ranking: { tieBreak: TieBreakRule; options: RankingOptions },
  parts: RoutineParts,
  describe: (row: R) => Omit<T, keyof RankedFields>,
  name: (item: T) => string,
): T[] {
  const scores = rows.map((row) => disciplines.map((discipline) => row.scores[String(discipline.disciplineId)] ?? null));
  const ranked = rankAllAround(
    rows.map((row, index) => ({
      scores: scores[index]!,
      parts: disciplines.map((discipline) => parts(row, discipline.disciplineId)),
      outOfCompetition: row.outOfCompetition,
    })),
    ranking.tieBreak,
    ranking.options,
  );
  return rows
    .map((row, index) => {
      const totals = ranked[index]!;
      const fields: RankedFields = {
        rank: totals.rank,
        scoreId: row.scoreId,
        total: totals.total,
        complete: totals.complete,
        outOfCompetition: row.outOfCompetition,
        disciplines: disciplines.map((discipline, position) => ({
          disciplineId: discipline.disciplineId,
          score: scores[index]![position]!,
          rank: totals.disciplineRanks[position]!,
          tieBreak: totals.disciplineTieBreaks[position]!,
        })),
        tieBreak: totals.tieBreak,
      };
      return { ...describe(row), ...fields } as T;
    })
    .sort(listingOrder(name));
}

async function loadHeader(db: Queryable, query: { eventId: number; competitionId: number }, kind: EntryKind, relayCursor: () => number) {
  // Read before the queries, never after (see projections/live-results.ts).
  const seq = relayCursor();
  const scope = await selectResultsScope(db, query.eventId, query.competitionId);
  if (!scope) throw notFound(`No event ${query.eventId}`);
  if (!scope.competition_found) throw notFound(`No competition ${query.competitionId} in event ${query.eventId}`);
  const [disciplines, setting] = await Promise.all([
    selectCompetitionDisciplines(db, query.competitionId, kind),
    readAppSetting(db, 'results'),
  ]);
  const ranking = competitionRanking(setting, query.competitionId);
  const header: ListHeader = {
    eventId: query.eventId,
    eventName: scope.event_name,
    dateFrom: scope.date_from,
    dateTo: scope.date_to,
    competitionId: query.competitionId,
    competitionName: scope.competition_name,
    tieBreak: ranking.tieBreak,
    apparatusTieBreak: ranking.apparatusTieBreak,
    rankNotation: ranking.rankNotation,
    seq,
    disciplines,
  };
  const positions = new Map(disciplines.map((discipline, position) => [discipline.disciplineId, position]));
  const options: RankingOptions = {
    notation: ranking.rankNotation,
    apparatusTieBreak: ranking.apparatusTieBreak,
    maxDrops: ranking.maxDrops ?? undefined,
    // An apparatus without scores in the competition has no column and nothing to compare.
    order: ranking.apparatusOrder.flatMap((disciplineId) => positions.get(disciplineId) ?? []),
  };
  return { header, ageClassRanges: ranking.ageClassRanges, rules: { tieBreak: ranking.tieBreak, options } };
}

const personName = (item: { lastName: string | null; firstName: string | null }) => `${item.lastName ?? ''} ${item.firstName ?? ''}`;

/** GET /api/results */
export async function loadAllAroundResults(db: Queryable, query: ResultsQuery, relayCursor: () => number): Promise<AllAroundResults> {
  const [{ header, ageClassRanges, rules }, ageRule] = await Promise.all([
    loadHeader(db, query, 'individual', relayCursor),
    readAgeRule(db),
  ]);
  const rows = await selectParticipantEntries(db, query.competitionId);
  const parts = await loadRoutineParts(db, header.apparatusTieBreak, header.disciplines, rows);
  const describe = (row: ParticipantRow) => ({
    participantId: row.entryId,
    firstName: row.firstName,
    lastName: row.lastName,
    startNumber: row.startNumber,
    clubName: row.clubName,
    birthYear: row.birthDate === null ? null : (parseIsoDate(row.birthDate)?.year ?? null),
  });
  const rank = (members: readonly ParticipantRow[]) =>
    rankClass<ParticipantRow, AllAroundResult>(members, header.disciplines, rules, parts, describe, personName);
  if (query.groupBy !== 'ageClass') return { ...header, ageRule, groupBy: null, classes: [{ ageClass: null, results: rank(rows) }] };

  const ranges = parseAgeCategoryRanges(ageClassRanges);
  // The event's first day; an event without one is counted on today.
  const reference = referenceDay(header.dateFrom ?? new Date());
  const members = new Map<string, ParticipantRow[]>(ageClassOrder(ranges).map((label) => [label, []]));
  for (const row of rows) {
    const birth = row.birthDate === null ? null : parseIsoDate(row.birthDate);
    members.get(ageCategoryOf(birth ? ageByRule(birth, reference, ageRule) : null, ranges))!.push(row);
  }
  const classes = [...members].filter(([, list]) => list.length > 0).map(([ageClass, list]) => ({ ageClass, results: rank(list) }));
  return { ...header, ageRule, groupBy: 'ageClass', classes };
}

/** GET /api/results/teams */
export async function loadTeamResults(
  db: Queryable,
  query: { eventId: number; competitionId: number },
  relayCursor: () => number,
): Promise<TeamResults> {
  const { header, rules } = await loadHeader(db, query, 'team', relayCursor);
  const rows = await selectTeamEntries(db, query.competitionId);
  const parts = await loadRoutineParts(db, header.apparatusTieBreak, header.disciplines, rows);
  const describe = (row: TeamRow) => ({ teamId: row.entryId, name: row.name, startNumber: row.startNumber, clubName: row.clubName });
  return { ...header, results: rankClass<TeamRow, TeamResult>(rows, header.disciplines, rules, parts, describe, (item) => item.name) };
}
