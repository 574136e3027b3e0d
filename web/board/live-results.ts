// GET /api/live-results answers the projection's shape; a type-only import adds nothing to the bundle.
import type { LiveResults } from '../../projections/live-results.js';
import { getJson } from '../shared/api.js';
import { entryKey, type BoardEntry, type BoardRule } from './ranking.js';

export interface LiveSnapshot {
  seq: number | null;
  order: 'ascending' | 'descending';
  disciplineName: string;
  /** The rule of each competition listed (the board ranks each on its own). */
  rules: Map<number, BoardRule>;
  entries: BoardEntry[];
}

export async function fetchLiveResults(
  eventId: number,
  disciplineId: number,
  competitionId: number | null = null,
  releasedOnly = false,
): Promise<LiveSnapshot> {
  const body = await getJson<LiveResults>('/api/live-results', {
    eventId,
    disciplineId,
    competitionId: competitionId ?? undefined,
    released: releasedOnly ? 'only' : undefined,
  });
  return {
    seq: typeof body.seq === 'number' ? body.seq : null,
    order: body.order === 'ascending' ? 'ascending' : 'descending',
    disciplineName: body.disciplineName,
    rules: new Map(
      (body.competitions ?? []).map((competition) => [
        competition.competitionId,
        { rule: competition.apparatusTieBreak, notation: competition.rankNotation },
      ]),
    ),
    entries: body.results.map((result) => ({
      key: entryKey(result.scoreId, result.participantId),
      participantId: result.participantId,
      wertungenId: result.scoreId,
      competitionId: result.competitionId,
      kind: result.kind,
      name: `${result.firstName ?? ''} ${result.lastName ?? ''}`.trim(),
      club: result.clubName ?? '',
      squad: result.squadName ?? '',
      score: result.score,
      outOfCompetition: result.outOfCompetition,
      released: result.released,
      e: result.e ?? null,
      d: result.d ?? null,
    })),
  };
}
