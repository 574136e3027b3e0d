import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * Registers the page's offline service worker (web/public/sw.js). Browsers run one only in a
 * secure context (https, or http://localhost / 127.0.0.1); answers whether this page has it.
 */
export function registerOfflineShell(): boolean {
  if (!window.isSecureContext || !('serviceWorker' in navigator)) return false;
  navigator.serviceWorker
    .register('./sw.js')
    .catch((error: unknown) => console.warn(`[offline] service worker not registered: ${(error as Error).message}`));
  return true;
}

/**
 * What a judge must know when the page has no offline shell (plain http on a hall address): saves
 * still wait on the device, but a reload while the server is down shows the browser's error page.
 */
export function offlineReloadNotice(): HTMLElement {
  return h('p', { class: 'offline-notice', id: 'offline-reload-notice', role: 'note' }, t('common.noOfflineReload'));
}
