/**
 * The spectator page's snapshot of an event (GET /api/public/events/:eventId/live): per competition
 * the all-around ranking, whose per-apparatus ranks are the apparatus rankings, and the team ranking.
 * The lists and ranks are the result lists' own (queries/results.ts, src/domain/all-around.ts); this
 * module only applies the event's privacy settings and cuts the payload down for phones.
 *
 * Publishing released scores only, the unreleased values are left out before ranking (with the
 * same ranking function and the competition's tie-break setting), so a shown rank never counts a
 * hidden score. Per competition the build runs the result lists' statements (about five), plus three
 * for the whole event; the route caches one build per event and `seq` for every phone.
 *
 * A value under an open inquiry (FIG Art. 8.5: filed or confirmed, not decided, not lapsed) carries
 * `q`, the fact only: who filed it and why stays in the hall. It marks a value the page shows
 * anyway, so the privacy settings apply to it as to the value.
 */
import type { Queryable } from '../src/db/pool.js';
import { listingOrder, rankAllAround, type RankingOptions } from '../src/domain/all-around.js';
import { notFound } from '../src/domain/errors.js';
import { competitionRanking, readAppSetting } from './app-settings.js';
import { loadAllAroundResults, loadTeamResults, type AllAroundResult, type ResultDiscipline, type TeamResult } from './results.js';
import type { PublishMode, SpectatorPrivacy } from '../src/model/spectator-privacy.js';

/**
 * One apparatus value of an entry: `v` value, `r` rank on the apparatus, `p` true while provisional
 * (not released), `q` true while the value is under an open inquiry.
 */
export interface LiveScore {
  v: number;
  r: number | null;
  p?: true;
  q?: true;
}

/** A gymnast or team in a competition's ranking. */
export interface LiveEntry {
  /** Participant id (gymnasts) or team id (teams). */
  id: number;
  /** Null for a participant who is not to be published. */
  name: string | null;
  club: string | null;
  /** Start number; null where the name is hidden. */
  no: string | null;
  /** All-around (team) rank; null out of competition or without a score. */
  rank: number | null;
  total: number;
  /** Every apparatus of the competition has a value. */
  done: boolean;
  ooc: boolean;
  /** Per apparatus in the order of the competition's `apparatus`; null without a (published) value. */
  s: Array<LiveScore | null>;
  /** Some value in the total is provisional. */
  p?: true;
}

export interface LiveCompetition {
  id: number;
  name: string | null;
  /** The apparatus of the gymnasts' list, in the order of their `s`. */
  apparatus: LiveApparatus[];
  gymnasts: LiveEntry[];
  /** The apparatus of the team list (team rows may have other ones). */
  teamApparatus: LiveApparatus[];
  teams: LiveEntry[];
}

export interface LiveApparatus {
  id: number;
  name: string;
  short: string | null;
}

export interface LiveSnapshot {
  eventId: number;
  eventName: string;
  /** Relay cursor read before the lists: `join-live` with `since: seq` follows them. */
  seq: number;
  publish: PublishMode;
  competitions: LiveCompetition[];
}

interface EventRow {
  event_name: string;
  competitions: Array<{ id: number; name: string | null; gymnasts: boolean; teams: boolean }>;
}

async function selectEventCompetitions(db: Queryable, eventId: number): Promise<EventRow | null> {
  const { rows } = await db.query<EventRow>(
    `SELECT e.var_name AS event_name,
            COALESCE((SELECT json_agg(json_build_object('id', c.int_wettkaempfeid, 'name', c.var_name,
                        'gymnasts', EXISTS (SELECT 1 FROM ${db.tables.wertungen} w WHERE w.int_wettkaempfeid = c.int_wettkaempfeid AND w.int_teilnehmerid IS NOT NULL),
                        'teams', EXISTS (SELECT 1 FROM ${db.tables.wertungen} w WHERE w.int_wettkaempfeid = c.int_wettkaempfeid AND w.int_mannschaftenid IS NOT NULL))
                      ORDER BY c.int_wettkaempfeid)
                        FROM ${db.tables.wettkaempfe} c WHERE c.int_veranstaltungenid = e.int_veranstaltungenid), '[]') AS competitions
       FROM ${db.tables.veranstaltungen} e WHERE e.int_veranstaltungenid = $1`,
    [eventId],
  );
  return rows[0] ?? null;
}

/** `competition:kind:entry` → the disciplines released for the entry's squad (or for all squads). */
type ReleasedScopes = Map<string, Set<number>>;
const entryKey = (competitionId: number, kind: 'p' | 't', entryId: number) => `${competitionId}:${kind}:${entryId}`;

