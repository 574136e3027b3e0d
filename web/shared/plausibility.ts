/**
 * Plausibility of typed values (docs/decisions.md "Plausibility of typed values"): the one rule
 * of the jury portal and the office's group and team entry. A negative value where none can be is
 * refused; a value outside its usual range is held until the user confirms it, so a typo like 35
 * for 3.5 never reaches the board unconfirmed. Pure, so both pages and the unit tests share it.
 */

/** What a value may be: `min`/`max` plausible (outside: confirm), `negative` allowed at all. */
export interface PlausibleRange {
  min: number;
  max: number;
  negative: boolean;
  /** Where the range comes from, for the message and the docs. */
  source: 'time' | 'start value' | 'default';
}

/** Documented defaults (docs/decisions.md "Plausibility of typed values"). */
export const PLAUSIBILITY_DEFAULTS = {
  /** A field value (D-score, deduction, level…): 0 to 10. */
  fieldMax: 10,
  /** A final score: 0 to twice the discipline's start value (10 → 20). */
  finalFactor: 2,
  /** A time (time mask): up to 10 minutes. */
  timeMaxSeconds: 600,
} as const;

/** Fields whose name marks a bonus or a correction may be negative; every other value may not. */
const MAY_BE_NEGATIVE = /bonus|korrektur|correction/i;

export function plausibleRange(input: {
  kind: 'field' | 'final';
  name: string;
  shortName?: string | null;
  isTime: boolean;
  startValue: number | null;
}): PlausibleRange {
  const negative = input.kind === 'field' && MAY_BE_NEGATIVE.test(`${input.name} ${input.shortName ?? ''}`);
  if (input.isTime) return { min: 0, max: PLAUSIBILITY_DEFAULTS.timeMaxSeconds, negative: false, source: 'time' };
  if (input.kind === 'final') {
    const start = input.startValue !== null && input.startValue > 0 ? input.startValue : null;
    return {
      min: 0,
      max: (start ?? 10) * PLAUSIBILITY_DEFAULTS.finalFactor,
      negative: false,
      source: start === null ? 'default' : 'start value',
    };
  }
  return { min: negative ? -PLAUSIBILITY_DEFAULTS.fieldMax : 0, max: PLAUSIBILITY_DEFAULTS.fieldMax, negative, source: 'default' };
}

export type PlausibilityVerdict = { kind: 'ok' } | { kind: 'refuse' } | { kind: 'confirm' };

export function judgeValue(value: number, range: PlausibleRange): PlausibilityVerdict {
  if (value < 0 && !range.negative) return { kind: 'refuse' };
  if (value < range.min || value > range.max) return { kind: 'confirm' };
  return { kind: 'ok' };
}

/** One value to check, with the label the message names it by. */
export interface PlausibilityCheck {
  label: string;
  value: number;
  range: PlausibleRange;
}

export type PlausibilityOutcome<C extends PlausibilityCheck = PlausibilityCheck> =
  | { kind: 'ok' }
  /** The first value that cannot be at all: nothing is saved. */
  | { kind: 'refuse'; check: C }
  /** The values outside their usual range: saved only once the user confirms. */
  | { kind: 'confirm'; checks: C[] };

/** The verdict on a whole save: a refusal outweighs doubts. */
export function assessValues<C extends PlausibilityCheck>(checks: readonly C[]): PlausibilityOutcome<C> {
  const refused = checks.find((check) => judgeValue(check.value, check.range).kind === 'refuse');
  if (refused) return { kind: 'refuse', check: refused };
  const doubtful = checks.filter((check) => judgeValue(check.value, check.range).kind === 'confirm');
  return doubtful.length === 0 ? { kind: 'ok' } : { kind: 'confirm', checks: doubtful };
}
