/**
 * What the portal may do in the selected competition: whether a participant's device is released
 * (read-only then), and whether the competition is one the office scores (groups and teams).
 */
import { getJson, type CompetitionSummary, type ScoreEntry } from '../shared/api.js';
import type { ScopeReleases } from '../../queries/scope-releases.js';
import type { ParticipantRow } from './model.js';
import type { JuryView } from './rendering.js';
import type { EventSquad } from './selection.js';
import type { JuryState } from './state.js';

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

/**
 * Loads the selected competition's releases again. When the form shows the selected participant
 * otherwise (open, or read-only) it is rebuilt and `reloadValues` fills it with the stored values.
 */
export async function refreshReleases(
  state: JuryState,
  view: Pick<JuryView, 'renderList' | 'renderPanel' | 'formReleased'>,
  reloadValues: () => Promise<void>,
): Promise<void> {
  const competitionId = state.selection.competitionId;
  if (competitionId === null) return;
  let releases: ScopeRelease[];
  try {
    releases = await loadReleases(competitionId);
  } catch {
    return; // The next release event or resync asks again; the server refuses writes meanwhile.
  }
  if (competitionId !== state.selection.competitionId) return;
  state.releases = releases;
  view.renderList();
  const row = state.selectedRow();
  if (row === undefined || state.released(row) === view.formReleased) return;
  state.dirty = false;
  state.juryLoadKey = null;
  view.renderPanel();
  await reloadValues();
}
