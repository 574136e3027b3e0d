/**
 * How a discipline's values are written: by its input mask, else by its decimal count, and in
 * which language. No DOM and no texts, so the rule is tested on its own; `score-format.ts` gives the
 * pages this with the page's language and worded errors.
 *
 * Inputs in German read like the finals beside them ("3,800", "12,950": the mask's decimals, no
 * leading zeros, the decimal comma); in English they keep the mask's own rendering (interface
 * "Input mask rules" 4-5: "03.800", "5,00" for a comma mask). Both accept `.` and `,` when typed.
 */
import { decimalPlaces, formatByMask, maskClass, normalize, padByDecimals, parseTyped } from '../../src/domain/input-mask.js';

export type NotationLanguage = 'de' | 'en';

export type Normalized = { readonly ok: true; readonly value: number; readonly text: string } | { readonly ok: false };

/** How one discipline's values are typed and shown in one language. */
export interface ScoreNotation {
  /** Blur normalisation (spec "Input mask rules" 7-9): typed text to value and the text the input then shows. */
  normalize(typed: string): Normalized;
  /** The text an input shows for a stored or calculated value. */
  format(value: number): string;
  /**
   * For reading (lists, scoreboard, messages; issue 17): the mask's decimals and time layout, no
   * leading zeros, and the given decimal separator, whatever separator the mask uses.
   */
  display(value: number, separator: ',' | '.'): string;
  /** Rounds a calculated value to what `format` shows, so the number saved is the one on screen. */
  round(value: number): number;
  /** Time masks need a colon, which numeric phone keyboards lack. */
  inputMode: 'decimal' | 'text';
  /** Example of the expected notation for placeholders and error messages, as an input shows it. */
  example: string;
}

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

// Without mask or decimal count a value is kept as typed, to three places at most, rather than
// rounded to a precision the discipline never asked for.
const PLAIN_DECIMALS_LIMIT = 1_000;

/** The parts that differ per discipline; `scoreNotation` adds the language's input text. */
interface Rendering {
  /** The value as typed, rounded as the discipline keeps it; null when it is no number. */
  read(typed: string): number | null;
  /** The interface's rendering (mask, or decimal padding), the English input text. */
  render(value: number): string;
  display(value: number, separator: ',' | '.'): string;
  inputMode: 'decimal' | 'text';
}

function renderingOf(discipline: { inputMask: string | null; decimals: number | null }): Rendering {
  const mask = discipline.inputMask?.trim() || null;
  if (mask !== null) {
    return {
      read: (typed) => {
        const result = normalize(typed, mask);
        return result.ok ? result.value : null;
      },
      render: (value) => formatByMask(value, mask),
      display: (value, separator) =>
        maskClass(mask) === 'time' ? timeText(value, mask, separator) : plainNumber(value, decimalPlaces(mask), separator),
      inputMode: maskClass(mask) === 'time' ? 'text' : 'decimal',
    };
  }
  const decimals = discipline.decimals;
  if (decimals !== null && Number.isInteger(decimals) && decimals >= 0) {
    return {
      read: (typed) => {
        const value = parseTyped(typed);
        return value === null ? null : Number(padByDecimals(value, decimals));
      },
      render: (value) => padByDecimals(value, decimals),
      display: (value, separator) => plainNumber(value, decimals, separator),
      inputMode: 'decimal',
    };
  }
  const plain = (value: number) => Math.round(value * PLAIN_DECIMALS_LIMIT) / PLAIN_DECIMALS_LIMIT;
  return {
    read: (typed) => {
      const value = parseTyped(typed);
      return value === null ? null : plain(value);
    },
    render: (value) => String(plain(value)),
    display: (value, separator) => String(plain(value)).replace('.', separator),
    inputMode: 'decimal',
  };
}

export function scoreNotation(
  discipline: { inputMask: string | null; decimals: number | null },
  language: NotationLanguage,
): ScoreNotation {
  const rendering = renderingOf(discipline);
  const format = language === 'de' ? (value: number) => rendering.display(value, ',') : rendering.render;
  const isTime = rendering.inputMode === 'text';
  return {
    normalize: (typed) => {
      const value = rendering.read(typed);
      return value === null ? { ok: false } : { ok: true, value, text: format(value) };
    },
    format,
    display: rendering.display,
    round: (value) => rendering.read(rendering.render(value)) ?? value,
    inputMode: rendering.inputMode,
    example: format(isTime ? 65.5 : 9.5),
  };
}
