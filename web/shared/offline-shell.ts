/** Registers the page's offline service worker (web/public/sw.js); absent outside a secure context. */
export function registerOfflineShell(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('./sw.js')
    .catch((error: unknown) => console.warn(`[offline] service worker not registered: ${(error as Error).message}`));
}
