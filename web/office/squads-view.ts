import { h } from '../shared/dom.js';
import { m } from './messages.js';
import { AutoAssignDialog } from './auto-assign-dialog.js';
import type { OfficeView, ViewContext } from './view.js';
import type { EventSquads } from './office-api.js';
import { countOf, personName } from './people.js';

type SquadParticipant = EventSquads['unassigned'][number];

function participantItem(participant: SquadParticipant): HTMLElement {
  return h(
    'li',
    { 'data-participant-id': participant.id },
    h('span', { class: 'name' }, personName(participant)),
    participant.clubName ? h('span', { class: 'club' }, participant.clubName) : null,
  );
}

/** Squads page: the squads the score rows name now, and the auto-assign dialog that replaces them. */
export function squadsView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  const list = h('div', { class: 'squad-list', id: 'current-squads' });
  const message = h('p', { class: 'view-message', role: 'status' });
  const openButton = h(
    'button',
    { type: 'button', class: 'primary', id: 'auto-assign-open', 'aria-haspopup': 'dialog' },
    m('squads.autoAssign'),
  );
  const adminHint = h('p', { class: 'hint', id: 'auto-assign-hint' });
  let generation = 0;

  async function load(): Promise<void> {
    const mine = ++generation;
    message.textContent = m('squads.loading');
    let squads: EventSquads;
    try {
      squads = await api.squads(event.id);
    } catch (error) {
      if (mine === generation) message.textContent = m('squads.failed', { error: (error as Error).message });
      return;
    }
    if (mine !== generation) return;
    const total = squads.squads.reduce((sum, squad) => sum + squad.participants.length, 0);
    message.textContent =
      squads.squads.length === 0
        ? m(squads.unassigned.length === 0 ? 'squads.emptyEvent' : 'squads.none')
        : m('squads.summary', {
            squads: countOf(squads.squads.length, 'squad'),
            participants: countOf(total, 'participant'),
            unassigned: squads.unassigned.length,
          });
    list.replaceChildren(
      ...squads.squads.map((squad) =>
        h(
          'article',
          { class: 'squad-card', 'data-squad': squad.name },
          h('h3', {}, squad.name, h('span', { class: 'count' }, ` · ${squad.participants.length}`)),
          h('ul', { class: 'people' }, ...squad.participants.map(participantItem)),
        ),
      ),
      ...(squads.unassigned.length > 0
        ? [
            h(
              'details',
              { class: 'squad-card unassigned', id: 'unassigned' },
              h('summary', {}, m('squads.without', { count: squads.unassigned.length })),
              h('ul', { class: 'people' }, ...squads.unassigned.map(participantItem)),
            ),
          ]
        : []),
    );
  }

  const dialog = new AutoAssignDialog(api, event, () => void load());
  openButton.addEventListener('click', () => dialog.open());

  const renderAccess = () => {
    openButton.disabled = !session.isAdmin;
    adminHint.hidden = session.isAdmin;
    adminHint.textContent = session.claims ? m('squads.needsAdmin') : m('squads.signIn');
  };
  const unsubscribe = session.onChange(renderAccess);
  renderAccess();
  void load();

  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'squads-title' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'squads-title' }, m('squads.title', { event: event.name })), openButton),
    adminHint,
    message,
    list,
    dialog.element,
  );
  return {
    element,
    dispose() {
      unsubscribe();
      dialog.element.close();
    },
  };
}
