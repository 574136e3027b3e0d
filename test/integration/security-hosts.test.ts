/**
 * Issue 15 item 8: the `Host` header is checked against an allowlist (DNS rebinding could otherwise
 * let a web page write scores through a browser in the hall, since LAN score writes need no token),
 * slow headers and bodies time out, and a token without `exp` is refused.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { hostPolicy } from '../../src/http/security.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { ALLOWED_HOSTS: 'scores.example.org,.halle.example' },
  });
});
afterAll(async () => {
  await server?.stop();
});

/** One request with the given Host header; resolves with status and body. */
function withHost(host: string, path = '/api/system/version', method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        agent: false,
        setHost: false,
        headers: { host, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('Host allowlist', () => {
  const port = () => new URL(server.url).port;

  it.each([
    '127.0.0.1',
    '192.168.1.20',
    '10.0.0.7',
    '[::1]',
    '[fd00::12]',
    'localhost',
    'LOCALHOST',
    'app.localhost',
    'scores.example.org',
    'a.halle.example',
    'halle.example',
  ])('serves Host %s (IP literal, localhost, ALLOWED_HOSTS)', async (host) => {
    expect((await withHost(`${host}:${port()}`)).status).toBe(200);
    expect((await withHost(host)).status).toBe(200);
  });

  it("serves this machine's own names", async () => {
    const machine = os.hostname().toLowerCase();
    const short = machine.split('.')[0]!;
    for (const host of [machine, short, `${short}.local`]) expect((await withHost(`${host}:${port()}`)).status, host).toBe(200);
  });

  it.each(['evil.example.com', 'scores.example.org.evil.example', 'rebind.attacker.test:80', 'user@127.0.0.1', '127.0.0.1/x'])(
    'refuses Host %s with 400 VALIDATION_FAILED, before any route runs, also for score writes',
    async (host) => {
      const refused = await withHost(host);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('ALLOWED_HOSTS'),
      });
      const write = await withHost(
        host,
        '/api/scores/save-value',
        'POST',
        JSON.stringify({ competitionId: 1, participantId: 1, disciplineId: 1, score: 1 }),
      );
      expect(write.status).toBe(400);
      expect(JSON.parse(write.body).message).toContain('ALLOWED_HOSTS');
    },
  );

  it('applies to Socket.IO requests too', async () => {
    expect((await withHost('evil.example.com', '/socket.io/?EIO=4&transport=polling')).status).toBe(403);
    expect((await withHost(`127.0.0.1:${port()}`, '/socket.io/?EIO=4&transport=polling')).status).toBe(200);
  });

  it('takes ALLOWED_HOSTS as host names, * for any, and stops the start on anything else', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(16), ALLOWED_HOSTS: ' Gym-PC , .Example.org. ' }).allowedHosts).toEqual([
      'gym-pc',
      '.example.org',
    ]);
    expect(hostPolicy({ allowedHosts: ['*'] }, 'pc')('anything.example')).toBe(true);
    expect(hostPolicy({ allowedHosts: [] }, 'pc')('anything.example')).toBe(false);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), ALLOWED_HOSTS: 'http://gym-pc' })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), ALLOWED_HOSTS: 'gym-pc:3001' })).toThrow(/ALLOWED_HOSTS/);
  });
});

/** Opens a raw connection, sends `head` then nothing more; resolves with what the server answers and whether it closed. */
function trickle(target: TestServer, head: string, timeoutMs: number): Promise<{ answer: string; closed: boolean }> {
  const url = new URL(target.url);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closed: false });
    }, timeoutMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, closed: true });
    });
    socket.on('error', () => undefined);
    socket.write(head);
  });
}

/**
 * How long a trickling client waits for the server to close on it: generous for a loaded machine
 * against the 1 s / 1.5 s configured below. Node's own defaults (headers 60 s, a request 300 s)
 * are far beyond it, and so is its first check of them when it checks only every 30 s from the
 * start: the slow clients get a server of their own, started just before them.
 */
const CLOSE_DEADLINE_MS = 15_000;

describe('slow clients', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ database: server.database, env: { REQUEST_TIMEOUT_MS: '1500', HEADERS_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('answers 408 and closes when the headers do not arrive in time', async () => {
    const { answer, closed } = await trickle(slow, 'GET /api/system/version HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', CLOSE_DEADLINE_MS);
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"code":"VALIDATION_FAILED"');
  });

  it('answers 408 and closes when a body trickles in slower than the request timeout', async () => {
    const head =
      'POST /api/scores/save-value HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"competitionId":';
    const { answer, closed } = await trickle(slow, head, CLOSE_DEADLINE_MS);
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('defaults to 30 s for a request and 10 s for its headers; the headers timeout may not exceed the request timeout', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(16) }).timeouts).toEqual({ requestMs: 30_000, headersMs: 10_000 });
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(
      /HEADERS_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(16), REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});

describe('tokens', () => {
  it('refuses a correctly signed token without exp, which would never expire', async () => {
    const forever = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })({ sub: 'anna', role: 'admin' });
    const withExp = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: 60_000 })({ sub: 'anna', role: 'admin' });
    const session = (token: string) => fetch(`${server.url}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    const refused = await session(forever);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await session(withExp)).status).toBe(200);
  });

  it('refuses a token whose exp no date can hold (1e308) with 401, on the session and on an admin route', async () => {
    const farFuture = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })({ sub: 'anna', role: 'admin', exp: 1e308 });
    for (const path of ['/api/session', '/api/groups/1/members']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${farFuture}` } });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'The token’s expiry is not a valid time' });
    }
  });
});
