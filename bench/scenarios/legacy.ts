/**
 * Scenario: the cost of a legacy single-row write, as the desktop program makes it (a plain UPDATE
 * of one jury result, simple protocol, autocommit, outside the service). Its statement-level
 * trigger turns it into a `score-updated` outbox event. Baseline: the same writes on a session
 * marked as the service's own (gym.origin = 'api'), where the trigger returns at once.
 *
 * The figure is the PostgreSQL CPU of the writing backend itself (from /proc/<pid>/stat), which
 * includes its trigger; the whole server's CPU per write (sequencer and relay reads included) is
 * given beside it.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { API_ORIGIN, ORIGIN_SETTING } from '../../src/db/origin.js';
import { maxOutboxId, postgresCpuMs, sequencedSince, type Context } from '../harness.js';
import { progress, settings } from '../settings.js';
import { ratio } from '../stats.js';

/** CPU milliseconds one backend has used so far (utime + stime). */
function backendCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return ((fields[11]! + fields[12]!) * 1000) / 100;
}

export interface LegacySeries {
  writes: number;
  /** PostgreSQL CPU of the writing backend per write, trigger included. */
  writerCpuMs: number;
  /** Whole PostgreSQL server per write, until the events are numbered (sequencer and relay reads included). */
  postgresCpuMs: number;
  wallMsPerWrite: number;
  events: number;
}

async function series(context: Context, marked: boolean, round: number): Promise<LegacySeries> {
  const client = new pg.Client({
    connectionString: context.desktopDatabaseUrl,
    application_name: marked ? 'bench-legacy-baseline' : 'bench-legacy-desktop',
    ...(marked ? { options: `-c ${ORIGIN_SETTING}=${API_ORIGIN}` } : {}),
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0]!.pid;
    const scoreIds = context.data.throughput.scoreIds;
    const fieldB = context.data.disciplines[0]!.fields.B;
    // Parse and plan once so the first write does not carry the session's catalogue warm-up.
    await client.query(
      `UPDATE ${context.db.tables.jury_results} SET rel_leistung = rel_leistung WHERE int_wertungenid = ${scoreIds[0]} AND int_disziplinen_felderid = ${fieldB}`,
    );
    const outboxBefore = await maxOutboxId(context);
    const writerBefore = backendCpuMs(pid);
    const serverBefore = postgresCpuMs(context.pgDataDir);
    const started = performance.now();
    for (let n = 0; n < settings.legacyWrites; n++) {
      const scoreId = scoreIds[n % scoreIds.length]!;
      // A value no earlier series wrote to this row, so every write changes it and makes one event.
      const value = ((n * 7 + round * 31) % 900) / 100 + 0.005;
      await client.query(
        `UPDATE ${context.db.tables.jury_results} SET rel_leistung = ${value} WHERE int_wertungenid = ${scoreId} AND int_disziplinen_felderid = ${fieldB} AND int_versuch = 1`,
      );
    }
    const wallMs = performance.now() - started;
    const writerCpu = backendCpuMs(pid) - writerBefore;
    const events = (await sequencedSince(context, outboxBefore)).length;
    // Let the relay read what was numbered before the whole server's CPU is taken.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const serverCpu = postgresCpuMs(context.pgDataDir) - serverBefore;
    const per = (value: number) => Math.round((value / settings.legacyWrites) * 1000) / 1000;
    return {
      writes: settings.legacyWrites,
      writerCpuMs: per(writerCpu),
      postgresCpuMs: per(serverCpu),
      wallMsPerWrite: per(wallMs),
      events,
    };
  } finally {
    await client.end();
  }
}

export async function legacyScenario(context: Context) {
  progress(
    `legacy writes: ${settings.legacyWrites} single-row UPDATEs outside the service, and as many on a session marked as the service's`,
  );
  // Baseline, legacy, baseline, legacy: a drift in machine load falls on both.
  const baseline1 = await series(context, true, 1);
  const legacy1 = await series(context, false, 2);
  const baseline2 = await series(context, true, 3);
  const legacy2 = await series(context, false, 4);
  const mean = (a: LegacySeries, b: LegacySeries): LegacySeries => ({
    writes: a.writes + b.writes,
    writerCpuMs: Math.round(((a.writerCpuMs + b.writerCpuMs) / 2) * 1000) / 1000,
    postgresCpuMs: Math.round(((a.postgresCpuMs + b.postgresCpuMs) / 2) * 1000) / 1000,
    wallMsPerWrite: Math.round(((a.wallMsPerWrite + b.wallMsPerWrite) / 2) * 1000) / 1000,
    events: a.events + b.events,
  });
  const legacy = mean(legacy1, legacy2);
  const baseline = mean(baseline1, baseline2);
  return {
    legacy,
    baseline,
    /** Events the legacy writes made: one per write. */
    eventsPerWrite: Math.round((legacy.events / legacy.writes) * 100) / 100,
    ratioWriterCpu: ratio(legacy.writerCpuMs, baseline.writerCpuMs),
    ratioPostgresCpu: ratio(legacy.postgresCpuMs, baseline.postgresCpuMs),
  };
}
