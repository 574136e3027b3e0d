/**
 * The types the HTTP layer shares: what the composition root hands to every route module, and
 * the typed fastify instance they register on. Kept apart from `src/app.ts` so route modules never
 * import the module that imports them.
 */
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Pool } from '../db/pool.js';
import type { Firewall } from '../firewall/index.js';
import type { RelayStatus } from '../../outbox/relay.js';
import type { CommandRunner } from '../../commands/run-command.js';
import type { SpectatorHub } from '../realtime/spectators.js';

/** Everything the HTTP layer needs from the composition root; tests build it the same way. */
export interface AppDeps {
  config: Config;
  pool: Pool;
  /** Runs a command in one transaction and wakes this instance's relay after its commit. */
  commands: CommandRunner;
  logger: Logger;
  relay: { status(): RelayStatus };
  /** The spectators' privacy settings and live channel (src/realtime/spectators.ts); absent: the public reads keep their own. */
  spectators?: SpectatorHub;
  /** Host firewall; absent means the one `createFirewall` picks for this OS from the config. */
  firewall?: Firewall;
}

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is one a public read-only instance serves (the spectator page and its reads). */
    publicRead?: boolean;
  }
}
