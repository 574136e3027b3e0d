/**
 * Issue 10 item 7: every route of the running app (taken from its route table, so a new route is
 * fuzzed without being listed here) gets generated bad input in its params, query and body. Each
 * answer must be a 4xx with the contract's error body, free of SQL and stack traces, within a
 * deadline; afterwards every table is exactly as before.
 *
 * Three kinds of request:
 * - schema-breaking: a plausible request (ids of the seeded demo event) with at least one part made
 *   invalid; the mutated request is checked against the route's own schema, so "must be refused"
 *   is certain, and the answer must be 400 (404 when the broken part is a path segment);
 * - hostile but well-formed: SQL and shell metacharacters, unicode and long text where the schema
 *   allows strings, ids that exist for reads and ids that do not for writes; the answer may be a
 *   success for reads, never a 5xx, and a write must not go through;
 * - transport: bodies over the limit, deeply nested, not JSON, of another media type, prototype
 *   keys, duplicated and bracketed query keys, a request line over Node's header limit.
 */
import { STATUS_CODES } from 'node:http';
import { Ajv, type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.js';
import { APP_SETTING_DEFAULTS } from '../../queries/app-settings.js';
import { seedDemo, type DemoSummary } from '../../scripts/demo-seed.js';
import type { RouteEntry } from '../../src/http/security.js';
import { t } from '../support/tables.js';
import {
  appRoutes,
  changedTables,
  contractProblems,
  fingerprint,
  pathOf,
  send,
  windowsWithoutAdminRights,
  type Answer,
  type Fingerprint,
} from '../support/security.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken } from '../support/tokens.js';

type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
};
type Part = 'params' | 'querystring' | 'body';
type Path = Array<string | number>;

const MISSING_ID = 2_147_483_647;
const RUNS = { schemaBreaking: 150, hostile: 50, writes: 60 };
const HOSTILE_TEXT = [
  "' OR '1'='1",
  '1; DROP TABLE app_wertungen; --',
  '"); DELETE FROM app_wertungen; --',
  '$(reboot)',
  '`id`',
  '; rm -rf / #',
  '| cat /etc/passwd',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\u202Egnp.exe',
  'Zoë Müller-Łukasiewicz',
  '😀🤸‍♀️🏅',
  '\uD800',
  'a\u0301\u0302\u0303\u0304',
  '<script>alert(1)</script>',
  '{{constructor.constructor("return process")()}}',
  '__proto__',
  'x'.repeat(10_000),
  'é'.repeat(10_000),
];
// Raw JSON number text the generator can put into a body: JSON.stringify cannot write these.
const RAW = '\u0000RAW:';
const RAW_NUMBERS = ['1e309', '-1e309', '123456789012345678901234567890', '1e-400', '-0', '2147483648', '9007199254740993'];

let server: TestServer;
let demo: DemoSummary;
let before: Fingerprint;
let ids: number[];
const bodyAjv = new Ajv({ strict: false, strictNumbers: true, coerceTypes: false, useDefaults: true });
const textAjv = new Ajv({ strict: false, strictNumbers: true, coerceTypes: 'array', useDefaults: true });
const validators = new WeakMap<object, ValidateFunction>();

function validates(schema: Schema, part: Part, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = (part === 'body' ? bodyAjv : textAjv).compile(schema);
    validators.set(schema, validate);
  }
  // Validation applies defaults and coercion in place; the request must stay as generated.
  return validate(value === undefined ? undefined : structuredClone(value));
}

