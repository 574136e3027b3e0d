/**
 * Issue 10 item 12: the service's logger (src/logger.ts, as `npm start` builds it) never writes a
 * bearer token or the JWT secret: not while serving requests with valid, refused and expired
 * tokens at the most verbose level, not when a handler logs the request headers, not in a config
 * dump, not when a request fails. (Error bodies without SQL or stack traces: the fuzz pass checks
 * every body it gets, test/integration/fuzz-endpoints.test.ts, and http-errors.test.ts the 500.)
 */
import { Writable } from 'node:stream';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { duplicateKeys } from '../support/json-keys.js';
import { contractProblems, send } from '../support/security.js';
import { TEST_JWT_SECRET } from '../support/server.js';
import { adminToken, foreignToken, juryToken } from '../support/tokens.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});
const expiredToken = createSigner({ key: TEST_JWT_SECRET })({ sub: 'anna', role: 'admin', exp: Math.floor(Date.now() / 1000) - 60 });
const tokens = { adminToken, juryToken, foreignToken, expiredToken };
const DATABASE_PASSWORD = 'db-password-that-must-not-be-logged';

let server: TestApp;

beforeAll(async () => {
  server = await startTestApp({
    logger: createLogger('trace', false, sink),
    routes: (app) => {
      // What a careless handler might do; the redaction has to hold anyway.
      app.post('/test/log-headers', async (request) => {
        request.log.info({ headers: request.headers }, 'request headers');
        request.log.info({ req: { headers: request.headers } }, 'request headers nested');
        request.log.info({ authorization: request.headers.authorization, token: request.headers.authorization }, 'header fields');
        return { ok: true };
      });
      // What src/db/embedded.ts does about another process (the embedded PostgreSQL): its own pid.
      app.get('/test/log-pid', async (request) => {
        request.log.warn({ pid: 4242, hostname: 'db-host' }, 'another process');
        return { ok: true };
      });
      app.get('/test/fail', async () => {
        throw new Error('the database said no');
      });
    },
  });
});

afterAll(async () => {
  await server?.stop();
});

it('keeps tokens, the JWT secret and the database password out of every log line', async () => {
  const call = (path: string, token: string | undefined, method = 'POST') =>
    send(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: method === 'POST' ? '{}' : undefined,
    });

  for (const token of Object.values(tokens)) {
    await call('/api/squad-management/auto-assign/generate', token);
    await call('/api/scores/capture', token);
    await call('/test/log-headers', token);
    await call('/api/session', token, 'GET');
  }
  const failed = await call('/test/fail', adminToken, 'GET');
  expect(failed.status).toBe(500);
  expect(contractProblems(failed)).toEqual([]);
  expect(failed.text).not.toContain('the database said no');

  const { config, logger } = server.deps;
  const withSecrets = { ...config, databaseUrl: `postgres://gym:${DATABASE_PASSWORD}@127.0.0.1:5432/gym` };
  logger.info({ config: withSecrets }, 'configuration');
  logger.info(withSecrets, 'configuration, flat');
  logger.error({ err: Object.assign(new Error('start failed'), { config: withSecrets }) }, 'start failed');

  const log = lines.join('');
  // Not vacuous: the requests and the dumps were logged, with the secrets' places censored.
  expect(log).toContain('incoming request');
  expect(log).toContain('request refused');
  expect(log).toContain('request headers');
  expect(log).toContain('[redacted]');
  expect(log).toContain(config.tablePrefix);

  expect(lines.filter((line) => line.includes(TEST_JWT_SECRET))).toEqual([]);
  expect(log).not.toContain(DATABASE_PASSWORD);
  for (const [name, token] of Object.entries(tokens)) {
    const signature = token.split('.')[2]!;
    expect(log.includes(token), `${name} in the log`).toBe(false);
    expect(log.includes(signature), `${name}'s signature in the log`).toBe(false);
  }
});

it('writes every line as JSON with unique keys, also when a logged object names another pid', async () => {
  lines.length = 0;
  expect((await send(`${server.url}/test/log-pid`)).status).toBe(200);
  expect((await send(`${server.url}/api/system/health`)).status).toBe(200);
  const log = lines.join('').split('\n').filter(Boolean);
  const other = log.find((line) => line.includes('another process'));
  expect(other).toBeDefined();
  for (const line of log) expect(duplicateKeys(line), line).toEqual([]);
  // Nothing is lost: the service's pid and the other process's both stay readable.
  expect(JSON.parse(other!)).toMatchObject({ pid: process.pid, targetPid: 4242, targetHostname: 'db-host' });
});
