/**
 * Issue 10 item 10: every protected route refuses every bad credential (401) and the wrong role
 * (403), in AUTH_MODE=lan and strict. The protected routes are not listed here: they come from the
 * running app's route table, which records the guard each route really has, so a new protected
 * route is tested without anyone adding it; a new POST route without a guard fails the test until
 * it is declared public below.
 */
import { createCommandRunner } from '../../commands/run-command.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createPool } from '../../src/db/pool.js';
import type { RouteEntry } from '../../src/http/security.js';
import { appRoutes, expectContractError, pathOf, refusedCredentials, send, windowsWithoutAdminRights } from '../support/security.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../support/server.js';
import { adminToken, headToken, juryToken } from '../support/tokens.js';
import { t } from '../support/tables.js';

/** POST routes that answer without a token in every mode, each with the reason. None today. */
const DECLARED_PUBLIC: Record<string, string> = {};

/** What the spec and contract section 4 require at the least; the route table may hold more. */
const ADMIN_ONLY = [
  'POST /api/squad-management/auto-assign/generate',
  'POST /api/squad-management/auto-assign/apply',
  'POST /api/firewall/enable/:service',
  'POST /api/firewall/disable/:service',
];
const SCORE_WRITING = [
  'POST /api/scores/capture',
  'POST /api/scores/save-value',
  'POST /api/jury-results',
  'POST /api/scores/group',
  'POST /api/scores/team',
];

const servers: Record<'lan' | 'strict', TestServer> = {} as never;

beforeAll(async () => {
  // Limits off: this file sends far more refused tokens per route than a minute allows.
  const env = { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_SCORE_WRITES_PER_MINUTE: '0' };
  servers.lan = await startTestServer({ env, firewall: windowsWithoutAdminRights() });
  servers.strict = await startTestServer({ env: { ...env, AUTH_MODE: 'strict' }, firewall: windowsWithoutAdminRights() });
});

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.stop()));
});

const nameOf = (route: RouteEntry) => `${route.method} ${route.url}`;

/** Routes that need a token in this mode. */
function guarded(mode: 'lan' | 'strict'): RouteEntry[] {
  return appRoutes(servers[mode].app).filter((route) => route.auth !== null && (route.auth.when === 'always' || mode === 'strict'));
}

function call(server: TestServer, route: RouteEntry, authorization: string | undefined) {
  return send(`${server.url}${pathOf(route.url, { service: 'backend' })}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: route.method === 'GET' ? undefined : '{}',
  });
}

describe('the route table', () => {
  it('marks the admin routes and, in strict mode, every score-writing route as protected', () => {
    expect(guarded('lan').map(nameOf)).toEqual(expect.arrayContaining(ADMIN_ONLY));
    expect(guarded('strict').map(nameOf)).toEqual(expect.arrayContaining([...ADMIN_ONLY, ...SCORE_WRITING]));
    for (const name of ADMIN_ONLY) expect(guarded('lan').find((route) => nameOf(route) === name)?.auth?.roles, name).toEqual(['admin']);
  });

  it('has a guard on every route that changes anything, or a declared reason why not', () => {
    const unguarded = appRoutes(servers.strict.app)
      .filter((route) => route.method !== 'GET' && route.auth === null)
      .map(nameOf)
      .filter((name) => !(name in DECLARED_PUBLIC));
    expect(unguarded).toEqual([]);
  });

  it('refuses to start when a guard sits in a hook that runs after the body was read', async () => {
    const config = loadConfig({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', DATA_DIR: servers.lan.config.dataDir });
    const logger = pino({ level: 'silent' });
    // Building the app opens no connection, so an unreachable database is fine here.
    const pool = createPool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', tables: t }, logger);
    const app = await buildApp({
      config,
      pool,
      commands: createCommandRunner(pool),
      logger,
      relay: { status: () => ({ state: 'listening', delivered: 0, cursor: 0, sequencer: true }) },
    });
    try {
      expect(() => app.post('/late-guard', { preHandler: app.requireRole('admin') }, async () => ({}))).toThrow(/onRequest/);
      app.post('/new-admin-action', { onRequest: app.requireRole('admin') }, async () => ({}));
      expect(appRoutes(app).find((route) => route.url === '/new-admin-action')?.auth).toEqual({ roles: ['admin'], when: 'always' });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});

describe.each(['lan', 'strict'] as const)('AUTH_MODE=%s', (mode) => {
  it.each(refusedCredentials())('refuses %s on every protected route with 401 UNAUTHORIZED', async (_case, authorization) => {
    for (const route of guarded(mode)) {
      const answer = await call(servers[mode], route, authorization);
      expect(answer.status, `${nameOf(route)}: ${answer.text}`).toBe(401);
      expectContractError(answer, 401, 'UNAUTHORIZED');
    }
  });

  // Guards against a guard that lets the jury through on an admin route (e.g. `requireRole('admin')`
  // → `requireRole('admin', 'jury')` on squad apply): the admin routes are the spec's list plus
  // whatever the route table declares admin-only, so a route whose declaration was widened is still
  // called with a jury token and must answer 403.
  it('refuses the jury role on every admin route with 403 FORBIDDEN', async () => {
    const declaredAdminOnly = guarded(mode).filter((entry) => !entry.auth?.roles.includes('jury'));
    const adminRoutes = [...new Set([...ADMIN_ONLY, ...declaredAdminOnly.map(nameOf)])];
    for (const name of adminRoutes) {
      const route = appRoutes(servers[mode].app).find((entry) => nameOf(entry) === name);
      expect(route, `${name} is served`).toBeDefined();
      const answer = await call(servers[mode], route!, `Bearer ${juryToken}`);
      expect(answer.status, `${name}: ${answer.text}`).toBe(403);
      expectContractError(answer, 403, 'FORBIDDEN');
    }
  });

  it('lets each allowed role past the guard (the empty body then fails validation, or the host refuses)', async () => {
    for (const route of guarded(mode)) {
      for (const role of route.auth!.roles) {
        const answer = await call(
          servers[mode],
          route,
          `Bearer ${role === 'admin' ? adminToken : role === 'head' ? headToken : juryToken}`,
        );
        const code = (JSON.parse(answer.text) as { code?: string }).code;
        expect(['UNAUTHORIZED', 'FORBIDDEN'], `${nameOf(route)} as ${role}: ${answer.text}`).not.toContain(code);
      }
    }
  });
});

it('leaves score writing open in AUTH_MODE=lan, as the legacy portal expects', async () => {
  // Inquiries are open in lan mode too, but for a coach and the head judge, not the jury (inquiries.test.ts).
  const scoreWriters = appRoutes(servers.lan.app).filter((route) => route.auth?.when === 'strict' && route.auth.roles.includes('jury'));
  expect(scoreWriters.map(nameOf)).toEqual(expect.arrayContaining(SCORE_WRITING));
  for (const route of scoreWriters) {
    const answer = await call(servers.lan, route, undefined);
    expect(answer.status, `${nameOf(route)}: ${answer.text}`).toBe(400);
  }
});
