import { it } from 'vitest';
import { startTestServer } from '../support/server.js';
it('x', async () => {
  const server = await startTestServer();
  for (const q of ['limit=1&limit=2', 'eventId[]=1', '%E0%A4%A=1', 'limit=%00']) {
    for (const p of ['/jury', '/jury/', '/board', '/docs', '/docs/']) {
      const r = await fetch(server.url + p + '?' + q, { redirect: 'manual' });
      console.log(p, q, r.status, r.headers.get('location'), (await r.text()).slice(0, 100));
    }
  }
  await server.stop();
}, 60000);