async function selectReleasedScopes(db: Queryable, eventId: number): Promise<ReleasedScopes> {
  const { rows } = await db.query<{ competition_id: number; kind: 'p' | 't'; entry_id: number; disciplines: number[] }>(
    `SELECT w.int_wettkaempfeid AS competition_id, CASE WHEN w.int_teilnehmerid IS NOT NULL THEN 'p' ELSE 't' END AS kind,
            COALESCE(w.int_teilnehmerid, w.int_mannschaftenid) AS entry_id, array_agg(DISTINCT r.discipline_id) AS disciplines
       FROM ${db.tables.wertungen} w
       JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1
       JOIN ${db.tables.svc_releases} r ON r.competition_id = w.int_wettkaempfeid AND r.squad_name IN ('', COALESCE(btrim(w.var_riege), ''))
      WHERE w.int_teilnehmerid IS NOT NULL OR w.int_mannschaftenid IS NOT NULL
      GROUP BY 1, 2, 3`,
    [eventId],
  );
  return new Map(rows.map((row) => [entryKey(row.competition_id, row.kind, row.entry_id), new Set(row.disciplines)]));
}

/** `competition:participant` → the apparatus on which the gymnast's value is under an open inquiry. */
interface OpenInquiries {
  marks: Map<string, Set<number>>;
  /** The soonest time an open inquiry lapses unconfirmed (no event says so); null: none will. */
  lapsesAt: Date | null;
}

async function selectOpenInquiries(db: Queryable, eventId: number): Promise<OpenInquiries> {
  const { rows } = await db.query<{ key: string; disciplines: number[]; lapses_at: Date | null }>(
    `SELECT q.competition_id || ':p:' || w.int_teilnehmerid AS key, array_agg(q.discipline_id) AS disciplines,
            min(q.written_deadline) FILTER (WHERE q.confirmed_at IS NULL) AS lapses_at
       FROM ${db.tables.svc_inquiries} q
       JOIN ${db.tables.wertungen} w ON w.int_wertungenid = q.score_id AND w.int_teilnehmerid IS NOT NULL
      WHERE q.event_id = $1 AND q.decided_at IS NULL AND (q.confirmed_at IS NOT NULL OR q.written_deadline >= now())
      GROUP BY 1`,
    [eventId],
  );
  const lapses = rows.flatMap((row) => (row.lapses_at ? [row.lapses_at.getTime()] : []));
  return {
    marks: new Map(rows.map((row) => [row.key, new Set(row.disciplines)])),
    lapsesAt: lapses.length > 0 ? new Date(Math.min(...lapses)) : null,
  };
}

/** What the two result lists share, as the snapshot needs it. */
interface ListedEntry {
  id: number;
  name: string | null;
  club: string | null;
  no: string | null;
  ooc: boolean;
  rank: number | null;
  total: number;
  complete: boolean;
  disciplines: Array<{ score: number | null; rank: number | null }>;
}

interface Ranking {
  tieBreak: Parameters<typeof rankAllAround>[1];
  options: RankingOptions;
}

/**
 * Applies the publish mode to one list. `all`: the list's ranks as they are, unreleased values
 * marked provisional. `released`: unreleased values left out and the list ranked again without them.
 */
function publishedList(
  entries: ListedEntry[],
  released: (entry: ListedEntry) => Set<number>,
  inquired: (entry: ListedEntry) => Set<number>,
  disciplineIds: number[],
  mode: PublishMode,
  ranking: Ranking,
): LiveEntry[] {
  const shown = entries.map((entry) => {
    const releasedHere = released(entry);
    const values = entry.disciplines.map((discipline, position) => ({
      ...discipline,
      released: releasedHere.has(disciplineIds[position]!),
    }));
    return { entry, values: mode === 'released' ? values.map((value) => (value.released ? value : { ...value, score: null })) : values };
  });
  const reranked =
    mode === 'released'
      ? rankAllAround(
          shown.map(({ entry, values }) => ({ scores: values.map((value) => value.score), outOfCompetition: entry.ooc })),
          ranking.tieBreak,
          ranking.options,
        )
      : null;
  const list = shown.map(({ entry, values }, index): LiveEntry => {
    const totals = reranked?.[index];
    const inquiredHere = inquired(entry);
    const scores = values.map((value, position): LiveScore | null =>
      value.score === null
        ? null
        : {
            v: value.score,
            r: totals ? totals.disciplineRanks[position]! : value.rank,
            ...(value.released ? {} : { p: true as const }),
            ...(inquiredHere.has(disciplineIds[position]!) ? { q: true as const } : {}),
          },
    );
    return {
      id: entry.id,
      name: entry.name,
      club: entry.club,
      no: entry.no,
      rank: totals ? totals.rank : entry.rank,
      total: totals ? totals.total : entry.total,
      done: totals ? totals.complete : entry.complete,
      ooc: entry.ooc,
      s: scores,
      ...(scores.some((score) => score?.p) ? { p: true as const } : {}),
    };
  });
  return reranked ? list.sort(listingOrder((entry) => entry.name ?? '')) : list;
}

