/**
 * Judge sheets (`?view=sheets`, issue 45): one A4 page per apparatus and squad of a rotation, with
 * the squad's gymnasts in the portal's start order, an empty box per field of the apparatus and
 * the QR code that opens the portal on that apparatus and squad. Printed through the browser's
 * print dialog as the result lists are (office.css, `@media print`). With "judge codes" the page
 * issues one credential per apparatus and prints its token into the code, so a scan signs in.
 */
import { api as sharedApi, type DisciplineField, type DisciplineSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { entriesForDevice, participantRows } from '../jury/model.js';
import { m } from './messages.js';
import type { Rotation } from './office-api.js';
import { qrCode } from './qr.js';
import type { OfficeView, ViewContext } from './view.js';

const clock = (iso: string) => new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'short' });

export function judgeSheetsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const rotationSelect = h('select', { id: 'sheets-rotation' });
  const withCodes = h('input', { type: 'checkbox', id: 'sheets-codes' });
  const build = h('button', { type: 'button', id: 'sheets-build' }, m('sheets.build'));
  const print = h('button', { type: 'button', class: 'primary', id: 'sheets-print', disabled: true }, m('sheets.print'));
  const message = h('p', { class: 'view-message', role: 'status', id: 'sheets-message' });
  const output = h('div', { class: 'print-output', id: 'sheets-output' });
  let rotations: Rotation[] = [];
  let disciplines: DisciplineSummary[] = [];

  const nameOf = (id: number) => {
    const discipline = disciplines.find((candidate) => candidate.id === id);
    return discipline?.displayName || discipline?.name || `#${id}`;
  };

  /** The portal on the apparatus and squad; with a code, the credential's address (its token in the fragment). */
  function portalAddress(disciplineId: number, squadName: string, issued: string | undefined): string {
    const url = new URL(issued ?? new URL('../jury/', window.location.href).href);
    url.searchParams.set('eventId', String(event.id));
    url.searchParams.set('disciplineId', String(disciplineId));
    url.searchParams.set('squad', squadName);
    return url.href;
  }

  async function sheet(rotation: Rotation, disciplineId: number, squadName: string, issued: string | undefined): Promise<HTMLElement> {
    const [entries, fields] = await Promise.all([
      sharedApi.scores(event.id, { squadName }),
      api.disciplineFields(disciplineId).catch(() => [] as DisciplineField[]),
    ]);
    const rows = participantRows(entriesForDevice(entries, disciplineId), disciplineId);
    const enabled = fields.filter((field) => field.disciplineId === disciplineId && field.enabled);
    const columns = [...enabled.filter((field) => !field.isFinalScore), ...enabled.filter((field) => field.isFinalScore)];
    const address = portalAddress(disciplineId, squadName, issued);
    return h(
      'article',
      { class: 'judge-sheet', 'data-discipline-id': disciplineId, 'data-squad': squadName },
      h(
        'header',
        { class: 'judge-sheet-head' },
        h(
          'div',
          {},
          h('h3', {}, `${nameOf(disciplineId)} · ${t('common.squad')} ${squadName}`),
          h('p', {}, `${event.name} · ${m('sheets.rotation', { rotation: rotation.rotation, time: clock(rotation.plannedStart) })}`),
          h('p', { class: 'judge-sheet-judge' }, `${m('sheets.judge')}: ______________________`),
        ),
        qrCode(address, m('sheets.qrLabel', { apparatus: nameOf(disciplineId), squad: squadName })),
      ),
      h(
        'table',
        { class: 'judge-sheet-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, m('sheets.number')),
            h('th', {}, m('sheets.name')),
            h('th', {}, m('sheets.club')),
            ...columns.map((field) => h('th', {}, field.shortName ?? field.name ?? `#${field.id}`)),
          ),
        ),
        h(
          'tbody',
          {},
          ...rows.map((row) =>
            h(
              'tr',
              { 'data-participant-id': row.participantId },
              h('td', {}, row.startNumber),
              h('td', { class: 'name' }, `${row.firstName} ${row.lastName}`.trim()),
              h('td', {}, row.clubName),
              ...columns.map(() => h('td', { class: 'box' })),
            ),
          ),
        ),
      ),
    );
  }

  async function buildSheets(): Promise<void> {
    const chosen = rotations.filter((rotation) => rotationSelect.value === '' || String(rotation.rotation) === rotationSelect.value);
    const apparatus = [...new Set(chosen.flatMap((rotation) => rotation.slots.map((slot) => slot.disciplineId)))];
    const issued = new Map<number, string>();
    try {
      if (withCodes.checked)
        for (const disciplineId of apparatus) issued.set(disciplineId, (await api.issueCredential(event.id, { disciplineId })).portalUrl);
      const sheets = [];
      for (const rotation of chosen)
        for (const slot of [...rotation.slots].sort((a, b) => a.disciplineId - b.disciplineId))
          sheets.push(await sheet(rotation, slot.disciplineId, slot.squadName, issued.get(slot.disciplineId)));
      output.replaceChildren(...sheets);
      print.disabled = sheets.length === 0;
      message.textContent = withCodes.checked
        ? m('sheets.builtWithCodes', { count: sheets.length, codes: issued.size })
        : m('sheets.built', { count: sheets.length });
    } catch (error) {
      message.textContent = m('sheets.failed', { error: (error as Error).message });
    }
  }

  build.addEventListener('click', () => void buildSheets());
  print.addEventListener('click', () => window.print());

  async function load(): Promise<void> {
    try {
      const [plan, catalog] = await Promise.all([api.rotationPlan(event.id), api.disciplines()]);
      rotations = plan.rotations;
      disciplines = catalog;
    } catch (error) {
      message.textContent = m('sheets.failed', { error: (error as Error).message });
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

  const element = h(
    'section',
    { class: 'sheets-view' },
    h(
      'div',
      { class: 'screen-only' },
      h('h2', {}, m('sheets.title', { event: event.name })),
      h('p', { class: 'hint' }, m('sheets.intro')),
      h(
        'div',
        { class: 'rot-generator' },
        h('div', { class: 'picker' }, h('label', { for: rotationSelect.id }, m('rot.rotation')), rotationSelect),
        h('label', { class: 'check', for: withCodes.id }, withCodes, ` ${m('sheets.withCodes')}`),
        build,
        print,
      ),
      message,
    ),
    output,
  );
  void load();
  return { element };
}
