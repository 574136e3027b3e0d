/**
 * E-panel (issue 21): several judges enter one value each into their own field; the service
 * aggregates them into one field the formula uses like any other, and flags a spread of the
 * counted values above the discipline's tolerance. Pure: settings come from
 * `svc_panel_settings` (migration 0009) through `src/model/`, values from the jury results.
 */
import { decimalPlaces, roundToDecimals, usableDecimals, usableMask } from './input-mask.js';
import { sameStoredValue } from './stored-value.js';
import { applyReference, toleranceTableProblems, type ReferenceOutcome, type ReferenceSettings } from './reference-judges.js';

export const PANEL_AGGREGATIONS = ['trimmed-mean', 'mean', 'median'] as const;
export type PanelAggregation = (typeof PANEL_AGGREGATIONS)[number];

/**
 * What a missing judge's value becomes (issue 47): `fewer-values` counts the panel with the values
 * given; `mean-of-given` puts the mean of the given values in its place (FIG Aerobic Code of Points,
 * General principle of scoring: "the average of the given scores will replace the missing score").
 */
export const MISSING_JUDGE_RULES = ['fewer-values', 'mean-of-given'] as const;
export type MissingJudgeRule = (typeof MISSING_JUDGE_RULES)[number];

/**
 * Maximum spread (highest minus lowest counted value) before a deviation is flagged, when the
 * settings name none. Decision in docs/decisions.md ("E-panel").
 */
export const DEFAULT_PANEL_TOLERANCE = 0.5;

/** Decimals of an aggregate when the discipline has neither a usable mask nor decimal places (FIG E-scores show three). */
export const DEFAULT_PANEL_DECIMALS = 3;

/** Trimming drops one highest and one lowest value only from this many values on. */
export const TRIM_FROM = 4;

/** The settings of one discipline's panel, as stored and as GET /api/disciplines shows them. */
export interface PanelSettings {
  readonly judgeFieldIds: readonly number[];
  readonly aggregation: PanelAggregation;
  readonly aggregateFieldId: number;
  readonly tolerance: number;
  /** Number of judges = judgeFieldIds.length. */
  readonly size: number;
  /** Reference judges (issue 47); absent or null: none. */
  readonly reference?: ReferenceSettings | null;
  /** Absent: `fewer-values`. */
  readonly missingJudge?: MissingJudgeRule;
  /**
   * Judge fields whose value may be missing (a judge who is not there): the panel is complete
   * without them, and the missing-judge rule stands in for them. A value such a judge did give counts.
   */
  readonly absentFieldIds?: readonly number[];
}

/** One judge's value; null while the judge has not entered one. */
export interface PanelValue {
  readonly fieldId: number;
  readonly value: number | null;
}

/** What a panel shows for one score (reads, events). */
export interface PanelReading {
  /** In the order of `judgeFieldIds`. */
  readonly values: PanelValue[];
  /** Null while no judge has a value; provisional while `complete` is false. */
  readonly aggregate: number | null;
  readonly complete: boolean;
  /** Highest minus lowest counted value; null without values. */
  readonly spread: number | null;
  readonly tolerance: number;
  /** The spread is above the tolerance (evaluated on a complete panel only) and the head judge has not confirmed it. */
  readonly deviation: boolean;
  readonly confirmed: boolean;
  /** Judges whose values count ("4 of 5 judges"): those given. */
  readonly given: number;
  /** Judge fields missing under the missing-judge rule (absent judges without a value). */
  readonly missing: number[];
  readonly missingJudge: MissingJudgeRule;
  /** The value put in each missing judge's place (`mean-of-given`); null otherwise. */
  readonly substitute: number | null;
  /** The panel's own aggregate before the reference judges (equal to `aggregate` without them); rounded. */
  readonly panelAggregate: number | null;
  /** The reference judges' values and what they did; null without reference judges. */
  readonly reference: (ReferenceOutcome & { readonly values: PanelValue[] }) | null;
}

/**
 * A deviation of one score's panel as the `panel-deviation` event announces it and GET
 * /api/panel-deviations lists it (there without `seq`).
 */
export interface PanelDeviation {
  scoreId: number;
  disciplineId: number;
  attempt: number;
  values: PanelValue[];
  spread: number;
  tolerance: number;
  resolved: boolean;
}

const ascending = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/**
 * The values that enter the aggregate: for `trimmed-mean` with at least four values all but one
 * lowest and one highest (with ties, one of the tied values goes, the others stay); otherwise all.
 * Sorted ascending.
 */
