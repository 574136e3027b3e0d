import { h } from '../../shared/dom.js';
import { decimalSeparator, t, type MessageKey } from '../../shared/i18n.js';
import type { PanelSettings, PanelState } from '../../shared/panel.js';
import type { ScoreFormat } from '../../shared/score-format.js';

export interface PanelSummary {
  settings: PanelSettings;
  state: PanelState | null;
  format: ScoreFormat;
  /** A judge field's label, e.g. "C · E1". */
  judge(fieldId: number): string;
}

type Show = (value: number | null | undefined) => string;

/** Which judges are not there and what stands in for them (issue 47). */
function missingLine(summary: PanelSummary, state: PanelState, show: Show): HTMLElement {
  const judges = state.missing.map((fieldId) => summary.judge(fieldId)).join(', ');
  return h(
    'p',
    { class: 'missing-judges', id: 'panel-missing' },
    state.substitute === null ? t('panel.missingFewer', { judges }) : t('panel.missingMean', { judges, value: show(state.substitute) }),
  );
}

/** The reference judges' values, their mean and what the rule did to the E score (issue 47). */
function referenceLine(summary: PanelSummary, reference: NonNullable<PanelState['reference']>, state: PanelState, show: Show): HTMLElement {
  const values = reference.values.map((entry) => `${summary.judge(entry.fieldId)} ${show(entry.value)}`).join(' · ');
  const outcome =
    reference.mean === null
      ? ''
      : !reference.agree
        ? t('panel.referenceDisagree')
        : reference.applied
          ? t('panel.referenceApplied', {
              panel: show(state.panelAggregate),
              difference: show(reference.difference),
              tolerance: show(reference.tolerance),
              aggregate: show(state.aggregate),
            })
          : t('panel.referenceWithin', { panel: show(state.panelAggregate), tolerance: show(reference.tolerance) });
  return h(
    'p',
    {
      class: reference.applied ? 'reference reference--applied' : 'reference',
      id: 'panel-reference',
      'data-applied': String(reference.applied),
    },
    t('panel.reference', { values, mean: show(reference.mean) }),
    outcome === '' ? '' : ` · ${outcome}`,
  );
}

/**
 * The head judge's (and D-panel's) view of the E-panel for the selected participant: each judge's
 * value, the aggregate, and "provisional" while judges are missing (issue 21). Read-only: it is
 * refreshed from the service and never touches the inputs.
 */
export function panelSummaryView(): { element: HTMLElement; render(summary: PanelSummary | null): void } {
  const element = h('section', { class: 'panel-summary', id: 'panel-summary', 'aria-live': 'polite', hidden: true });
  return {
    element,
    render(summary) {
      element.hidden = summary === null;
      if (!summary) {
        element.replaceChildren();
        return;
      }
      const { settings, state, format } = summary;
      const show = (value: number | null | undefined) => (typeof value === 'number' ? format.display(value, decimalSeparator) : '—');
      const valueOf = (fieldId: number) => state?.values.find((entry) => entry.fieldId === fieldId)?.value ?? null;
      const counted = settings.judgeFieldIds.filter((fieldId) => valueOf(fieldId) !== null).length;
      const complete = state?.complete ?? false;
      const deviation = state?.deviation ?? false;
      element.dataset.complete = String(complete);
      element.dataset.deviation = String(deviation);
      element.replaceChildren(
        h(
          'h3',
          {},
          t('panel.title'),
          h('span', { class: 'aggregation' }, ` · ${t(`panel.aggregation.${settings.aggregation}` as MessageKey)}`),
        ),
        h(
          'ul',
          { class: 'judge-values' },
          ...settings.judgeFieldIds.map((fieldId) =>
            h(
              'li',
              { 'data-field-id': fieldId, 'data-filled': String(valueOf(fieldId) !== null) },
              h('span', { class: 'judge' }, summary.judge(fieldId)),
              h('span', { class: 'value' }, show(valueOf(fieldId))),
            ),
          ),
        ),
        h(
          'p',
          { class: 'aggregate-line' },
          h('span', { class: 'aggregate-label' }, `${t('panel.aggregate')} `),
          h('output', { class: 'aggregate', id: 'panel-aggregate' }, show(state?.aggregate)),
          ' ',
          h(
            'span',
            { class: complete ? 'panel-state complete' : 'panel-state provisional', id: 'panel-state' },
            !complete
              ? t('panel.provisional', { count: counted, size: settings.size })
              : state && state.given < settings.size
                ? t('panel.given', { count: state.given, size: settings.size })
                : t('panel.complete'),
          ),
        ),
        ...(state && state.missing.length > 0 ? [missingLine(summary, state, show)] : []),
        ...(state?.reference ? [referenceLine(summary, state.reference, state, show)] : []),
        ...(state && state.spread !== null
          ? [
              h(
                'p',
                { class: deviation ? 'spread spread--deviation' : 'spread' },
                t('panel.spread', { spread: show(state.spread), tolerance: show(state.tolerance) }),
                state.confirmed ? ` · ${t('panel.confirmed')}` : '',
              ),
            ]
          : []),
      );
    },
  };
}
