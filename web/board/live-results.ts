import { getJson } from '../shared/api.js';
import { entryKey, type BoardEntry } from './ranking.js';

/** GET /api/live-results (projections/live-results.ts): the scoreboard's initial load. */
export interface LiveResultsBody {
  eventId: number;
  disciplineId: number;
  disciplineName: string;
  /** Last outbox seq the results include: join with `since: seq` to follow them without a gap. */
  seq: number;
  results: Array<{
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
    outOfCompetition: boolean;
  }>;
}

export interface LiveSnapshot {
  seq: number | null;
  disciplineName: string;
  entries: BoardEntry[];
}

export async function fetchLiveResults(eventId: number, disciplineId: number): Promise<LiveSnapshot> {
  const body = await getJson<LiveResultsBody>('/api/live-results', { eventId, disciplineId });
  return {
    seq: typeof body.seq === 'number' ? body.seq : null,
    disciplineName: body.disciplineName,
    entries: body.results.map((result) => ({
      key: entryKey(result.scoreId, result.participantId),
      participantId: result.participantId,
      wertungenId: result.scoreId,
      name: `${result.firstName ?? ''} ${result.lastName ?? ''}`.trim(),
      club: result.clubName ?? '',
      squad: result.squadName ?? '',
      score: result.score,
      outOfCompetition: result.outOfCompetition,
    })),
  };
}
