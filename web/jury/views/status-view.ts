import { h } from '../../shared/dom.js';
import { t } from '../../shared/i18n.js';
import type { LiveStatus } from '../../shared/live.js';

/** The header's connection pill and the banner about saves kept on this device. */
export interface StatusView {
  pill: HTMLElement;
  banner: HTMLElement;
  render(state: { connection: LiveStatus; waitingCount: number }): void;
}

export function statusView(): StatusView {
  const pill = h('span', { class: 'connection', 'data-status': 'connecting', role: 'status' }, t('common.connecting'));
  const banner = h('div', { class: 'queue-banner', role: 'status', 'aria-live': 'polite', hidden: true });
  const texts: Record<LiveStatus, string> = { live: t('jury.live'), connecting: t('common.connecting'), offline: t('jury.offline') };
  return {
    pill,
    banner,
    render({ connection, waitingCount }) {
      const waiting = waitingCount > 0;
      banner.hidden = !waiting;
      banner.textContent = !waiting ? '' : waitingCount === 1 ? t('jury.waitingBanner1') : t('jury.waitingBanner', { count: waitingCount });
      // Connected but saves still fail (e.g. the database is down): not the all-clear colour.
      pill.dataset.status = waiting && connection === 'live' ? 'connecting' : connection;
      pill.textContent = waiting && connection === 'live' ? t('jury.liveWaiting') : texts[connection];
    },
  };
}
