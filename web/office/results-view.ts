/**
 * Result lists and certificates of one competition (`?view=results&eventId=&competitionId=`),
 * built to be printed on A4: the screen shows the same sheets the printer gets, with the
 * toolbar, the navigation and the header hidden in print (office.css, `@media print`). Each age
 * class is a sheet of its own (a page break before the next), each sheet repeats the event, its
 * date, the competition and the class at the top of every page (a repeated table header), and the
 * page numbers come from the `@page` margin boxes. Certificates: one page per place 1-3 per class;
 * an incomplete all-around (not every discipline scored) gets none unless the office includes them.
 */
import type { AllAroundResult, AllAroundResults, ResultDiscipline, TeamResult, TeamResults } from '../../queries/results.js';
import type { DisciplineSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { decimalSeparator, t } from '../shared/i18n.js';
import { m } from './messages.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import type { OfficeView, ViewContext } from './view.js';
import type { CompetitionSummary } from './office-api.js';

type ListKind = 'all-around' | 'teams';
type Sheet = 'list' | 'certificates';

interface ViewState {
  competitionId: number | null;
  list: ListKind;
  byAgeClass: boolean;
  sheet: Sheet;
  /** Certificates for incomplete all-arounds too (`&incomplete=include`). */
  includeIncomplete: boolean;
}

const CERTIFICATE_PLACES = 3;
const DEFAULT_DECIMALS = 3;

function readState(): ViewState {
  const search = new URLSearchParams(window.location.search);
  const competitionId = Number(search.get('competitionId'));
  return {
    competitionId: Number.isInteger(competitionId) && competitionId > 0 ? competitionId : null,
    list: search.get('list') === 'teams' ? 'teams' : 'all-around',
    byAgeClass: search.get('groupBy') !== 'none',
    sheet: search.get('sheet') === 'certificates' ? 'certificates' : 'list',
    includeIncomplete: search.get('incomplete') === 'include',
  };
}

function writeState(state: ViewState): void {
  const url = new URL(window.location.href);
  const set = (name: string, value: string | null) => (value === null ? url.searchParams.delete(name) : url.searchParams.set(name, value));
  set('competitionId', state.competitionId === null ? null : String(state.competitionId));
  set('list', state.list === 'teams' ? 'teams' : null);
  set('groupBy', state.byAgeClass ? null : 'none');
  set('sheet', state.sheet === 'certificates' ? 'certificates' : null);
  set('incomplete', state.includeIncomplete ? 'include' : null);
  window.history.replaceState(null, '', url);
}

/** `2025-05-17` → `17.05.2025`; a range when the event lasts several days. */
export function eventDate(from: string | null, to: string | null): string {
  const day = (iso: string) => iso.split('-').reverse().join('.');
  if (from === null) return '';
  return to !== null && to !== from ? `${day(from)} – ${day(to)}` : day(from);
}

export function ageClassLabel(ageClass: string | null): string {
  if (ageClass === null) return m('res.all');
  if (ageClass === 'other') return t('board.ageOther');
  if (ageClass === 'unknown') return t('board.ageUnknown');
  return t('board.ageClass', { range: ageClass });
}

const ordinal = (place: number) => (place === 1 ? '1st' : place === 2 ? '2nd' : place === 3 ? '3rd' : `${place}th`);
const placeText = (place: number) => m('res.place', { ordinal: ordinal(place), place });

interface Formats {
  of(disciplineId: number): ScoreFormat;
  total(value: number): string;
}

function formatsFor(disciplines: readonly ResultDiscipline[], catalog: readonly DisciplineSummary[]): Formats {
  const known = new Map(catalog.map((discipline) => [discipline.id, discipline]));
  const plain = scoreFormat({ inputMask: null, decimals: DEFAULT_DECIMALS });
  const formats = new Map(
    disciplines.map((discipline) => [
      discipline.disciplineId,
      known.has(discipline.disciplineId) ? scoreFormat(known.get(discipline.disciplineId)!) : plain,
    ]),
  );
  // A time mask makes no sense for a sum; the total gets the most decimals any device shows.
  const decimals = Math.max(0, ...disciplines.map((discipline) => known.get(discipline.disciplineId)?.decimals ?? DEFAULT_DECIMALS));
  return { of: (id) => formats.get(id) ?? plain, total: (value) => value.toFixed(decimals).replace('.', decimalSeparator) };
}

interface Row {
  rank: number | null;
  outOfCompetition: boolean;
  complete: boolean;
  total: number;
  startNumber: string;
  name: string;
  detail: string;
  disciplines: Array<{ disciplineId: number; score: number | null; rank: number | null }>;
}

const personRow = (result: AllAroundResult): Row => ({
  ...result,
  startNumber: result.startNumber ?? '',
  name: `${result.firstName ?? ''} ${result.lastName ?? ''}`.trim(),
  detail: [result.clubName ?? '', result.birthYear === null ? '' : String(result.birthYear)].filter(Boolean).join(' · '),
});

const teamRow = (result: TeamResult): Row => ({
  ...result,
  startNumber: result.startNumber === null ? '' : String(result.startNumber),
  name: result.name,
  detail: result.clubName ?? '',
});

interface SheetGroup {
  /** null: one list for everybody (or the teams). */
  ageClass: string | null;
  title: string;
  rows: Row[];
}

function resultSheet(list: AllAroundResults | TeamResults, group: SheetGroup, formats: Formats): HTMLElement {
  const columns = 5 + list.disciplines.length;
  const heading = h(
    'tr',
    { class: 'sheet-head' },
    h(
      'th',
      { colspan: columns, scope: 'colgroup' },
      h('span', { class: 'sheet-event' }, list.eventName),
      h('span', { class: 'sheet-date' }, eventDate(list.dateFrom, list.dateTo)),
      h('span', { class: 'sheet-competition' }, list.competitionName ?? m('res.competition', { id: list.competitionId })),
      h('span', { class: 'sheet-class' }, group.title),
    ),
  );
  const columnsRow = h(
    'tr',
    { class: 'column-head' },
    h('th', { scope: 'col', class: 'rank' }, m('res.rank')),
    h('th', { scope: 'col', class: 'number' }, m('res.number')),
    h('th', { scope: 'col', class: 'name' }, t('board.name')),
    h('th', { scope: 'col', class: 'detail' }, 'classes' in list ? m('res.clubYear') : t('board.club')),
    ...list.disciplines.map((discipline) =>
      h('th', { scope: 'col', class: 'score', title: discipline.name }, discipline.shortName || discipline.name),
    ),
    h('th', { scope: 'col', class: 'score total' }, t('board.total')),
  );
  const body = h(
    'tbody',
    {},
    ...group.rows.map((row) =>
      h(
        'tr',
        { 'data-rank': row.rank ?? '', class: row.complete ? null : 'incomplete' },
        h('td', { class: 'rank' }, row.rank !== null ? `${row.rank}.` : row.outOfCompetition ? t('board.oc') : '–'),
        h('td', { class: 'number' }, row.startNumber),
        h('td', { class: 'name' }, row.name),
        h('td', { class: 'detail' }, row.detail),
        ...row.disciplines.map((discipline) =>
          h(
            'td',
            { class: 'score' },
            discipline.score === null ? '–' : formats.of(discipline.disciplineId).display(discipline.score, decimalSeparator),
            // The device rank, by the competition's apparatus rule: the same the device board shows.
            discipline.rank === null ? null : h('span', { class: 'device-rank', title: m('res.deviceRank') }, `${discipline.rank}.`),
          ),
        ),
        h(
          'td',
          { class: 'score total' },
          formats.total(row.total),
          row.complete ? null : h('span', { class: 'incomplete-mark', title: m('res.incomplete') }, '*'),
          row.complete
            ? null
            : h(
                'span',
                { class: 'incomplete-count' },
                m('res.scoredOf', {
                  scored: row.disciplines.filter((discipline) => discipline.score !== null).length,
                  all: row.disciplines.length,
                }),
              ),
        ),
      ),
    ),
  );
  const notes = [
    group.rows.some((row) => !row.complete) ? `* ${m('res.incomplete')}` : null,
    group.rows.some((row) => row.outOfCompetition) ? m('res.ocNote', { oc: t('board.oc') }) : null,
    list.tieBreak === 'best-device-scores' ? m('res.tieBreak') : null,
    list.apparatusTieBreak === 'e-then-d' ? m('res.apparatusTieBreak') : null,
  ].filter((note): note is string => note !== null);
  return h(
    'section',
    { class: 'result-sheet', 'aria-label': group.title },
    h('table', { class: 'result-table' }, h('thead', {}, heading, columnsRow), body),
    notes.length > 0 ? h('p', { class: 'sheet-notes' }, notes.join(' · ')) : null,
  );
}

/** The rows of places 1-3; an incomplete all-around only when the office asked for it. */
const certified = (row: Row, includeIncomplete: boolean) =>
  row.rank !== null && row.rank <= CERTIFICATE_PLACES && (row.complete || includeIncomplete);

function certificates(
  list: AllAroundResults | TeamResults,
  groups: readonly SheetGroup[],
  formats: Formats,
  includeIncomplete: boolean,
): HTMLElement[] {
  return groups.flatMap((group) =>
    group.rows
      .filter((row) => certified(row, includeIncomplete))
      .map((row) =>
        h(
          'section',
          { class: 'certificate', 'data-place': row.rank },
          h('p', { class: 'certificate-title' }, m('res.certificate')),
          h('p', { class: 'certificate-event' }, list.eventName),
          h('p', { class: 'certificate-date' }, eventDate(list.dateFrom, list.dateTo)),
          h(
            'p',
            { class: 'certificate-competition' },
            [list.competitionName ?? '', group.ageClass === null ? '' : group.title].filter(Boolean).join(' · '),
          ),
          h('p', { class: 'certificate-name' }, row.name),
          h('p', { class: 'certificate-detail' }, row.detail),
          h('p', { class: 'certificate-place' }, placeText(row.rank!)),
          h('p', { class: 'certificate-total' }, m('res.points', { total: formats.total(row.total) })),
        ),
      ),
  );
}

export function resultsView(context: ViewContext): OfficeView {
  const event = context.event!;
  const state = readState();
  const competitionSelect = h('select', { id: 'results-competition', name: 'competitionId' });
  const listSelect = h(
    'select',
    { id: 'results-list', name: 'list' },
    h('option', { value: 'all-around' }, t('board.allAround')),
    h('option', { value: 'teams' }, m('res.teams')),
  );
  const byAgeClass = h('input', { type: 'checkbox', id: 'results-by-age-class', checked: state.byAgeClass });
  const includeIncomplete = h('input', { type: 'checkbox', id: 'results-include-incomplete', checked: state.includeIncomplete });
  const includePicker = h(
    'div',
    { class: 'picker checkbox-picker' },
    h('label', { for: includeIncomplete.id }, includeIncomplete, m('res.includeIncomplete')),
  );
  const leftOut = h('p', { class: 'page-message screen-only', id: 'results-left-out', hidden: true });
  const sheetSelect = h(
    'select',
    { id: 'results-sheet', name: 'sheet' },
    h('option', { value: 'list' }, m('res.list')),
    h('option', { value: 'certificates' }, m('res.certificates')),
  );
  const printButton = h('button', { type: 'button', class: 'primary', id: 'results-print' }, m('res.print'));
  const csvLink = h('a', { id: 'results-csv', class: 'button-link', download: '' }, m('res.csv'));
  const boardLink = h('a', { id: 'results-board', class: 'button-link', target: '_blank', rel: 'noopener' }, m('res.board'));
  const message = h('p', { class: 'page-message', role: 'status' });
  const output = h('div', { class: 'print-output', id: 'results-output' });
  listSelect.value = state.list;
  sheetSelect.value = state.sheet;
  let catalog: DisciplineSummary[] = [];
  let generation = 0;

  const toolbar = h(
    'div',
    { class: 'pickers results-toolbar' },
    h('div', { class: 'picker' }, h('label', { for: competitionSelect.id }, t('common.competition')), competitionSelect),
    h('div', { class: 'picker' }, h('label', { for: listSelect.id }, m('res.listLabel')), listSelect),
    h('div', { class: 'picker' }, h('label', { for: sheetSelect.id }, m('res.print')), sheetSelect),
    h('div', { class: 'picker checkbox-picker' }, h('label', { for: byAgeClass.id }, byAgeClass, m('res.perClass'))),
    includePicker,
    h('div', { class: 'picker actions' }, printButton, csvLink, boardLink),
  );
  const element = h(
    'section',
    { class: 'results-view' },
    h('h2', { class: 'screen-only' }, m('res.results')),
    toolbar,
    message,
    leftOut,
    output,
  );

  const changed = () => {
    state.competitionId = Number(competitionSelect.value) || null;
    state.list = listSelect.value === 'teams' ? 'teams' : 'all-around';
    state.byAgeClass = byAgeClass.checked;
    state.sheet = sheetSelect.value === 'certificates' ? 'certificates' : 'list';
    state.includeIncomplete = includeIncomplete.checked;
    writeState(state);
    void render();
  };
  for (const control of [competitionSelect, listSelect, byAgeClass, sheetSelect, includeIncomplete])
    control.addEventListener('change', changed);
  printButton.addEventListener('click', () => window.print());

  async function render(): Promise<void> {
    const mine = ++generation;
    byAgeClass.disabled = state.list === 'teams';
    includePicker.hidden = state.sheet !== 'certificates';
    leftOut.hidden = true;
    if (state.competitionId === null) {
      output.replaceChildren();
      message.textContent = m('res.noCompetitions');
      return;
    }
    const query = { eventId: event.id, competitionId: state.competitionId };
    const grouped = state.list === 'all-around' && state.byAgeClass;
    const csvQuery = new URLSearchParams({
      eventId: String(query.eventId),
      competitionId: String(query.competitionId),
      ...(grouped ? { groupBy: 'ageClass' } : {}),
    });
    csvLink.setAttribute('href', `/api/results${state.list === 'teams' ? '/teams' : ''}.csv?${csvQuery}`);
    // The projector board shows the individual all-around only.
    boardLink.hidden = state.list === 'teams';
    boardLink.setAttribute('href', `/board/?${new URLSearchParams({ ...Object.fromEntries(csvQuery), view: 'all-around' })}`);
    message.textContent = m('res.loading');
    try {
      const list =
        state.list === 'teams'
          ? await context.api.teamResults(query)
          : await context.api.results({ ...query, groupBy: grouped ? 'ageClass' : undefined });
      if (mine !== generation) return;
      const formats = formatsFor(list.disciplines, catalog);
      const groups: SheetGroup[] =
        'classes' in list
          ? list.classes.map((group) => ({
              ageClass: group.ageClass,
              title: ageClassLabel(group.ageClass),
              rows: group.results.map(personRow),
            }))
          : [{ ageClass: null, title: m('res.teams'), rows: list.results.map(teamRow) }];
      const sheets =
        state.sheet === 'certificates'
          ? certificates(list, groups, formats, state.includeIncomplete)
          : groups.map((group) => resultSheet(list, group, formats));
      // Who would have had a certificate but has not done every discipline: named, so it is a choice.
      const skipped =
        state.sheet === 'certificates' ? groups.flatMap((group) => group.rows).filter((row) => !row.complete && certified(row, true)) : [];
      leftOut.hidden = skipped.length === 0 || state.includeIncomplete;
      leftOut.textContent = m('res.leftOut', { names: skipped.map((row) => `${row.name} (${row.rank}.)`).join(', ') });
      output.dataset.sheet = state.sheet;
      output.replaceChildren(...sheets);
      document.title = `${list.competitionName ?? m('res.results')} · ${event.name}`;
      message.textContent = groups.every((group) => group.rows.length === 0)
        ? m('res.noResults')
        : sheets.length === 0
          ? m('res.noPlaces')
          : '';
    } catch (error) {
      if (mine !== generation) return;
      output.replaceChildren();
      message.textContent = m('res.failed', { error: (error as Error).message });
    }
  }

  void (async () => {
    let competitions: CompetitionSummary[] = [];
    try {
      [competitions, catalog] = await Promise.all([
        context.api.competitions(event.id),
        context.api.disciplines().catch(() => [] as DisciplineSummary[]),
      ]);
    } catch (error) {
      message.textContent = m('res.competitionsFailed', { error: (error as Error).message });
      return;
    }
    competitionSelect.replaceChildren(
      ...competitions.map((competition) =>
        h('option', { value: competition.id }, competition.name ?? m('res.competition', { id: competition.id })),
      ),
    );
    if (!competitions.some((competition) => competition.id === state.competitionId)) state.competitionId = competitions[0]?.id ?? null;
    competitionSelect.value = state.competitionId === null ? '' : String(state.competitionId);
    writeState(state);
    await render();
  })();

  return { element, dispose: () => void ++generation };
}
