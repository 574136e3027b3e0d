import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError } from './errors.js';
import type { AuthMode } from '../config.js';

export type Role = 'admin' | 'jury';
export const ROLES: readonly Role[] = ['admin', 'jury'];

export interface TokenClaims {
  sub: string;
  role: Role;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler that admits a valid bearer token whose role is one of `roles`. */
    requireRole(...roles: Role[]): preHandlerAsyncHookHandler;
    /** preHandler for score-writing routes: open in AUTH_MODE=lan, jury or admin token in strict. */
    requireScoreWriter: preHandlerAsyncHookHandler;
  }
}

export async function registerAuth(app: FastifyInstance, options: { secret: string; mode: AuthMode }): Promise<void> {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256' },
    // Pinning the algorithm is what refuses `alg: none` and algorithm-confusion tokens.
    verify: { algorithms: ['HS256'] },
  });

  app.decorate('requireRole', (...roles: Role[]) => {
    return async (request: FastifyRequest, _reply: FastifyReply) => {
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
      if (!roles.includes(claims.role)) {
        throw new AppError(403, 'FORBIDDEN', `This action needs the role ${roles.join(' or ')}`);
      }
    };
  });

  const scoreWriter = app.requireRole('jury', 'admin');
  app.decorate('requireScoreWriter', async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    if (options.mode === 'strict') await scoreWriter.call(app, request, reply);
  });
}

export function signToken(app: FastifyInstance, claims: TokenClaims, hours: number): string {
  return app.jwt.sign(claims, { expiresIn: `${hours}h` });
}
