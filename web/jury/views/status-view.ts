import { h } from '../../shared/dom.js';
import type { LiveStatus } from '../../shared/live.js';

/** The header's connection pill and the banner about saves kept on this device. */
export interface StatusView {
  pill: HTMLElement;
  banner: HTMLElement;
  render(state: { connection: LiveStatus; waitingCount: number }): void;
}

export function statusView(): StatusView {
  const pill = h('span', { class: 'connection', 'data-status': 'connecting', role: 'status' }, 'Connecting…');
  const banner = h('div', { class: 'queue-banner', role: 'status', 'aria-live': 'polite', hidden: true });
  const texts: Record<LiveStatus, string> = { live: '● Live', connecting: '◌ Connecting…', offline: '○ Offline' };
  return {
    pill,
    banner,
    render({ connection, waitingCount }) {
      const waiting = waitingCount > 0;
      banner.hidden = !waiting;
      banner.textContent = waiting
        ? `${waitingCount} ${waitingCount === 1 ? 'save is' : 'saves are'} waiting for the server. ${waitingCount === 1 ? 'It is' : 'They are'} kept on this device and sent in order as soon as the server is reachable again.`
        : '';
      // Connected but saves still fail (e.g. the database is down): not the all-clear colour.
      pill.dataset.status = waiting && connection === 'live' ? 'connecting' : connection;
      pill.textContent = waiting && connection === 'live' ? '● Live · saves waiting' : texts[connection];
    },
  };
}
