/**
 * The spectator page in the office: its address and QR code for an event (on the board setup view
 * and the network page), and the event's privacy settings for it: publish released scores only or
 * all with the provisional mark, and which participants are shown without a name.
 */
import type { ServiceUrl } from '../../src/firewall/network-info.js';
import type { SpectatorParticipant } from '../../queries/spectator-settings.js';
import type { PublishMode } from '../../src/model/spectator-privacy.js';
import type { EventSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { translator } from '../shared/i18n.js';
import { qrCode } from './qr.js';
import type { OfficeView, ViewContext } from './view.js';

const ts = translator(
  {
    title: 'Spectators',
    intro: 'Parents, clubs and gymnasts follow the results on their phones at this address. Show the QR code in the hall.',
    qr: 'QR code of the spectator page: {target}',
    open: 'Open the spectator page',
    publish: 'What spectators see',
    publishReleased: 'Released scores only',
    publishAll: 'All scores, unreleased ones marked provisional',
    hidden: 'Not published by name',
    hiddenHint: 'Ticked participants are listed without name and start number (for example at their family’s request).',
    filter: 'Find a participant',
    save: 'Save spectator settings',
    saved: 'Saved. Spectators’ pages follow within seconds.',
    failed: 'Could not save: {error}',
    loadFailed: 'Could not load the spectator settings: {error}',
    signIn: 'Sign in with an admin token to set what spectators see.',
    networkLabel: 'Spectator page (live results)',
  },
  {
    title: 'Zuschauer',
    intro: 'Eltern, Vereine und Turnende verfolgen die Ergebnisse unter dieser Adresse auf dem Handy. Den QR-Code in der Halle aushängen.',
    qr: 'QR-Code der Zuschauerseite: {target}',
    open: 'Zuschauerseite öffnen',
    publish: 'Was Zuschauer sehen',
    publishReleased: 'Nur freigegebene Wertungen',
    publishAll: 'Alle Wertungen, nicht freigegebene als vorläufig markiert',
    hidden: 'Nicht namentlich veröffentlichen',
    hiddenHint: 'Angekreuzte Teilnehmende erscheinen ohne Namen und Startnummer (etwa auf Wunsch der Familie).',
    filter: 'Teilnehmende suchen',
    save: 'Zuschauer-Einstellungen speichern',
    saved: 'Gespeichert. Die Zuschauerseiten folgen binnen Sekunden.',
    failed: 'Speichern fehlgeschlagen: {error}',
    loadFailed: 'Zuschauer-Einstellungen konnten nicht geladen werden: {error}',
    signIn: 'Mit einem Admin-Token anmelden, um festzulegen, was Zuschauer sehen.',
    networkLabel: 'Zuschauerseite (Live-Ergebnisse)',
  },
);

/** The spectator page's address for an event, relative to the service's address `base` (ending in `/`). */
export const spectatorAddress = (base: string, eventId: number) => new URL(`live/?eventId=${eventId}`, base).href;

/** The network page's extra entry: the spectator page of the chosen event at the backend's address. */
export function spectatorAccessEntries(urls: readonly ServiceUrl[], event: EventSummary | null): HTMLElement[] {
  if (!event) return [];
  return urls
    .filter((entry) => entry.service === 'backend')
    .map((entry) => {
      const target = spectatorAddress(entry.url.endsWith('/') ? entry.url : `${entry.url}/`, event.id);
      return h(
        'li',
        { class: 'access-url', 'data-service': 'spectators', 'data-url': target },
        h(
          'figure',
          {},
          qrCode(target, ts('qr', { target })),
          h('figcaption', {}, h('strong', {}, ts('networkLabel')), h('br'), h('a', { href: target }, target)),
        ),
      );
    });
}

/** The board setup view's spectator section: address, QR code and the privacy form (for an admin). */
export function spectatorSection(context: ViewContext): Required<OfficeView> {
  const event = context.event!;
  const target = spectatorAddress(new URL('../', window.location.href).href, event.id);
  const publish = h(
    'select',
    { id: 'spectator-publish' },
    h('option', { value: 'released' }, ts('publishReleased')),
    h('option', { value: 'all' }, ts('publishAll')),
  );
  const filter = h('input', { type: 'search', id: 'spectator-filter', placeholder: ts('filter'), 'aria-label': ts('filter') });
  const people = h('fieldset', { class: 'spectator-hidden', id: 'spectator-hidden' }, h('legend', {}, ts('hidden')));
  const message = h('p', { class: 'view-message', role: 'status', id: 'spectator-message' });
  const save = h('button', { type: 'submit', id: 'spectator-save' }, ts('save'));
  const form = h(
    'form',
    { class: 'board-form spectator-form', novalidate: true },
    h('div', { class: 'picker' }, h('label', { for: publish.id }, ts('publish')), publish),
    h('p', { class: 'hint' }, ts('hiddenHint')),
    filter,
    people,
    save,
    message,
  );

  const boxes = () => Array.from(people.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));
  const applyFilter = () => {
    const query = filter.value.trim().toLocaleLowerCase();
    for (const label of Array.from(people.querySelectorAll<HTMLElement>('label[data-search]')))
      label.hidden = !label.dataset.search!.includes(query);
  };
  const show = (participants: readonly SpectatorParticipant[], mode: PublishMode) => {
    publish.value = mode;
    people.replaceChildren(
      h('legend', {}, ts('hidden')),
      ...participants.map((participant) => {
        const name = [participant.lastName, participant.firstName].filter(Boolean).join(', ');
        const box = h('input', {
          type: 'checkbox',
          id: `spectator-hide-${participant.participantId}`,
          value: participant.participantId,
          checked: participant.hidden,
        });
        return h(
          'label',
          { class: 'check', for: box.id, 'data-search': `${name} ${participant.clubName ?? ''}`.toLocaleLowerCase() },
          box,
          ` ${name}`,
          participant.clubName ? h('span', { class: 'hint' }, ` · ${participant.clubName}`) : null,
        );
      }),
    );
    applyFilter();
  };
  filter.addEventListener('input', applyFilter);
  form.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    save.disabled = true;
    const hiddenParticipantIds = boxes()
      .filter((box) => box.checked)
      .map((box) => Number(box.value));
    context.api
      .saveSpectatorSettings(event.id, { publish: publish.value === 'all' ? 'all' : 'released', hiddenParticipantIds })
      .then(
        (settings) => {
          show(settings.participants, settings.publish);
          message.textContent = ts('saved');
        },
        (error: unknown) => {
          message.textContent = ts('failed', { error: (error as Error).message });
        },
      )
      .finally(() => {
        save.disabled = false;
      });
  });
  const load = () => {
    form.inert = !context.session.isAdmin;
    if (!context.session.isAdmin) {
      message.textContent = ts('signIn');
      return;
    }
    message.textContent = '';
    context.api.spectatorSettings(event.id).then(
      (settings) => show(settings.participants, settings.publish),
      (error: unknown) => {
        message.textContent = ts('loadFailed', { error: (error as Error).message });
      },
    );
  };
  const unsubscribe = context.session.onChange(load);
  load();

  const element = h(
    'section',
    { class: 'panel spectator-setup', 'aria-labelledby': 'spectator-setup-title' },
    h('h2', { id: 'spectator-setup-title' }, ts('title')),
    h('p', { class: 'hint' }, ts('intro')),
    h(
      'div',
      { class: 'split' },
      form,
      h(
        'div',
        { class: 'board-result' },
        h('output', { id: 'spectator-url', class: 'board-url' }, target),
        h('a', { id: 'spectator-open', href: target, target: '_blank', rel: 'noopener', class: 'button-link' }, ts('open')),
        h('div', { class: 'board-qr', id: 'spectator-qr' }, qrCode(target, ts('qr', { target }))),
      ),
    ),
  );
  return { element, dispose: unsubscribe };
}
