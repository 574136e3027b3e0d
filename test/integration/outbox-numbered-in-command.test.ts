/**
 * Issue 18: a save's event is numbered in the save's own transaction when nobody else is drawing
 * seqs (the numbering lock is free), and its instance delivers it from there. Whoever draws seqs
 * holds that lock until its commit is visible, so seqs still become visible in order: a save that
 * finds the lock taken leaves its event to the sequencer or the next save, which number it after
 * the holder.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { runCommand } from '../../commands/run-command.js';
import { saveJuryResult as saveJuryResultCommand } from '../../commands/save-jury-result.js';
import { appendLastOutboxEvent } from '../../outbox/append.js';
import { NUMBERING_LOCK_KEY, RETENTION_LOCK_KEY } from '../../src/db/advisory-locks.js';
import { assignSeqReturning, selectUnsequenced, sequenceWaitingEvents } from '../../outbox/sequencer.js';
import { createPool, endPool, type Pool } from '../../src/db/pool.js';
import { createTestDatabase } from '../support/database.js';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import {
  collectEvents,
  commitEvent,
  isStrictlyIncreasing,
  joinCompetition,
  markerEvent,
  seqsOf,
  waitForMarker,
  type ReceivedEvent,
} from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, waitForNumbered, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';

let server: TestServer;
let competition: Competition;
let discipline: Discipline;
let scoreIds: number[];
let events: ReceivedEvent[];
const sockets: Socket[] = [];
const clients: pg.Client[] = [];

async function saveJuryResult(scoreId: number, performance: number): Promise<number> {
  const response = await fetch(`${server.url}/api/jury-results`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ participantId: scoreId, disciplineFieldId: discipline.fields.A, performance, attempt: 1, type: 0 }),
  });
  return response.status;
}

/** The outbox row of the score's latest event, and whether it was written by the same transaction as the score's jury result. */
async function latestEventOf(scoreId: number): Promise<{ seq: number | null; sameTransaction: boolean }> {
  const { rows } = await server.pool.query<{ seq: number | null; same_transaction: boolean }>(
    `SELECT o.seq, o.xmin::text = j.xmin::text AS same_transaction
       FROM ${t.svc_outbox} o
       JOIN ${t.jury_results} j ON j.int_wertungenid = $1 AND j.int_disziplinen_felderid = $2
      WHERE o.event_id = $3 AND (o.payload->>'scoreId')::int = $1
      ORDER BY o.id DESC LIMIT 1`,
    [scoreId, discipline.fields.A, competition.eventId],
  );
  return { seq: rows[0]!.seq, sameTransaction: rows[0]!.same_transaction };
}

/**
 * Saves the score (each time 0.5 higher than `from`, each expected to answer 200) until a save's
 * event was numbered in place, at most five times: a save while the relay happens to be at work
 * (its one-second backstop pass) leaves its event to the sequencer, and the next one finds the
 * relay idle. Returns the last save's event row and value.
 */
async function saveUntilNumberedInPlace(scoreId: number, from: number) {
  let stored: { seq: number | null; sameTransaction: boolean } | undefined;
  let performance = from;
  const inPlace = () => stored !== undefined && stored.seq !== null && stored.sameTransaction;
  for (let attempt = 0; attempt < 5 && !inPlace(); attempt += 1) {
    performance += 0.5;
    expect(await saveJuryResult(scoreId, performance)).toBe(200);
    stored = await latestEventOf(scoreId);
  }
  return { stored, performance };
}

/** The score's events in the outbox, in id order. */
async function outboxRowsOf(pool: Pool, scoreId: number): Promise<Array<{ seq: number | null; finalScore: number }>> {
  const { rows } = await pool.query<{ seq: number | null; finalScore: number }>(
    `SELECT seq, (payload->>'finalScore')::float8 AS "finalScore" FROM ${t.svc_outbox} WHERE (payload->>'scoreId')::int = $1 ORDER BY id`,
    [scoreId],
  );
  return rows;
}

/** Whether a service connection (a command's or the sequencer's) waits for an advisory lock. */
async function someoneWaitsForNumberingLock(): Promise<boolean> {
  const { rows } = await server.pool.query(
    `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND starts_with(application_name, 'gym-competition-service') AND wait_event = 'advisory'`,
  );
  return rows.length > 0;
}

