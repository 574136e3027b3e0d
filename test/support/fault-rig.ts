/**
 * What every fault test sets up: a database with scores for the portals to save, the service as
 * child processes on it (so SIGKILL and SIGTERM are real), scoreboards and portals. Everything it
 * started is tracked, so `dispose` in afterAll stops it also when the test failed half-way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { migrateDatabase } from '../../src/db/database.js';
import { createPool, endPool, type Pool } from '../../src/db/pool.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createPortalTargets, startPortals, type PortalLoad, type PortalTargets } from './portal-load.js';
import { killIfRunning, startService, type ServiceProcess } from './process.js';
import { openScoreboard, type Scoreboard } from './realtime.js';
import { TEST_JWT_SECRET } from './server.js';
import { t } from './tables.js';

export interface FaultRig {
  database: TestDatabase;
  /** The test's own connections, for checks and for setting up. */
  pool: Pool;
  targets: PortalTargets;
  /** Starts the service on the rig's database; `port` to restart it where its clients reconnect. */
  startService(options?: { port?: number; env?: Record<string, string> }): Promise<ServiceProcess>;
  openScoreboards(baseUrl: string, count: number): Promise<Scoreboard[]>;
  startPortals(baseUrl: string): PortalLoad;
  dispose(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/**
 * `database` defaults to a fresh clone of the test template (dropped by `dispose`); a given one,
 * e.g. on a server the test owns, is migrated first and left in place.
 */
export async function createFaultRig(
  options: { database?: TestDatabase; portals?: number; scoresPerPortal?: number } = {},
): Promise<FaultRig> {
  const database = options.database ?? (await createTestDatabase());
  if (options.database) await migrateDatabase(database.url, t, silent);
  const pool = createPool({ connectionString: database.url, tables: t, max: 4, applicationName: 'fault-test' }, silent);
  const release = async () => {
    await endPool(pool);
    if (!options.database) await database.drop();
  };
  let targets: PortalTargets;
  try {
    targets = await createPortalTargets(pool, options.portals ?? 20, options.scoresPerPortal ?? 150);
  } catch (error) {
    await release();
    throw error;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-fault-'));
  const services: ServiceProcess[] = [];
  const boards: Scoreboard[] = [];
  const loads: PortalLoad[] = [];
  const rig: FaultRig = {
    database,
    pool,
    targets,
    async startService({ port, env } = {}) {
      const service = await startService(
        { DATABASE_URL: database.url, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...env },
        { port },
      );
      services.push(service);
      return service;
    },
    async openScoreboards(baseUrl, count) {
      const opened = await Promise.all(Array.from({ length: count }, () => openScoreboard(baseUrl, rig.targets.competition.eventId)));
      boards.push(...opened);
      return opened;
    },
    startPortals(baseUrl) {
      const load = startPortals(baseUrl, rig.targets);
      loads.push(load);
      return load;
    },
    async dispose() {
      await Promise.all(loads.map((load) => load.stop()));
      for (const board of boards) board.socket.disconnect();
      await Promise.all(services.map(killIfRunning));
      await release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return rig;
}
