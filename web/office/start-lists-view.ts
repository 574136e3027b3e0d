/**
 * Start lists (`?view=startlists`): per rotation of the plan one A4 page with, per apparatus, the
 * squad on it and its gymnasts in the portal's start order, with club and competition, for the
 * hall's notice board and the coaches. An apparatus stays on one page; a rotation starts a new one.
 */
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import type { CompetitionSummary, Rotation } from './office-api.js';
import { clock, printedNameCell, printedRotationsView, slotsInOrder, squadRows, type PrintedRotations } from './rotation-print.js';
import type { OfficeView, ViewContext } from './view.js';

export function startListsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;

  async function apparatusList(
    printed: PrintedRotations,
    competitions: readonly CompetitionSummary[],
    disciplineId: number,
    squadName: string,
  ): Promise<HTMLElement> {
    const rows = await squadRows(event.id, squadName, disciplineId);
    const competitionName = (id: number) =>
      competitions.find((competition) => competition.id === id)?.name ?? m('competition.fallback', { id });
    return h(
      'section',
      { class: 'start-list-apparatus', 'data-discipline-id': disciplineId, 'data-squad': squadName },
      h('h4', {}, `${printed.apparatusName(disciplineId)} · ${t('common.squad')} ${squadName}`),
      rows.length === 0
        ? h('p', { class: 'hint' }, m('startlists.empty'))
        : h(
            'table',
            { class: 'judge-sheet-table start-list-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, m('startlists.order')),
                h('th', {}, m('sheets.number')),
                h('th', {}, m('sheets.name')),
                h('th', {}, m('sheets.club')),
                h('th', {}, t('common.competition')),
              ),
            ),
            h(
              'tbody',
              {},
              ...rows.map((row, index) =>
                h(
                  'tr',
                  { 'data-participant-id': row.participantId },
                  h('td', {}, `${index + 1}.`),
                  h('td', {}, row.startNumber),
                  printedNameCell(row),
                  h('td', {}, row.clubName),
                  h('td', {}, competitionName(row.competitionId)),
                ),
              ),
            ),
          ),
    );
  }

  async function rotationPage(printed: PrintedRotations, competitions: readonly CompetitionSummary[], rotation: Rotation) {
    const lists = [];
    for (const slot of slotsInOrder(rotation)) lists.push(await apparatusList(printed, competitions, slot.disciplineId, slot.squadName));
    return h(
      'article',
      { class: 'start-list', 'data-rotation': rotation.rotation },
      h('h3', {}, m('startlists.heading', { rotation: rotation.rotation, time: clock(rotation.plannedStart) })),
      h('p', {}, event.name),
      ...lists,
    );
  }

  async function build(printed: PrintedRotations): Promise<{ pages: HTMLElement[]; summary: string }> {
    const competitions = await api.competitions(event.id);
    const pages = [];
    for (const rotation of printed.rotations) pages.push(await rotationPage(printed, competitions, rotation));
    return { pages, summary: m('startlists.built', { count: pages.length }) };
  }

  const element = printedRotationsView(context, {
    id: 'startlists',
    title: m('startlists.title', { event: event.name }),
    intro: m('startlists.intro'),
    buildLabel: m('startlists.build'),
    build,
    failed: (error) => m('startlists.failed', { error }),
  });
  return { element };
}
