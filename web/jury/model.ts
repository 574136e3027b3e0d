/**
 * The jury portal's rules without the DOM (spec "Jury portal load workflow" and "Jury portal
 * participant status"), so they are unit-testable in Node.
 */
import { bindLettersToResults, evaluate, parse, variablesInOrder } from '../../src/domain/formula.js';
import { eventScore, type DisciplineField, type ScoreEntry, type ScoreUpdatedEvent } from '../shared/api.js';

export interface FieldInput {
  /** A, B, C… in sort order of the non-final fields (load workflow step 2). */
  letter: string;
  field: DisciplineField;
}

export interface FieldLayout {
  inputs: FieldInput[];
  finalField: DisciplineField | null;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function bySortOrder(a: DisciplineField, b: DisciplineField): number {
  if (a.sortOrder !== b.sortOrder) {
    if (a.sortOrder === null) return 1;
    if (b.sortOrder === null) return -1;
    return a.sortOrder - b.sortOrder;
  }
  return a.id - b.id;
}

/** Enabled fields of the device by sort order; the first flagged final is the final field. */
export function fieldLayout(fields: readonly DisciplineField[], disciplineId: number): FieldLayout {
  const enabled = fields.filter((field) => field.disciplineId === disciplineId && field.enabled).sort(bySortOrder);
  const finalField = enabled.find((field) => field.isFinalScore) ?? null;
  const inputs = enabled
    .filter((field) => field !== finalField && !field.isFinalScore)
    .slice(0, LETTERS.length)
    .map((field, index) => ({ letter: LETTERS[index]!, field }));
  return { inputs, finalField };
}

/**
 * The final score while typing, with the server's engine (calculation rule 8). Every input must
 * hold a value: the server binds letters to the saved values in sort order, so a gap would shift
 * the letters and show a number the server would never calculate.
 */
export function computeFinal(formula: string | null, values: readonly (number | null)[]): number | null {
  if (formula === null || values.some((value) => value === null)) return null;
  const parsed = parse(formula);
  if (!parsed.ok) return null;
  return evaluate(parsed.expr, bindLettersToResults(parsed.expr, values as number[]));
}

/**
 * Whether the portal can calculate the final itself: the formula parses and every variable is a
 * letter that one of the inputs binds. Otherwise the judge types the final score.
 */
export function formulaUsable(formula: string | null, inputCount: number): boolean {
  if (formula === null) return false;
  const parsed = parse(formula);
  if (!parsed.ok) return false;
  const variables = variablesInOrder(parsed.expr);
  return variables.length <= inputCount && variables.every((name) => /^[A-Z]$/.test(name));
}

export type ParticipantStatus = 'pending' | 'completed';

export interface ParticipantRow {
  /** Stable across the creation of a score row: competition and participant. */
  key: string;
  participantId: number;
  competitionId: number;
  eventId: number;
  /** The key of every jury-result call; null until a score row exists. */
  wertungenId: number | null;
  firstName: string;
  lastName: string;
  startNumber: string;
  clubName: string;
  currentScore: number | null;
  status: ParticipantStatus;
}

export const participantKey = (competitionId: number, participantId: number) => `${competitionId}:${participantId}`;

function compareStartNumbers(a: ParticipantRow, b: ParticipantRow): number {
  const numeric = (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.POSITIVE_INFINITY);
  return numeric(a.startNumber) - numeric(b.startNumber) || a.startNumber.localeCompare(b.startNumber) || a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName);
}

/**
 * One row per participant and competition for the selected device. A score row is per participant
 * and competition, its detail rows per device, so an entry of another device still lends its
 * wertungenId, while only this device's entry lends a score (status table: a score value exists).
 */
export function participantRows(entries: readonly ScoreEntry[], disciplineId: number): ParticipantRow[] {
  const rows = new Map<string, ParticipantRow>();
  for (const entry of entries) {
    if (entry.participantId === null) continue;
    const key = participantKey(entry.competitionId, entry.participantId);
    const row = rows.get(key) ?? {
      key,
      participantId: entry.participantId,
      competitionId: entry.competitionId,
      eventId: entry.eventId,
      wertungenId: null,
      firstName: entry.firstName ?? '',
      lastName: entry.lastName ?? '',
      startNumber: entry.startNumber === null ? '' : String(entry.startNumber),
      clubName: entry.clubName ?? '',
      currentScore: null,
      status: 'pending' as ParticipantStatus,
    };
    row.wertungenId ??= entry.id;
    if (entry.disciplineId === disciplineId && typeof entry.score === 'number') {
      row.wertungenId = entry.id ?? row.wertungenId;
      row.currentScore = entry.score;
      row.status = 'completed';
    }
    rows.set(key, row);
  }
  return [...rows.values()].sort(compareStartNumbers);
}

/**
 * Status table, last row: an event of the selected event and device marks the participant it names
 * (by participantId or wertungenId) completed with the event's score. Returns the row it changed.
 */
export function applyScoreEvent(rows: ParticipantRow[], event: ScoreUpdatedEvent, selection: { eventId: number; disciplineId: number }): ParticipantRow | null {
  if (event.eventId !== selection.eventId || event.disciplineId !== selection.disciplineId) return null;
  const row = rows.find(
    (candidate) =>
      (typeof event.participantId === 'number' && candidate.participantId === event.participantId && (event.competitionId === undefined || candidate.competitionId === event.competitionId)) ||
      (candidate.wertungenId !== null && candidate.wertungenId === event.scoreId),
  );
  if (!row) return null;
  row.status = 'completed';
  row.wertungenId ??= event.scoreId;
  const score = eventScore(event);
  if (score !== null) row.currentScore = score;
  return row;
}

/** What the portal shows: kept in the address and in localStorage for the next visit. */
export interface Selection {
  eventId: number | null;
  disciplineId: number | null;
}

/** The status a row shows: the server's, or the queue's when a save waits or was refused. */
export type DisplayStatus = 'pending' | 'completed' | 'waiting' | 'error';

export const fullName = (row: Pick<ParticipantRow, 'firstName' | 'lastName'>) => `${row.firstName} ${row.lastName}`.trim() || 'Unnamed participant';