beforeAll(async () => {
  // Rate limits would turn the later requests of a route into 429s; they have a test of their own.
  server = await startTestServer({
    env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_SCORE_WRITES_PER_MINUTE: '0' },
    firewall: windowsWithoutAdminRights(),
  });
  demo = await server.commands.run((tx) => seedDemo(tx));
  ids = [
    demo.event.id,
    ...demo.competitions.map((competition) => competition.id),
    ...demo.disciplines.flatMap((discipline) => [discipline.id, ...discipline.fields.map((field) => field.id)]),
    ...demo.groups.map((group) => group.id),
    ...demo.teams.map((team) => team.id),
    demo.scores.capturedExample.scoreId,
    demo.scores.pendingExample.scoreId,
    demo.scores.groupExample.scoreId,
    demo.scores.teamExample.scoreId,
    1,
  ];
  // Reads complete and sync final scores (calculation rules 5 and 6) and store setting defaults
  // on first read; let them do that once, so that any change afterwards comes from a fuzz request.
  for (const key of Object.keys(APP_SETTING_DEFAULTS)) await send(`${server.url}/api/app-settings/${key}`);
  for (let offset = 0; ; offset += 1000) {
    const page = JSON.parse((await send(`${server.url}/api/scores?limit=1000&offset=${offset}`)).text) as {
      pagination: { hasMore: boolean };
    };
    if (!page.pagination.hasMore) break;
  }
  await waitFor(async () => {
    const { rows } = await server.pool.query<{ pending: number; last: number }>(
      `SELECT count(*) FILTER (WHERE seq IS NULL)::int AS pending, COALESCE(max(seq), 0)::int AS last FROM ${t.svc_outbox}`,
    );
    return rows[0]!.pending === 0 && server.relay.status().cursor >= rows[0]!.last;
  });
  before = await fingerprint(server.pool);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

// ---------------------------------------------------------------- generators

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function fitsLength(text: string, schema: Schema): boolean {
  const length = [...text].length;
  return length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);
}

/** A value the schema accepts; ids come from the seeded event, or are `missingIds` for writes. */
function validValue(schema: Schema, options: { hostile: boolean; missingIds: boolean }): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((branch) => validValue(branch, options)));
  switch (schema.type) {
    case 'integer': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      if (min >= 1)
        return options.missingIds
          ? fc.constant(Math.min(max, MISSING_ID))
          : fc.constantFrom(...[min, ...ids].filter((id) => id >= min && id <= max));
      return fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) });
    }
    case 'number':
      return fc.double({
        min: Math.max(schema.minimum ?? -1000, -1000),
        max: Math.min(schema.maximum ?? 1000, 1000),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string': {
      const plain = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 12, 12) });
      const hostile = HOSTILE_TEXT.filter((text) => fitsLength(text, schema));
      return options.hostile && hostile.length > 0 ? fc.oneof(fc.constantFrom(...hostile), plain) : plain;
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, options), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, options)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function deeplyNested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

/** Anything at all, weighted towards what breaks naive handlers; the property filters out what the schema happens to accept. */
function badValue(part: Part): fc.Arbitrary<unknown> {
  const text = fc.oneof(
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1.5',
      '1e400',
      'NaN',
      'Infinity',
      '-Infinity',
      '2147483648',
      '-2147483649',
      '0x10',
      'true',
      'null',
      '[]',
      '{}',
      ' 1',
      '1 ',
      '１',
    ),
    fc.constantFrom(...HOSTILE_TEXT),
    fc.string({ maxLength: 30 }),
  );
  if (part === 'params') return text;
  if (part === 'querystring') return fc.oneof(text, fc.array(text, { minLength: 2, maxLength: 3 }));
  return fc.oneof(
    text,
    fc.constantFrom(null, true, false, 0, -1, -2147483648, 1.5, 2147483648, 1e300, -1e300, [], {}, [1], { id: 1 }),
    fc.constantFrom(...RAW_NUMBERS.map((raw) => `${RAW}${raw}`)),
    fc.constant(deeplyNested(500)),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** Every path inside `value` with the schema at that place (arrays: their items). */
function pathsOf(value: unknown, schema: Schema, prefix: Path = []): Array<{ path: Path; schema: Schema }> {
  const found: Array<{ path: Path; schema: Schema }> = [];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      found.push({ path: [...prefix, index], schema: schema.items ?? {} }, ...pathsOf(item, schema.items ?? {}, [...prefix, index]));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const property = schema.properties?.[key] ?? schema.anyOf?.find((branch) => branch.properties?.[key])?.properties?.[key] ?? {};
      found.push({ path: [...prefix, key], schema: property }, ...pathsOf(item, property, [...prefix, key]));
    }
  }
  return found;
}

const REMOVE = Symbol('remove');

function withValueAt(root: unknown, path: Path, value: unknown | typeof REMOVE): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

interface Request {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** Which part was broken: the expected status depends on it. */
  broken: Part | null;
}

