import type pg from 'pg';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { AppDeps, TypedApp } from './http/app-types.js';
import type { Config } from './config.js';
import { migrateDatabase } from './db/database.js';
import { createPool, endPool, type Pool } from './db/pool.js';
import { createTables } from './db/tables.js';
import { createRealtimeGateway, REPLAY_CONNECTIONS, type RealtimeGateway } from './realtime/gateway.js';
import { SpectatorHub } from './realtime/spectators.js';
import { corsOriginPolicy, hostPolicy, requestOriginPolicy } from './http/security.js';
import { OutboxRelay } from '../outbox/relay.js';
import { OutboxRetention } from '../outbox/retention.js';
import { createCommandRunner, type CommandRunner } from '../commands/run-command.js';

const SHUTDOWN_GRACE_MS = 5_000;

export interface RunningServer {
  app: TypedApp;
  pool: Pool;
  commands: CommandRunner;
  relay: OutboxRelay;
  retention: OutboxRetention;
  gateway: RealtimeGateway;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3001 */
  url: string;
  close(): Promise<void>;
}

/**
 * Wires database, relay, HTTP and Socket.IO on one port. Used by `npm start` and by tests alike;
 * `overrides` lets tests replace host adapters, e.g. a firewall whose commands they replay, and the
 * bench the class of the database connections (one that counts statements).
 */
export async function startServer(
  config: Config,
  databaseUrl: string,
  logger: Logger,
  overrides: Pick<AppDeps, 'firewall'> & { clientClass?: typeof pg.Client } = {},
): Promise<RunningServer> {
  const { clientClass, ...adapters } = overrides;
  const tables = createTables(config.tablePrefix);
  await migrateDatabase(databaseUrl, tables, logger);
  const pool = createPool({ connectionString: databaseUrl, tables, clientClass }, logger);
  const relay = new OutboxRelay({ connectionString: databaseUrl, pool, logger, clientClass });
  const commands = createCommandRunner(pool, () => relay.commandCommitted());
  // The spectators' privacy settings in memory, shared by the public reads and the live channel.
  const spectators = new SpectatorHub(pool, () => relay.status().cursor);
  const app = await buildApp({ config, pool, commands, logger, relay, spectators, ...adapters });
  // Replays read through their own small pool: a flood of joins must not take the connections saves need.
  const replayPool = createPool(
    { connectionString: databaseUrl, tables, max: REPLAY_CONNECTIONS, applicationName: 'gym-competition-service replay', clientClass },
    logger,
  );
  const gateway = createRealtimeGateway(app.server, logger, relay, {
    allowHost: hostPolicy(config),
    allowOrigin: corsOriginPolicy(config),
    allowRequestOrigin: requestOriginPolicy(config),
    replayDb: replayPool,
    replayMaxEvents: config.replayMaxEvents,
    spectators,
  });
  const retention = new OutboxRetention({ pool, logger, retentionHours: config.outboxRetentionHours });
  await relay.start();
  retention.start();
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | null = null;
  return {
    app,
    pool,
    commands,
    relay,
    retention,
    gateway,
    url: `http://${shownHost}:${port}`,
    close() {
      // Order matters: stop taking requests and let in-flight ones finish, then stop emitting, then the pool.
      // The HTTP server only finishes closing once its Socket.IO connections are gone (upgraded
      // connections are never idle), so the gateway closes them while in-flight requests finish.
      closing ??= (async () => {
        const httpClosed = app.close();
        // In-flight requests get a grace period; a connection that never turns idle (a browser's
        // keep-alive) must not hold the shutdown, and the port, forever. Armed before the gateway
        // closes, because Socket.IO's close itself waits for the HTTP server to close.
        const forceClose = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await gateway.close();
        await httpClosed;
        clearTimeout(forceClose);
        await retention.stop();
        await relay.stop();
        await Promise.all([endPool(pool), endPool(replayPool)]);
      })();
      return closing;
    },
  };
}
