/**
 * Issue 10 item 11: rate limits on the token-protected routes (per client address and route), the
 * request body limit, CORS limited to the client origins, and security headers on the pages and
 * the API. The rendering of the pages under their CSP in a real browser is checked by
 * test/browser/security-csp.test.ts.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { RouteEntry } from '../../src/http/security.js';
import { appRoutes, expectContractError, pathOf, send } from '../support/security.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';

const ADMIN_LIMIT = 3;
const READ_LIMIT = 4;
const SCORE_WRITE_LIMIT = 5;

let strict: TestServer;
let lan: TestServer;

beforeAll(async () => {
  const limits = {
    RATE_LIMIT_PER_MINUTE: String(ADMIN_LIMIT),
    RATE_LIMIT_READS_PER_MINUTE: String(READ_LIMIT),
    RATE_LIMIT_SCORE_WRITES_PER_MINUTE: String(SCORE_WRITE_LIMIT),
  };
  [strict, lan] = await Promise.all([startTestServer({ env: { ...limits, AUTH_MODE: 'strict' } }), startTestServer({ env: limits })]);
});

afterAll(async () => {
  await Promise.all([strict?.stop(), lan?.stop()]);
});

const post = (server: TestServer, route: RouteEntry, headers: Record<string, string> = {}) =>
  send(`${server.url}${pathOf(route.url, { service: 'backend' })}`, {
    method: route.method,
    headers: { 'content-type': 'application/json', ...headers },
    body: route.method === 'GET' ? undefined : '{}',
  });

const routeNamed = (server: TestServer, name: string) => appRoutes(server.app).find((route) => `${route.method} ${route.url}` === name)!;

/** A request from another loopback address (all of 127/8 is local on Linux): another client for the limiter. */
function fromAddress(server: TestServer, localAddress: string, path: string): Promise<number> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
}

describe('rate limits', () => {
  it('limits every route that always needs a token, per route, reads with their own allowance, and counts refused tokens too', async () => {
    const always = appRoutes(strict.app).filter((route) => route.auth?.when === 'always');
    expect(always.length).toBeGreaterThanOrEqual(4);
    expect(always.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['GET /api/audit', 'GET /api/completeness', 'GET /api/scores/:scoreId/history']),
    );
    for (const route of always) {
      const limit = route.method === 'GET' ? READ_LIMIT : ADMIN_LIMIT;
      for (let attempt = 0; attempt < limit; attempt++) expect((await post(strict, route)).status, `${route.url} #${attempt}`).toBe(401);
      const limited = await post(strict, route, { authorization: `Bearer ${adminToken}` });
      expectContractError(limited, 429, 'RATE_LIMITED');
      // Limited before the token check: a valid token does not buy more attempts.
    }
  });

  it('answers 429 with Retry-After and the contract body, and keeps other clients unaffected', async () => {
    const route = routeNamed(strict, 'POST /api/squad-management/auto-assign/generate');
    const response = await fetch(`${strict.url}${route.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED' });
    expect(await fromAddress(strict, '127.0.0.2', route.url)).toBe(401);
  });

  it('limits score writing in AUTH_MODE=strict with its own, larger allowance', async () => {
    const route = routeNamed(strict, 'POST /api/scores/capture');
    for (let attempt = 0; attempt < SCORE_WRITE_LIMIT; attempt++) expect((await post(strict, route)).status).toBe(401);
    expectContractError(await post(strict, route), 429, 'RATE_LIMITED');
    expect((await post(strict, routeNamed(strict, 'POST /api/scores/save-value'))).status).toBe(401);
  });

  it('leaves routes without a token requirement unlimited (score writing in AUTH_MODE=lan, reads)', async () => {
    const capture = routeNamed(lan, 'POST /api/scores/capture');
    for (let attempt = 0; attempt < SCORE_WRITE_LIMIT * 3; attempt++) expect((await post(lan, capture)).status).toBe(400);
    for (let attempt = 0; attempt < ADMIN_LIMIT * 3; attempt++) expect((await send(`${lan.url}/api/system/version`)).status).toBe(200);
  });

  it('defaults to 60 per minute for admin actions, 600 for reads with a token and for score writing; 0 turns a limit off; nonsense stops the start', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(16) }).rateLimit).toEqual({
      adminPerMinute: 60,
      readsPerMinute: 600,
      scoreWritesPerMinute: 600,
    });
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(16), RATE_LIMIT_PER_MINUTE: '0' }).rateLimit.adminPerMinute).toBe(0);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), RATE_LIMIT_PER_MINUTE: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), RATE_LIMIT_SCORE_WRITES_PER_MINUTE: '-1' })).toThrow(
      /RATE_LIMIT_SCORE_WRITES_PER_MINUTE/,
    );
  });
});

describe('request body limit', () => {
  it('refuses a body over the limit with 413 PAYLOAD_TOO_LARGE before reading it into a command', async () => {
    const body = JSON.stringify({ wertungenId: 1, fieldValues: [{ fieldId: 1, value: 1 }], padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    const answer = await send(`${lan.url}/api/scores/capture`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expectContractError(answer, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('reads a body just under the limit (the limit is the stated one, 256 KiB)', async () => {
    const padding = 'x'.repeat(BODY_LIMIT_BYTES - 100);
    const answer = await send(`${lan.url}/api/scores/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding }),
    });
    expect(answer.status).toBe(400);
    expect(BODY_LIMIT_BYTES).toBe(256 * 1024);
  });
});

