import { h } from '../shared/dom.js';
import type { LiveStatus } from '../shared/live.js';

/** The board's LIVE / NOT LIVE badge, shared by the device and the all-around board. */
export function liveIndicator(): { element: HTMLElement; show(status: LiveStatus): void } {
  const element = h('div', { class: 'live-indicator', 'data-status': 'connecting', role: 'status', 'aria-live': 'polite' }, 'Connecting…');
  return {
    element,
    show(status) {
      element.dataset.status = status;
      element.textContent = status === 'live' ? '● LIVE' : status === 'connecting' ? '◌ Connecting…' : '○ NOT LIVE — reconnecting…';
      // The ranking dims while not live (board.css).
      document.body.dataset.live = status;
    },
  };
}
