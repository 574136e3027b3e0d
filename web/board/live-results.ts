// GET /api/live-results answers the projection's shape; a type-only import adds nothing to the bundle.
import type { LiveResults } from '../../projections/live-results.js';
import { getJson } from '../shared/api.js';
import { entryKey, type BoardEntry } from './ranking.js';

export interface LiveSnapshot {
  seq: number | null;
  disciplineName: string;
  entries: BoardEntry[];
}

export async function fetchLiveResults(eventId: number, disciplineId: number): Promise<LiveSnapshot> {
  const body = await getJson<LiveResults>('/api/live-results', { eventId, disciplineId });
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