export function countedValues(values: readonly number[], aggregation: PanelAggregation): number[] {
  const sorted = ascending(values);
  return aggregation === 'trimmed-mean' && sorted.length >= TRIM_FROM ? sorted.slice(1, -1) : sorted;
}

/** Unrounded aggregate; null without values. */
export function aggregateValues(values: readonly number[], aggregation: PanelAggregation): number | null {
  const counted = countedValues(values, aggregation);
  if (counted.length === 0) return null;
  if (aggregation === 'median') {
    const middle = Math.floor(counted.length / 2);
    return counted.length % 2 === 1 ? counted[middle]! : (counted[middle - 1]! + counted[middle]!) / 2;
  }
  return counted.reduce((sum, value) => sum + value, 0) / counted.length;
}

/**
 * Highest minus lowest counted value (for `median` every value counts: a median has no outlier to
 * drop, and the spread of all values is what the head judge must see); null without values.
 * Rounded to 10 places so float noise (8.6 - 8.3) cannot decide a comparison with the tolerance.
 */
export function spreadOf(values: readonly number[], aggregation: PanelAggregation): number | null {
  const counted = countedValues(values, aggregation);
  if (counted.length === 0) return null;
  return roundToDecimals(counted[counted.length - 1]! - counted[0]!, 10);
}

/** Strictly above: a spread equal to the tolerance is within it. */
export function exceedsTolerance(spread: number | null, tolerance: number): boolean {
  return spread !== null && spread > tolerance + 1e-9;
}

/**
 * Decimals an aggregate is rounded to, consistent with what the portal enters and shows: the
 * input mask's places when the discipline has a usable mask, else its decimal places
 * (int_berechnung), else DEFAULT_PANEL_DECIMALS.
 */
export function panelDecimals(inputMask: string | null, decimals: number | null): number {
  const mask = usableMask(inputMask);
  if (mask !== null) return decimalPlaces(mask);
  return usableDecimals(decimals) ?? DEFAULT_PANEL_DECIMALS;
}

/**
 * The panel of one score: `valueOf(fieldId)` gives a judge field's stored value (null: none).
 * `confirmed`: the head judge confirmed the current deviation.
 */
export function readPanel(
  settings: PanelSettings,
  valueOf: (fieldId: number) => number | null,
  decimals: number,
  confirmed: boolean,
): PanelReading {
  const values = settings.judgeFieldIds.map((fieldId) => ({ fieldId, value: valueOf(fieldId) }));
  const present = values.flatMap((item) => (item.value === null ? [] : [item.value]));
  const absent = settings.absentFieldIds ?? [];
  const missing = values.filter((item) => item.value === null && absent.includes(item.fieldId)).map((item) => item.fieldId);
  const missingJudge = settings.missingJudge ?? 'fewer-values';
  const substitute = missingJudge === 'mean-of-given' && missing.length > 0 ? aggregateValues(present, 'mean') : null;
  const counted = substitute === null ? present : [...present, ...missing.map(() => substitute)];
  const referenceValues = settings.reference?.fieldIds.map((fieldId) => ({ fieldId, value: valueOf(fieldId) })) ?? [];
  const complete =
    present.length + missing.length === settings.size && present.length > 0 && referenceValues.every((item) => item.value !== null);
  const raw = aggregateValues(counted, settings.aggregation);
  const panelAggregate = raw === null ? null : roundToDecimals(raw, decimals);
  const spread = spreadOf(counted, settings.aggregation);
  const over = complete && exceedsTolerance(spread, settings.tolerance);
  const referred =
    settings.reference === undefined || settings.reference === null
      ? null
      : applyReference(
          panelAggregate,
          referenceValues.map((item) => item.value),
          settings.reference,
          decimals,
        );
  return {
    values,
    aggregate: referred === null ? panelAggregate : referred.score,
    complete,
    spread,
    tolerance: settings.tolerance,
    deviation: over && !confirmed,
    confirmed: over && confirmed,
    given: present.length,
    missing,
    missingJudge,
    substitute: substitute === null ? null : roundToDecimals(substitute, decimals),
    panelAggregate,
    reference: referred === null ? null : { ...referred.outcome, values: referenceValues },
  };
}

/** Whether the panel is over its tolerance, confirmed or not (what opens and closes a deviation). */
export function isOverTolerance(reading: PanelReading): boolean {
  return reading.deviation || reading.confirmed;
}

/**
 * Where a score's deviation stands after a change of its values, and what to announce. `stored`:
 * the open ('open' or 'confirmed') deviation recorded before, null for none.
 * - crossing into deviation: open one, announce `resolved: false` (exactly once per crossing);
 * - still over the tolerance: nothing (a confirmation holds until the values come back within it);
 * - back within the tolerance: close it, announce `resolved: true` unless the head judge's
 *   confirmation already announced that.
 */
