/**
 * Plausibility of typed scores (docs/decisions.md, "Plausibility of typed values"): a negative
 * value where none can be is refused; a value outside its usual range is held until the person
 * typing confirms it, so a typo like 45 for 4.5 never reaches the board unconfirmed. No DOM and no
 * texts: every page that takes scores applies the same rule and words the answer itself.
 */
import { maskClass } from '../../src/domain/input-mask.js';

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

/** What a value of a field (by its names) or the final score is checked as. */
export type PlausibilityKind = { kind: 'field'; name: string; shortName: string | null } | { kind: 'final' };

function plausibleRange(entry: PlausibilityKind, isTime: boolean, startValue: number | null): PlausibleRange {
  const negative = entry.kind === 'field' && MAY_BE_NEGATIVE.test(`${entry.name} ${entry.shortName ?? ''}`);
  if (isTime) return { min: 0, max: PLAUSIBILITY_DEFAULTS.timeMaxSeconds, negative: false, source: 'time' };
  if (entry.kind === 'final') {
    const start = startValue !== null && startValue > 0 ? startValue : null;
    return {
      min: 0,
      max: (start ?? 10) * PLAUSIBILITY_DEFAULTS.finalFactor,
      negative: false,
      source: start === null ? 'default' : 'start value',
    };
  }
  return { min: negative ? -PLAUSIBILITY_DEFAULTS.fieldMax : 0, max: PLAUSIBILITY_DEFAULTS.fieldMax, negative, source: 'default' };
}

function judgeValue(value: number, range: PlausibleRange): 'ok' | 'refuse' | 'confirm' {
  if (value < 0 && !range.negative) return 'refuse';
  if (value < range.min || value > range.max) return 'confirm';
  return 'ok';
}

/** The discipline a save is for: its mask says whether values are times, its start value bounds the final. */
export interface PlausibilityDiscipline {
  inputMask: string | null;
  startValue: number | null;
}

/**
 * One typed value: a field's (its name and short name say whether it may be negative) or the final
 * score. `label` is what the page calls it in its message.
 */
export type PlausibilityValue = { label: string; value: number } & PlausibilityKind;

export interface PlausibilityCheck {
  label: string;
  value: number;
  range: PlausibleRange;
  /** Its position in the values checked, so a page can mark the input it came from. */
  index: number;
}

/** What a save may do: go, be refused for its first impossible value, or wait for a confirmation of the doubtful ones. */
export type PlausibilityOutcome =
  { kind: 'ok' } | { kind: 'refuse'; check: PlausibilityCheck } | { kind: 'confirm'; checks: PlausibilityCheck[] };

/** The rule applied to every value of one save, in the order given. */
export function checkPlausibility(discipline: PlausibilityDiscipline | null, values: readonly PlausibilityValue[]): PlausibilityOutcome {
  const checks = values.map((entry, index) => ({ label: entry.label, value: entry.value, range: usualRange(discipline, entry), index }));
  const refused = checks.find((check) => judgeValue(check.value, check.range) === 'refuse');
  if (refused) return { kind: 'refuse', check: refused };
  const doubtful = checks.filter((check) => judgeValue(check.value, check.range) === 'confirm');
  return doubtful.length === 0 ? { kind: 'ok' } : { kind: 'confirm', checks: doubtful };
}

/** The range a value of this kind is usual in, for a page that states it in words. */
export function usualRange(discipline: PlausibilityDiscipline | null, entry: PlausibilityKind): PlausibleRange {
  const isTime = discipline?.inputMask ? maskClass(discipline.inputMask.trim()) === 'time' : false;
  return plausibleRange(entry, isTime, discipline?.startValue ?? null);
}
