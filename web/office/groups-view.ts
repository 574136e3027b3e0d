import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { m } from './messages.js';
import { filtersActive, GroupMemberStore, NO_FILTERS, withoutMembers, type CandidateFilters, type GroupMember } from './group-members.js';
import type { OfficeView, ViewContext } from './view.js';
import type { Candidate, UnitSummary } from './office-api.js';
import { countOf, personName } from './people.js';

/**
 * Group members page (spec "Group candidates" rules 5-6): the candidate list of the chosen group
 * with the two filters, fetched again whenever the group, the event or a filter changes.
 */
export function groupsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const local = new GroupMemberStore();
  /**
   * Signed in as admin, the members are the service's (GET/PUT /api/groups/:groupId/members), the
   * same in every browser; otherwise this browser's list as before, with a hint to sign in.
   */
  const remote = new Map<number, GroupMember[]>();
  const shared = () => context.session.isAdmin;
  const store = {
    members: (groupId: number): GroupMember[] => (shared() ? (remote.get(groupId) ?? []) : local.members(groupId)),
    add(groupId: number, member: GroupMember): void {
      if (!shared()) return local.add(groupId, member);
      const { id, firstName, lastName, startNumber, clubName } = member;
      remote.set(groupId, [
        ...store.members(groupId).filter((existing) => existing.id !== id),
        { id, firstName, lastName, startNumber, clubName },
      ]);
      void saveRemote(groupId);
    },
    remove(groupId: number, participantId: number): void {
      if (!shared()) return local.remove(groupId, participantId);
      remote.set(
        groupId,
        store.members(groupId).filter((member) => member.id !== participantId),
      );
      void saveRemote(groupId);
    },
  };
  async function saveRemote(groupId: number): Promise<void> {
    try {
      const stored = await api.saveGroupMembers(
        groupId,
        store.members(groupId).map((member) => member.id),
      );
      remote.set(groupId, stored.members);
    } catch (error) {
      storageHint.textContent = m('gm.storeFailed', { error: (error as Error).message });
    }
    renderMembers();
    renderCandidates();
  }
  async function loadRemote(groupId: number): Promise<void> {
    if (!shared()) return;
    try {
      remote.set(groupId, (await api.groupMembers(groupId)).members);
    } catch (error) {
      storageHint.textContent = m('gm.loadFailed', { error: (error as Error).message });
    }
    if (group?.id === groupId) {
      renderMembers();
      renderCandidates();
    }
  }
  const storageHint = h('p', { class: 'hint', id: 'members-storage' });
  function renderStorageHint(): void {
    storageHint.textContent = shared() ? m('gm.shared') : m('gm.local');
  }
  const unsubscribe = context.session.onChange(() => {
    renderStorageHint();
    if (group) void loadRemote(group.id);
    renderMembers();
    renderCandidates();
  });
  let groups: UnitSummary[] = [];
  let group: UnitSummary | null = null;
  let filters: CandidateFilters = { ...NO_FILTERS };
  let candidates: Candidate[] = [];
  let generation = 0;

  const groupSelect = h('select', { id: 'group-select', name: 'groupId' });
  const hidePlanned = h('input', { type: 'checkbox', id: 'hide-planned', name: 'hidePlanned' });
  const hideOtherClubs = h('input', { type: 'checkbox', id: 'hide-other-clubs', name: 'hideOtherClubs' });
  const clubHint = h('span', { class: 'filter-hint', id: 'club-hint' });
  const reset = h('button', { type: 'button', id: 'reset-filters', hidden: true }, m('gm.reset'));
  const message = h('p', { class: 'view-message', role: 'status', id: 'candidates-message' });
  const candidateBody = h('tbody');
  const candidateTable = h(
    'table',
    { class: 'data-table candidates', id: 'candidates', 'aria-labelledby': 'candidates-title' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, m('gm.name')),
        h('th', { scope: 'col' }, m('gm.number')),
        h('th', { scope: 'col' }, m('gm.club')),
        h('th', { scope: 'col' }, m('gm.born')),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, m('gm.action'))),
      ),
    ),
    candidateBody,
  );
  const memberList = h('ul', { class: 'member-list', id: 'members' });
  const memberMessage = h('p', { class: 'hint' });

  function renderFilters(): void {
    hidePlanned.checked = filters.hidePlanned;
    hideOtherClubs.checked = filters.hideOtherClubs;
    reset.hidden = !filtersActive(filters);
    clubHint.textContent = group?.clubName ? m('gm.only', { club: group.clubName }) : '';
  }

  function renderCandidates(): void {
    if (!group) return;
    const members = store.members(group.id);
    const shown = withoutMembers(candidates, members);
    const hiddenMembers = candidates.length - shown.length;
    message.textContent = m('gm.count', {
      candidates: countOf(shown.length, 'candidate'),
      hidden: hiddenMembers > 0 ? m('gm.hidden', { count: hiddenMembers }) : '',
    });
    candidateBody.replaceChildren(
      ...shown.map((candidate) => {
        const add = h(
          'button',
          {
            type: 'button',
            class: 'small',
            'data-add': candidate.id,
            'aria-label': m('gm.addLabel', { name: personName(candidate), group: group!.name }),
          },
          m('gm.add'),
        );
        add.addEventListener('click', () => {
          store.add(group!.id, candidate);
          renderMembers();
          renderCandidates();
          // Keeps keyboard users in the list after the row they acted on disappears.
          (candidateBody.querySelector<HTMLElement>('button[data-add]') ?? memberList.querySelector<HTMLElement>('button'))?.focus();
        });
        return h(
          'tr',
          { 'data-candidate-id': candidate.id },
          h('td', { class: 'name' }, personName(candidate)),
          h('td', {}, candidate.startNumber ?? ''),
          h('td', {}, candidate.clubName ?? ''),
          h('td', {}, candidate.birthDate ?? ''),
          h('td', { class: 'action' }, add),
        );
      }),
    );
  }

  function renderMembers(): void {
    if (!group) return;
    const members = store.members(group.id);
    memberMessage.textContent = members.length === 0 ? m('gm.noMembers') : `${countOf(members.length, 'member')}.`;
    memberList.replaceChildren(
      ...members.map((member: GroupMember) => {
        const remove = h(
          'button',
          {
            type: 'button',
            class: 'small',
            'data-remove': member.id,
            'aria-label': m('gm.removeLabel', { name: personName(member), group: group!.name }),
          },
          m('gm.remove'),
        );
        remove.addEventListener('click', () => {
          store.remove(group!.id, member.id);
          renderMembers();
          renderCandidates();
        });
        return h(
          'li',
          { 'data-member-id': member.id },
          h('span', { class: 'name' }, personName(member)),
          member.clubName ? h('span', { class: 'club' }, member.clubName) : null,
          remove,
        );
      }),
    );
  }

  /** Rule 6: every change of group or filter asks the server again; a late answer to an older question is dropped. */
  async function loadCandidates(): Promise<void> {
    if (!group) return;
    const mine = ++generation;
    if (group.clubId === null) {
      candidates = [];
      candidateBody.replaceChildren();
      message.textContent = m('gm.noClub', { group: group.name });
      return;
    }
    message.textContent = m('gm.loadingCandidates');
    candidateTable.setAttribute('aria-busy', 'true');
    try {
      const page = await api.candidates({ eventId: event.id, clubId: group.clubId, groupId: group.id, ...filters });
      if (mine !== generation) return;
      candidates = page.results;
      renderCandidates();
    } catch (error) {
      if (mine === generation) message.textContent = m('gm.candidatesFailed', { error: (error as Error).message });
    } finally {
      if (mine === generation) candidateTable.removeAttribute('aria-busy');
    }
  }

  function chooseGroup(groupId: number | null): void {
    group = groups.find((candidate) => candidate.id === groupId) ?? null;
    groupSelect.value = group ? String(group.id) : '';
    replaceQuery({ groupId: group?.id ?? null });
    candidates = [];
    renderFilters();
    renderMembers();
    if (group) void loadRemote(group.id);
    void loadCandidates();
  }

  function setFilters(next: CandidateFilters): void {
    filters = next;
    renderFilters();
    void loadCandidates();
  }

  groupSelect.addEventListener('change', () => chooseGroup(Number(groupSelect.value) || null));
  hidePlanned.addEventListener('change', () => setFilters({ ...filters, hidePlanned: hidePlanned.checked }));
  hideOtherClubs.addEventListener('change', () => setFilters({ ...filters, hideOtherClubs: hideOtherClubs.checked }));
  reset.addEventListener('click', () => {
    setFilters({ ...NO_FILTERS });
    hidePlanned.focus();
  });

  const body = h('div', { class: 'split' });
  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'groups-title' },
    h('h2', { id: 'groups-title' }, m('gm.title', { event: event.name })),
    h('div', { class: 'pickers' }, h('div', { class: 'picker' }, h('label', { for: 'group-select' }, m('gm.group')), groupSelect)),
    body,
  );
  const candidatesPanel = h(
    'div',
    { class: 'sub-panel' },
    h('h3', { id: 'candidates-title' }, m('gm.candidates')),
    h(
      'fieldset',
      { class: 'filters' },
      h('legend', {}, m('gm.filters')),
      h('label', { class: 'check', for: 'hide-planned' }, hidePlanned, m('gm.hidePlanned')),
      h('label', { class: 'check', for: 'hide-other-clubs' }, hideOtherClubs, m('gm.hideOther'), clubHint),
      reset,
    ),
    message,
    h('div', { class: 'table-scroll' }, candidateTable),
  );
  const membersPanel = h('div', { class: 'sub-panel' }, h('h3', {}, m('gm.members')), memberMessage, memberList, storageHint);

  api.groups(event.id).then(
    (loaded) => {
      groups = loaded;
      if (groups.length === 0) {
        body.replaceChildren(h('p', { class: 'view-message', role: 'status' }, m('gm.noGroups')));
        return;
      }
      groupSelect.replaceChildren(
        ...groups.map((candidate) =>
          h('option', { value: candidate.id }, candidate.clubName ? `${candidate.name} (${candidate.clubName})` : candidate.name),
        ),
      );
      body.replaceChildren(candidatesPanel, membersPanel);
      const wanted = queryInteger('groupId');
      chooseGroup(groups.some((candidate) => candidate.id === wanted) ? wanted : groups[0]!.id);
    },
    (error: unknown) =>
      body.replaceChildren(h('p', { class: 'view-message', role: 'status' }, m('gm.groupsFailed', { error: (error as Error).message }))),
  );
  body.replaceChildren(h('p', { class: 'view-message', role: 'status' }, m('gm.loadingGroups')));

  renderStorageHint();
  return { element, dispose: unsubscribe };
}
