/**
 * The jury portal's selection (event, competition, device, squad): read from the address, else
 * as this browser last had it; written back to both. And the choices a selection offers.
 */
import type { CompetitionSummary, DisciplineSummary, ScoreEntry } from '../shared/api.js';
import { queryInteger } from '../shared/dom.js';
import { devicesOfCompetition, type Selection } from './model.js';

const SELECTION_STORAGE_KEY = 'gym.jury.selection.v2';
export const NO_SELECTION: Selection = { eventId: null, competitionId: null, disciplineId: null, squad: null };

/** A squad of the event with its participants, for the squad picker and the list's filter. */
export interface EventSquad {
  name: string;
  participantIds: Set<number>;
}

function readStoredSelection(): Selection {
  try {
    const stored = JSON.parse(localStorage.getItem(SELECTION_STORAGE_KEY) ?? '{}') as Partial<Selection>;
    return { ...NO_SELECTION, ...stored };
  } catch {
    return NO_SELECTION;
  }
}

/** The selection as the address says it, else as stored for this browser. */
export function wantedSelection(): Selection {
  const stored = readStoredSelection();
  const squad = new URLSearchParams(window.location.search).get('squad');
  return {
    eventId: queryInteger('eventId') ?? stored.eventId,
    competitionId: queryInteger('competitionId') ?? stored.competitionId,
    disciplineId: queryInteger('disciplineId') ?? stored.disciplineId,
    squad: squad !== null ? squad || null : stored.squad,
  };
}

export function keepSelection(selection: Selection): void {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(selection)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  window.history.replaceState(null, '', url);
  try {
    localStorage.setItem(SELECTION_STORAGE_KEY, JSON.stringify(selection));
  } catch {
    // Only a convenience for the next visit.
  }
}

/**
 * The devices of the selected competition, as its planned detail rows name them (all when they plan
 * none), in the competition's order (`plannedOrder`, its devices as planned); the rest keep the
 * catalog's order after them.
 */
export function devicesOf(
  disciplines: DisciplineSummary[],
  entries: readonly ScoreEntry[],
  plannedOrder: readonly number[] = [],
): DisciplineSummary[] {
  const ids = devicesOfCompetition(entries);
  const offered = ids === null ? disciplines : disciplines.filter((discipline) => ids.has(discipline.id));
  const place = (id: number) => (plannedOrder.includes(id) ? plannedOrder.indexOf(id) : plannedOrder.length);
  return [...offered].sort((a, b) => place(a.id) - place(b.id));
}

/** Squads with at least one participant of the selected competition. */
export function squadsOf(eventSquads: readonly EventSquad[], entries: readonly ScoreEntry[]): string[] {
  const participants = new Set(entries.map((entry) => entry.participantId));
  return eventSquads.filter((squad) => [...squad.participantIds].some((id) => participants.has(id))).map((squad) => squad.name);
}

/** The one line a judge's folded selection shows: device, competition, squad. */
export function selectionSummary(
  selection: Selection,
  discipline: DisciplineSummary | null,
  competitions: readonly CompetitionSummary[],
): string {
  return [
    discipline?.displayName || discipline?.name,
    competitions.find((competition) => competition.id === selection.competitionId)?.name,
    selection.squad,
  ]
    .filter(Boolean)
    .join(' · ');
}
