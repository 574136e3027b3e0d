/**
 * The judges' evaluation (`?view=judges-evaluation`, issue 47): per apparatus with an E-panel, each
 * judge's routines, mean deviation from the panel's aggregate, the routines outside the tolerance
 * and the largest deviations with the gymnast, from GET /api/judges-evaluation (head judge or
 * admin). One A4 sheet per apparatus when printed (office.css, `@media print`).
 */
import { h } from '../shared/dom.js';
import { decimalSeparator } from '../shared/i18n.js';
import { m } from './messages.js';
import type { CompetitionSummary, JudgesEvaluation } from './office-api.js';
import type { OfficeView, ViewContext } from './view.js';

type Judge = JudgesEvaluation['judges'][number];

const number = (value: number) => value.toFixed(3).replace('.', decimalSeparator);
const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${number(Math.abs(value))}`;
const today = () => new Date().toLocaleDateString(document.documentElement.lang, { dateStyle: 'medium' });

function judgeRow(judge: Judge): HTMLElement {
  return h(
    'tr',
    { 'data-field-id': judge.fieldId, class: judge.outsideTolerance > 0 ? 'has-outside' : '' },
    h(
      'th',
      { scope: 'row' },
      judge.fieldName ?? `#${judge.fieldId}`,
      judge.role === 'reference' ? h('span', { class: 'role' }, ` (${m('jeval.reference')})`) : '',
    ),
    h('td', { class: 'num', 'data-cell': 'routines' }, String(judge.routines)),
    h('td', { class: 'num', 'data-cell': 'mean' }, judge.meanDeviation === null ? '–' : signed(judge.meanDeviation)),
    h(
      'td',
      { class: 'num', 'data-cell': 'mean-absolute' },
      judge.meanAbsoluteDeviation === null ? '–' : number(judge.meanAbsoluteDeviation),
    ),
    h('td', { class: 'num', 'data-cell': 'outside' }, String(judge.outsideTolerance)),
    h(
      'td',
      { 'data-cell': 'largest' },
      h(
        'ul',
        { class: 'largest' },
        ...judge.largest.map((item) =>
          h(
            'li',
            { class: item.outside ? 'outside' : '' },
            m('jeval.deviation', {
              number: item.startNumber ?? '–',
              name: `${item.firstName ?? ''} ${item.lastName ?? ''}`.trim(),
              club: item.clubName ?? '–',
              value: number(item.value),
              aggregate: number(item.aggregate),
              deviation: signed(item.deviation),
              tolerance: item.tolerance === null ? '–' : number(item.tolerance),
            }),
          ),
        ),
      ),
    ),
  );
}

function apparatusSheet(eventName: string, judges: Judge[]): HTMLElement {
  const first = judges[0]!;
  return h(
    'article',
    { class: 'evaluation-sheet', 'data-discipline-id': first.disciplineId },
    h(
      'header',
      {},
      h('h3', {}, first.disciplineName),
      h('p', { class: 'sheet-event' }, `${eventName} · ${m('jeval.printed', { date: today() })}`),
    ),
    h(
      'table',
      { class: 'evaluation-table' },
      h(
        'colgroup',
        {},
        h('col', { class: 'judge' }),
        h('col', { class: 'count' }),
        h('col', { class: 'mean' }),
        h('col', { class: 'mean' }),
        h('col', { class: 'count' }),
        h('col', { class: 'largest' }),
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, m('jeval.judge')),
          h('th', { class: 'num' }, m('jeval.routines')),
          h('th', { class: 'num' }, m('jeval.mean')),
          h('th', { class: 'num' }, m('jeval.meanAbsolute')),
          h('th', { class: 'num' }, m('jeval.outside')),
          h('th', {}, m('jeval.largest')),
        ),
      ),
      h('tbody', {}, ...judges.map(judgeRow)),
    ),
  );
}

export function judgesEvaluationView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  const competitionSelect = h('select', { id: 'jeval-competition' });
  const print = h('button', { type: 'button', class: 'primary', id: 'jeval-print', disabled: true }, m('jeval.print'));
  const message = h('p', { class: 'view-message', role: 'status', id: 'jeval-message' });
  const output = h('div', { class: 'print-output', id: 'jeval-output' });

  async function load(): Promise<void> {
    output.replaceChildren();
    print.disabled = true;
    if (!session.isHead) {
      message.textContent = m('jeval.needsHead');
      return;
    }
    const competitionId = competitionSelect.value === '' ? null : Number(competitionSelect.value);
    try {
      const evaluation = await api.judgesEvaluation(event.id, competitionId);
      const byApparatus = new Map<number, Judge[]>();
      for (const judge of evaluation.judges) byApparatus.set(judge.disciplineId, [...(byApparatus.get(judge.disciplineId) ?? []), judge]);
      const sheets = [...byApparatus.values()].filter((judges) => judges.some((judge) => judge.routines > 0));
      output.replaceChildren(...sheets.map((judges) => apparatusSheet(event.name, judges)));
      message.textContent = sheets.length === 0 ? m('jeval.empty') : '';
      print.disabled = sheets.length === 0;
    } catch (error) {
      message.textContent = m('jeval.failed', { error: (error as Error).message });
    }
  }

  async function start(): Promise<void> {
    let competitions: CompetitionSummary[] = [];
    try {
      competitions = await api.competitions(event.id);
    } catch (error) {
      message.textContent = m('jeval.failed', { error: (error as Error).message });
    }
    competitionSelect.replaceChildren(
      h('option', { value: '' }, m('jeval.allCompetitions')),
      ...competitions.map((competition) => h('option', { value: competition.id }, competition.name)),
    );
    await load();
  }

  competitionSelect.addEventListener('change', () => void load());
  print.addEventListener('click', () => window.print());
  const unsubscribe = session.onChange(() => void load());

  const element = h(
    'section',
    { class: 'evaluation-view' },
    h(
      'div',
      { class: 'screen-only' },
      h('h2', {}, m('jeval.title', { event: event.name })),
      h('p', { class: 'hint' }, m('jeval.intro')),
      h(
        'div',
        { class: 'rot-generator' },
        h('div', { class: 'picker' }, h('label', { for: competitionSelect.id }, m('jeval.competition')), competitionSelect),
        print,
      ),
      message,
    ),
    output,
  );
  void start();
  return { element, dispose: unsubscribe };
}
