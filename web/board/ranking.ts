/** Scoreboard ranking without the DOM, so it is unit-testable in Node. */

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
}

export interface RankedEntry extends BoardEntry {
  /** Equal scores share a rank and the next rank skips (1, 2, 2, 4); null without a score or out of competition. */
  rank: number | null;
}

// Scores are float4 in the database: compare at a thousandth so 13.45 and 13.449999 tie.
const scoreUnits = (score: number) => Math.round(score * 1000);

/** 'ascending' for a time mask: the shortest time ranks first (issue 17). */
export type RankOrder = 'ascending' | 'descending';

const byScoreThenName = (order: RankOrder) => (a: BoardEntry, b: BoardEntry) =>
  (a.score === null ? 1 : 0) - (b.score === null ? 1 : 0) ||
  (order === 'ascending' ? scoreUnits(a.score ?? 0) - scoreUnits(b.score ?? 0) : scoreUnits(b.score ?? 0) - scoreUnits(a.score ?? 0)) ||
  a.name.localeCompare(b.name);

/** Ranked entries first, by score; then out-of-competition entries; then those without a score. */
export function rankEntries(entries: readonly BoardEntry[], order: RankOrder = 'descending'): RankedEntry[] {
  const competing = entries.filter((entry) => entry.score !== null && !entry.outOfCompetition).sort(byScoreThenName(order));
  const others = entries.filter((entry) => entry.score === null || entry.outOfCompetition).sort(byScoreThenName(order));
  const ranked: RankedEntry[] = [];
  competing.forEach((entry, index) => {
    const previous = ranked[index - 1];
    const tied = previous !== undefined && scoreUnits(previous.score!) === scoreUnits(entry.score!);
    ranked.push({ ...entry, rank: tied ? previous.rank : index + 1 });
  });
  return [...ranked, ...others.map((entry) => ({ ...entry, rank: null }))];
}

export const entryKey = (wertungenId: number | null, participantId: number | null) =>
  wertungenId !== null ? `score:${wertungenId}` : `participant:${participantId ?? 'unknown'}`;

/**
 * Applies a live score to the entry it names (by participantId or wertungenId). Returns the
 * changed entry, or null when the board does not know the participant yet (the caller reloads).
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
  entry.score = update.score;
  entry.wertungenId ??= update.scoreId;
  return entry;
}
