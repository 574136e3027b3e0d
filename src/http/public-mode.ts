import type { FastifyInstance } from 'fastify';
import type { ServiceMode } from '../config.js';
import { errorBody } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A read a spectator may make (`config: { publicRead: true }`): the only routes a public
     * instance (`SERVICE_MODE=public`) answers. Every other route answers 403 there.
     */
    publicRead?: boolean;
  }
}

export const PUBLIC_MODE_REFUSAL = 'This is a read-only public results service: only the public reads are served here';

/**
 * In public mode every route without `publicRead` answers 403 before its own hooks run: the
 * instance reads a logical replica, where a write would either fail or make the replica differ
 * from the hall. Unknown paths keep their 404.
 */
export function registerPublicMode(app: FastifyInstance, mode: ServiceMode): void {
  if (mode !== 'public') return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.publicRead === true) return;
    return reply.status(403).send(errorBody(403, 'FORBIDDEN', PUBLIC_MODE_REFUSAL));
  });
}