describe('CORS', () => {
  async function corsHeaders(server: TestServer, origin: string, method: 'GET' | 'OPTIONS' = 'GET', path = '/api/events') {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        origin,
        ...(method === 'OPTIONS'
          ? { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' }
          : {}),
      },
    });
    await response.arrayBuffer();
    return { status: response.status, allowOrigin: response.headers.get('access-control-allow-origin'), headers: response.headers };
  }

  it.each([
    'http://192.168.1.20:5173',
    'http://10.0.0.7:5174',
    'http://gym-pc:5173',
    'http://halle.local:5174',
    'http://localhost:5173',
    'http://[fd00::12]:5174',
  ])('allows the LAN client origin %s by default', async (origin) => {
    expect((await corsHeaders(lan, origin)).allowOrigin).toBe(origin);
    const preflight = await corsHeaders(lan, origin, 'OPTIONS', '/api/scores/capture');
    expect(preflight.status).toBe(204);
    expect(preflight.allowOrigin).toBe(origin);
    expect(preflight.headers.get('access-control-allow-methods')?.split(/, */)).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each([
    'http://evil.example:5173',
    'https://evil.example',
    'http://192.168.1.20:8080',
    'http://8.8.8.8:5174',
    'null',
    'http://192.168.1.20:5173.evil.example',
  ])('gives the foreign origin %s no CORS headers, on requests and preflights', async (origin) => {
    expect((await corsHeaders(lan, origin)).allowOrigin).toBeNull();
    expect((await corsHeaders(lan, origin, 'OPTIONS', '/api/scores/capture')).allowOrigin).toBeNull();
  });

  it('applies the same origins to Socket.IO', async () => {
    const handshake = (origin: string) => corsHeaders(lan, origin, 'GET', '/socket.io/?EIO=4&transport=polling');
    expect((await handshake('http://192.168.1.20:5173')).allowOrigin).toBe('http://192.168.1.20:5173');
    expect((await handshake('http://evil.example:5173')).allowOrigin).toBeNull();
  });

  it('allows exactly the configured origins when CORS_ORIGINS is set, and any with *', async () => {
    const configured = await startTestServer({ env: { CORS_ORIGINS: 'https://office.example.org, http://192.168.1.20:8080/' } });
    try {
      expect((await corsHeaders(configured, 'https://office.example.org')).allowOrigin).toBe('https://office.example.org');
      expect((await corsHeaders(configured, 'http://192.168.1.20:8080')).allowOrigin).toBe('http://192.168.1.20:8080');
      expect((await corsHeaders(configured, 'http://192.168.1.20:5173')).allowOrigin).toBeNull();
    } finally {
      await configured.stop();
    }
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(16), CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), CORS_ORIGINS: 'http://a.example/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), CORS_ORIGINS: 'ftp://a.example' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('security headers', () => {
  function directives(csp: string | null): Map<string, string[]> {
    const parsed = new Map<string, string[]>();
    for (const part of (csp ?? '').split(';')) {
      const [name, ...values] = part.trim().split(/\s+/);
      if (name) parsed.set(name, values);
    }
    return parsed;
  }

  it.each(['/jury/', '/board/', '/docs', '/api/system/version'])(
    'sends helmet headers and a CSP without inline scripts on %s',
    async (path) => {
      const response = await fetch(`${lan.url}${path}`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
      // Plain HTTP on the LAN: upgrading or HSTS would break every address but localhost.
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('cross-origin-opener-policy')).toBeNull();
    },
  );

  it('serves pages whose scripts and styles all come from the backend itself, as the CSP demands', async () => {
    for (const page of ['/jury/', '/board/', '/docs']) {
      const html = await (await fetch(`${lan.url}${page}`)).text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const [, attributes, inline] of scripts) {
        expect(attributes, `${page}: inline script`).toMatch(/\bsrc=/);
        expect(inline!.trim(), page).toBe('');
        const src = /\bsrc="([^"]+)"/.exec(attributes!)![1]!;
        expect(src, page).not.toMatch(/^(https?:)?\/\//);
        expect((await send(new URL(src, `${lan.url}${page}`).toString())).status, `${page} ${src}`).toBe(200);
      }
      expect(html, page).not.toMatch(/\son[a-z]+=/i);
    }
  });
});
