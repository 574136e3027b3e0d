/**
 * The rules of individual scoring saves, decided without a database: given the request and the
 * rows it names (loaded by `save-score-value.ts`, `save-jury-result.ts` and `capture-score.ts`),
 * which score row to write, whether an optimistic check fails, which discipline a capture covers
 * and which final it stores — or the error that refuses the request.
 */
import { notFound, StaleValueError, validationFailed } from '../src/domain/errors.js';
import { sameStoredValue } from '../src/domain/stored-value.js';

/** What `selectSaveTarget` found for a save-value request. */
export interface SaveTarget {
  competitionFound: boolean;
  disciplineFound: boolean;
  participantFound: boolean;
  /** The individual score row whose id the request's participantId carries, in the competition. */
  scoreId: number | null;
  /** The event of the competition, and the participant's own event (null when the legacy row has none). */
  competitionEvent: number | null;
  participantEvent: number | null;
}

export type SaveTargetDecision =
  /** participantId carried the wertungenId of a score row of the competition. */
  | { kind: 'score-row'; scoreId: number }
  /** participantId is a participant: find (or create) the participant's score row in the competition. */
  | { kind: 'participant'; participantId: number };

/**
 * save-value's resolution of `participantId` (see `save-score-value.ts`): a score row with that
 * id in the competition wins; otherwise a participant of the competition's event.
 */
export function decideSaveTarget(
  input: { competitionId: number; participantId: number; disciplineId: number },
  target: SaveTarget,
): SaveTargetDecision {
  if (!target.competitionFound) throw notFound(`No competition ${input.competitionId}`);
  if (!target.disciplineFound) throw notFound(`No discipline ${input.disciplineId}`);
  if (target.scoreId !== null) return { kind: 'score-row', scoreId: target.scoreId };
  if (!target.participantFound)
    throw notFound(`No score row or participant with id ${input.participantId} in competition ${input.competitionId}`);
  // A score row created here joins the participant to the competition: both must be of one event.
  if (target.participantEvent !== null && target.participantEvent !== target.competitionEvent) {
    throw validationFailed(
      `participantId ${input.participantId} is a participant of event ${target.participantEvent}, not of event ${target.competitionEvent} of competition ${input.competitionId}; nothing was saved`,
    );
  }
  return { kind: 'participant', participantId: input.participantId };
}

/** save-value's optimistic check: `expected` absent means no check; null means "no final stored". */
export function checkExpectedScore(expected: number | null | undefined, stored: number | null): void {
  if (expected === undefined || sameStoredValue(expected, stored)) return;
  throw new StaleValueError(
    `The stored final score is ${stored ?? 'none'}, not ${expected ?? 'none'} as expected: it was changed elsewhere; nothing was saved`,
    stored,
  );
}

/** A jury result's optimistic check on one field: `expected` absent means no check; null means "no value stored". */
export function checkExpectedPerformance(fieldId: number, expected: number | null | undefined, stored: number | null): void {
  if (expected === undefined || sameStoredValue(expected, stored)) return;
  throw new StaleValueError(
    `The stored value of field ${fieldId} is ${stored ?? 'none'}, not ${expected ?? 'none'} as expected: it was changed elsewhere; nothing was saved`,
    stored,
  );
}

/** Jury results use attempt 1 only. */
export function checkJuryResultAttempt(attempt: number): void {
  if (attempt !== 1) throw validationFailed(`body.attempt must be 1: jury results only use attempt 1, got ${attempt}`);
}

/** A capture names each field once. */
export function checkDistinctFields(fieldIds: readonly number[]): void {
  if (new Set(fieldIds).size !== fieldIds.length) throw validationFailed('body.fieldValues: each fieldId may appear only once');
}

/**
 * The discipline a capture covers: every field must exist (`disciplines` maps the fields found to
 * their discipline) and all must belong to the same discipline.
 */
export function disciplineOfFields(fieldIds: readonly number[], disciplines: ReadonlyMap<number, number>): number {
  const unknown = fieldIds.filter((fieldId) => !disciplines.has(fieldId));
  if (unknown.length > 0) throw validationFailed(`body.fieldValues: unknown fieldId ${unknown.join(', ')}`);
  const distinct = new Set(disciplines.values());
  if (distinct.size !== 1)
    throw validationFailed(`body.fieldValues: the fields belong to ${distinct.size} disciplines; a capture covers one`);
  return [...distinct][0]!;
}

/**
 * The final a capture stores: the value the request sent for the final field, else the formula's
 * result (`calculate` runs only then); null stores nothing (rule 5: the stored final stays).
 */
export function captureFinal(
  finalFieldId: number | null,
  fieldValues: ReadonlyArray<{ fieldId: number; value: number }>,
  calculate: () => number | null,
): { value: number | null; calculated: boolean } {
  const given = finalFieldId === null ? undefined : fieldValues.find((item) => item.fieldId === finalFieldId);
  if (given !== undefined) return { value: given.value, calculated: false };
  const value = calculate();
  return { value, calculated: value !== null };
}
