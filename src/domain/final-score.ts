/**
 * Final score of one score row in one discipline, from its jury results (spec "Calculation rules"
 * and "Final value of a jury result set"). Pure: the SQL that loads the inputs and writes the
 * outcome lives in `src/model/scoring-context.ts` and the handlers.
 */
import { bindLettersToResults, evaluate, parse, resolveFormula, startValue, type Expr } from './formula.js';
import type { Gender } from './squad-planner.js';

export interface DisciplineFormula {
  /** The expression clients get; null when none is stored or the stored one does not parse. */
  readonly text: string | null;
  readonly expr: Expr | null;
  readonly startValue: number;
  /** Stored expression that was refused, with the parser's reason; null when none was refused. */
  readonly rejected: { readonly stored: string; readonly error: string } | null;
}

/**
 * Rule 1 (record wins over the discipline's own text). A malformed stored formula counts as no
 * formula: the caller logs `rejected`, and reads and writes go on without a calculation.
 */
export function compileFormula(recordFormula: string | null, disciplineFormula: string | null): DisciplineFormula {
  const stored = resolveFormula(recordFormula, disciplineFormula);
  const parsed = stored === null ? null : parse(stored);
  if (stored === null || parsed === null || !parsed.ok) {
    return {
      text: null,
      expr: null,
      startValue: startValue(null),
      rejected: stored !== null && parsed !== null && !parsed.ok ? { stored, error: parsed.error } : null,
    };
  }
  return { text: stored, expr: parsed.expr, startValue: startValue(stored), rejected: null };
}

/** One field of the discipline together with this score's attempt-1 jury result for it, if any. */
export interface FieldResult {
  readonly fieldId: number;
  readonly sortOrder: number | null;
  readonly isFinal: boolean;
  /** Id of the jury-result row; null when the score has none for this field. */
  readonly resultId: number | null;
  /** Its value; null when there is no row or the row holds no number. */
  readonly value: number | null;
}

/** Ascending sort order, fields without one last, field id as the tie-break. */
export function compareFields(a: FieldResult, b: FieldResult): number {
  if (a.sortOrder !== b.sortOrder) {
    if (a.sortOrder === null) return 1;
    if (b.sortOrder === null) return -1;
    return a.sortOrder - b.sortOrder;
  }
  return a.fieldId - b.fieldId;
}

/** The field flagged bol_endwert; with several (bad legacy data) the first in sort order. */
export function finalFieldOf<T extends FieldResult>(fields: readonly T[]): T | null {
  return [...fields].sort(compareFields).find((field) => field.isFinal) ?? null;
}

/**
 * Rule 2 taken literally: the letters bind to the non-final jury results that exist, in sort
 * order, so a formula whose letters outnumber the saved values has an unbound letter and no result.
 * Returns null for no formula or a non-finite result (rule 5: then nothing is written).
 */
export function calculateFinalScore(formula: DisciplineFormula, fields: readonly FieldResult[]): number | null {
  if (formula.expr === null) return null;
  const values = [...fields]
    .sort(compareFields)
    .filter((field) => !field.isFinal && field.value !== null)
    .map((field) => field.value as number);
  return evaluate(formula.expr, bindLettersToResults(formula.expr, values));
}

export type FinalCorrection =
  /** Rule 5: insert the calculated value as the final field's jury result and into the detail. */
  | { readonly kind: 'calculate'; readonly fieldId: number; readonly value: number }
  /** Rule 6: overwrite the final field's jury result with the detail value. */
  | { readonly kind: 'sync'; readonly fieldId: number; readonly value: number };

/**
 * What reading a score must correct, if anything. A final-field row without a number is still a
 * row (the insert of rule 5 would collide with it), so only the sync can fill it, from a detail
 * that holds a number; a detail without a number is nothing to be authoritative about.
 */
export function finalCorrection(
  formula: DisciplineFormula,
  fields: readonly FieldResult[],
  detailValue: number | null,
): FinalCorrection | null {
  const finalField = finalFieldOf(fields);
  if (finalField === null) return null;
  if (finalField.resultId === null) {
    const hasNonFinalValues = fields.some((field) => !field.isFinal && field.value !== null);
    const value = hasNonFinalValues ? calculateFinalScore(formula, fields) : null;
    return value === null ? null : { kind: 'calculate', fieldId: finalField.fieldId, value };
  }
  if (detailValue !== null && detailValue !== finalField.value) {
    return { kind: 'sync', fieldId: finalField.fieldId, value: detailValue };
  }
  return null;
}

/** `int_geschlecht`: 1 male, 2 female; anything else (including none) is other. */
export function genderFromCode(code: number | null): Gender {
  return code === 1 ? 'male' : code === 2 ? 'female' : 'other';
}
