import { STATUS_CODES } from 'node:http';
import { Writable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.js';
import { withErrors } from '../../src/http/schemas/common.js';
import { startTestApp, type TestApp } from '../support/app.js';

const FAILING_SQL = 'SELECT secret_column FROM app_table_that_does_not_exist';
const RAISE_FUNCTION = 'test_raise_sqlstate';
const logLines: string[] = [];
let server: TestApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  server = await startTestApp({
    logger: pino({ level: 'info' }, sink),
    routes: (app, deps) => {
      app.post(
        '/test/echo',
        {
          schema: {
            body: Type.Object(
              { score: Type.Number(), squadName: Type.String({ minLength: 1, maxLength: 5 }) },
              { additionalProperties: false },
            ),
            response: withErrors({ 200: Type.Object({ ok: Type.Boolean() }) }, 400, 413),
          },
        },
        async () => ({ ok: true }),
      );
      app.get('/test/failure', async () => {
        await deps.pool.query(FAILING_SQL);
        return {};
      });
      // PostgreSQL itself raises the error with the SQLSTATE asked for, as it would on a full disk.
      app.get<{ Params: { code: string } }>('/test/sqlstate/:code', async (request) => {
        await deps.pool.query(`SELECT ${RAISE_FUNCTION}($1)`, [request.params.code]);
        return {};
      });
    },
  });
  await server.deps.pool.query(
    `CREATE FUNCTION ${RAISE_FUNCTION}(code text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'raised %', code USING ERRCODE = code; END $$`,
  );
});
afterAll(async () => {
  await server?.stop();
});

/** Asserts the contract's error body, exactly its four keys, and returns it. */
async function errorBody(response: Response): Promise<{ statusCode: number; error: string; code: string; message: string }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(response.status);
  expect(body.error).toBe(STATUS_CODES[response.status]);
  expect(typeof body.message).toBe('string');
  return body;
}

function postJson(path: string, body: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('error bodies over HTTP', () => {
  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const response = await postJson('/test/echo', '{"score": 12.5, ');
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON' });
  });

  it('answers a schema violation with 400 VALIDATION_FAILED naming the field, without coercing body types', async () => {
    const wrongType = await postJson('/test/echo', JSON.stringify({ score: '12.5', squadName: 'Rot' }));
    expect(wrongType.status).toBe(400);
    const body = await errorBody(wrongType);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.message).toContain('body.score');

    const missing = await postJson('/test/echo', JSON.stringify({ score: 12.5 }));
    expect(missing.status).toBe(400);
    expect(await errorBody(missing)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'body.squadName is required' });

    const tooLong = await postJson('/test/echo', JSON.stringify({ score: 12.5, squadName: 'Riege1' }));
    expect(tooLong.status).toBe(400);
    expect((await errorBody(tooLong)).message).toContain('body.squadName');

    const accepted = await postJson('/test/echo', JSON.stringify({ score: 12.5, squadName: 'Rot' }));
    expect(accepted.status).toBe(200);
  });

  it('answers unknown routes and unknown methods with 404 NOT_FOUND', async () => {
    const unknown = await fetch(`${server.url}/api/no-such-thing?x=1`);
    expect(unknown.status).toBe(404);
    expect(await errorBody(unknown)).toMatchObject({ code: 'NOT_FOUND', message: 'No route GET /api/no-such-thing' });

    const wrongMethod = await fetch(`${server.url}/api/system/health`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(404);
    expect((await errorBody(wrongMethod)).code).toBe('NOT_FOUND');
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await postJson('/test/echo', JSON.stringify({ score: 1, squadName: 'x'.repeat(BODY_LIMIT_BYTES) }));
    expect(response.status).toBe(413);
    expect((await errorBody(response)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unexpected failure with 500 INTERNAL, no SQL or stack in the body, full detail in the log', async () => {
    logLines.length = 0;
    const response = await fetch(`${server.url}/test/failure`);
    expect(response.status).toBe(500);
    const body = await errorBody(response);
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL',
      message: 'An unexpected error occurred; it has been logged',
    });

    const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
    expect(logged?.err?.message).toContain('app_table_that_does_not_exist');
    expect(logged?.err?.stack).toBeTruthy();
  });
});

describe('resource errors of the database', () => {
  it.each([
    ['53000', /short of resources/],
    ['53100', /disk is full/],
    ['53200', /out of memory/],
    ['53300', /no free connection slot/],
    ['53400', /configured limit/],
    ['57P03', /not reachable/],
  ])('answers SQLSTATE %s with 503 UNAVAILABLE and Retry-After', async (code, message) => {
    const response = await fetch(`${server.url}/test/sqlstate/${code}`);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await errorBody(response);
    expect(body.code).toBe('UNAVAILABLE');
    expect(body.message).toMatch(message);
    expect(body.message).not.toContain('raised');
  });

  it('reports a class-53 shortage on health as degraded with the reason', async () => {
    expect((await fetch(`${server.url}/test/sqlstate/53200`)).status).toBe(503);
    const health = await fetch(`${server.url}/api/system/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: 'degraded',
      database: 'up',
      resources: 'out-of-memory',
      reason: expect.stringMatching(/out of memory \(SQLSTATE 53200\)/),
    });
  });
});

describe('OpenAPI', () => {
  it('serves the generated document at /docs/json', async () => {
    const response = await fetch(`${server.url}/docs/json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/api/system/health']?.get).toBeDefined();
    expect(document.paths['/api/system/version']?.get?.responses?.['200']).toBeDefined();
  });

  it('serves a browsable UI at /docs', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/swagger/i);
  });
});
