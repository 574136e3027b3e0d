/**
 * The client on its own port (spec: Jury Portal on TCP 5174) for installations that separate it
 * from the backend; /api and /socket.io are proxied to BACKEND_URL.
 *   tsx web/serve.ts         serves the built web/dist (run `npm run build:web` first)
 *   tsx web/serve.ts --dev   Vite dev server with hot reload on the sources
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DIST_DIR, PAGES, standaloneConfig } from './vite.config.js';

async function main(): Promise<void> {
  const dev = process.argv.includes('--dev');
  const port = Number(process.env.JURY_PORT || 5174);
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
  console.log(`web client on http://localhost:${port}/${PAGES[0]}/ (pages: ${PAGES.map((page) => `/${page}/`).join(', ')}), backend ${backendUrl}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
