import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { m } from './messages.js';
import { AutoAssignDialog } from './auto-assign-dialog.js';
import type { OfficeView, ViewContext } from './view.js';
import type { EventSquads } from './office-api.js';
import { countOf, personName } from './people.js';
import { SQUAD_NAME_MAX_LENGTH } from '../../src/domain/squad-planner.js';

type SquadParticipant = EventSquads['unassigned'][number];

/** The move select's value for "no squad" (squad values carry a prefix, so no name can equal it). */
const NO_SQUAD = 'none';
const squadValue = (name: string) => `squad:${name}`;

/**
 * Squads page: the squads the score rows name now, the auto-assign dialog that replaces them, and
 * (admin) the edits by hand: move a gymnast, create, rename and delete a squad. Each edit is one
 * request; the list is read again after it, so the page shows what the score rows say.
 */
export function squadsView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  const list = h('div', { class: 'squad-list', id: 'current-squads' });
  const message = h('p', { class: 'view-message', role: 'status' });
  const editStatus = h('p', { class: 'view-message', role: 'status', id: 'squads-edit-status' });
  const openButton = h(
    'button',
    { type: 'button', class: 'primary', id: 'auto-assign-open', 'aria-haspopup': 'dialog' },
    m('squads.autoAssign'),
  );
  const adminHint = h('p', { class: 'hint', id: 'auto-assign-hint' });
  const newName = h('input', {
    id: 'new-squad-name',
    type: 'text',
    maxlength: SQUAD_NAME_MAX_LENGTH,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const firstMember = h('select', { id: 'new-squad-first' });
  const createButton = h('button', { type: 'submit', id: 'new-squad-create' }, m('squads.create'));
  const createForm = h(
    'form',
    { class: 'squad-create', id: 'new-squad', novalidate: true },
    h('h3', {}, m('squads.newSquad')),
    h('div', { class: 'picker' }, h('label', { for: newName.id }, m('squads.newName')), newName),
    h('div', { class: 'picker' }, h('label', { for: firstMember.id }, m('squads.firstMember')), firstMember),
    createButton,
    h('p', { class: 'hint' }, m('squads.edits')),
  );
  let current: EventSquads | null = null;
  let generation = 0;

  /** Runs one edit; the result or the refusal shows in the status line, then the list is read again. */
  async function change(run: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await run();
      editStatus.dataset.state = 'ok';
      editStatus.textContent = done;
    } catch (error) {
      editStatus.dataset.state = 'error';
      editStatus.textContent = m('squads.editFailed', { error: (error as Error).message });
    }
    await load();
  }

  function moveSelect(participant: SquadParticipant, from: string | null): HTMLSelectElement {
    const name = personName(participant);
    const select = h(
      'select',
      { class: 'move-select', id: `move-${participant.id}`, 'aria-label': m('squads.moveTo', { name }), 'data-admin': 'true' },
      h('option', { value: '' }, m('squads.movePlaceholder')),
      ...(current?.squads ?? [])
        .filter((squad) => squad.name !== from)
        .map((squad) => h('option', { value: squadValue(squad.name) }, squad.name)),
      from === null ? null : h('option', { value: NO_SQUAD }, m('squads.noSquad')),
    );
    select.addEventListener('change', () => {
      if (select.value === '') return;
      const target = select.value === NO_SQUAD ? null : select.value.slice('squad:'.length);
      void change(
        () => api.moveToSquad(event.id, participant.id, target),
        target === null ? m('squads.movedOut', { name }) : m('squads.moved', { name, squad: target }),
      );
    });
    return select;
  }

  function participantItem(participant: SquadParticipant, from: string | null): HTMLElement {
    return h(
      'li',
      { 'data-participant-id': participant.id },
      h('span', { class: 'name' }, personName(participant)),
      participant.clubName ? h('span', { class: 'club' }, participant.clubName) : null,
      moveSelect(participant, from),
    );
  }

  function squadCard(squad: EventSquads['squads'][number]): HTMLElement {
    const heading = h('h3', {}, squad.name, h('span', { class: 'count' }, ` · ${squad.participants.length}`));
    const tools = h('div', { class: 'squad-tools' });
    const rename = h('button', { type: 'button', class: 'small', 'data-admin': 'true', 'data-action': 'rename' }, m('squads.rename'));
    const remove = h('button', { type: 'button', class: 'small', 'data-admin': 'true', 'data-action': 'delete' }, m('squads.delete'));
    const showTools = () => {
      tools.replaceChildren(rename, remove);
      renderAccess();
    };
    rename.addEventListener('click', () => {
      const input = h('input', {
        type: 'text',
        class: 'rename-input',
        maxlength: SQUAD_NAME_MAX_LENGTH,
        value: squad.name,
        'aria-label': m('squads.renameLabel', { name: squad.name }),
      });
      const save = h('button', { type: 'submit', class: 'small primary' }, m('squads.save'));
      const cancel = h('button', { type: 'button', class: 'small' }, t('common.cancel'));
      cancel.addEventListener('click', showTools);
      const form = h('form', { class: 'inline-form', novalidate: true }, input, save, cancel);
      form.addEventListener('submit', (submitted) => {
        submitted.preventDefault();
        const name = input.value.trim();
        if (name === '') {
          editStatus.textContent = m('squads.nameNeeded');
          return;
        }
        void change(() => api.renameSquad(event.id, squad.name, name), m('squads.renamed', { from: squad.name, squad: name }));
      });
      tools.replaceChildren(form);
      input.select();
    });
    remove.addEventListener('click', () => {
      const confirm = h('button', { type: 'button', class: 'small danger', 'data-action': 'confirm-delete' }, m('squads.delete'));
      const cancel = h('button', { type: 'button', class: 'small' }, t('common.cancel'));
      cancel.addEventListener('click', showTools);
      confirm.addEventListener(
        'click',
        () => void change(() => api.deleteSquad(event.id, squad.name), m('squads.deleted', { squad: squad.name })),
      );
      tools.replaceChildren(
        h('p', { class: 'delete-question' }, m('squads.deleteQuestion', { name: squad.name, count: squad.participants.length })),
        confirm,
        cancel,
      );
      cancel.focus();
    });
    tools.replaceChildren(rename, remove);
    return h(
      'article',
      { class: 'squad-card', 'data-squad': squad.name },
      h('div', { class: 'squad-head' }, heading, tools),
      h('ul', { class: 'people' }, ...squad.participants.map((participant) => participantItem(participant, squad.name))),
    );
  }

  function fillFirstMember(squads: EventSquads): void {
    const everyone = new Map<number, { participant: SquadParticipant; squad: string | null }>();
    for (const participant of squads.unassigned) everyone.set(participant.id, { participant, squad: null });
    for (const squad of squads.squads)
      for (const participant of squad.participants)
        if (!everyone.has(participant.id)) everyone.set(participant.id, { participant, squad: squad.name });
    const wanted = firstMember.value;
    firstMember.replaceChildren(
      ...[...everyone.values()].map(({ participant, squad }) =>
        h('option', { value: participant.id }, squad === null ? personName(participant) : `${personName(participant)} (${squad})`),
      ),
    );
    if (wanted) firstMember.value = wanted;
  }

  createForm.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const name = newName.value.trim();
    const participantId = Number(firstMember.value);
    if (name === '' || !participantId) {
      editStatus.textContent = m('squads.nameNeeded');
      newName.focus();
      return;
    }
    void change(() => api.createSquad(event.id, name, [participantId]), m('squads.created', { squad: name })).then(() => {
      newName.value = '';
    });
  });

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
    current = squads;
    const total = squads.squads.reduce((sum, squad) => sum + squad.participants.length, 0);
    message.textContent =
      squads.squads.length === 0
        ? m(squads.unassigned.length === 0 ? 'squads.emptyEvent' : 'squads.none')
        : m('squads.summary', {
            squads: countOf(squads.squads.length, 'squad'),
            participants: countOf(total, 'participant'),
            unassigned: squads.unassigned.length,
          });
    fillFirstMember(squads);
    list.replaceChildren(
      ...squads.squads.map(squadCard),
      ...(squads.unassigned.length > 0
        ? [
            h(
              'details',
              { class: 'squad-card unassigned', id: 'unassigned' },
              h('summary', {}, m('squads.without', { count: squads.unassigned.length })),
              h('ul', { class: 'people' }, ...squads.unassigned.map((participant) => participantItem(participant, null))),
            ),
          ]
        : []),
    );
    renderAccess();
  }

  const dialog = new AutoAssignDialog(api, event, () => void load());
  openButton.addEventListener('click', () => dialog.open());

  /** The edits are an admin's: other users see the squads without the controls. */
  function renderAccess(): void {
    openButton.disabled = !session.isAdmin;
    adminHint.hidden = session.isAdmin;
    adminHint.textContent = session.claims ? m('squads.needsAdmin') : m('squads.signIn');
    createForm.hidden = !session.isAdmin || current === null || (current.squads.length === 0 && current.unassigned.length === 0);
    list.querySelectorAll<HTMLElement>('[data-admin]').forEach((control) => (control.hidden = !session.isAdmin));
  }
  const unsubscribe = session.onChange(renderAccess);
  renderAccess();
  void load();

  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'squads-title' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'squads-title' }, m('squads.title', { event: event.name })), openButton),
    adminHint,
    message,
    editStatus,
    createForm,
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
