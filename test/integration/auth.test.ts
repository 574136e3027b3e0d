import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSigner, createVerifier } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TypedApp } from '../../src/http/app-types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { runScript } from '../support/process.js';
import { TEST_JWT_SECRET } from '../support/server.js';

function protectedRoutes(app: TypedApp): void {
  app.get('/test/admin-only', { onRequest: app.requireRole('admin') }, async (request) => ({
    sub: request.user.sub,
    role: request.user.role,
  }));
  app.get('/test/score-writing', { onRequest: app.requireScoreWriter }, async () => ({ ok: true }));
}

let lan: TestApp;
let strict: TestApp;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-auth-'));
beforeAll(async () => {
  [lan, strict] = await Promise.all([
    startTestApp({ routes: protectedRoutes }),
    startTestApp({ env: { AUTH_MODE: 'strict' }, routes: protectedRoutes }),
  ]);
});
afterAll(async () => {
  await Promise.all([lan?.stop(), strict?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const sign = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: 60_000 });
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function call(app: TestApp, route: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${app.url}${route}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('role check (contract section 4)', () => {
  it.each([
    ['no token', undefined],
    ['a token that is not a JWT', 'not-a-token'],
    ['an expired token', createSigner({ key: TEST_JWT_SECRET })({ sub: 'alice', role: 'admin', exp: Math.floor(Date.now() / 1000) - 60 })],
    [
      'a token signed with another secret',
      createSigner({ key: 'some-other-secret-of-enough-length', expiresIn: 60_000 })({ sub: 'alice', role: 'admin' }),
    ],
    [
      'an unsigned token (alg none)',
      `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'alice', role: 'admin', exp: Math.floor(Date.now() / 1000) + 600 })}.`,
    ],
    [
      'a token signed with another algorithm',
      createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS512', expiresIn: 60_000 })({ sub: 'alice', role: 'admin' }),
    ],
    [
      'a token whose payload was altered',
      (() => {
        const [header, , signature] = sign({ sub: 'alice', role: 'jury' }).split('.');
        return `${header}.${base64url({ sub: 'alice', role: 'admin', exp: Math.floor(Date.now() / 1000) + 600 })}.${signature}`;
      })(),
    ],
    ['a token with an unknown role', sign({ sub: 'alice', role: 'root' })],
  ])('refuses %s with 401 UNAUTHORIZED', async (_case, token) => {
    const { status, body } = await call(lan, '/test/admin-only', token);
    expect(status).toBe(401);
    expect(body).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'UNAUTHORIZED' });
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  });

  it('refuses the jury role on an admin route with 403 FORBIDDEN', async () => {
    const { status, body } = await call(lan, '/test/admin-only', sign({ sub: 'judge1', role: 'jury' }));
    expect(status).toBe(403);
    expect(body).toMatchObject({ statusCode: 403, error: 'Forbidden', code: 'FORBIDDEN' });
  });

  it('admits an admin token', async () => {
    expect(await call(lan, '/test/admin-only', sign({ sub: 'alice', role: 'admin' }))).toEqual({
      status: 200,
      body: { sub: 'alice', role: 'admin' },
    });
  });

  it('leaves score writing open in AUTH_MODE=lan and requires a jury or admin token in strict', async () => {
    expect((await call(lan, '/test/score-writing')).status).toBe(200);
    expect((await call(strict, '/test/score-writing')).status).toBe(401);
    expect((await call(strict, '/test/score-writing', sign({ sub: 'judge1', role: 'jury' }))).status).toBe(200);
    expect((await call(strict, '/test/score-writing', sign({ sub: 'alice', role: 'admin' }))).status).toBe(200);
  });
});

describe('npm run token', () => {
  it('prints an HS256 token with sub, role and exp that the service accepts', async () => {
    const result = await runScript('scripts/token.ts', ['--sub', 'alice', '--role', 'admin', '--hours', '1'], {
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: dataDir,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const token = lines[0]!;
    const claims = createVerifier({ key: TEST_JWT_SECRET, algorithms: ['HS256'] })(token) as { sub: string; role: string; exp: number };
    expect(claims).toMatchObject({ sub: 'alice', role: 'admin' });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3_500);
    expect(claims.exp).toBeLessThan(Date.now() / 1000 + 3_700);
    expect(await call(lan, '/test/admin-only', token)).toEqual({ status: 200, body: { sub: 'alice', role: 'admin' } });
  });

  it('refuses an unknown role with exit code 1', async () => {
    const result = await runScript('scripts/token.ts', ['--sub', 'alice', '--role', 'root'], {
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: dataDir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--role');
  });
});
