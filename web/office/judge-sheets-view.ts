/**
 * Judge sheets (`?view=sheets`, issue 45): one A4 page per apparatus and squad of a rotation, with
 * the squad's gymnasts in the portal's start order, an empty box per field of the apparatus and
 * the QR code that opens the portal on that apparatus and squad. With "judge codes" the page
 * issues one credential per apparatus and prints its token into the code, so a scan signs in.
 */
import type { DisciplineField } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import type { Rotation } from './office-api.js';
import { qrCode } from './qr.js';
import { clock, printedNameCell, printedRotationsView, slotsInOrder, squadRows, type PrintedRotations } from './rotation-print.js';
import type { OfficeView, ViewContext } from './view.js';

export function judgeSheetsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const withCodes = h('input', { type: 'checkbox', id: 'sheets-codes' });

  /** The portal on the apparatus and squad; with a code, the credential's address (its token in the fragment). */
  function portalAddress(disciplineId: number, squadName: string, issued: string | undefined): string {
    const url = new URL(issued ?? new URL('../jury/', window.location.href).href);
    url.searchParams.set('eventId', String(event.id));
    url.searchParams.set('disciplineId', String(disciplineId));
    url.searchParams.set('squad', squadName);
    return url.href;
  }

  async function sheet(
    printed: PrintedRotations,
    rotation: Rotation,
    disciplineId: number,
    squadName: string,
    issued: string | undefined,
  ): Promise<HTMLElement> {
    const [rows, fields] = await Promise.all([
      squadRows(event.id, squadName, disciplineId),
      api.disciplineFields(disciplineId).catch(() => [] as DisciplineField[]),
    ]);
    const enabled = fields.filter((field) => field.disciplineId === disciplineId && field.enabled);
    const columns = [...enabled.filter((field) => !field.isFinalScore), ...enabled.filter((field) => field.isFinalScore)];
    const address = portalAddress(disciplineId, squadName, issued);
    const apparatus = printed.apparatusName(disciplineId);
    return h(
      'article',
      { class: 'judge-sheet', 'data-discipline-id': disciplineId, 'data-squad': squadName },
      h(
        'header',
        { class: 'judge-sheet-head' },
        h(
          'div',
          {},
          h('h3', {}, `${apparatus} · ${t('common.squad')} ${squadName}`),
          h('p', {}, `${event.name} · ${m('sheets.rotation', { rotation: rotation.rotation, time: clock(rotation.plannedStart) })}`),
          h('p', { class: 'judge-sheet-judge' }, `${m('sheets.judge')}: ______________________`),
        ),
        qrCode(address, m('sheets.qrLabel', { apparatus, squad: squadName })),
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
              printedNameCell(row),
              h('td', {}, row.clubName),
              ...columns.map(() => h('td', { class: 'box' })),
            ),
          ),
        ),
      ),
    );
  }

  async function build(printed: PrintedRotations): Promise<{ pages: HTMLElement[]; summary: string }> {
    const apparatus = [...new Set(printed.rotations.flatMap((rotation) => rotation.slots.map((slot) => slot.disciplineId)))];
    const issued = new Map<number, string>();
    if (withCodes.checked)
      for (const disciplineId of apparatus) issued.set(disciplineId, (await api.issueCredential(event.id, { disciplineId })).portalUrl);
    const pages = [];
    for (const rotation of printed.rotations)
      for (const slot of slotsInOrder(rotation))
        pages.push(await sheet(printed, rotation, slot.disciplineId, slot.squadName, issued.get(slot.disciplineId)));
    return {
      pages,
      summary: withCodes.checked
        ? m('sheets.builtWithCodes', { count: pages.length, codes: issued.size })
        : m('sheets.built', { count: pages.length }),
    };
  }

  const element = printedRotationsView(context, {
    id: 'sheets',
    title: m('sheets.title', { event: event.name }),
    intro: m('sheets.intro'),
    buildLabel: m('sheets.build'),
    controls: [h('label', { class: 'check', for: withCodes.id }, withCodes, ` ${m('sheets.withCodes')}`)],
    build,
    failed: (error) => m('sheets.failed', { error }),
  });
  return { element };
}
