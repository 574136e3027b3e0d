import type { NormalizeResult } from '../../src/domain/input-mask.js';
import { lang, t } from './i18n.js';
import { scoreNotation, type ScoreNotation } from './score-notation.js';

/** How one discipline's values are typed and shown on this page: `score-notation.ts` in the page's language, errors worded. */
export interface ScoreFormat extends Omit<ScoreNotation, 'normalize'> {
  normalize(typed: string): NormalizeResult;
}

export function scoreFormat(discipline: { inputMask: string | null; decimals: number | null }): ScoreFormat {
  const notation = scoreNotation(discipline, lang);
  return {
    ...notation,
    normalize: (typed) => {
      const result = notation.normalize(typed);
      return result.ok
        ? result
        : { ok: false, error: t('common.invalidValue', { typed: JSON.stringify(typed), example: notation.example }) };
    },
  };
}