function schemaOf(route: RouteEntry, part: Part): Schema | undefined {
  return route.schema?.[part] as Schema | undefined;
}

const stringify = (value: unknown) => (Array.isArray(value) ? value.map(asText) : asText(value));
const toText = (record: unknown) =>
  Object.fromEntries(Object.entries((record ?? {}) as Record<string, unknown>).map(([key, value]) => [key, stringify(value)])) as Record<
    string,
    string | string[]
  >;

/** A request the route's schemas accept, hostile where they allow text. */
function wellFormed(route: RouteEntry, options: { hostile: boolean; missingIds: boolean }): fc.Arbitrary<Request> {
  const part = (name: Part) => {
    const schema = schemaOf(route, name);
    return schema ? validValue(schema, options) : fc.constant(undefined);
  };
  return fc.record({ params: part('params'), query: part('querystring'), body: part('body') }).map(({ params, query, body }) => ({
    params: toText(params) as Record<string, string>,
    query: toText(query),
    body,
    broken: null,
  }));
}

/** A plausible request with one part broken: a value replaced, a required key removed, or the whole part replaced. */
function schemaBreaking(route: RouteEntry): fc.Arbitrary<Request> {
  const parts = (['params', 'querystring', 'body'] as const).filter((part) => schemaOf(route, part));
  return fc
    .tuple(wellFormed(route, { hostile: false, missingIds: false }), fc.constantFrom(...parts), fc.nat(), fc.nat({ max: 9 }))
    .chain(([request, part, pick, how]) =>
      badValue(part).map((bad) => {
        const key = part === 'params' ? 'params' : part === 'querystring' ? 'query' : 'body';
        const current = request[key];
        const paths = pathsOf(current, schemaOf(route, part)!);
        const target = paths[pick % Math.max(paths.length, 1)];
        let broken: unknown;
        if (part === 'body' && (how === 0 || target === undefined)) broken = bad;
        else if (how === 1 && target) broken = withValueAt(current, target.path, REMOVE);
        else if (target) broken = withValueAt(current, target.path, part === 'body' ? bad : stringify(bad));
        else broken = { ...(current as object), junk: bad };
        return { ...request, [key]: part === 'body' ? broken : toText(broken), broken: part } as Request;
      }),
    );
}

// ---------------------------------------------------------------- sending and judging

function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return JSON.stringify(body).replace(new RegExp(`"\\\\u0000RAW:([^"]*)"`, 'g'), '$1');
}

/** What the server's JSON parser will hand to the validator for this body text. */
function parsedBody(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}

function urlOf(route: RouteEntry, request: Pick<Request, 'params' | 'query'>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query)) for (const item of [value].flat()) search.append(key, item);
  const query = search.toString();
  // A removed path parameter is an empty segment, not pathOf's stand-in id.
  const params = Object.fromEntries([...route.url.matchAll(/:(\w+)/g)].map(([, name]) => [name, request.params[name!] ?? '']));
  return `${server.url}${pathOf(route.url, params)}${query ? `?${query}` : ''}`;
}

/** Every string the request carries, for telling a quoted-back input from a leak. */
function sentText(request: Request): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit([request.params, request.query, request.body]);
  return found;
}

