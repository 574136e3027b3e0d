/**
 * One E-panel deviation as an alert (issue 21): who, which device, each judge's value, the spread
 * and the tolerance; the jury portal and the head judge console show the same line.
 */
import { h } from './dom.js';
import { decimalSeparator, t } from './i18n.js';
import type { PanelDeviation } from './panel.js';
import type { ScoreFormat } from './score-format.js';

export interface DeviationLabels {
  /** The participant (or `#scoreId` when not known). */
  name: string;
  device: string;
  /** A judge field's label, e.g. "E1". */
  judge(fieldId: number): string;
  format: ScoreFormat;
}

export function deviationAlert(deviation: PanelDeviation, labels: DeviationLabels, action: HTMLElement | null = null): HTMLElement {
  const show = (value: number) => labels.format.display(value, decimalSeparator);
  return h(
    'div',
    {
      class: 'deviation-alert',
      role: 'alert',
      'data-score-id': deviation.scoreId,
      'data-discipline-id': deviation.disciplineId,
      'data-attempt': deviation.attempt,
    },
    h(
      'div',
      { class: 'deviation-text' },
      t('panel.deviation', {
        name: labels.name,
        device: labels.device,
        spread: show(deviation.spread),
        tolerance: show(deviation.tolerance),
      }),
      h(
        'ul',
        { class: 'deviation-values' },
        ...deviation.values.map((entry) =>
          h(
            'li',
            { 'data-field-id': entry.fieldId },
            h('span', { class: 'judge' }, `${labels.judge(entry.fieldId)} `),
            h('span', { class: 'value' }, entry.value === null ? '—' : show(entry.value)),
          ),
        ),
      ),
    ),
    action,
  );
}
