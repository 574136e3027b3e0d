/** The plausibility rule's messages in the page's language, worded alike on every page. */
import { t } from './i18n.js';
import type { PlausibilityCheck } from './plausibility.js';

/** `show` writes a number as the page shows it (mask decimals, the language's separator). */
export const refusalText = (check: PlausibilityCheck, show: (value: number) => string): string =>
  t('jury.refuseNegative', { field: check.label, value: show(check.value) });

export function implausibleQuestion(checks: readonly PlausibilityCheck[], show: (value: number) => string): string {
  const list = checks
    .map((check) =>
      t('jury.implausibleItem', {
        field: check.label,
        value: show(check.value),
        min: show(check.range.min),
        max: show(check.range.max),
      }),
    )
    .join('; ');
  return t('jury.implausible', { list });
}