export type DeviationTransition =
  { readonly kind: 'none' } | { readonly kind: 'open' } | { readonly kind: 'close'; readonly announce: boolean };

export function deviationTransition(stored: 'open' | 'confirmed' | null, overTolerance: boolean): DeviationTransition {
  if (overTolerance) return stored === null ? { kind: 'open' } : { kind: 'none' };
  return stored === null ? { kind: 'none' } : { kind: 'close', announce: stored === 'open' };
}

/** Problems of panel settings against the discipline's fields; empty when they are valid. */
export function panelSettingsProblems(
  settings: {
    judgeFieldIds: readonly number[];
    aggregateFieldId: number;
    tolerance: number;
    reference?: ReferenceSettings | null;
    absentFieldIds?: readonly number[];
  },
  fields: ReadonlyArray<{ fieldId: number; isFinal: boolean }>,
): string[] {
  const problems: string[] = [];
  const byId = new Map(fields.map((field) => [field.fieldId, field]));
  const judges = settings.judgeFieldIds;
  if (judges.length < 2) problems.push('body.judgeFieldIds: a panel needs at least 2 judge fields');
  if (new Set(judges).size !== judges.length) problems.push('body.judgeFieldIds: each field may appear only once');
  const foreign = judges.filter((fieldId) => !byId.has(fieldId));
  if (foreign.length > 0) problems.push(`body.judgeFieldIds: ${foreign.join(', ')} not a field of this discipline`);
  if (judges.some((fieldId) => byId.get(fieldId)?.isFinal === true))
    problems.push('body.judgeFieldIds: the final field cannot be a judge field');
  const aggregate = byId.get(settings.aggregateFieldId);
  if (aggregate === undefined) problems.push(`body.aggregateFieldId: ${settings.aggregateFieldId} not a field of this discipline`);
  else if (aggregate.isFinal) problems.push('body.aggregateFieldId: the final field cannot receive the aggregate');
  if (judges.includes(settings.aggregateFieldId)) problems.push('body.aggregateFieldId: must not be one of the judge fields');
  if (!Number.isFinite(settings.tolerance) || settings.tolerance < 0) problems.push('body.tolerance must be a number >= 0');
  const absent = settings.absentFieldIds ?? [];
  if (absent.some((fieldId) => !judges.includes(fieldId))) problems.push('body.absentFieldIds: only judge fields can be absent');
  if (absent.length >= judges.length) problems.push('body.absentFieldIds: at least one judge must be present');
  const reference = settings.reference;
  if (reference !== undefined && reference !== null) {
    const ids = reference.fieldIds;
    if (ids.length !== 2 || ids[0] === ids[1]) problems.push('body.reference.fieldIds: two distinct fields');
    if (ids.some((fieldId) => !byId.has(fieldId) || byId.get(fieldId)?.isFinal === true))
      problems.push('body.reference.fieldIds: fields of this discipline, not the final');
    if (ids.some((fieldId) => judges.includes(fieldId) || fieldId === settings.aggregateFieldId))
      problems.push('body.reference.fieldIds: neither a judge field nor the aggregate field');
    problems.push(...toleranceTableProblems(reference.tolerances, 'body.reference.tolerances'));
  }
  return problems;
}

/** One score's stored aggregate-field value and its judges' values (in `panelInputFieldIds` order, null: none). */
export interface StoredAggregate {
  readonly stored: number;
  readonly judgeValues: ReadonlyArray<number | null>;
}

/**
 * How many stored values of the aggregate field the panel would replace: every one that is not
 * the aggregate of a complete panel (an incomplete panel's field is written once it completes).
 * What settings must not do without the user's explicit consent (docs/decisions.md, "E-panel").
 */
export function valuesThePanelReplaces(settings: PanelSettings, scores: readonly StoredAggregate[], decimals: number): number {
  return scores.filter(({ stored, judgeValues }) => {
    const inputs = panelInputFieldIds(settings);
    const reading = readPanel(settings, (fieldId) => judgeValues[inputs.indexOf(fieldId)] ?? null, decimals, false);
    return !reading.complete || reading.aggregate === null || !sameStoredValue(reading.aggregate, stored);
  }).length;
}

/** The fields whose values the panel's E is computed from: its judges' and its reference judges'. */
export function panelInputFieldIds(settings: PanelSettings): number[] {
  return [...settings.judgeFieldIds, ...(settings.reference?.fieldIds ?? [])];
}
