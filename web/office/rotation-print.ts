/**
 * What the printed pages of a rotation plan share (judge sheets, start lists): a rotation picker
 * over the event's plan, a build and a print button, and the squad's gymnasts in the portal's
 * start order. Printed through the browser's print dialog as the result lists are (office.css,
 * `@media print`).
 */
import { api as sharedApi, type DisciplineSummary, type EventSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { entriesForDevice, participantRows, type ParticipantRow } from '../jury/model.js';
import { m } from './messages.js';
import type { Rotation } from './office-api.js';
import type { ViewContext } from './view.js';

export const clock = (iso: string) =>
  new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });

/** A squad's gymnasts with a score row on the apparatus, in start order. */
export async function squadRows(eventId: number, squadName: string, disciplineId: number): Promise<ParticipantRow[]> {
  const entries = await sharedApi.scores(eventId, { squadName });
  return participantRows(entriesForDevice(entries, disciplineId), disciplineId);
}

/** A gymnast's name on a printed list; one the office marked as not starting says so, so nobody waits for them. */
export function printedNameCell(row: ParticipantRow): HTMLElement {
  const name = `${row.firstName} ${row.lastName}`.trim();
  if (!row.didNotStart) return h('td', { class: 'name' }, name);
  return h(
    'td',
    { class: 'name did-not-start' },
    name,
    ' ',
    h('abbr', { class: 'dns-mark', title: m('participants.didNotStart') }, m('sheets.didNotStart')),
  );
}

export interface PrintedRotations {
  event: EventSummary;
  /** The rotations the picker chose (all, or one). */
  rotations: Rotation[];
  apparatusName(disciplineId: number): string;
}

export interface PrintedRotationsOptions {
  /** Prefix of the element ids (`<id>-rotation`, `<id>-build`, `<id>-print`, `<id>-message`, `<id>-output`). */
  id: string;
  title: string;
  intro: string;
  buildLabel: string;
  /** Further controls next to the rotation picker. */
  controls?: HTMLElement[];
  /** The printed pages of the chosen rotations and the line the page shows after building them. */
  build(printed: PrintedRotations): Promise<{ pages: HTMLElement[]; summary: string }>;
  failed(error: string): string;
}

export function printedRotationsView(context: ViewContext, options: PrintedRotationsOptions): HTMLElement {
  const { api } = context;
  const event = context.event!;
  const { id } = options;
  const rotationSelect = h('select', { id: `${id}-rotation` });
  const build = h('button', { type: 'button', id: `${id}-build` }, options.buildLabel);
  const print = h('button', { type: 'button', class: 'primary', id: `${id}-print`, disabled: true }, m('sheets.print'));
  const message = h('p', { class: 'view-message', role: 'status', id: `${id}-message` });
  const output = h('div', { class: 'print-output', id: `${id}-output` });
  let rotations: Rotation[] = [];
  let disciplines: DisciplineSummary[] = [];

  const apparatusName = (disciplineId: number) => {
    const discipline = disciplines.find((candidate) => candidate.id === disciplineId);
    return discipline?.displayName || discipline?.name || `#${disciplineId}`;
  };

  async function buildPages(): Promise<void> {
    const chosen = rotations.filter((rotation) => rotationSelect.value === '' || String(rotation.rotation) === rotationSelect.value);
    try {
      const { pages, summary } = await options.build({ event, rotations: chosen, apparatusName });
      output.replaceChildren(...pages);
      print.disabled = pages.length === 0;
      message.textContent = summary;
    } catch (error) {
      message.textContent = options.failed((error as Error).message);
    }
  }

  build.addEventListener('click', () => void buildPages());
  print.addEventListener('click', () => window.print());

  async function load(): Promise<void> {
    try {
      const [plan, catalog] = await Promise.all([api.rotationPlan(event.id), api.disciplines()]);
      rotations = plan.rotations;
      disciplines = catalog;
    } catch (error) {
      message.textContent = options.failed((error as Error).message);
    }
    rotationSelect.replaceChildren(
      h('option', { value: '' }, m('sheets.allRotations')),
      ...rotations.map((rotation) =>
        h(
          'option',
          { value: rotation.rotation },
          m('sheets.rotation', { rotation: rotation.rotation, time: clock(rotation.plannedStart) }),
        ),
      ),
    );
    if (rotations.length === 0) message.textContent = m('sheets.noPlan');
    build.disabled = rotations.length === 0;
  }

  void load();
  return h(
    'section',
    { class: 'sheets-view' },
    h(
      'div',
      { class: 'screen-only' },
      h('h2', {}, options.title),
      h('p', { class: 'hint' }, options.intro),
      h(
        'div',
        { class: 'rot-generator' },
        h('div', { class: 'picker' }, h('label', { for: rotationSelect.id }, m('rot.rotation')), rotationSelect),
        ...(options.controls ?? []),
        build,
        print,
      ),
      message,
    ),
    output,
  );
}

/** The slots of a rotation in apparatus order. */
export const slotsInOrder = (rotation: Rotation) => [...rotation.slots].sort((a, b) => a.disciplineId - b.disciplineId);
