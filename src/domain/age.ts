/**
 * Age as the sport counts it, and age classes. Pure: no database, no clock.
 *
 * - `birth-year` (default): the age reached in the competition's calendar year, i.e. year of the
 *   event's start minus year of birth, as FIG and the German federation count it. Everybody born
 *   in one year is in one class, whatever the day of the competition.
 * - `exact`: completed years on the event's start date.
 *
 * A birth date after the reference gives age 0 under both rules. A `Date` reference is read as a
 * calendar day in the process's local time zone (the gym's "today"), a string as `YYYY-MM-DD`.
 *
 * Age classes use the squad settings' range format (`6-8,9-10,…`): a range is `low-high`
 * (integers, whitespace around the parts allowed, low <= high), anything else is skipped; bounds
 * are inclusive; overlapping ranges: the first one listed wins. Outside every range is `other`,
 * without a (valid) birth date `unknown`.
 */

export type AgeRule = 'birth-year' | 'exact';

export const AGE_RULES: readonly AgeRule[] = ['birth-year', 'exact'];
export const DEFAULT_AGE_RULE: AgeRule = 'birth-year';

export const AGE_CLASS_OTHER = 'other';
export const AGE_CLASS_UNKNOWN = 'unknown';

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

export interface AgeRange {
  low: number;
  high: number;
  label: string;
}

export function isAgeRule(value: unknown): value is AgeRule {
  return typeof value === 'string' && (AGE_RULES as readonly string[]).includes(value);
}

export function parseIsoDate(text: string): CalendarDay | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  // Rejects 2023-02-30 and the like, which Date would silently roll over.
  const valid = probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  return valid ? { year, month, day } : null;
}

export function referenceDay(reference: string | Date): CalendarDay {
  if (reference instanceof Date) {
    if (Number.isNaN(reference.getTime())) throw new RangeError('referenceDate is an invalid Date');
    return { year: reference.getFullYear(), month: reference.getMonth() + 1, day: reference.getDate() };
  }
  const day = parseIsoDate(reference);
  if (!day) throw new RangeError(`referenceDate must be YYYY-MM-DD, got "${reference}"`);
  return day;
}

/** Age of someone born on `birth` on the day `on`, counted by `rule`. */
export function ageByRule(birth: CalendarDay, on: CalendarDay, rule: AgeRule): number {
  if (rule === 'birth-year') return Math.max(0, on.year - birth.year);
  const beforeBirthday = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return Math.max(0, on.year - birth.year - (beforeBirthday ? 1 : 0));
}

/** Age on the reference day by `rule`; null when the birth date is missing or invalid. */
export function ageOn(birthDate: string | null, referenceDate: string | Date, rule: AgeRule): number | null {
  const birth = birthDate === null ? null : parseIsoDate(birthDate);
  return birth ? ageByRule(birth, referenceDay(referenceDate), rule) : null;
}

export function parseAgeCategoryRanges(text: string): AgeRange[] {
  const ranges: AgeRange[] = [];
  for (const part of text.split(',')) {
    const match = /^(\d+)\s*-\s*(\d+)$/.exec(part.trim());
    if (!match) continue;
    const low = Number(match[1]);
    const high = Number(match[2]);
    if (low <= high) ranges.push({ low, high, label: `${low}-${high}` });
  }
  return ranges;
}

export function ageCategoryOf(age: number | null, ranges: readonly AgeRange[]): string {
  if (age === null) return AGE_CLASS_UNKNOWN;
  return ranges.find((range) => age >= range.low && age <= range.high)?.label ?? AGE_CLASS_OTHER;
}

/** Class labels in listing order: the ranges as written (duplicates once), then `other`, then `unknown`. */
export function ageClassOrder(ranges: readonly AgeRange[]): string[] {
  return [...new Set(ranges.map((range) => range.label)), AGE_CLASS_OTHER, AGE_CLASS_UNKNOWN];
}
