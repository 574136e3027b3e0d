/**
 * Scoreboard ranking without the DOM, so it is unit-testable in Node. The ranks come from the
 * server's own ranking module (`src/domain/apparatus-ranking.ts`), so a board re-ranking on a live
 * event shows what `GET /api/live-results` would answer.
 */
import { compareScores, rankApparatus, type ApparatusRanking } from '../../src/domain/apparatus-ranking.js';
import { scoreUnits } from '../../src/domain/ranks.js';

export interface BoardEntry {
  /** Stable row identity: the score row (wertungenId) when known, else the participant. */
  key: string;
  participantId: number | null;
  wertungenId: number | null;
  competitionId: number | null;
  kind: 'individual' | 'group' | 'team';
  name: string;
  club: string;
  squad: string;
  score: number | null;
  /** Out of competition (bol_ak): shown, but takes no rank from anybody. */
  outOfCompetition: boolean;
  /** Released by the head judge; false marks the score provisional. Absent: not known. */
  released?: boolean;
  /** E and D of the routine for an `e-then-d` rule; null where not known (such a tie stays shared). */
  e?: number | null;
  d?: number | null;
}

export interface RankedEntry extends BoardEntry {
  /** Equal scores share a rank (1, 2, 2, 4, or 1, 2, 2, 3 dense) unless the rule decides; null without a score or out of competition. */
  rank: number | null;
}

/** 'ascending' for a time mask: the shortest time ranks first (issue 17). */
export type RankOrder = 'ascending' | 'descending';

/** The rule and notation of one competition's ranking; absent: shared, 1, 1, 3. */
export type BoardRule = Omit<ApparatusRanking, 'order'>;

/** Ranked entries first, by rank (then name); then out-of-competition entries; then those without a score. */
export function rankEntries(
  entries: readonly BoardEntry[],
  order: RankOrder = 'descending',
  rule: BoardRule = { rule: 'shared' },
): RankedEntry[] {
  const ranking: ApparatusRanking = { ...rule, order };
  const ranks = rankApparatus(entries, ranking);
  const byScoreThenName = (a: RankedEntry, b: RankedEntry) =>
    (a.score === null ? 1 : 0) - (b.score === null ? 1 : 0) || compareScores(a, b, order) || a.name.localeCompare(b.name);
  const ranked = entries.map((entry, index) => ({ ...entry, rank: ranks[index]!.rank }));
  return [
    ...ranked.filter((entry) => entry.rank !== null).sort((a, b) => a.rank! - b.rank! || a.name.localeCompare(b.name)),
    ...ranked.filter((entry) => entry.rank === null).sort(byScoreThenName),
  ];
}

export const entryKey = (wertungenId: number | null, participantId: number | null) =>
  wertungenId !== null ? `score:${wertungenId}` : `participant:${participantId ?? 'unknown'}`;

/**
 * Applies a live score to the entry it names (by participantId or wertungenId). Returns the
 * changed entry, or null when the board does not know the participant yet (the caller reloads).
 * A changed score makes the routine's E and D unknown (the event carries neither), so an
 * `e-then-d` tie stays shared until the server's ranking has them.
 */
export function applyLiveScore(
  entries: BoardEntry[],
  update: { participantId?: number; scoreId: number; score: number },
): BoardEntry | null {
  const entry = entries.find(
    (candidate) =>
      (candidate.wertungenId !== null && candidate.wertungenId === update.scoreId) ||
      (typeof update.participantId === 'number' && candidate.participantId === update.participantId),
  );
  if (!entry) return null;
  if (entry.score !== update.score) {
    entry.e = null;
    entry.d = null;
  }
  entry.score = update.score;
  entry.wertungenId ??= update.scoreId;
  return entry;
}

/**
 * Whether the entry's score equals another ranked entry's of its competition: only then do E and
 * D decide between them, and only then must a board under `e-then-d` fetch them from the server.
 * A score that ties nobody ranks by itself, and the ties it leaves were ranked with the E and D
 * the board already has.
 */
export function tiesAnother(entries: readonly BoardEntry[], entry: BoardEntry): boolean {
  if (entry.score === null || entry.outOfCompetition) return false;
  const units = scoreUnits(entry.score);
  return entries.some(
    (other) =>
      other !== entry &&
      other.competitionId === entry.competitionId &&
      !other.outOfCompetition &&
      other.score !== null &&
      scoreUnits(other.score) === units,
  );
}
