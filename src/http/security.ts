/**
 * Transport-level protection for every route: security headers (helmet), CORS limited to the
 * client origins, and rate limits on the token-protected routes. It also keeps the table of all
 * routes with the guard each one really has, which the security tests walk, so a new route is
 * covered by them without anyone remembering to list it.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import os from 'node:os';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifySchema, RouteOptions, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';
import { guardRequirement, type AuthRequirement } from './auth.js';
import { errorBody } from './errors.js';

export interface RouteEntry {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  /** null: the route answers without a token. */
  auth: AuthRequirement | null;
  /** The route's own body limit (a file upload); undefined: the app's. */
  bodyLimit: number | undefined;
}

const routeTables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route of an app built by `buildApp`, in registration order (HEAD twins of GET routes included). */
export function routesOf(app: FastifyInstance): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

const GUARDED_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

function hooksOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

function authOf(route: RouteOptions): AuthRequirement | null {
  for (const hook of GUARDED_HOOKS) {
    for (const handler of hooksOf(route[hook])) {
      const requirement = guardRequirement(handler);
      if (requirement === null) continue;
      // Later hooks run after the body was read and validated: an anonymous caller would make the
      // server parse up to the body limit and would learn the schema before it learns "401".
      if (hook !== 'onRequest') throw new Error(`${String(route.method)} ${route.url}: put the auth guard in onRequest, not ${hook}`);
      return requirement;
    }
  }
  return null;
}

// Private and loopback address ranges as literals; a hostname without a dot is a LAN machine name.
const PRIVATE_IPV4 = [/^10\./, /^127\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./];
const PRIVATE_IPV6 = [/^::1$/, /^f[cd][0-9a-f]{2}:/i, /^fe[89ab][0-9a-f]:/i];
const LAN_SUFFIXES = ['.local', '.lan', '.home.arpa', '.internal'];

function isLanHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  if (family === 4) return PRIVATE_IPV4.some((pattern) => pattern.test(host));
  if (family === 6) return PRIVATE_IPV6.some((pattern) => pattern.test(host));
  return !host.includes('.') || LAN_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * Which browser origins may call the API and Socket.IO from another origin. The backend's own
 * pages (/jury/, /board/, /docs) and the stand-alone client port (which proxies /api) are
 * same-origin and need none of this. CORS_ORIGINS names the allowed origins exactly (`*`: any);
 * unset, a client on the configured FRONTEND_PORT/JURY_PORT of a LAN host is allowed, since the
 * address the gym's machines use is not known at install time, and nothing else is.
 */
export function corsOriginPolicy(config: Pick<Config, 'corsOrigins' | 'servicePorts'>): (origin: string) => boolean {
  if (config.corsOrigins.includes('*')) return () => true;
  if (config.corsOrigins.length > 0) {
    const allowed = new Set(config.corsOrigins);
    return (origin) => allowed.has(origin);
  }
  const clientPorts = new Set([String(config.servicePorts.frontend), String(config.servicePorts.jury)]);
  return (origin) => {
    const url = URL.canParse(origin) ? new URL(origin) : null;
    return url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && clientPorts.has(url.port) && isLanHost(url.hostname);
  };
}

