/**
 * The built web client (web/dist/<page>/, `npm run build:web`) under /<page>/ on the backend's own
 * port, so a judge's phone needs only the one address. Hashed assets are cached for good; the
 * pages themselves never, so a new build reaches every device on its next load.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../system/project-root.js';
import { Type } from '@sinclair/typebox';
import fastifyStatic from '@fastify/static';
import type { AppDeps, TypedApp } from '../app-types.js';

export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'web/dist');
export const WEB_PAGES = ['jury', 'board', 'office', 'live'] as const;
/** Pages a public read-only instance serves (their routes carry `config: { publicRead: true }`). */
export const PUBLIC_PAGES: ReadonlySet<string> = new Set(['live']);

const NOT_BUILT = (page: string, dir: string) =>
  `The web client page /${page}/ is not built (${dir} is missing).\n` +
  'Run `npm run build:web` (npm start and npm test do it when needed), then reload this page.\n';

type PageLanguage = 'de' | 'en';

/** The pages' own rule (web/shared/i18n.ts): `?lang=` first, else German when the browser lists German at all. */
export function landingLanguage(asked: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  if (asked === 'de' || asked === 'en') return asked;
  return (acceptLanguage ?? '').split(',').some((entry) => /^\s*de\b/i.test(entry)) ? 'de' : 'en';
}

const LANDING_TEXTS: Readonly<
  Record<
    PageLanguage,
    Readonly<
      Record<
        | 'title'
        | 'lead'
        | 'jury'
        | 'juryHint'
        | 'board'
        | 'boardHint'
        | 'office'
        | 'officeHint'
        | 'live'
        | 'liveHint'
        | 'docs'
        | 'docsHint'
        | 'other',
        string
      >
    >
  >
> = {
  de: {
    title: 'Wettkampf-Server',
    lead: 'Wählen Sie die Seite für Ihre Aufgabe.',
    jury: 'Kampfrichter-Portal',
    juryHint: 'Wertungen eingeben, am Gerät',
    board: 'Anzeigetafel',
    boardHint: 'Ergebnisse live, für Beamer und Bildschirme',
    office: 'Wettkampfbüro',
    officeHint: 'Riegen, Ergebnisse, Oberkampfrichter, Netzwerk',
    live: 'Live-Ergebnisse',
    liveHint: 'für Zuschauer, auf dem Handy',
    docs: 'API-Dokumentation',
    docsHint: 'für Entwickler',
    other: 'English',
  },
  en: {
    title: 'Competition server',
    lead: 'Choose the page for your job.',
    jury: 'Jury portal',
    juryHint: 'enter scores at the apparatus',
    board: 'Scoreboard',
    boardHint: 'live results for projectors and screens',
    office: 'Competition office',
    officeHint: 'squads, results, head judge, network',
    live: 'Live results',
    liveHint: 'for spectators, on the phone',
    docs: 'API documentation',
    docsHint: 'for developers',
    other: 'Deutsch',
  },
};

// The page's look in an inline block (the CSP allows inline styles, not scripts): the colours and
// type of web/shared/base.css, without a build step, so the root answers even before `build:web`.
const LANDING_STYLE = `:root{--bg:#f4f5f7;--surface:#fff;--text:#15181d;--muted:#5b6472;--line:#d5d9e0;--accent:#0b5cd5;--radius:8px;
font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif;font-size:16px;line-height:1.4;color:var(--text);background:var(--bg)}
*{box-sizing:border-box}body{margin:0;min-width:320px}
header{display:flex;align-items:center;gap:.75rem;padding:.75rem 1rem;background:#1d2330;color:#fff}
header img{width:2rem;height:2rem}header h1{margin:0;font-size:1.25rem;flex:1}
header a{color:#fff;border:1px solid #6d7a92;border-radius:999px;padding:.15rem .7rem;text-decoration:none;font-size:.9rem}
main{max-width:60rem;margin:0 auto;padding:1rem}main>p{color:var(--muted)}
ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.75rem}
li a{display:block;height:100%;padding:1rem;background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);color:var(--text);text-decoration:none}
li a:hover,li a:focus-visible{border-color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
li strong{display:block;font-size:1.15rem;color:var(--accent)}li span{color:var(--muted)}`;

// The address people type or scan is the bare host and port (network-info URLs end in `/`), so the
// root lists the pages instead of answering 404, in the browser's language.
function landingPage(language: PageLanguage): string {
  const text = LANDING_TEXTS[language];
  const entry = (href: string, name: string, hint: string) => `<li><a href="${href}"><strong>${name}</strong><span>${hint}</span></a></li>`;
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text.title}</title><link rel="icon" type="image/svg+xml" href="/favicon.svg"><style>${LANDING_STYLE}</style></head>
<body><header><img src="/favicon.svg" alt=""><h1>${text.title}</h1><a href="/?lang=${language === 'de' ? 'en' : 'de'}" lang="${language === 'de' ? 'en' : 'de'}">${text.other}</a></header>
<main><p>${text.lead}</p><ul>
${entry('/jury/', text.jury, text.juryHint)}
${entry('/board/', text.board, text.boardHint)}
${entry('/office/', text.office, text.officeHint)}
${entry('/live/', text.live, text.liveHint)}
${entry('/docs', text.docs, text.docsHint)}
</ul></main></body></html>
`;
}

// Any other value is ignored like a missing one: the browser's languages decide.
const LandingQuery = Type.Object({ lang: Type.Optional(Type.String({ maxLength: 10 })) });

/** The icon files checked in beside the pages' shared static files. */
const FAVICONS = [
  { url: '/favicon.ico', file: 'favicon.ico', type: 'image/x-icon' },
  { url: '/favicon.svg', file: 'favicon.svg', type: 'image/svg+xml' },
] as const;
const PUBLIC_DIR = path.join(PROJECT_ROOT, 'web/public');

/** Serves `distDir`'s pages; a page that is not built answers 503 with the command that builds it. */
export function webRoutesFrom(distDir: string) {
  return async function webRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
    // A public instance serves spectators only: its bare address leads to their page.
    const publicInstance = deps.config.serviceMode === 'public';
    app.get('/', { schema: { hide: true, querystring: LandingQuery }, config: { publicRead: publicInstance } }, async (request, reply) =>
      publicInstance
        ? reply.redirect('/live/')
        : reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-cache')
            .header('vary', 'accept-language')
            .send(landingPage(landingLanguage(request.query.lang, request.headers['accept-language']))),
    );
    for (const icon of FAVICONS) {
      const body = readFileSync(path.join(PUBLIC_DIR, icon.file));
      // A public page's browser asks for the icon too.
      app.get(icon.url, { schema: { hide: true }, config: { publicRead: true } }, async (_request, reply) =>
        reply.type(icon.type).header('cache-control', 'public, max-age=86400').send(body),
      );
    }
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
