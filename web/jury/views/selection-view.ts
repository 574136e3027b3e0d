import type { DisciplineSummary, EventSummary } from '../../shared/api.js';
import { h } from '../../shared/dom.js';
import type { Selection } from '../model.js';

export interface SelectionView {
  element: HTMLElement;
  fill(events: readonly EventSummary[], disciplines: readonly DisciplineSummary[]): void;
  show(selection: Selection): void;
}

const disciplineLabel = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;

/** Event and device pickers; a change reports the whole new selection. */
export function selectionView(onChange: (change: Partial<Selection>) => void): SelectionView {
  const eventSelect = h('select', { id: 'event-select', name: 'eventId' });
  const deviceSelect = h('select', { id: 'device-select', name: 'disciplineId' });
  eventSelect.addEventListener('change', () => onChange({ eventId: Number(eventSelect.value) || null }));
  deviceSelect.addEventListener('change', () => onChange({ disciplineId: Number(deviceSelect.value) || null }));
  const element = h(
    'div',
    { class: 'pickers' },
    h('div', { class: 'picker' }, h('label', { for: 'event-select' }, 'Event'), eventSelect),
    h('div', { class: 'picker' }, h('label', { for: 'device-select' }, 'Device'), deviceSelect),
  );
  return {
    element,
    fill(events, disciplines) {
      eventSelect.replaceChildren(...events.map((event) => h('option', { value: event.id }, event.name)));
      deviceSelect.replaceChildren(...disciplines.map((discipline) => h('option', { value: discipline.id }, disciplineLabel(discipline))));
    },
    show(selection) {
      eventSelect.value = selection.eventId === null ? '' : String(selection.eventId);
      deviceSelect.value = selection.disciplineId === null ? '' : String(selection.disciplineId);
    },
  };
}