/** The host name of a `Host` header without port and brackets, lowercase, or null when it does not parse. */
function hostNameOf(hostHeader: string): string | null {
  if (!URL.canParse(`http://${hostHeader}`)) return null;
  const url = new URL(`http://${hostHeader}`);
  // A Host header is host[:port] only; anything else (user info, a path) is not a host.
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Which `Host` headers the service answers. Anonymous score writes are allowed on the LAN, so a
 * web page on the internet could otherwise write scores through a browser in the hall by pointing
 * its own DNS name at the service's address (DNS rebinding): that request carries the attacker's
 * name in Host. IP literals, localhost and this machine's own names cannot be rebound; any other
 * name must be listed in ALLOWED_HOSTS.
 */
export function hostPolicy(
  config: Pick<Config, 'allowedHosts'>,
  machineName: string = os.hostname(),
): (hostHeader: string | undefined) => boolean {
  if (config.allowedHosts.includes('*')) return () => true;
  const machine = machineName.toLowerCase();
  const short = machine.split('.')[0]!;
  const names = new Set([machine, short, `${short}.local`, 'localhost', ...config.allowedHosts.filter((host) => !host.startsWith('.'))]);
  const domains = config.allowedHosts.filter((host) => host.startsWith('.'));
  return (hostHeader) => {
    // HTTP/1.0 clients may omit Host; browsers always send it, so nothing can be rebound without one.
    if (hostHeader === undefined) return true;
    const host = hostNameOf(hostHeader);
    if (host === null) return false;
    return (
      isIP(host) !== 0 ||
      names.has(host) ||
      host.endsWith('.localhost') ||
      domains.some((domain) => host.endsWith(domain) || host === domain.slice(1))
    );
  };
}

/**
 * The origin rule of the HTTP API applied to a request that no CORS header can protect (the
 * websocket upgrade: browsers send it from any page and do not check the answer): no Origin (not a
 * browser), the page's own origin, or an origin the CORS policy allows.
 */
export function requestOriginPolicy(
  config: Pick<Config, 'corsOrigins' | 'servicePorts'>,
): (request: Pick<IncomingMessage, 'headers'>) => boolean {
  const allowOrigin = corsOriginPolicy(config);
  return (request) => {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    const url = URL.canParse(origin) ? new URL(origin) : null;
    if (url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.host === request.headers.host) return true;
    return allowOrigin(origin);
  };
}

// In a `u` regex a surrogate pair is one code point, so only a lone surrogate is \p{Cs}.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The path of the first string in `value` (keys included) that is not well-formed Unicode, or
 * null. JSON's `\ud800` escapes reach JavaScript as lone surrogates, which PostgreSQL cannot store
 * as UTF-8 (pg replaces them), so two different names could be stored as one.
 */
export function illFormedTextPath(value: unknown, path: string): string | null {
  // Iterative: a body may nest thousands of levels deep, which recursion would not survive.
  const pending: Array<[unknown, string]> = [[value, path]];
  while (pending.length > 0) {
    const [item, itemPath] = pending.pop()!;
    if (typeof item === 'string') {
      if (LONE_SURROGATE.test(item)) return itemPath;
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    // Reversed onto the stack, so the first offending field in document order is the one named.
    for (const [key, child] of Object.entries(item).reverse()) {
      const childPath = Array.isArray(item) ? `${itemPath}[${key}]` : `${itemPath}.${key}`;
      if (LONE_SURROGATE.test(key)) return childPath;
      pending.push([child, childPath]);
    }
  }
  return null;
}

export const HOST_REFUSED_MESSAGE = 'The Host header names neither an IP address nor this machine; add the name to ALLOWED_HOSTS';

/** Must run before any route is added: the onRoute hook only sees routes registered after it. */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const routes: RouteEntry[] = [];
  routeTables.set(app, routes);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        // The pages load only their own bundles; Swagger UI (/docs) ships no inline script either.
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'connect-src': ["'self'"],
        // The service runs over plain HTTP on the LAN: upgrading would send the pages' own
        // requests to an https:// port nobody listens on (only localhost is exempt in browsers).
        'upgrade-insecure-requests': null,
      },
    },
    // Same reason: HSTS over HTTP is ignored at best, and would pin a later HTTPS proxy's host.
    strictTransportSecurity: false,
    // Browsers ignore COOP on a plain-HTTP LAN address and log an error on every page load.
    crossOriginOpenerPolicy: false,
  });

  const allowOrigin = corsOriginPolicy(config);
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowOrigin(origin)),
    // The office on its own port (`npm run serve:office`) edits panels, squads and plans (PUT) and
    // reopens releases and revokes judge codes (DELETE).
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    // Tokens travel in the Authorization header, never in cookies.
    credentials: false,
    maxAge: 600,
  });

  await app.register(fastifyRateLimit, { global: false });

  // After the guards (onRequest), before the schema: every route that takes a body stores text.
  app.addHook('preValidation', async (request, reply) => {
    const path = illFormedTextPath(request.body, 'body');
    if (path !== null)
      return reply.status(400).send(errorBody(400, 'VALIDATION_FAILED', `${path} is not well-formed Unicode (a lone surrogate)`));
  });

  const allowHost = hostPolicy(config);
  app.addHook('onRequest', async (request, reply) => {
    if (!allowHost(request.headers.host)) return reply.status(400).send(errorBody(400, 'VALIDATION_FAILED', HOST_REFUSED_MESSAGE));
  });

  app.addHook('onRoute', (route) => {
    const auth = authOf(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, schema: route.schema, auth, bodyLimit: route.bodyLimit });
    const perMinute =
      auth === null
        ? 0
        : auth.when === 'always'
          ? methods.every((method) => method === 'GET' || method === 'HEAD')
            ? config.rateLimit.readsPerMinute
            : config.rateLimit.adminPerMinute
          : config.authMode === 'strict'
            ? config.rateLimit.scoreWritesPerMinute
            : 0;
    if (perMinute === 0) return;
    // One limiter per route keys its counts by client address: per address and route. It goes
    // first, so refused tokens count too and a flood never reaches the token check.
    const limit: onRequestHookHandler = app.rateLimit({ max: perMinute, timeWindow: 60_000 });
    route.onRequest = [limit, ...hooksOf(route.onRequest)] as onRequestHookHandler[];
  });
}
