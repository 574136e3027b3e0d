/**
 * Score input masks (decimal, comma-decimal and time), shared by server and browser client, so
 * this module must stay free of Node-only imports.
 *
 * Mask characters other than `:`, `,` and `.` are placeholders: `hh:mm:ss.ss` and `00:00:00.00`
 * describe the same layout.
 */

export type MaskClass = 'time' | 'comma' | 'decimal';

export type NormalizeResult =
  { readonly ok: true; readonly value: number; readonly text: string } | { readonly ok: false; readonly error: string };

export interface LegacyDisplayOptions {
  /** Measurement unit of the discipline's value (seconds, metres); null when the discipline names none. */
  readonly measurementUnit: string | null;
  readonly mask: string;
}

const LEGACY_SECONDS_LIMIT = 59.59;
const METRE_UNITS = new Set(['m', 'meter', 'meters', 'metre', 'metres']);

const PLAIN_NUMBER_PATTERN = /^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;
const TIME_PATTERN = /^(\d+):(?:(\d+):)?(\d+(?:[.,]\d*)?)$/;

/** The legacy column is varchar(20); a longer stored text is not a mask someone typed. */
export const MAX_MASK_LENGTH = 20;
/** More places than any score shows; the cap keeps `10n ** decimals` from eating a phone. */
export const MAX_DECIMALS = 10;

// Placeholders, up to two colons (h:m:s) and one fraction separator at the end.
const MASK_PATTERN = /^[0-9A-Za-z#]+(?::[0-9A-Za-z#]+){0,2}(?:[.,][0-9A-Za-z#]+)?$/;

/**
 * Masks and decimal counts come from a database the legacy program also writes, so they are
 * untrusted: anything that is not a plausible mask (or a count outside 0-10) counts as none, and
 * the client falls back to the next rule instead of rendering or computing with it.
 */
export function usableMask(stored: string | null): string | null {
  const mask = stored?.trim() ?? '';
  return mask.length > 0 && mask.length <= MAX_MASK_LENGTH && MASK_PATTERN.test(mask) ? mask : null;
}

export function usableDecimals(stored: number | null): number | null {
  return stored !== null && Number.isInteger(stored) && stored >= 0 && stored <= MAX_DECIMALS ? stored : null;
}

export function maskClass(mask: string): MaskClass {
  if (mask.includes(':')) return 'time';
  if (mask.includes(',')) return 'comma';
  return 'decimal';
}

/** For time masks the fractional point is searched in the last colon-separated part only. */
function fractionSeparator(mask: string): { readonly char: '.' | ','; readonly index: number } | null {
  const klass = maskClass(mask);
  const scope = klass === 'time' ? mask.slice(mask.lastIndexOf(':') + 1) : mask;
  const offset = mask.length - scope.length;
  const char = klass === 'comma' ? ',' : klass === 'decimal' ? '.' : scope.includes(',') ? ',' : '.';
  const index = scope.lastIndexOf(char);
  return index < 0 ? null : { char, index: offset + index };
}

export function decimalPlaces(mask: string): number {
  const separator = fractionSeparator(mask);
  return separator === null ? 0 : mask.length - separator.index - 1;
}

interface RoundedParts {
  readonly negative: boolean;
  readonly whole: bigint;
  /** Exactly `decimals` digits. */
  readonly fraction: string;
}

/**
 * Rounds half away from zero at `decimals` places. The rounding works on the shortest decimal text
 * of the number (`String(n)`), which is what a person typed or sees, so 1.005 rounds to 1.01
 * instead of to the 1.00 that its binary value 1.00499999... would give.
 */
function roundParts(value: number, decimals: number): RoundedParts {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value)));
  // String() of a finite number always matches; the fallback keeps the types total.
  const [, integerDigits = '0', fractionDigits = '', exponent = '0'] = match ?? [];
  const digits = BigInt(integerDigits + fractionDigits);
  const shift = decimals - fractionDigits.length + Number(exponent);
  let scaled: bigint;
  if (shift >= 0) {
    scaled = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    scaled = digits / divisor + ((digits % divisor) * 2n >= divisor ? 1n : 0n);
  }
  const unit = 10n ** BigInt(decimals);
  return {
    negative: value < 0 && scaled !== 0n,
    whole: scaled / unit,
    fraction: decimals === 0 ? '' : (scaled % unit).toString().padStart(decimals, '0'),
  };
}

function partsToNumber(parts: RoundedParts): number {
  const text = `${parts.whole}${parts.fraction === '' ? '' : `.${parts.fraction}`}`;
  return parts.negative ? -Number(text) : Number(text);
}

function fractionSuffix(parts: RoundedParts, separator: string): string {
  return parts.fraction === '' ? '' : `${separator}${parts.fraction}`;
}

/** Negative values keep the sign in front; the zero padding applies to the digits only. */
function renderNumber(parts: RoundedParts, separator: string, width: number): string {
  const suffix = fractionSuffix(parts, separator);
  const integer = parts.whole.toString().padStart(width - suffix.length, '0');
  return `${parts.negative ? '-' : ''}${integer}${suffix}`;
}

