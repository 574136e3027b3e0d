/**
 * The jury portal's rules without the DOM (spec "Jury portal load workflow" and "Jury portal
 * participant status"), so they are unit-testable in Node.
 */
import { bindLettersToResults, evaluate, parse, variablesInOrder } from '../../src/domain/formula.js';
import { eventScore, type DisciplineField, type ScoreEntry, type ScoreUpdatedEvent } from '../shared/api.js';

export interface FieldInput {
  /**
   * A, B, C… in sort order of the non-final fields (load workflow step 2); an E-panel judge's
   * field is none of the formula's letters (the aggregate field stands for the panel) and is
   * labelled E1, E2… instead.
   */
  letter: string;
  field: DisciplineField;
  /** An E-panel judge's field (issue 21): typed, saved, but not bound to a formula letter. */
  judge: boolean;
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

/**
 * Enabled fields of the device by sort order; the first flagged final is the final field. The
 * formula's letters skip an E-panel's judge and reference judge fields, as the service's do
 * (docs/decisions.md, "E-panel", "Reference judges").
 */
export function fieldLayout(
  fields: readonly DisciplineField[],
  disciplineId: number,
  judgeFieldIds: readonly number[] = [],
  referenceFieldIds: readonly number[] = [],
): FieldLayout {
  const enabled = fields.filter((field) => field.disciplineId === disciplineId && field.enabled).sort(bySortOrder);
  const finalField = enabled.find((field) => field.isFinalScore) ?? null;
  let letters = 0;
  let judges = 0;
  let references = 0;
  const inputs = enabled
    .filter((field) => field !== finalField && !field.isFinalScore)
    .flatMap((field): FieldInput[] => {
      if (judgeFieldIds.includes(field.id)) return [{ letter: `E${++judges}`, field, judge: true }];
      if (referenceFieldIds.includes(field.id)) return [{ letter: `R${++references}`, field, judge: true }];
      return letters < LETTERS.length ? [{ letter: LETTERS[letters++]!, field, judge: false }] : [];
    });
  return { inputs, finalField };
}

/** The values the formula's letters bind to: the inputs' values without the judges'. */
export function formulaValues<T>(inputs: ReadonlyArray<Pick<FieldInput, 'judge'>>, values: readonly T[]): T[] {
  return values.filter((_, index) => !inputs[index]?.judge);
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
  /** The office marked the gymnast as not started: listed in place, nothing to enter. */
  didNotStart: boolean;
}

export const participantKey = (competitionId: number, participantId: number) => `${competitionId}:${participantId}`;

function compareStartNumbers(a: ParticipantRow, b: ParticipantRow): number {
  const numeric = (text: string) => (/^\d+$/.test(text) ? Number(text) : Number.POSITIVE_INFINITY);
  return (
    numeric(a.startNumber) - numeric(b.startNumber) ||
    a.startNumber.localeCompare(b.startNumber) ||
    a.lastName.localeCompare(b.lastName) ||
    a.firstName.localeCompare(b.firstName)
  );
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
      didNotStart: entry.didNotStart,
    };
    row.wertungenId ??= entry.id;
    if (entry.disciplineId === disciplineId && typeof entry.score === 'number') {
      row.wertungenId = entry.id ?? row.wertungenId;
      row.didNotStart = entry.didNotStart;
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
export function applyScoreEvent(
  rows: ParticipantRow[],
  event: ScoreUpdatedEvent,
  selection: { eventId: number; disciplineId: number },
): ParticipantRow | null {
  if (event.eventId !== selection.eventId || event.disciplineId !== selection.disciplineId) return null;
  const row = rows.find(
    (candidate) =>
      (typeof event.participantId === 'number' &&
        candidate.participantId === event.participantId &&
        (event.competitionId === undefined || candidate.competitionId === event.competitionId)) ||
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
  competitionId: number | null;
  disciplineId: number | null;
  /** Null: every squad. */
  squad: string | null;
}

/** The status a row shows: the server's, or the queue's when a save waits or was refused. */
export type DisplayStatus = 'pending' | 'completed' | 'waiting' | 'error';

export const fullName = (row: Pick<ParticipantRow, 'firstName' | 'lastName'>, unnamed = 'Unnamed participant') =>
  `${row.firstName} ${row.lastName}`.trim() || unnamed;

/**
 * Whether the competition's score rows plan its devices: the desktop program creates a detail row
 * per planned device (value still empty) before anything is scored. Only then do the rows say
 * which devices a participant does; scored rows alone say nothing about the devices still to come.
 */
export function devicesPlanned(entries: readonly ScoreEntry[]): boolean {
  return entries.some((entry) => entry.disciplineId !== null && entry.score === null);
}

/**
 * The devices of a competition as its planned detail rows say; null (= every device) when the rows
 * plan none. Issue 17: a P-level girl must not be offered the Kür vault.
 */
export function devicesOfCompetition(entries: readonly ScoreEntry[]): Set<number> | null {
  if (!devicesPlanned(entries)) return null;
  return new Set(entries.flatMap((entry) => (entry.disciplineId === null ? [] : [entry.disciplineId])));
}

/**
 * The entries of the participants the device applies to: with planned devices, those whose score
 * row has a detail row of the device (plus rows without any detail row: nothing speaks against
 * them); otherwise everybody.
 */
export function entriesForDevice(entries: readonly ScoreEntry[], disciplineId: number): ScoreEntry[] {
  if (!devicesPlanned(entries)) return [...entries];
  const withDevice = new Set(entries.filter((entry) => entry.disciplineId === disciplineId).map((entry) => entry.id));
  const withAnyDetail = new Set(entries.filter((entry) => entry.disciplineId !== null).map((entry) => entry.id));
  return entries.filter((entry) => withDevice.has(entry.id) || !withAnyDetail.has(entry.id));
}

/** Whether the judge has still to score the row: nothing stored yet, and the gymnast starts. */
export const awaitsScore = (row: ParticipantRow, status: DisplayStatus) => status === 'pending' && !row.didNotStart;

/** The next participant to score after `key`, in list order: the first pending one below, else above. */
export function nextPending(
  rows: readonly ParticipantRow[],
  key: string,
  isPending: (row: ParticipantRow) => boolean,
): ParticipantRow | null {
  const index = rows.findIndex((row) => row.key === key);
  const after = rows.slice(index + 1).find(isPending);
  return after ?? rows.slice(0, Math.max(index, 0)).find(isPending) ?? null;
}

// ---------------------------------------------------------------- E-panel (issue 21)

/**
 * The stored values of one field of the device per participant key: an E-panel judge's portal
 * (`&field=`) counts a participant as done once their own field holds a value, whatever the others did.
 */
export function fieldValues(entries: readonly ScoreEntry[], disciplineId: number, fieldId: number): Map<string, number> {
  const values = new Map<string, number>();
  for (const entry of entries) {
    if (entry.disciplineId !== disciplineId || entry.participantId === null) continue;
    const result = entry.juryResults.find((candidate) => candidate.disciplineFieldId === fieldId);
    if (result && typeof result.performance === 'number')
      values.set(participantKey(entry.competitionId, entry.participantId), result.performance);
  }
  return values;
}
