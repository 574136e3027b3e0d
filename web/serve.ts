/**
 * The client on its own port for installations that separate it from the backend (spec: Jury
 * Portal on TCP 5174, Frontend Client on TCP 5173); /api and /socket.io are proxied to BACKEND_URL.
 *   tsx web/serve.ts            serves the built web/dist on JURY_PORT (run `npm run build:web` first)
 *   tsx web/serve.ts --office   the same on FRONTEND_PORT, announcing the competition office
 *   tsx web/serve.ts --dev      Vite dev server with hot reload on the sources
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DIST_DIR, PAGES, standaloneConfig } from './vite.config.js';

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const office = process.argv.includes('--office');
  const port = Number((office ? process.env.FRONTEND_PORT : process.env.JURY_PORT) || (office ? 5173 : 5174));
  const lead = office ? 'office' : PAGES[0];
  const backendUrl = process.env.BACKEND_URL || 'http://127.0.0.1:3001';
  const vite = await import('vite');
  const config = standaloneConfig({ port, backendUrl });
  if (dev) {
    const server = await vite.createServer(config);
    await server.listen();
  } else {
    if (!existsSync(path.join(DIST_DIR, PAGES[0], 'index.html'))) {
      console.error('web/dist is missing: run `npm run build:web` first');
      process.exit(1);
    }
    await vite.preview(config);
  }
  console.log(
    `web client on http://localhost:${port}/${lead}/ (pages: ${PAGES.map((page) => `/${page}/`).join(', ')}), backend ${backendUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
