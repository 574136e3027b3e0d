import { h } from '../../shared/dom.js';
import { t } from '../../shared/i18n.js';
import { jt } from '../texts.js';
import { fullName, type DisplayStatus, type ParticipantRow } from '../model.js';

export interface ListedRow {
  row: ParticipantRow;
  status: DisplayStatus;
  icon: string;
  text: string;
  /** The head judge released the participant's device: shown as a badge, the score is final. */
  released: boolean;
}

export interface ParticipantListView {
  element: HTMLElement;
  message(text: string): void;
  render(rows: readonly ListedRow[], selectedKey: string | null): void;
}

/** The participants of the selection with their status; a click (or Enter) chooses one. */
export function participantListView(onChoose: (key: string) => void): ParticipantListView {
  const list = h('ul', { class: 'participant-list', 'aria-label': t('jury.participants') });
  const listMessage = h('p', { class: 'list-message', role: 'status' });
  const releasedAll = h('span', { class: 'released-badge', id: 'participants-released', hidden: true }, jt('releasedBadge'));
  const element = h(
    'section',
    { class: 'participants', 'aria-labelledby': 'participants-title' },
    h('h2', { id: 'participants-title' }, t('jury.participants'), releasedAll),
    listMessage,
    list,
  );
  return {
    element,
    message(text) {
      listMessage.textContent = text;
    },
    render(rows, selectedKey) {
      const focusedKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.participantKey : undefined;
      // Everyone listed released (a whole device or the chosen squad): one badge at the heading
      // leaves the names their room; otherwise each released row carries its own.
      const all = rows.length > 0 && rows.every((listed) => listed.released);
      releasedAll.hidden = !all;
      const items = rows.map(({ row, status, icon, text, released }) => {
        const button = h(
          'button',
          {
            type: 'button',
            class: 'participant',
            'data-participant-key': row.key,
            'data-participant-id': row.participantId,
            'data-status': status,
            'data-released': released ? 'true' : 'false',
            'data-did-not-start': row.didNotStart ? 'true' : 'false',
            'aria-pressed': row.key === selectedKey ? 'true' : 'false',
          },
          h('span', { class: 'start-number' }, row.startNumber),
          h(
            'span',
            { class: 'who' },
            h('span', { class: 'name' }, fullName(row, t('jury.unnamed'))),
            h('span', { class: 'club' }, row.clubName),
          ),
          h(
            'span',
            { class: 'status', title: status },
            h('span', { class: 'status-icon', 'aria-hidden': 'true' }, icon),
            h('span', { class: 'status-text' }, text),
            // A pending row says it in its status text already.
            row.didNotStart && status !== 'pending' ? h('span', { class: 'dns-mark' }, jt('didNotStart')) : null,
            released && !all ? h('span', { class: 'released-badge' }, jt('releasedBadge')) : null,
          ),
        );
        button.addEventListener('click', () => onChoose(row.key));
        return h('li', {}, button);
      });
      list.replaceChildren(...items);
      if (focusedKey) list.querySelector<HTMLElement>(`[data-participant-key="${focusedKey}"]`)?.focus();
    },
  };
}
