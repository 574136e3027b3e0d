import '../shared/base.css';
import './board.css';
import { api, type CompetitionSummary, type DisciplineSummary } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h, queryInteger } from '../shared/dom.js';
import { languageSwitch, t } from '../shared/i18n.js';
import { registerOfflineShell } from '../shared/offline-shell.js';
import { AllAroundBoard } from './all-around.js';
import { DeviceBoard, type DeviceBoardTarget } from './device-board.js';
import { cycleBoards, RotationBoard } from './rotation-board.js';

/**
 * Without event and device in the address, the board asks for them once (competition optional);
 * the address can then be bookmarked.
 */
async function renderPicker(root: HTMLElement): Promise<void> {
  document.title = t('board.title');
  const eventSelect = h('select', { id: 'board-event', name: 'eventId', required: true });
  const competitionSelect = h('select', { id: 'board-competition', name: 'competitionId' });
  const deviceSelect = h('select', { id: 'board-discipline', name: 'disciplineId', required: true });
  const message = h('p', { role: 'status' }, t('board.loadingPickers'));
  const form = h(
    'form',
    { class: 'board-picker', method: 'get' },
    h('h1', {}, t('board.title')),
    h('label', { for: 'board-event' }, t('common.event')),
    eventSelect,
    h('label', { for: 'board-competition' }, t('common.competition')),
    competitionSelect,
    h('label', { for: 'board-discipline' }, t('common.device')),
    deviceSelect,
    h('button', { type: 'submit' }, t('board.show')),
    message,
  );
  root.replaceChildren(form, h('footer', { class: 'board-footer' }, languageSwitch(), buildBadges(api.version)));
  let disciplines: DisciplineSummary[] = [];
  let competitions: CompetitionSummary[] = [];
  /** A chosen competition offers its own devices only (those its score rows are planned on), in its order. */
  const fillDevices = () => {
    const own = competitions.find((competition) => competition.id === Number(competitionSelect.value))?.disciplineIds;
    const offered = own ? own.flatMap((id) => disciplines.filter((discipline) => discipline.id === id)) : disciplines;
    deviceSelect.replaceChildren(
      ...offered.map((discipline) => h('option', { value: discipline.id }, discipline.displayName || discipline.name)),
    );
  };
  const fillCompetitions = async () => {
    competitions = await api.competitions(Number(eventSelect.value)).catch(() => [] as CompetitionSummary[]);
    competitionSelect.replaceChildren(
      h('option', { value: '' }, t('board.allCompetitions')),
      ...competitions.map((competition) => h('option', { value: competition.id }, competition.name ?? `#${competition.id}`)),
    );
    fillDevices();
  };
  // An empty competition is left out of the address: all competitions, each ranked on its own.
  form.addEventListener('submit', () => {
    if (!competitionSelect.value) competitionSelect.disabled = true;
  });
  eventSelect.addEventListener('change', () => void fillCompetitions());
  competitionSelect.addEventListener('change', fillDevices);
  try {
    const [events, catalog] = await Promise.all([api.events(), api.disciplines()]);
    disciplines = catalog;
    if (events.length === 0) {
      message.textContent = t('common.noEvents');
      return;
    }
    eventSelect.replaceChildren(...events.map((event) => h('option', { value: event.id }, event.name)));
    await fillCompetitions();
    message.textContent = '';
  } catch (error) {
    message.textContent = `${(error as Error).message}`;
  }
}

/**
 * `rotate=` cycles boards: a comma-separated list of `competitionId:disciplineId` (or just
 * `disciplineId`, with the address's competitionId); each stays for one full pass of its pages.
 */
export function parseRotation(text: string | null, eventId: number, competitionId: number | null): DeviceBoardTarget[] {
  if (!text) return [];
  return text.split(',').flatMap((item) => {
    const match = /^\s*(?:(\d+):)?(\d+)\s*$/.exec(item);
    if (!match) return [];
    return [{ eventId, competitionId: match[1] ? Number(match[1]) : competitionId, disciplineId: Number(match[2]) }];
  });
}

const root = document.getElementById('app');
if (root) {
  const eventId = queryInteger('eventId');
  const disciplineId = queryInteger('disciplineId');
  const competitionId = queryInteger('competitionId');
  const search = new URLSearchParams(window.location.search);
  const releasedOnly = search.get('released') === 'only';
  const rotation = (eventId === null ? [] : parseRotation(search.get('rotate'), eventId, competitionId)).map((target) => ({
    ...target,
    releasedOnly,
  }));
  if (search.get('view') === 'all-around' && eventId !== null && competitionId !== null) {
    void new AllAroundBoard(root, eventId, competitionId, search.get('groupBy') === 'ageClass').start();
  } else if (search.get('rotation') === 'current' && eventId !== null) {
    new RotationBoard(root, { eventId, competitionId, releasedOnly }).start();
  } else if (rotation.length > 0) cycleBoards(root, rotation);
  else if (eventId !== null && disciplineId !== null)
    void new DeviceBoard(root, { eventId, disciplineId, competitionId, releasedOnly }).start();
  else void renderPicker(root);
  registerOfflineShell();
}
