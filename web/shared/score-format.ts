import {
  decimalPlaces,
  formatByMask,
  maskClass,
  normalize,
  padByDecimals,
  parseTyped,
  type NormalizeResult,
} from '../../src/domain/input-mask.js';
import { t } from './i18n.js';

/** Fixed decimals without leading zeros, with the given separator. */
function plainNumber(value: number, decimals: number, separator: string): string {
  return value.toFixed(decimals).replace('.', separator);
}

/** m:ss.cc by the time mask, minutes without leading zeros, with the given separator. */
function timeText(value: number, mask: string, separator: string): string {
  const text = formatByMask(value, mask);
  const colon = text.lastIndexOf(':');
  const minutes = text.slice(0, colon).replace(/^0+(?=\d)/, '');
  const rest = text.slice(colon + 1).replace(/[.,]/, separator);
  return Number(minutes) === 0 ? rest.replace(/^0(?=\d)/, '') : `${minutes}:${rest}`;
}

/** How one discipline's values are typed and shown: by its input mask, else by its decimal count. */
export interface ScoreFormat {
  /** Blur normalisation (spec "Input mask rules" 7-9): typed text to value and canonical text. */
  normalize(typed: string): NormalizeResult;
  format(value: number): string;
  /**
   * For reading (lists, scoreboard, messages; issue 17): the mask's decimals and time layout, no
   * leading zeros, and the language's one decimal separator, whatever separator the mask uses.
   */
  display(value: number, separator: ',' | '.'): string;
  /** Rounds a calculated value to what `format` shows, so the number saved is the one on screen. */
  round(value: number): number;
  /** Time masks need a colon, which numeric phone keyboards lack. */
  inputMode: 'decimal' | 'text';
  /** Example of the expected notation for placeholders and error messages. */
  example: string;
}

// Without mask or decimal count a value is kept as typed, to three places at most, rather than
// rounded to a precision the discipline never asked for.
const PLAIN_DECIMALS_LIMIT = 1_000;

function unreadable(typed: string, example: string): NormalizeResult {
  return { ok: false, error: t('common.invalidValue', { typed: JSON.stringify(typed), example }) };
}

export function scoreFormat(discipline: { inputMask: string | null; decimals: number | null }): ScoreFormat {
  const mask = discipline.inputMask?.trim() || null;
  if (mask !== null) {
    const example = formatByMask(maskClass(mask) === 'time' ? 65.5 : 9.5, mask);
    return {
      normalize: (typed) => {
        const result = normalize(typed, mask);
        return result.ok ? result : unreadable(typed, example);
      },
      format: (value) => formatByMask(value, mask),
      display: (value, separator) =>
        maskClass(mask) === 'time' ? timeText(value, mask, separator) : plainNumber(value, decimalPlaces(mask), separator),
      round: (value) => {
        const result = normalize(formatByMask(value, mask), mask);
        return result.ok ? result.value : value;
      },
      inputMode: maskClass(mask) === 'time' ? 'text' : 'decimal',
      example,
    };
  }
  const decimals = discipline.decimals;
  if (decimals !== null && Number.isInteger(decimals) && decimals >= 0) {
    const example = padByDecimals(9.5, decimals);
    return {
      normalize: (typed) => {
        const value = parseTyped(typed);
        if (value === null) return unreadable(typed, example);
        const text = padByDecimals(value, decimals);
        return { ok: true, value: Number(text), text };
      },
      format: (value) => padByDecimals(value, decimals),
      display: (value, separator) => plainNumber(value, decimals, separator),
      round: (value) => Number(padByDecimals(value, decimals)),
      inputMode: 'decimal',
      example,
    };
  }
  const plain = (value: number) => Math.round(value * PLAIN_DECIMALS_LIMIT) / PLAIN_DECIMALS_LIMIT;
  return {
    normalize: (typed) => {
      const value = parseTyped(typed);
      if (value === null) return unreadable(typed, '9.5');
      return { ok: true, value: plain(value), text: String(plain(value)) };
    },
    format: (value) => String(plain(value)),
    display: (value, separator) => String(plain(value)).replace('.', separator),
    round: plain,
    inputMode: 'decimal',
    example: '9.5',
  };
}
