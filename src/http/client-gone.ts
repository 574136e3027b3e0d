import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CommandContext } from '../../commands/run-command.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Fires when the client went away before its answer was sent. */
    clientGone: AbortSignal;
  }
}

/**
 * Every request gets a signal that fires when its client goes away before the answer; the commands
 * it runs receive it in their context (`commandContext`, `withClientGone`), so a command whose
 * client is gone stops waiting and gives its connection back instead of holding it until a timeout.
 * Handed down explicitly: an AsyncLocalStorage carrying it made Node 20 run a hook at every promise
 * the service created, 2.5 % of the throughput of saves (docs/performance.md, "No AsyncLocalStorage").
 */
export function registerClientGone(app: FastifyInstance): void {
  app.decorateRequest('clientGone', null as unknown as AbortSignal);
  app.addHook('onRequest', (request, reply, done) => {
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    request.clientGone = controller.signal;
    done();
  });
}

/** `context` for a command run to answer `request`. */
export const withClientGone = (context: CommandContext, request: FastifyRequest): CommandContext => ({
  ...context,
  signal: request.clientGone,
});
