/**
 * What a change of an E-panel judge's value leads to (issue 21), decided without a database: the
 * aggregate to store (complete panels only, so no final is published early), the final the formula
 * then gives, and where the score's deviation goes. The SQL that carries it out is in
 * `commands/panel-aggregation.ts`.
 */
import { calculateFinalScore } from '../src/domain/final-score.js';
import { sameStoredValue } from '../src/domain/stored-value.js';
import { deviationTransition, isOverTolerance, type DeviationTransition, type PanelReading } from '../src/domain/panel.js';
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
