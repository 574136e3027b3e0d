/*
 * Offline shell of the jury portal and the scoreboard (issue 17, point 5). Network first for
 * everything of this origin the page fetches (page, bundles, GET /api/*); each answer is kept,
 * and when the server cannot be reached the kept one is served, so a reload without the server
 * opens the page with its last lists (the save queue itself lives in localStorage). Socket.IO and
 * writes are never cached. Browsers run service workers only in a secure context (https, or
 * http://localhost / 127.0.0.1); see docs/decisions.md.
 */
const CACHE = 'gym-shell-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch('./', { cache: 'no-store' });
      if (page.ok) {
        const html = await page.clone().text();
        await cache.put('./', page);
        const assets = [...html.matchAll(/(?:src|href)="(\.\/assets\/[^"]+)"/g)].map((match) => match[1]);
        await Promise.all(assets.map((asset) => cache.add(asset).catch(() => undefined)));
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/socket.io')) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Navigations are stored under the page itself, whatever the query string says.
      const key = request.mode === 'navigate' ? new Request(new URL('./', self.registration.scope)) : request;
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(key, response.clone());
        return response;
      } catch (error) {
        const kept = await cache.match(key);
        if (kept) return kept;
        throw error;
      }
    })(),
  );
});
