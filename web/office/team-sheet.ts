/**
 * The rules of the team score table without the DOM (spec "Team scoring", entry client rules), so
 * they are unit-testable in Node: which columns the table has, what the server holds per attempt,
 * and whether leaving a cell should save the attempt.
 */
import type { TeamScoreEntry } from '../../queries/team-scores.js';
import { evaluate, parse, variablesInOrder, type Expr } from '../../src/domain/formula.js';
import type { DisciplineField } from '../shared/api.js';
import { checkPlausibility, type PlausibilityCheck, type PlausibilityDiscipline, type PlausibilityValue } from '../shared/plausibility.js';

export interface SheetLayout {
  /** One column per enabled non-final field, in the server's sort order. */
  columns: DisciplineField[];
  finalField: DisciplineField | null;
  /**
   * The fields the discipline's formula reads (team formulas name fields by short name), when every
   * variable is a column; the server then calculates the final score. Null: no usable formula, so
   * the final score is typed like any other cell.
   */
  formulaFields: DisciplineField[] | null;
  /** The parsed formula when `formulaFields` is not null. */
  expr: Expr | null;
}

export function sheetLayout(fields: readonly DisciplineField[], disciplineId: number, formula: string | null): SheetLayout {
  const enabled = fields.filter((field) => field.disciplineId === disciplineId && field.enabled);
  const finalField = enabled.find((field) => field.isFinalScore) ?? null;
  const columns = enabled.filter((field) => !field.isFinalScore);
  return { columns, finalField, ...formulaFieldsOf(formula, columns) };
}

function formulaFieldsOf(formula: string | null, columns: readonly DisciplineField[]): Pick<SheetLayout, 'formulaFields' | 'expr'> {
  const none = { formulaFields: null, expr: null };
  if (formula === null) return none;
  const parsed = parse(formula);
  if (!parsed.ok) return none;
  const byShortName = new Map(columns.filter((field) => field.shortName).map((field) => [field.shortName!, field]));
  const variables = variablesInOrder(parsed.expr);
  if (!variables.every((name) => byShortName.has(name))) return none;
  return { formulaFields: variables.map((name) => byShortName.get(name)!), expr: parsed.expr };
}

export interface StoredAttempt {
  values: Map<number, number>;
  finalScore: number | null;
}

/** What GET /api/scores/team holds, per attempt; the final field's component is the final score. */
export function storedAttempts(
  entries: ReadonlyArray<Pick<TeamScoreEntry, 'attempt' | 'components' | 'finalScore'>>,
  finalFieldId: number | null,
): Map<number, StoredAttempt> {
  const attempts = new Map<number, StoredAttempt>();
  for (const entry of entries) {
    const values = new Map<number, number>();
    for (const component of entry.components) {
      if (component.fieldId !== finalFieldId && component.value !== null) values.set(component.fieldId, component.value);
    }
    attempts.set(entry.attempt, { values, finalScore: entry.finalScore });
  }
  return attempts;
}

export interface TypedAttempt {
  /** Normalised values of the field cells; a cell left empty is absent. */
  values: Map<number, number>;
  /** The typed final score; only read when the layout has no usable formula. */
  finalScore: number | null;
}

export type SaveDecision =
  | { kind: 'save'; components: Array<{ fieldId: number; value: number }>; finalScore?: number }
  /** Why nothing is sent yet; the page words it in its language. */
  | { kind: 'incomplete'; reason: 'no-final-field' | 'type-final' }
  | { kind: 'incomplete'; reason: 'needs'; missing: string[] }
  | { kind: 'unchanged' };

const fieldLabel = (field: DisciplineField) => field.shortName || field.name || `field ${field.id}`;

/**
 * A save replaces every stored value of the attempt (POST /api/scores/team), so it always carries
 * the whole row, and only once the final score can be had: typed, or calculable because every
 * field the formula reads has a value. `same` compares two values as the table shows them, since
 * the database keeps reals (8.2 comes back as 8.199999809).
 */
export function decideSave(
  layout: SheetLayout,
  typed: TypedAttempt,
  stored: StoredAttempt | undefined,
  same: (a: number, b: number) => boolean,
): SaveDecision {
  const components = layout.columns
    .filter((field) => typed.values.has(field.id))
    .map((field) => ({ fieldId: field.id, value: typed.values.get(field.id)! }));
  const typedFinal = layout.formulaFields === null ? typed.finalScore : null;
  const storedValues = stored?.values ?? new Map<number, number>();
  const valuesUnchanged =
    components.length === storedValues.size &&
    components.every(({ fieldId, value }) => storedValues.has(fieldId) && same(storedValues.get(fieldId)!, value));
  const finalUnchanged =
    layout.formulaFields !== null ||
    (typedFinal === null ? (stored?.finalScore ?? null) === null : stored?.finalScore != null && same(stored.finalScore, typedFinal));
  if (valuesUnchanged && finalUnchanged) return { kind: 'unchanged' };
  if (layout.finalField === null) return { kind: 'incomplete', reason: 'no-final-field' };
  if (layout.formulaFields !== null) {
    const missing = layout.formulaFields.filter((field) => !typed.values.has(field.id));
    if (missing.length > 0) return { kind: 'incomplete', reason: 'needs', missing: missing.map(fieldLabel) };
    return { kind: 'save', components };
  }
  if (typedFinal === null) return { kind: 'incomplete', reason: 'type-final' };
  return { kind: 'save', components, finalScore: typedFinal };
}

/** A checked value and the column it was typed in (`final`: the final score, typed or calculated). */
export interface SheetCheck extends PlausibilityCheck {
  column: number | 'final';
}

export type SheetOutcome = { kind: 'ok' } | { kind: 'refuse'; check: SheetCheck } | { kind: 'confirm'; checks: SheetCheck[] };

/**
 * The portal's plausibility rule on the values a save would store: every component, and the final
 * score as typed or as the formula makes it (a typo in a field shows there too).
 */
export function checkSave(
  layout: SheetLayout,
  decision: Extract<SaveDecision, { kind: 'save' }>,
  discipline: PlausibilityDiscipline,
  finalLabel: string,
): SheetOutcome {
  const columns: Array<number | 'final'> = [];
  const values = decision.components.flatMap(({ fieldId, value }): PlausibilityValue[] => {
    const field = layout.columns.find((column) => column.id === fieldId);
    if (!field) return [];
    columns.push(fieldId);
    return [{ kind: 'field', label: field.name || fieldLabel(field), value, name: field.name ?? '', shortName: field.shortName }];
  });
  const finalScore = decision.finalScore ?? formulaFinal(layout, decision.components);
  if (finalScore !== null) {
    columns.push('final');
    values.push({ kind: 'final', label: finalLabel, value: finalScore });
  }
  const outcome = checkPlausibility(discipline, values);
  const withColumn = (check: PlausibilityCheck): SheetCheck => ({ ...check, column: columns[check.index]! });
  if (outcome.kind === 'refuse') return { kind: 'refuse', check: withColumn(outcome.check) };
  if (outcome.kind === 'confirm') return { kind: 'confirm', checks: outcome.checks.map(withColumn) };
  return outcome;
}

function formulaFinal(layout: SheetLayout, components: ReadonlyArray<{ fieldId: number; value: number }>): number | null {
  if (layout.formulaFields === null || layout.expr === null) return null;
  const values = new Map(components.map(({ fieldId, value }) => [fieldId, value]));
  const bindings = new Map(layout.formulaFields.map((field) => [field.shortName!, values.get(field.id) ?? Number.NaN]));
  return evaluate(layout.expr, bindings);
}
