import type { CompetitionSummary, DisciplineSummary, EventSummary } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import { t } from '../../shared/i18n.js';
import type { Selection } from '../model.js';

export interface SelectionOptions {
  events: readonly EventSummary[];
  competitions: readonly CompetitionSummary[];
  devices: readonly DisciplineSummary[];
  squads: readonly string[];
}

export interface SelectionView {
  element: HTMLElement;
  fill(options: SelectionOptions): void;
  show(selection: Selection): void;
}

const disciplineLabel = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;

/** Event → competition → device → squad (optional); a change reports what changed. */
export function selectionView(onChange: (change: Partial<Selection>) => void): SelectionView {
  const eventSelect = h('select', { id: 'event-select', name: 'eventId' });
  const competitionSelect = h('select', { id: 'competition-select', name: 'competitionId' });
  const deviceSelect = h('select', { id: 'device-select', name: 'disciplineId' });
  const squadSelect = h('select', { id: 'squad-select', name: 'squad' });
  eventSelect.addEventListener('change', () => onChange({ eventId: Number(eventSelect.value) || null }));
  competitionSelect.addEventListener('change', () => onChange({ competitionId: Number(competitionSelect.value) || null }));
  deviceSelect.addEventListener('change', () => onChange({ disciplineId: Number(deviceSelect.value) || null }));
  squadSelect.addEventListener('change', () => onChange({ squad: squadSelect.value || null }));
  const picker = (id: string, label: string, select: HTMLSelectElement) =>
    h('div', { class: 'picker' }, h('label', { for: id }, label), select);
  const element = h(
    'div',
    { class: 'pickers' },
    picker('event-select', t('common.event'), eventSelect),
    picker('competition-select', t('common.competition'), competitionSelect),
    picker('device-select', t('common.device'), deviceSelect),
    picker('squad-select', t('common.squad'), squadSelect),
  );
  return {
    element,
    fill({ events, competitions, devices, squads }) {
      eventSelect.replaceChildren(...events.map((event) => h('option', { value: event.id }, event.name)));
      competitionSelect.replaceChildren(
        ...competitions.map((competition) => h('option', { value: competition.id }, competition.name ?? `#${competition.id}`)),
      );
      deviceSelect.replaceChildren(...devices.map((discipline) => h('option', { value: discipline.id }, disciplineLabel(discipline))));
      squadSelect.replaceChildren(
        h('option', { value: '' }, t('common.allSquads')),
        ...squads.map((squad) => h('option', { value: squad }, squad)),
      );
    },
    show(selection) {
      eventSelect.value = selection.eventId === null ? '' : String(selection.eventId);
      competitionSelect.value = selection.competitionId === null ? '' : String(selection.competitionId);
      deviceSelect.value = selection.disciplineId === null ? '' : String(selection.disciplineId);
      squadSelect.value = selection.squad ?? '';
    },
  };
}
