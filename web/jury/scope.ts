/**
 * What the portal may do in the selected competition: whether a participant's device is released
 * (read-only then), and whether the competition is one the office scores (groups and teams).
 */
import { getJson, type CompetitionSummary, type ScoreEntry } from '../shared/api.js';
import type { ScopeReleases } from '../../queries/scope-releases.js';
import type { ParticipantRow } from './model.js';
import type { EventSquad } from './selection.js';

export type ScopeRelease = ScopeReleases['releases'][number];

export const loadReleases = async (competitionId: number): Promise<ScopeRelease[]> =>
  (await getJson<ScopeReleases>('/api/releases', { competitionId })).releases;

/**
 * Released for this participant on this device: the whole device, or the participant's squad. The
 * squad comes from the event's squad list, which names one squad per participant.
 */
export function rowReleased(
  releases: readonly ScopeRelease[],
  squads: readonly EventSquad[],
  disciplineId: number | null,
  row: Pick<ParticipantRow, 'participantId'>,
): boolean {
  const onDevice = releases.filter((release) => release.disciplineId === disciplineId);
  if (onDevice.some((release) => release.squadName === null)) return true;
  const squad = squads.find((candidate) => candidate.participantIds.has(row.participantId))?.name;
  return squad !== undefined && onDevice.some((release) => release.squadName === squad);
}

/**
 * A competition whose scores the office enters: a group competition, or one with planned devices
 * but no individual score rows (a team competition). `/api/scores` lists individual rows only.
 */
export function officeScored(competition: CompetitionSummary | undefined, entries: readonly ScoreEntry[]): boolean {
  return competition !== undefined && entries.length === 0 && (competition.isGroupCompetition || competition.disciplineIds.length > 0);
}