async function call(route: RouteEntry, request: Request): Promise<Answer> {
  const text = route.method === 'GET' ? undefined : bodyText(request.body);
  return send(urlOf(route, request), {
    method: route.method,
    headers: { authorization: `Bearer ${adminToken}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
    body: text,
  });
}

/** The request really is invalid for the route: otherwise "must be refused" would be wrong. */
function isRefusable(route: RouteEntry, request: Request): boolean {
  if (request.broken === null) return false;
  const part = request.broken;
  const value = part === 'body' ? parsedBody(bodyText(request.body)) : part === 'params' ? request.params : request.query;
  return !validates(schemaOf(route, part)!, part, value);
}

function describeFailure(route: RouteEntry, request: Request, answer: Answer, problems: string[]): string {
  const body = bodyText(request.body);
  return `${route.method} ${urlOf(route, request).slice(0, 300)} body ${body?.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}: ${problems.join('; ')}`;
}

function judge(answer: Answer, allowSuccess: boolean, echoes: readonly string[] = []): string[] {
  if (answer.status >= 500) return [`${answer.status} ${STATUS_CODES[answer.status]}`, ...contractProblems(answer, echoes)];
  if (answer.status < 400) return allowSuccess ? [] : [`accepted with ${answer.status}`];
  return contractProblems(answer, echoes);
}

/** fc.assert, but the failure names the request in a few hundred characters instead of the whole 10,000-character counterexample. */
async function check(property: fc.IAsyncPropertyWithHooks<[Request]>, parameters: fc.Parameters<[Request]>): Promise<void> {
  const details = await fc.check(property, parameters);
  if (details.failed) {
    const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${reason}\n(fast-check seed ${details.seed}, path ${details.counterexamplePath})`);
  }
}

const fuzzed = () => appRoutes(server.app).filter((route) => route.schema?.params || route.schema?.querystring || route.schema?.body);

describe('fuzzing every route from the route table', () => {
  it('covers every route that takes input, including the squad and settings routes', () => {
    const urls = fuzzed().map((route) => `${route.method} ${route.url}`);
    for (const expected of [
      'POST /api/scores/capture',
      'POST /api/scores/save-value',
      'POST /api/jury-results',
      'POST /api/scores/group',
      'POST /api/scores/team',
      'POST /api/squad-management/auto-assign/apply',
      'POST /api/firewall/enable/:service',
      'GET /api/scores',
      'GET /api/app-settings/:key',
    ]) {
      expect(urls).toContain(expected);
    }
  });

  it('refuses schema-breaking input on every route with 400 and the contract body', async () => {
    for (const route of fuzzed()) {
      await check(
        fc.asyncProperty(schemaBreaking(route), async (request) => {
          fc.pre(isRefusable(route, request));
          const answer = await call(route, request);
          const problems = judge(answer, false, sentText(request));
          // A path segment that no longer matches the route is a 404, one over 100 characters a 414;
          // a URL over Node's header limit is a 431.
          const expected = [
            400,
            ...(request.broken === 'params' ? [404, 414] : []),
            ...(urlOf(route, request).length > 16_000 ? [431] : []),
          ];
          if (!expected.includes(answer.status)) problems.push(`expected ${expected.join(' or ')}`);
          if (problems.length > 0) throw new Error(describeFailure(route, request, answer, problems));
        }),
        { numRuns: RUNS.schemaBreaking, maxSkipsPerRun: 20 },
      );
      expect(changedTables(before, await fingerprint(server.pool)), `${route.method} ${route.url} changed the database`).toEqual([]);
    }
  }, 120_000);

  it('answers hostile but well-formed input without a 5xx, and writes nothing', async () => {
    for (const route of fuzzed()) {
      const isRead = route.method === 'GET';
      await check(
        fc.asyncProperty(wellFormed(route, { hostile: true, missingIds: !isRead }), async (request) => {
          const answer = await call(route, request);
          const problems = judge(answer, isRead, sentText(request));
          if (problems.length > 0) throw new Error(describeFailure(route, request, answer, problems));
        }),
        { numRuns: RUNS.hostile },
      );
      expect(changedTables(before, await fingerprint(server.pool)), `${route.method} ${route.url} changed the database`).toEqual([]);
    }
  }, 120_000);
});

describe('transport-level abuse', () => {
  // The body over the limit is built per route: an upload route has a larger limit of its own.
  const rawBodies: Array<[string, string | ((limit: number) => string), string | undefined, number]> = [
    ['a body over the limit', (limit) => JSON.stringify({ padding: 'x'.repeat(limit) }), 'application/json', 413],
    ['JSON nested 10,000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'application/json', 400],
    ['objects nested 5,000 levels deep', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, 'application/json', 400],
    ['truncated JSON', '{"wertungenId": 1, ', 'application/json', 400],
    ['NaN and Infinity literals', '{"score": NaN, "value": Infinity}', 'application/json', 400],
    ['an empty JSON body', '', 'application/json', 400],
    ['a JSON array', '[1, 2, 3]', 'application/json', 400],
    ['a JSON string', '"hello"', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['a __proto__ key', '{"__proto__": {"polluted": true}, "eventId": 1}', 'application/json', 400],
    ['a constructor.prototype key', '{"constructor": {"prototype": {"polluted": true}}, "eventId": 1}', 'application/json', 400],
    ['form encoding', 'eventId=1&squads=x', 'application/x-www-form-urlencoded', 415],
    ['plain text', 'hello', 'text/plain', 415],
    ['no content type', '{"eventId": 1}', undefined, 415],
    ['invalid UTF-8', '{"name": "\xff\xfe"}', 'application/json; charset=utf-8', 400],
  ];

  it('refuses malformed, oversized and foreign bodies on every POST route with a 4xx contract body', async () => {
    const posts = appRoutes(server.app).filter((route) => route.method === 'POST');
    expect(posts.length).toBeGreaterThan(0);
    for (const route of posts) {
      for (const [name, body, contentType, status] of rawBodies) {
        const url = `${server.url}${pathOf(route.url, { service: 'backend' })}`;
        const answer = await send(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}`, ...(contentType ? { 'content-type': contentType } : {}) },
          body:
            typeof body === 'function'
              ? body(route.bodyLimit ?? BODY_LIMIT_BYTES)
              : name === 'invalid UTF-8'
                ? Buffer.from(body, 'latin1')
                : body,
        });
        const problems = judge(answer, false);
        // A route without a body schema ignores a body that parses, so only the parser's verdicts are certain there.
        // A text/plain body parses as a string, which a body schema then refuses with 400.
        const certain = status === 413 || route.schema?.body !== undefined;
        const accepted = status === 415 ? [415, 400] : [status];
        if (certain && !accepted.includes(answer.status)) problems.push(`expected ${accepted.join(' or ')}`);
        expect(problems, `${name} to ${route.method} ${route.url} → ${answer.status} ${answer.text.slice(0, 200)}`).toEqual([]);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(changedTables(before, await fingerprint(server.pool))).toEqual([]);
  }, 60_000);

  it('refuses odd query strings and paths on every GET route with a 4xx contract body or answers them', async () => {
    const gets = appRoutes(server.app).filter((route) => route.method === 'GET');
    const oddQueries = [
      'limit=1&limit=2',
      'eventId[]=1',
      'eventId[$ne]=1',
      'limit=%00',
      'offset=-0',
      '%E0%A4%A=1',
      `squadName=${'%F0%9F%98%80'.repeat(3000)}`,
    ];
    for (const route of gets) {
      for (const query of oddQueries) {
        const answer = await send(`${server.url}${pathOf(route.url, { service: 'backend', key: 'scoreCapture' }, 'index.html')}?${query}`);
        const problems = judge(answer, true);
        expect(problems, `${route.url}?${query.slice(0, 60)} → ${answer.status} ${answer.text.slice(0, 200)}`).toEqual([]);
      }
    }
    for (const path of [
      '/jury/../../../etc/passwd',
      '/jury/%2e%2e/%2e%2e/etc/passwd',
      '/board/..%2f..%2fpackage.json',
      '/docs/static/..%2f..%2f..%2fpackage.json',
      '/api/scores/group/%00',
      '/api/app-settings/%2e%2e',
    ]) {
      const answer = await send(`${server.url}${path}`);
      expect(answer.text).not.toContain('"dependencies"');
      expect(answer.text).not.toContain('root:');
      expect(judge(answer, true), `${path} → ${answer.status} ${answer.text.slice(0, 200)}`).toEqual([]);
    }
    expect(changedTables(before, await fingerprint(server.pool))).toEqual([]);
  }, 60_000);

  it('answers a request line over the header size limit with 431 and the contract body', async () => {
    const answer = await send(`${server.url}/api/scores?squadName=${'x'.repeat(20_000)}`);
    expect(answer.status).toBe(431);
    expect(contractProblems(answer)).toEqual([]);
  });
});

describe('well-formed writes between seeded records (runs last: these may succeed and change the database)', () => {
  it('answers every combination of existing ids and hostile values without a 5xx', async () => {
    for (const route of fuzzed().filter((entry) => entry.method === 'POST')) {
      await check(
        fc.asyncProperty(wellFormed(route, { hostile: true, missingIds: false }), async (request) => {
          const answer = await call(route, request);
          const problems = judge(answer, true, sentText(request));
          if (problems.length > 0) throw new Error(describeFailure(route, request, answer, problems));
        }),
        { numRuns: RUNS.writes },
      );
    }
  }, 120_000);
});
