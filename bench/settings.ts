/**
 * What `npm run bench` runs and for how long. BENCH_QUICK=1 shortens every phase (development);
 * BENCH_ONLY picks scenarios (comma-separated names of SCENARIOS).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const quick = process.env.BENCH_QUICK === '1';
export const SCENARIOS = ['live', 'throughput', 'read', 'squad', 'results', 'memory', 'fanout', 'legacy', 'public'] as const;
export const only = new Set((process.env.BENCH_ONLY ?? SCENARIOS.join(',')).split(',').map((name) => name.trim()));

export const settings = {
  quick,
  portalCounts: [10, 50, 200],
  scoreboards: 50,
  saveIntervalMs: 200,
  /** A portal makes no new save while its oldest unanswered one is this far behind (overload bound). */
  maxLagMs: 5_000,
  /** Per variant and portal count, run as `liveRounds` rounds that take turns with the other variant's. */
  liveSeconds: quick ? 5 : 30,
  liveRounds: quick ? 1 : 3,
  throughputConnections: [10, 100],
  /** Per variant and connection count, run as `throughputRounds` rounds that take turns with the other variants'. */
  throughputSeconds: quick ? 3 : 21,
  throughputRounds: quick ? 1 : 3,
  /** The two ceilings (bare upsert, minimal outbox command) run at these connection counts only. */
  ceilingConnections: [10],
  throughputScores: 1_000,
  readParticipants: 1_000,
  readDisciplines: 6,
  readLimit: 1_000,
  coldReads: quick ? 3 : 10,
  warmReads: quick ? 40 : 200,
  squadParticipants: 1_000,
  squadProposals: 10,
  squadRequests: quick ? 5 : 20,
  /** GET /api/results over the read event, and saves followed through to the all-around ranking. */
  resultReads: quick ? 20 : 100,
  resultSaves: quick ? 20 : 100,
  soakEvents: quick ? 2_000 : 10_000,
  soakPortals: 50,
  /** Fan-out: this many scoreboards in one room, spread over `fanoutProcesses` client processes. */
  fanoutScoreboards: quick ? 1_000 : 5_000,
  fanoutProcesses: 2,
  /** Saves per second into the fan-out room (portals × 1000 / saveIntervalMs). */
  fanoutPortals: 4,
  fanoutSeconds: quick ? 4 : 10,
  fanoutWarmUpSeconds: 2,
  /** Public instance: this many spectator connections, spread over `publicProcesses` client processes, at the fan-out's saves/s. */
  publicSpectators: quick ? 2_000 : 10_000,
  publicProcesses: 4,
  /** A spectator opens the page (its snapshot on the public instance) this often during the phase. */
  publicPageLoadIntervalMs: 100,
  /** Legacy single-row writes (outside the service) per measured series. */
  legacyWrites: quick ? 300 : 2_000,
  logLevel: process.env.BENCH_LOG_LEVEL || 'info',
  cpuProfile: process.env.BENCH_CPU_PROF === '1',
  pgStats: process.env.BENCH_PG_STATS === '1',
};

export const progress = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