function renderTime(parts: RoundedParts, mask: string, separator: string): string {
  const segments = mask.split(':');
  const leadWidth = segments[0]?.length ?? 0;
  const sign = parts.negative ? '-' : '';
  const seconds = `${(parts.whole % 60n).toString().padStart(2, '0')}${fractionSuffix(parts, separator)}`;
  if (segments.length >= 3) {
    const hours = (parts.whole / 3600n).toString().padStart(leadWidth, '0');
    const minutes = ((parts.whole % 3600n) / 60n).toString().padStart(2, '0');
    return `${sign}${hours}:${minutes}:${seconds}`;
  }
  const minutes = (parts.whole / 60n).toString().padStart(leadWidth, '0');
  return `${sign}${minutes}:${seconds}`;
}

/**
 * Renders a value (seconds for time masks) by the mask. Non-finite values have no masked form and
 * render as an empty string, so a stray NaN/Infinity in a legacy row shows as an empty field.
 */
export function formatByMask(value: number, mask: string): string {
  if (!Number.isFinite(value)) return '';
  const parts = roundParts(value, decimalPlaces(mask));
  const separator = fractionSeparator(mask)?.char ?? '.';
  return maskClass(mask) === 'time' ? renderTime(parts, mask, separator) : renderNumber(parts, separator, mask.length);
}

/** Individual score entry: padding driven only by the discipline's decimal count (5, 2 → `5.00`). */
export function padByDecimals(value: number, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}`);
  }
  if (!Number.isFinite(value)) return '';
  return renderNumber(roundParts(value, decimals), '.', 0);
}

/**
 * Reads typed input: plain numbers with `.` or `,` as decimal separator (`5`, `5,5`, `5.`, `.5`)
 * and time notation `m:ss(.ss)` or `h:mm:ss(.ss)` in seconds, with an optional leading sign.
 * Minute and second fields are not limited to 59 (`1:75` is 135 s), because normalisation
 * re-renders the value anyway. Thousands separators are refused as ambiguous.
 */
export function parseTyped(typed: string): number | null {
  const trimmed = typed.trim();
  const sign = trimmed.startsWith('-') ? -1 : 1;
  const body = trimmed.startsWith('-') || trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
  let magnitude: number;
  if (PLAIN_NUMBER_PATTERN.test(body)) {
    magnitude = Number(body.replace(',', '.'));
  } else {
    const time = TIME_PATTERN.exec(body);
    if (time === null) return null;
    const [, first = '0', middle, last = '0'] = time;
    const seconds = Number(last.replace(',', '.'));
    magnitude = middle === undefined ? Number(first) * 60 + seconds : Number(first) * 3600 + Number(middle) * 60 + seconds;
  }
  return Number.isFinite(magnitude) ? sign * magnitude : null;
}

/** Half away from zero at `decimals` places, on the number's shortest decimal text (see `roundParts`). */
export function roundToDecimals(value: number, decimals: number): number {
  return Number.isFinite(value) ? partsToNumber(roundParts(value, decimals)) : value;
}

/** `value` is rounded to the mask's decimals so the stored number matches the rendered text. */
export function normalize(typed: string, mask: string): NormalizeResult {
  const parsed = parseTyped(typed);
  if (parsed === null) {
    return { ok: false, error: `${JSON.stringify(typed)} is not a number or time (expected e.g. 5,5 or 1:05.50)` };
  }
  const value = partsToNumber(roundParts(parsed, decimalPlaces(mask)));
  return { ok: true, value, text: formatByMask(value, mask) };
}

function isMetres(measurementUnit: string | null): boolean {
  return measurementUnit !== null && METRE_UNITS.has(measurementUnit.trim().toLowerCase());
}

/**
 * Legacy rule "a value above 59.59 for a unit other than metres, or the mask 00:00.00, is written
 * in minutes:seconds form". Interpretation:
 * - Time masks (which include `00:00.00`) already render in time form, so `formatByMask` applies.
 * - With a decimal or comma mask, a raw value strictly above 59.59 whose unit is not metres is shown
 *   as `m:ss` with the mask's decimals and separator (minutes unpadded). A missing unit counts as
 *   "other than metres", as the rule literally says.
 * - Everything else renders normally by the mask.
 */
export function legacyDisplay(value: number, options: LegacyDisplayOptions): string {
  const { measurementUnit, mask } = options;
  if (maskClass(mask) === 'time' || value <= LEGACY_SECONDS_LIMIT || isMetres(measurementUnit)) {
    return formatByMask(value, mask);
  }
  const decimals = decimalPlaces(mask);
  const separator = fractionSeparator(mask)?.char ?? '.';
  return formatByMask(value, `0:00${decimals > 0 ? separator + '0'.repeat(decimals) : ''}`);
}