/** A transaction on its own connection to `url` that holds the numbering lock until it ends. */
async function numberingLockHolder(url: string): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: url });
  holder.on('error', () => undefined);
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT pg_advisory_xact_lock($1)', [NUMBERING_LOCK_KEY]);
  return holder;
}

/** Until a connection to the database of `client` waits for an advisory lock. */
async function untilOneWaitsForAdvisoryLock(client: pg.Client, message: string): Promise<void> {
  await waitFor(
    async () =>
      (await client.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'`)).rows.length > 0,
    { message },
  );
}

/** The desktop program writes the score's final value on its own connection: its trigger captures the write for the sequencer. */
async function desktopWritesFinalScore(url: string, scoreId: number, disciplineId: number): Promise<void> {
  const desktop = new pg.Client({ connectionString: url, application_name: 'TurnerDesk 4.2' });
  desktop.on('error', () => undefined);
  await desktop.connect();
  try {
    await desktop.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.25)`,
      [scoreId, disciplineId],
    );
  } finally {
    await desktop.end();
  }
}

const silentLog = pino({ level: 'silent' });

const savesOf = (scoreId: number) => events.filter((event) => event.scoreId === scoreId);

interface RelaylessDatabase {
  url: string;
  pool: Pool;
  eventId: number;
  scoreId: number;
  disciplineId: number;
  /** A jury-results command on the score, its formula field A alone: the event's finalScore is `performance`. */
  save: (performance: number) => Promise<unknown>;
  /** The same save on a second score of the competition. */
  saveOther: (performance: number) => Promise<unknown>;
}

/** A second database that no relay serves (nothing numbers what is left unnumbered), with one score. */
async function withRelaylessDatabase(connections: number, work: (database: RelaylessDatabase) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  const pool = createPool({ connectionString: database.url, tables: t, max: connections }, silentLog);
  try {
    const otherCompetition = await createCompetition(pool, 'Ohne-Relay-Cup');
    const otherDiscipline = await insertDiscipline(pool, { formula: 'A' });
    const { scoreId } = await insertParticipantWithScoreRow(pool, otherCompetition);
    const { scoreId: otherScoreId } = await insertParticipantWithScoreRow(pool, otherCompetition);
    const saveScore = (participantId: number, performance: number) =>
      runCommand(pool, (tx) =>
        saveJuryResultCommand(
          tx,
          { participantId, disciplineFieldId: otherDiscipline.fields.A, performance, attempt: 1, type: 0 },
          silentLog,
        ),
      );
    await work({
      url: database.url,
      pool,
      eventId: otherCompetition.eventId,
      scoreId,
      disciplineId: otherDiscipline.id,
      save: (performance) => saveScore(scoreId, performance),
      saveOther: (performance) => saveScore(otherScoreId, performance),
    });
  } finally {
    await endPool(pool);
    await database.drop();
  }
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Nummern-Cup');
  // The formula is field A alone: an event's finalScore is the value the save sent.
  discipline = await insertDiscipline(server.pool, { formula: 'A' });
  scoreIds = [];
  for (let index = 0; index < 20; index += 1) scoreIds.push((await insertParticipantWithScoreRow(server.pool, competition)).scoreId);
  const socket = await openSocket(server.url);
  sockets.push(socket);
  events = collectEvents(socket);
  await joinCompetition(socket, competition.eventId);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  for (const client of clients) await client.end().catch(() => undefined);
  await server?.stop();
});

describe('events numbered by the command that appends them', () => {
  it('numbers a save’s event in the save’s own transaction and delivers it', async () => {
    const scoreId = scoreIds[0]!;
    const { stored, performance } = await saveUntilNumberedInPlace(scoreId, 4);
    // No second transaction touched the row: it was committed numbered.
    expect(stored).toEqual({ seq: expect.any(Number), sameTransaction: true });
    const delivered = await waitFor(() => savesOf(scoreId).find((event) => event.finalScore === performance), {
      message: 'the save’s event',
    });
    expect(delivered.seq).toBe(stored!.seq);
  });

  it('numbers a save’s event in place while the outbox clean-up is running', async () => {
    // The clean-up holds its lock through its DELETE, which after a long competition day is long.
    const cleanUp = await server.pool.connect();
    try {
      await cleanUp.query('BEGIN');
      await cleanUp.query('SELECT pg_advisory_xact_lock($1)', [RETENTION_LOCK_KEY]);
      const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
      const { stored, performance } = await saveUntilNumberedInPlace(scoreId, 2);
      expect(stored).toEqual({ seq: expect.any(Number), sameTransaction: true });
      await waitFor(() => savesOf(scoreId).find((event) => event.finalScore === performance), { message: 'the save’s event' });
    } finally {
      await cleanUp.query('ROLLBACK');
      cleanUp.release();
    }
  });

  it('numbers a save’s event only after another transaction that holds the numbering lock has committed', async () => {
    const holder = new pg.Client({ connectionString: server.database.url });
    holder.on('error', () => undefined);
    clients.push(holder);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1)', [NUMBERING_LOCK_KEY]);
    const { rows } = await holder.query<{ seq: number }>(
      `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload, seq, sequenced_at)
       VALUES ('score-updated', $1, 'api', $2, nextval('${t.svc_outbox_seq}'), now()) RETURNING seq`,
      [competition.eventId, JSON.stringify(markerEvent(competition.eventId, 'lock-holder').payload)],
    );
    const holderSeq = rows[0]!.seq;

    const scoreId = scoreIds[1]!;
    const saving = saveJuryResult(scoreId, 7.25);
    // The save waits for the lock (its lock timeout runs it again until the budget is spent), or,
    // sent while its relay was at work, commits its event unnumbered and the sequencer waits.
    await waitFor(() => someoneWaitsForNumberingLock(), { message: 'a wait for the numbering lock' });
    // Numbered past the holder's uncommitted seq, the event would be visible first (readers skip).
    const { rows: numbered } = await server.pool.query(`SELECT 1 FROM ${t.svc_outbox} WHERE seq > $1`, [holderSeq]);
    expect(numbered).toEqual([]);

    await holder.query('COMMIT');
    expect(await saving).toBe(200);
    const saved = await waitFor(() => savesOf(scoreId).find((event) => event.finalScore === 7.25), { message: 'the save’s event' });
    const held = await waitForMarker(events, 'lock-holder');
    expect(held.seq).toBe(holderSeq);
    expect(saved.seq).toBeGreaterThan(holderSeq);
    expect(events.indexOf(saved)).toBeGreaterThan(events.indexOf(held));
  });

  it('delivers concurrent saves exactly once, in seq order, whichever of the two numbered them', async () => {
    const rounds = 5;
    const value = (round: number, index: number) => round + index / 4;
    const statuses: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      statuses.push(...(await Promise.all(scoreIds.map((scoreId, index) => saveJuryResult(scoreId, value(round, index))))));
    }
    expect(statuses.every((status) => status === 200)).toBe(true);

    await waitForNumbered(server.pool);
    const { rows } = await server.pool.query<{ seq: number }>(
      `SELECT seq FROM ${t.svc_outbox} WHERE event_id = $1 AND payload ? 'scoreId' ORDER BY seq`,
      [competition.eventId],
    );
    const saves = () => events.filter((event) => event.scoreId !== undefined);
    await waitFor(() => saves().length >= rows.length, { message: 'every save’s event' });
    expect(seqsOf(saves())).toEqual(rows.map((row) => row.seq));
    expect(isStrictlyIncreasing(seqsOf(saves()))).toBe(true);
    scoreIds.slice(2).forEach((scoreId, offset) => {
      const index = offset + 2;
      expect(savesOf(scoreId).map((event) => event.finalScore)).toEqual(Array.from({ length: rounds }, (_, round) => value(round, index)));
    });
  });

  it('numbers the events that wait for their number first, in the order they were committed, then its own', async () => {
    await withRelaylessDatabase(2, async ({ pool, eventId, scoreId, save }) => {
      await save(1.5);
      const first = await outboxRowsOf(pool, scoreId);
      expect(first).toEqual([{ seq: expect.any(Number), finalScore: 1.5 }]);

      // Two events committed unnumbered, as when a save finds the numbering lock taken.
      const waiting = [await commitEvent(pool, eventId, 'waited-first'), await commitEvent(pool, eventId, 'waited-second')];
      await save(2.5);
      const { rows: markers } = await pool.query<{ seq: number | null }>(`SELECT seq FROM ${t.svc_outbox} WHERE id = ANY($1) ORDER BY id`, [
        waiting,
      ]);
      const [own, second] = [(await outboxRowsOf(pool, scoreId))[1]!, markers[1]!];
      expect(markers.map((row) => row.seq)).toEqual([first[0]!.seq! + 1, first[0]!.seq! + 2]);
      expect(own).toEqual({ seq: second.seq! + 1, finalScore: 2.5 });
    });
  });

  it('leaves the waiting events to the sequencer’s batch while another save of the instance is underway', async () => {
    await withRelaylessDatabase(3, async ({ url, pool, eventId, scoreId, save, saveOther }) => {
      const holder = await numberingLockHolder(url);
      try {
        // The save of the other score waits for the numbering lock: it is underway.
        const underway = saveOther(4.5);
        await untilOneWaitsForAdvisoryLock(holder, 'a save waiting for the numbering lock');
        const waitingId = await commitEvent(pool, eventId, 'left-for-the-batch');
        await save(2.5);
        const { rows: marker } = await pool.query(`SELECT seq FROM ${t.svc_outbox} WHERE id = $1`, [waitingId]);
        expect(marker).toEqual([{ seq: null }]);
        expect(await outboxRowsOf(pool, scoreId)).toEqual([{ seq: null, finalScore: 2.5 }]);
        await holder.query('COMMIT');
        await underway;
      } finally {
        await holder.end();
      }
    });
  });

  it('passes unused seqs to a sequencer pass for the events a save numbered after the pass read them, and leaves the rows as the save numbered them', async () => {
    await withRelaylessDatabase(2, async ({ pool, eventId, scoreId, save }) => {
      const waitingId = await commitEvent(pool, eventId, 'read-by-a-pass');
      const { ids } = await selectUnsequenced(pool, 10);
      expect(ids).toEqual([waitingId]);
      await save(3.5);
      const { rows: marker } = await pool.query<{ seq: number }>(`SELECT seq FROM ${t.svc_outbox} WHERE id = $1`, [waitingId]);
      const own = (await outboxRowsOf(pool, scoreId))[0]!;
      expect(own.seq).toBe(marker[0]!.seq + 1);

      // The pass draws a seq for the row it read; no row carries it, and the relay passes over it.
      const drawn = await assignSeqReturning(pool, ids);
      expect(drawn).toEqual([expect.objectContaining({ seq: own.seq! + 1, topic: null })]);
      const { rows: after } = await pool.query<{ seq: number }>(`SELECT seq FROM ${t.svc_outbox} WHERE id = $1`, [waitingId]);
      expect(after).toEqual(marker);
    });
  });

  it('leaves a save’s event to the sequencer while a desktop write waits for the sequencer to apply it', async () => {
    await withRelaylessDatabase(2, async ({ url, pool, scoreId, disciplineId, save }) => {
      await save(1.5);
      await desktopWritesFinalScore(url, scoreId, disciplineId);
      await save(2.5);
      // Only the sequencer turns a capture into its event and audit record: numbered in place, the
      // save would come before the desktop's write of the same score.
      expect((await outboxRowsOf(pool, scoreId)).map((row) => row.seq === null)).toEqual([false, true]);
      const { rows: captures } = await pool.query(`SELECT seq FROM ${t.svc_outbox} WHERE topic = 'legacy-score'`);
      expect(captures).toEqual([{ seq: null }]);
    });
  });

  it('keeps reading the outbox through its indexes after the table has grown past the size the command’s plans were made at', async () => {
    // Commands plan each statement once per connection (generic plans). Planned while the outbox
    // was one page, the in-place check read the whole table at every later save: a competition
    // day's saves got slower with every event. One connection makes its plans while the outbox
    // is three analyzed rows.
    await withRelaylessDatabase(1, async ({ pool, eventId, scoreId, save }) => {
      const appendNumbered = (count: number) =>
        pool.query(
          `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload, seq, sequenced_at)
           SELECT 'score-updated', $1, 'api', '{}', nextval('${t.svc_outbox_seq}'), now() FROM generate_series(1, $2)`,
          [eventId, count],
        );
      await appendNumbered(3);
      await pool.query(`ANALYZE ${t.svc_outbox}`);
      await save(1.5);
      await appendNumbered(5000);
      await save(2.5);
      expect((await outboxRowsOf(pool, scoreId)).map((row) => row.seq !== null)).toEqual([true, true]);

      // The plan the connection keeps for the save's last statement, as the next save runs it.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
        const { rows: prepared } = await client.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE statement LIKE $1`, [
          `%INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload, seq, sequenced_at)%`,
        ]);
        expect(prepared).toHaveLength(1);
        // EXECUTE takes no bind parameters: its arguments are written out (numbers of our own).
        const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (COSTS OFF) EXECUTE "${prepared[0]!.name}"('score-updated', ${Number(eventId)}, '{}', ${NUMBERING_LOCK_KEY}, 'try', true)`,
        );
        const lines = plan.map((row) => row['QUERY PLAN']);
        expect(lines.some((line) => line.includes(`Index Only Scan using ${t.svc_outbox}_unsequenced_idx`))).toBe(true);
        expect(lines.filter((line) => line.includes('Seq Scan'))).toEqual([]);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    });
  });

  it('numbers a pass’s few waiting events in one statement, in the order they were committed, and returns them', async () => {
    await withRelaylessDatabase(2, async ({ pool, eventId }) => {
      const waiting = [await commitEvent(pool, eventId, 'pass-first'), await commitEvent(pool, eventId, 'pass-second')];
      const numbered = await sequenceWaitingEvents(pool, 10);
      expect(numbered?.map((row) => row.payload['marker'])).toEqual(['pass-first', 'pass-second']);
      const { rows } = await pool.query<{ seq: number }>(`SELECT seq FROM ${t.svc_outbox} WHERE id = ANY($1) ORDER BY id`, [waiting]);
      expect(numbered!.map((row) => row.seq)).toEqual(rows.map((row) => row.seq));
      expect(rows[1]!.seq).toBe(rows[0]!.seq + 1);
      expect(await sequenceWaitingEvents(pool, 10)).toEqual([]);
    });
  });

  it('leaves more waiting events than a pass keeps, and a desktop write’s capture, to the sequencer’s batches', async () => {
    await withRelaylessDatabase(2, async ({ url, pool, eventId, scoreId, disciplineId }) => {
      const waiting = [
        await commitEvent(pool, eventId, 'burst-1'),
        await commitEvent(pool, eventId, 'burst-2'),
        await commitEvent(pool, eventId, 'burst-3'),
      ];
      expect(await sequenceWaitingEvents(pool, 2)).toBeNull();
      const unnumbered = async () =>
        (await pool.query(`SELECT id FROM ${t.svc_outbox} WHERE seq IS NULL ORDER BY id`)).rows.map((row: { id: string }) =>
          Number(row.id),
        );
      expect(await unnumbered()).toEqual(waiting);

      await assignSeqReturning(pool, waiting);
      await desktopWritesFinalScore(url, scoreId, disciplineId);
      expect(await sequenceWaitingEvents(pool, 10)).toBeNull();
      expect(await unnumbered()).toHaveLength(1);
    });
  });

  it('numbers a pass’s events only after the holder of the numbering lock has committed, with the events that holder committed', async () => {
    await withRelaylessDatabase(2, async ({ url, pool, eventId }) => {
      await commitEvent(pool, eventId, 'before-the-holder');
      const holder = await numberingLockHolder(url);
      try {
        await holder.query(
          `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload) VALUES ('score-updated', $1, 'api', '{"marker": "the-holder’s"}')`,
          [eventId],
        );
        const pass = sequenceWaitingEvents(pool, 10);
        await untilOneWaitsForAdvisoryLock(holder, 'the pass waiting for the numbering lock');
        await holder.query('COMMIT');
        const numbered = await pass;
        expect(numbered?.map((row) => row.payload['marker'])).toEqual(['before-the-holder', 'the-holder’s']);
        const { rows } = await pool.query(`SELECT id FROM ${t.svc_outbox} WHERE seq IS NULL`);
        expect(rows).toEqual([]);
      } finally {
        await holder.end();
      }
    });
  });

  it('refuses a statement after the command’s last event, and the command commits nothing', async () => {
    const marker = 'followed-by-a-statement';
    await expect(
      runCommand(server.pool, async (tx) => {
        void appendLastOutboxEvent(tx, markerEvent(competition.eventId, marker));
        await tx.query('SELECT 1', []);
      }),
    ).rejects.toThrow("a statement after the command's last outbox event");
    const { rows } = await server.pool.query(`SELECT 1 FROM ${t.svc_outbox} WHERE payload->>'marker' = $1`, [marker]);
    expect(rows).toEqual([]);
  });
});
