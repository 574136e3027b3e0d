/**
 * What a change of an E-panel judge's value leads to (issue 21), decided without a database: the
 * aggregate to store (complete panels only, so no final is published early), the final the formula
 * then gives, and where the score's deviation goes. The SQL that carries it out is in
 * `commands/panel-aggregation.ts`.
 */
import { conflict, validationFailed, type DomainError } from '../src/domain/errors.js';
import { calculateFinalScore } from '../src/domain/final-score.js';
import { sameStoredValue } from '../src/domain/stored-value.js';
import {
  deviationTransition,
  isOverTolerance,
  panelInputFieldIds,
  type DeviationTransition,
  type PanelReading,
  type PanelSettings,
} from '../src/domain/panel.js';
import { formulaFieldsOf, panelReadingOf, type DisciplineState } from '../src/model/scoring-context.js';

export interface PanelDecision {
  reading: PanelReading;
  /** The aggregate field's value to store; null while the panel is incomplete (or already stores it). */
  storeAggregate: { fieldId: number; value: number } | null;
  /**
   * The formula's result with the (provisional) aggregate in place of the stored one: what the
   * event announces; stored as the final only when the panel is complete.
   */
  finalScore: number | null;
  deviation: DeviationTransition;
}

/** Null when the discipline has no panel. `state`: the score as stored after the judge's value was written. */
export function decidePanel(state: DisciplineState): PanelDecision | null {
  const reading = panelReadingOf(state);
  if (reading === null || state.panel === null) return null;
  const aggregateFieldId = state.panel.aggregateFieldId;
  const withAggregate = formulaFieldsOf(state).map((field) =>
    field.fieldId === aggregateFieldId ? { ...field, value: reading.aggregate } : field,
  );
  const stored = state.fields.find((field) => field.fieldId === aggregateFieldId)?.value ?? null;
  return {
    reading,
    storeAggregate:
      reading.complete && reading.aggregate !== null && !sameStoredValue(reading.aggregate, stored)
        ? { fieldId: aggregateFieldId, value: reading.aggregate }
        : null,
    finalScore: calculateFinalScore(state.formula, withAggregate),
    deviation: deviationTransition(state.deviationState, isOverTolerance(reading)),
  };
}

/** One field of a panel on one score, as the audit record and the command's transaction show it. */
export interface PanelFieldRecord {
  fieldId: number;
  /** The first named caller whose API write stored a value in the field on this score: its judge. */
  judge: string | null;
  /** Whether this transaction changed the field's value. */
  changed: boolean;
}

/** Who the command acts for, as its transaction records it (`commands/run-command.ts`). */
export interface PanelCaller {
  actor: string;
  role: string | null;
}

/** The actor a command without a name records; such saves make nobody a field's judge. */
export const ANONYMOUS_ACTOR = 'anonymous';
const MAY_CHANGE_EVERY_JUDGE = ['head', 'admin'];

/**
 * Why the command's changes to a panel's fields are refused, or null (issue 43). The aggregate field
 * is the service's: nobody changes it directly. A judge field's value belongs to the judge who
 * first stored one there for this score: another caller (named, anonymous or with a jury token)
 * may not change it, and a named judge who has given another judge field of the score may not give
 * this one. The head judge and admins may change every judge's value. A value sent unchanged (a
 * form that shows every field sends them all) is no change.
 */
export function panelFieldRefusal(
  scoreId: number,
  panel: PanelSettings,
  caller: PanelCaller,
  records: readonly PanelFieldRecord[],
): DomainError | null {
  const changed = records.filter((record) => record.changed);
  if (changed.some((record) => record.fieldId === panel.aggregateFieldId)) {
    return validationFailed(`field ${panel.aggregateFieldId} is the E-panel's aggregate: the service computes it from the judges' values`);
  }
  if (caller.role !== null && MAY_CHANGE_EVERY_JUDGE.includes(caller.role)) return null;
  const inputs = panelInputFieldIds(panel);
  const judged = records.filter((record) => inputs.includes(record.fieldId));
  for (const record of changed) {
    if (!inputs.includes(record.fieldId)) continue;
    if (record.judge !== null && record.judge !== caller.actor) {
      return conflict(`field ${record.fieldId} of score ${scoreId} holds ${record.judge}'s value; the head judge may change it`);
    }
    if (caller.actor === ANONYMOUS_ACTOR) continue;
    const other = judged.find((candidate) => candidate.fieldId !== record.fieldId && candidate.judge === caller.actor);
    if (other) return conflict(`${caller.actor} gave field ${other.fieldId} of score ${scoreId}; a judge gives one field of a panel`);
  }
  return null;
}
