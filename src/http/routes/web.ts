/**
 * The built web client (web/dist/<page>/, `npm run build:web`) under /<page>/ on the backend's own
 * port, so a judge's phone needs only the one address. Hashed assets are cached for good; the
 * pages themselves never, so a new build reaches every device on its next load.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../system/project-root.js';
import fastifyStatic from '@fastify/static';
import type { AppDeps, TypedApp } from '../app-types.js';

export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'web/dist');
export const WEB_PAGES = ['jury', 'board', 'office', 'live'] as const;
/** Pages a public read-only instance serves (their routes carry `config: { publicRead: true }`). */
export const PUBLIC_PAGES: ReadonlySet<string> = new Set(['live']);

const NOT_BUILT = (page: string, dir: string) =>
  `The web client page /${page}/ is not built (${dir} is missing).\n` +
  'Run `npm run build:web` (npm start and npm test do it when needed), then reload this page.\n';

// The address people type or scan is the bare host and port (network-info URLs end in `/`), so the
// root lists the pages instead of answering 404. Plain HTML, no script or style: the CSP stays strict.
const LANDING_PAGE = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wettkampf-Server</title></head>
<body><h1>Wettkampf-Server</h1><ul>
<li><a href="/jury/">Kampfrichter-Portal (jury portal)</a></li>
<li><a href="/board/">Anzeigetafel (scoreboard)</a></li>
<li><a href="/office/">Wettkampfbüro (competition office)</a></li>
<li><a href="/docs">API-Dokumentation (API docs)</a></li>
</ul></body></html>
`;

/** Serves `distDir`'s pages; a page that is not built answers 503 with the command that builds it. */
export function webRoutesFrom(distDir: string) {
  return async function webRoutes(app: TypedApp, _deps: AppDeps): Promise<void> {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(LANDING_PAGE),
    );
    for (const page of WEB_PAGES) {
      const root = path.join(distDir, page);
      await app.register(async (scope) => {
        if (PUBLIC_PAGES.has(page)) {
          scope.addHook('onRoute', (route) => {
            route.config = { ...route.config, publicRead: true };
          });
        }
        // Checked per request, so a build made while the server runs is served without a restart.
        scope.addHook('onRequest', async (_request, reply) => {
          if (!existsSync(path.join(root, 'index.html'))) {
            return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT(page, root));
          }
        });
        // Assets are referenced relative to the page, so the page must be addressed as a directory.
        scope.get(`/${page}`, { schema: { hide: true } }, async (request, reply) => {
          const query = request.url.indexOf('?');
          return reply.redirect(`/${page}/${query >= 0 ? request.url.slice(query) : ''}`, 301);
        });
        await scope.register(fastifyStatic, {
          root,
          prefix: `/${page}/`,
          decorateReply: false,
          cacheControl: false,
          setHeaders(response, filePath) {
            const hashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
            response.setHeader('cache-control', hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
          },
        });
      });
    }
  };
}

export const webRoutes = webRoutesFrom(WEB_DIST_DIR);
