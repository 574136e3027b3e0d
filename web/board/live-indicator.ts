import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import type { LiveStatus } from '../shared/live.js';

/** The board's LIVE / NOT LIVE badge, shared by the device and the all-around board. */
export function liveIndicator(): { element: HTMLElement; show(status: LiveStatus): void } {
  const element = h(
    'div',
    { class: 'live-indicator', 'data-status': 'connecting', role: 'status', 'aria-live': 'polite' },
    t('common.connecting'),
  );
  return {
    element,
    show(status) {
      element.dataset.status = status;
      element.textContent = status === 'live' ? t('board.live') : status === 'connecting' ? t('common.connecting') : t('board.notLive');
      // The ranking dims while not live (board.css).
      document.body.dataset.live = status;
    },
  };
}
