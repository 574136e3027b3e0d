import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from './errors.js';
import type { AuthMode } from '../config.js';

export type Role = 'admin' | 'head' | 'jury';
export const ROLES: readonly Role[] = ['admin', 'head', 'jury'];
/** Roles that may write into a released scope and release or reopen one. */
export const HEAD_ROLES: readonly Role[] = ['head', 'admin'];

/**
 * What a route's guard demands: a token with one of `roles`, always or only in AUTH_MODE=strict.
 * Recorded per guard function, so the security layer reads it off the hooks a route really has
 * (rate limits, the route table the token tests walk) instead of trusting a separate list.
 */
export interface AuthRequirement {
  roles: readonly Role[];
  when: 'always' | 'strict';
}

const guards = new WeakMap<object, AuthRequirement>();

/** The requirement of a hook function, when it is one of this module's guards. */
export function guardRequirement(hook: unknown): AuthRequirement | null {
  return typeof hook === 'function' ? (guards.get(hook) ?? null) : null;
}

/** A judge credential's scope (issue 45): the token writes scores of this apparatus (and field) of this event only. */
export interface JudgeScope {
  credentialId: number;
  eventId: number;
  disciplineId: number;
  /** An E-judge's field; null: every field of the apparatus and its final. */
  fieldId: number | null;
}

export interface TokenClaims {
  sub: string;
  role: Role;
  /** Present on a judge credential's token only. */
  judge?: JudgeScope;
}

const isId = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

function isJudgeScope(value: unknown): value is JudgeScope {
  const scope = value as Partial<JudgeScope> | null;
  return (
    typeof scope === 'object' &&
    scope !== null &&
    isId(scope.credentialId) &&
    isId(scope.eventId) &&
    isId(scope.disciplineId) &&
    (scope.fieldId === null || isId(scope.fieldId))
  );
}

export interface AuthOptions {
  secret: string;
  mode: AuthMode;
  /** Whether a judge credential still counts (not revoked, not expired); asked on every request its token makes. */
  judgeCredentialActive(credentialId: number): Promise<boolean>;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest guard that admits a valid bearer token whose role is one of `roles`. */
    requireRole(...roles: Role[]): preHandlerAsyncHookHandler;
    /**
     * onRequest guard for score-writing routes: a jury, head or admin token in AUTH_MODE=strict; in
     * lan mode open, but a token that is sent is checked, since its subject and role go into the
     * audit record and decide whether a released scope may be written.
     */
    requireScoreWriter: preHandlerAsyncHookHandler;
  }
}

export async function registerAuth(app: FastifyInstance, options: AuthOptions): Promise<void> {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256' },
    // Pinning the algorithm is what refuses `alg: none` and algorithm-confusion tokens.
    // A token without `exp` would be valid forever: a leaked one could never be retired.
    verify: { algorithms: ['HS256'], requiredClaims: ['exp'] },
  });

  app.decorate('requireRole', (...roles: Role[]) => {
    const guard = async (request: FastifyRequest, _reply: FastifyReply) => {
      const header = request.headers.authorization;
      if (!header || !/^Bearer\s+\S+$/i.test(header)) {
        throw new AppError(401, 'UNAUTHORIZED', 'A bearer token is required (Authorization: Bearer <token>)');
      }
      let claims: TokenClaims;
      try {
        claims = await request.jwtVerify<TokenClaims>();
      } catch {
        throw new AppError(401, 'UNAUTHORIZED', 'The token is invalid or expired');
      }
      if (typeof claims.sub !== 'string' || !ROLES.includes(claims.role)) {
        throw new AppError(401, 'UNAUTHORIZED', 'The token lacks a subject or a known role');
      }
      // The verifier takes any number as `exp`; one no date can hold (1e308) would be valid for ever.
      if (!Number.isFinite(new Date((claims as TokenClaims & { exp: number }).exp * 1000).getTime())) {
        throw new AppError(401, 'UNAUTHORIZED', 'The token’s expiry is not a valid time');
      }
      if (claims.judge !== undefined) {
        // Revocation and the stored expiry take effect at once, whatever the signed token says.
        if (!isJudgeScope(claims.judge) || claims.role !== 'jury')
          throw new AppError(401, 'UNAUTHORIZED', 'The token’s judge scope is malformed');
        if (!(await options.judgeCredentialActive(claims.judge.credentialId)))
          throw new AppError(401, 'UNAUTHORIZED', 'The judge credential was revoked or has expired');
      }
      if (!roles.includes(claims.role)) {
        throw new AppError(403, 'FORBIDDEN', `This action needs the role ${roles.join(' or ')}`);
      }
    };
    guards.set(guard, { roles, when: 'always' });
    return guard;
  });

  app.decorate('requireScoreWriter', requireTokenWhenStrict(app, options.mode, ['jury', 'head', 'admin']));
}

/**
 * onRequest guard: a token with one of `roles` in AUTH_MODE=strict; in lan mode open, but a token
 * that is sent is checked (401 when invalid, 403 for another role), since its subject and role count.
 */
export function requireTokenWhenStrict(app: FastifyInstance, mode: AuthMode, roles: Role[]): preHandlerAsyncHookHandler {
  const check = app.requireRole(...roles);
  const guard = async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    if (mode === 'strict' || request.headers.authorization !== undefined) await check.call(app, request, reply);
  };
  guards.set(guard, { roles, when: 'strict' });
  return guard;
}

export function signToken(app: FastifyInstance, claims: TokenClaims, hours: number): string {
  return app.jwt.sign(claims, { expiresIn: `${hours}h` });
}

/** A judge credential's token: role jury, the judge's name as subject, valid until `expiresAt`. */
export function signJudgeToken(app: FastifyInstance, judgeName: string, scope: JudgeScope, expiresAt: string): string {
  const claims: TokenClaims & { exp: number } = {
    sub: judgeName,
    role: 'jury',
    judge: scope,
    exp: Math.floor(Date.parse(expiresAt) / 1000),
  };
  return app.jwt.sign(claims);
}
