/**
 * Board setup (`?view=board`): the scoreboard's options as a form, so nobody has to know its
 * address parameters. Competition, then its devices only (one is shown, several rotate), or its
 * all-around ranking; pace, released-only, language. The page gives the address to open on the
 * projector's PC and its QR code for a phone or tablet.
 */
import { h } from '../shared/dom.js';
import { lang, t } from '../shared/i18n.js';
import { PAGE_MS } from '../board/pager.js';
import { m } from './messages.js';
import { qrCode } from './qr.js';
import { spectatorSection } from './spectator-setup.js';
import type { DisciplineSummary } from '../shared/api.js';
import type { CompetitionSummary } from './office-api.js';
import type { OfficeView, ViewContext } from './view.js';

/** What the board shows, as the form holds it. */
export interface BoardChoice {
  eventId: number;
  competitionId: number;
  view: 'devices' | 'all-around';
  disciplineIds: number[];
  byAgeClass: boolean;
  releasedOnly: boolean;
  paceSeconds: number;
  lang: 'de' | 'en';
}

export const DEFAULT_PACE_SECONDS = PAGE_MS / 1000;
const PACE_LIMITS = { min: 3, max: 60 };

/** The board's address for a choice (the parameters `web/board/main.ts` reads); null while no device is chosen. */
export function boardAddress(base: string, choice: BoardChoice): string | null {
  const url = new URL(base);
  const query = url.searchParams;
  query.set('eventId', String(choice.eventId));
  query.set('competitionId', String(choice.competitionId));
  if (choice.view === 'all-around') {
    query.set('view', 'all-around');
    if (choice.byAgeClass) query.set('groupBy', 'ageClass');
  } else {
    if (choice.disciplineIds.length === 0) return null;
    if (choice.disciplineIds.length === 1) query.set('disciplineId', String(choice.disciplineIds[0]));
    else query.set('rotate', choice.disciplineIds.join(','));
    if (choice.releasedOnly) query.set('released', 'only');
  }
  if (choice.paceSeconds !== DEFAULT_PACE_SECONDS) query.set('pace', String(choice.paceSeconds));
  query.set('lang', choice.lang);
  return url.href;
}

