/**
 * The printable inquiry log of an event (`?view=inquiries&eventId=`): every inquiry with every
 * time the service stamped, the deadlines it judged them by, the decision and the values before
 * and after, in the page's language; A4 landscape in print.
 */
import { h } from '../shared/dom.js';
import { decimalSeparator } from '../shared/i18n.js';
import { clockTime, gymnastName, inquiryApi, stateText, tInq, type Inquiry } from '../shared/inquiries.js';
import type { OfficeView, ViewContext } from './view.js';

const number = (value: number | null) => (value === null ? '–' : String(Math.round(value * 1000) / 1000).replace('.', decimalSeparator));

function row(inquiry: Inquiry): HTMLElement {
  const cell = (text: string) => h('td', {}, text);
  return h(
    'tr',
    { 'data-inquiry-id': inquiry.id, 'data-state': inquiry.state },
    h('td', { class: 'number' }, String(inquiry.id)),
    cell(`${gymnastName(inquiry)}${inquiry.clubName ? ` (${inquiry.clubName})` : ''}`),
    cell(inquiry.disciplineName ?? String(inquiry.disciplineId)),
    cell(inquiry.recordedBy ? `${inquiry.coach}, ${tInq('inq.recordedBy', { who: inquiry.recordedBy })}` : inquiry.coach),
    cell(clockTime(inquiry.shownAt, true)),
    cell(clockTime(inquiry.filedAt, true)),
    cell(inquiry.verbalDeadline === null ? tInq('inq.nextScore') : clockTime(inquiry.verbalDeadline, true)),
    cell(clockTime(inquiry.writtenDeadline, true)),
    cell(inquiry.confirmedAt === null ? '–' : `${clockTime(inquiry.confirmedAt, true)} (${inquiry.confirmedBy ?? ''})`),
    cell(stateText(inquiry)),
    cell(inquiry.decidedAt === null ? '–' : `${clockTime(inquiry.decidedAt, true)} (${inquiry.decidedBy ?? ''})`),
    cell(`${number(inquiry.dBefore)} → ${number(inquiry.dAfter)}`),
    cell(`${number(inquiry.finalBefore)} → ${number(inquiry.finalAfter)}`),
  );
}

export function inquiryLogView(context: ViewContext): OfficeView {
  const event = context.event!;
  const body = h('tbody', {});
  const message = h('p', { class: 'view-message', role: 'status' });
  const print = h('button', { type: 'button', class: 'primary screen-only', id: 'inquiry-log-print' }, tInq('inq.print'));
  print.addEventListener('click', () => window.print());

  void inquiryApi.list(event.id).then(
    (list) => {
      body.replaceChildren(
        ...(list.inquiries.length === 0 ? [h('tr', {}, h('td', { colspan: 13 }, tInq('inq.none')))] : list.inquiries.map(row)),
      );
    },
    (error: Error) => {
      message.textContent = tInq('inq.failed', { error: error.message });
    },
  );

  return {
    element: h(
      'section',
      { class: 'panel inquiry-log', 'aria-labelledby': 'inquiry-log-title' },
      h('div', { class: 'panel-head' }, h('h2', { id: 'inquiry-log-title' }, tInq('inq.logTitle', { event: event.name })), print),
      h('p', { class: 'hint' }, tInq('inq.logNote')),
      message,
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data-table inquiry-log-table', id: 'inquiry-log' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...tInq('inq.logCols')
                .split('|')
                .map((label) => h('th', { scope: 'col' }, label)),
            ),
          ),
          body,
        ),
      ),
    ),
  };
}