const gymnastEntry =
  (hidden: ReadonlySet<number>) =>
  (result: AllAroundResult): ListedEntry => {
    const secret = hidden.has(result.participantId);
    return {
      id: result.participantId,
      name: secret ? null : [result.firstName, result.lastName].filter(Boolean).join(' ') || null,
      club: result.clubName,
      no: secret ? null : result.startNumber,
      ooc: result.outOfCompetition,
      rank: result.rank,
      total: result.total,
      complete: result.complete,
      disciplines: result.disciplines,
    };
  };

const apparatusOf = (list: { disciplines: ResultDiscipline[] } | null): LiveApparatus[] =>
  (list?.disciplines ?? []).map((discipline) => ({ id: discipline.disciplineId, name: discipline.name, short: discipline.shortName }));

const teamEntry = (result: TeamResult): ListedEntry => ({
  id: result.teamId,
  name: result.name,
  club: result.clubName,
  no: result.startNumber === null ? null : String(result.startNumber),
  ooc: result.outOfCompetition,
  rank: result.rank,
  total: result.total,
  complete: result.complete,
  disciplines: result.disciplines,
});

/** A snapshot with the time it goes stale without an event: an open inquiry lapsing unconfirmed (null: none). */
export interface BuiltSnapshot {
  snapshot: LiveSnapshot;
  staleAt: Date | null;
}

export async function buildLiveSnapshot(db: Queryable, eventId: number, seq: number, privacy: SpectatorPrivacy): Promise<BuiltSnapshot> {
  const cursor = () => seq;
  const [event, released, inquiries, setting] = await Promise.all([
    selectEventCompetitions(db, eventId),
    selectReleasedScopes(db, eventId),
    selectOpenInquiries(db, eventId),
    readAppSetting(db, 'results'),
  ]);
  if (!event) throw notFound(`No event ${eventId}`);
  const hidden = new Set(privacy.hiddenParticipantIds);
  const none = new Set<number>();
  const competitions: LiveCompetition[] = [];
  // One competition after the other: the lists' statements then hold one pool connection, not one per competition.
  for (const competition of event.competitions) {
    const query = { eventId, competitionId: competition.id };
    const gymnasts = competition.gymnasts ? await loadAllAroundResults(db, query, cursor) : null;
    const teams = competition.teams ? await loadTeamResults(db, query, cursor) : null;
    const ranked = competitionRanking(setting, competition.id);
    const publish = (list: { disciplines: ResultDiscipline[] } | null, kind: 'p' | 't', entries: ListedEntry[]) => {
      if (!list) return [];
      const ids = list.disciplines.map((discipline) => discipline.disciplineId);
      const positions = new Map(ids.map((id, position) => [id, position]));
      const ranking: Ranking = {
        tieBreak: ranked.tieBreak,
        options: {
          notation: ranked.rankNotation,
          maxDrops: ranked.maxDrops ?? undefined,
          order: ranked.apparatusOrder.flatMap((id) => positions.get(id) ?? []),
        },
      };
      const releasedOf = (entry: ListedEntry) => released.get(entryKey(competition.id, kind, entry.id)) ?? none;
      const inquiredOf = (entry: ListedEntry) => inquiries.marks.get(entryKey(competition.id, kind, entry.id)) ?? none;
      return publishedList(entries, releasedOf, inquiredOf, ids, privacy.publish, ranking);
    };
    competitions.push({
      id: competition.id,
      name: competition.name,
      apparatus: apparatusOf(gymnasts),
      gymnasts: publish(gymnasts, 'p', gymnasts?.classes[0]?.results.map(gymnastEntry(hidden)) ?? []),
      teamApparatus: apparatusOf(teams),
      teams: publish(teams, 't', teams?.results.map(teamEntry) ?? []),
    });
  }
  return { snapshot: { eventId, eventName: event.event_name, seq, publish: privacy.publish, competitions }, staleAt: inquiries.lapsesAt };
}