export function boardSetupView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const base = new URL('../board/', window.location.href).href;
  const competitionSelect = h('select', { id: 'board-competition' });
  const viewSelect = h(
    'select',
    { id: 'board-view' },
    h('option', { value: 'devices' }, m('board.viewDevices')),
    h('option', { value: 'all-around' }, m('board.viewAllAround')),
  );
  const devices = h('fieldset', { class: 'board-devices', id: 'board-devices' });
  const byAgeClass = h('input', { type: 'checkbox', id: 'board-age-classes' });
  const releasedOnly = h('input', { type: 'checkbox', id: 'board-released-only' });
  const pace = h('input', {
    type: 'number',
    id: 'board-pace',
    min: PACE_LIMITS.min,
    max: PACE_LIMITS.max,
    step: 1,
    value: DEFAULT_PACE_SECONDS,
    inputmode: 'numeric',
  });
  const langSelect = h(
    'select',
    { id: 'board-lang' },
    h('option', { value: 'de', selected: lang === 'de' }, 'Deutsch'),
    h('option', { value: 'en', selected: lang === 'en' }, 'English'),
  );
  const message = h('p', { class: 'view-message', role: 'status', id: 'board-message' });
  const address = h('output', { id: 'board-url', class: 'board-url', for: 'board-competition' });
  const open = h('a', { id: 'board-open', target: '_blank', rel: 'noopener', class: 'button-link' }, m('board.open'));
  const qrHost = h('div', { class: 'board-qr', id: 'board-qr' });
  const result = h('div', { class: 'board-result', hidden: true }, h('p', {}, m('board.address')), address, open, qrHost);
  let competitions: CompetitionSummary[] = [];
  let catalog: DisciplineSummary[] = [];

  const deviceBoxes = () => Array.from(devices.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));
  const field = (label: string, control: HTMLElement, hint?: string) =>
    h('div', { class: 'picker' }, h('label', { for: control.id }, label), control, hint ? h('p', { class: 'hint' }, hint) : null);
  const check = (control: HTMLInputElement, label: string) => h('label', { class: 'check', for: control.id }, control, ` ${label}`);

  function update(): void {
    const competitionId = Number(competitionSelect.value);
    const allAround = viewSelect.value === 'all-around';
    devices.hidden = allAround;
    releasedOnly.disabled = allAround;
    byAgeClass.disabled = !allAround;
    const seconds = Number(pace.value);
    const paceOk = Number.isInteger(seconds) && seconds >= PACE_LIMITS.min && seconds <= PACE_LIMITS.max;
    pace.setAttribute('aria-invalid', String(!paceOk));
    const url = competitionId
      ? boardAddress(base, {
          eventId: event.id,
          competitionId,
          view: allAround ? 'all-around' : 'devices',
          disciplineIds: deviceBoxes()
            .filter((box) => box.checked)
            .map((box) => Number(box.value)),
          byAgeClass: byAgeClass.checked,
          releasedOnly: releasedOnly.checked,
          paceSeconds: paceOk ? seconds : DEFAULT_PACE_SECONDS,
          lang: langSelect.value === 'en' ? 'en' : 'de',
        })
      : null;
    result.hidden = url === null;
    message.textContent =
      url === null ? m(competitionId ? 'board.chooseDevice' : 'board.chooseCompetition') : paceOk ? '' : m('board.badPace', PACE_LIMITS);
    if (url === null) return;
    address.textContent = url;
    open.setAttribute('href', url);
    qrHost.replaceChildren(qrCode(url, m('board.qrLabel')));
  }

  /** The competition's own devices (those its score rows are planned on), in its order. */
  function showDevices(): void {
    const own = competitions.find((competition) => competition.id === Number(competitionSelect.value))?.disciplineIds ?? null;
    devices.replaceChildren(h('legend', {}, m('board.devices')));
    if (own !== null) {
      devices.append(
        ...own.map((disciplineId, index) => {
          const discipline = catalog.find((candidate) => candidate.id === disciplineId);
          const box = h('input', { type: 'checkbox', id: `board-device-${disciplineId}`, value: disciplineId, checked: index === 0 });
          box.addEventListener('change', update);
          return check(box, discipline ? discipline.displayName || discipline.name : `#${disciplineId}`);
        }),
        h('p', { class: 'hint' }, own.length === 0 ? m('board.noDevices') : m('board.rotateHint')),
      );
    }
    update();
  }

  competitionSelect.addEventListener('change', showDevices);
  for (const control of [viewSelect, byAgeClass, releasedOnly, pace, langSelect]) {
    control.addEventListener('change', update);
    control.addEventListener('input', update);
  }

  Promise.all([api.competitions(event.id), api.disciplines()]).then(
    ([loaded, disciplines]) => {
      competitions = loaded;
      catalog = disciplines;
      competitionSelect.replaceChildren(
        h('option', { value: '' }, m('unit.chooseCompetition')),
        ...competitions.map((competition) =>
          h('option', { value: competition.id }, competition.name ?? m('competition.fallback', { id: competition.id })),
        ),
      );
      showDevices();
    },
    (error: unknown) => {
      message.textContent = m('board.devicesFailed', { error: (error as Error).message });
    },
  );

  const element = h(
    'section',
    { class: 'panel board-setup', 'aria-labelledby': 'board-setup-title' },
    h('h2', { id: 'board-setup-title' }, m('board.setupTitle', { event: event.name })),
    h('p', { class: 'hint' }, m('board.intro')),
    h(
      'div',
      { class: 'split' },
      h(
        'form',
        { class: 'board-form', novalidate: true },
        field(t('common.competition'), competitionSelect),
        field(m('board.show'), viewSelect),
        devices,
        check(byAgeClass, m('board.ageClasses')),
        check(releasedOnly, m('board.releasedOnly')),
        field(m('board.pace'), pace, m('board.paceHint', { seconds: DEFAULT_PACE_SECONDS })),
        field(m('board.language'), langSelect),
      ),
      h('div', {}, message, result),
    ),
  );
  const spectators = spectatorSection(context);
  return { element: h('div', { class: 'board-setup-views' }, element, spectators.element), dispose: spectators.dispose };
}
