/**
 * What the security and fuzz tests share: the contract error-body check, the leak check on
 * bodies, a whole-database fingerprint, the route table of the running app, and hostile tokens.
 */
import { STATUS_CODES } from 'node:http';
import { createSigner } from 'fast-jwt';
import { expect } from 'vitest';
import type { TypedApp } from '../../src/http/app-types.js';
import type { Pool } from '../../src/db/pool.js';
import { createFirewall, FirewallError, type Firewall } from '../../src/firewall/index.js';
import { routesOf, type RouteEntry } from '../../src/http/security.js';
import { TEST_JWT_SECRET } from './server.js';

/** Contract section 3 plus the additions in docs/decisions.md. */
export const CONTRACT_CODES = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'PERMISSION_DENIED',
  'RULE_NOT_FOUND',
  'UNSUPPORTED_PLATFORM',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
];

/** SQL text, stack frames and source positions: what an error body must never carry. */
const LEAKS: Array<[string, RegExp]> = [
  ['SQL', /\b(SELECT|INSERT INTO|UPDATE \S+ SET|DELETE FROM)\b/i],
  ['a stack frame', /(^|\n)\s*at\s|\sat\s+\S+\s+\(|\sat\s+(file|node):/],
  ['a source position', /\.(ts|js|mjs|cjs):\d+/],
  ['a dependency path', /node_modules/],
];

export function leaksIn(text: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/**
 * Problems of an error answer measured against contract section 3; empty when it complies.
 * `echoes` is what the client itself sent: a message may quote it back ("app setting X not
 * found"), which is no leak of the server's SQL.
 */
export function contractProblems(answer: Answer, echoes: readonly string[] = []): string[] {
  const problems: string[] = [];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return [`body is not JSON: ${answer.text.slice(0, 120)}`];
  }
  if (!answer.contentType?.startsWith('application/json')) problems.push(`content-type ${answer.contentType}`);
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : [];
  // A 409 of an optimistic check (expectedScore / expectedPerformance) adds `current` (issue 17).
  const allowed =
    answer.status === 409 && keys.includes('current') ? 'code,current,error,message,statusCode' : 'code,error,message,statusCode';
  if (keys.join() !== allowed) problems.push(`keys ${keys.join()}`);
  if (body.statusCode !== answer.status) problems.push(`statusCode ${String(body.statusCode)}`);
  if (body.error !== STATUS_CODES[answer.status]) problems.push(`error ${String(body.error)}`);
  if (!CONTRACT_CODES.includes(String(body.code))) problems.push(`code ${String(body.code)}`);
  if (typeof body.message !== 'string' || body.message === '') problems.push('message missing');
  const own = echoes.filter((echo) => echo.length > 0).map((echo) => JSON.stringify(echo).slice(1, -1));
  const scanned = own.reduce((text, echo) => text.split(echo).join(''), answer.text);
  for (const leak of leaksIn(scanned)) problems.push(`leaks ${leak}`);
  return problems;
}

export function expectContractError(answer: Answer, status: number, code?: string): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  expect(contractProblems(answer)).toEqual([]);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  if (code !== undefined) expect(body.code).toBe(code);
  return body;
}

export async function send(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Answer> {
  // A hang is a failure in its own right, so every call carries a deadline.
  // Redirects are answers too (and one Swagger UI route redirects to itself when given a query).
  const response = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 10_000) });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

export type Fingerprint = Record<string, { rows: number; md5: string }>;

/** Row count and an order-independent checksum of every table in the database. */
export async function fingerprint(pool: Pool): Promise<Fingerprint> {
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const result: Fingerprint = {};
  for (const { name } of tables) {
    const { rows } = await pool.query<{ rows: number; md5: string }>(
      `SELECT count(*)::int AS rows, md5(COALESCE(string_agg(x::text, E'\\n' ORDER BY x::text), '')) AS md5 FROM "${name}" x`,
    );
    result[name] = rows[0]!;
  }
  return result;
}

/** The tables whose fingerprint differs, for a failure message that says where to look. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}

/** The app's routes without the HEAD twins fastify adds for GET routes and the CORS preflight. */
export function appRoutes(app: TypedApp): RouteEntry[] {
  return routesOf(app).filter((route) => route.method !== 'HEAD' && route.method !== 'OPTIONS');
}

/** A concrete path for a route: `:name` from `params`, a wildcard as `rest`. */
export function pathOf(url: string, params: Record<string, string> = {}, rest = 'x'): string {
  // A URL carries UTF-8, so a lone surrogate cannot reach the server as such.
  return url
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent((params[name] ?? '1').replace(/[\uD800-\uDFFF]/gu, '\uFFFD')))
    .replace('*', rest);
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inOneHour = () => Math.floor(Date.now() / 1000) + 3_600;
const sign = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' });

/** Authorization header values that must never get past a guard: [case, header or undefined for none]. */
export function refusedCredentials(): Array<[string, string | undefined]> {
  const valid = sign({ sub: 'alice', role: 'admin', exp: inOneHour() });
  const [header, , signature] = valid.split('.');
  return [
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['the scheme without a token', 'Bearer'],
    ['another scheme', `Basic ${Buffer.from('admin:admin').toString('base64')}`],
    ['a token that is not a JWT', 'Bearer not-a-token'],
    ['two tokens', `Bearer ${valid} ${valid}`],
    ['an expired token', `Bearer ${sign({ sub: 'alice', role: 'admin', exp: Math.floor(Date.now() / 1000) - 60 })}`],
    [
      'a token signed with another secret',
      `Bearer ${createSigner({ key: 'another-secret-that-is-long-enough' })({ sub: 'alice', role: 'admin', exp: inOneHour() })}`,
    ],
    [
      'an unsigned token (alg none)',
      `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'alice', role: 'admin', exp: inOneHour() })}.`,
    ],
    [
      'an HS512 token (algorithm not pinned)',
      `Bearer ${createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS512' })({ sub: 'alice', role: 'admin', exp: inOneHour() })}`,
    ],
    [
      'a payload altered after signing',
      `Bearer ${header}.${base64url({ sub: 'alice', role: 'admin', exp: inOneHour() + 60 })}.${signature}`,
    ],
    ['an unknown role', `Bearer ${sign({ sub: 'alice', role: 'root', exp: inOneHour() })}`],
    ['no subject', `Bearer ${sign({ role: 'admin', exp: inOneHour() })}`],
  ];
}

/**
 * A host firewall that refuses every change the way Windows without administrator rights does:
 * a request that gets past the API's checks reaches it without the test host's firewall being touched.
 */
export function windowsWithoutAdminRights(): Firewall {
  const host = createFirewall();
  const refuse = async (): Promise<never> => {
    throw new FirewallError('PERMISSION_DENIED', 'Administrator rights are required to change firewall rules');
  };
  return {
    supported: true,
    platform: 'win32',
    services: host.services,
    isAdmin: async () => false,
    status: () => host.status(),
    enable: refuse,
    disable: refuse,
  };
}
