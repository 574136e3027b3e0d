/**
 * Issue 4, "What must hold" 1-4 and 10: atomic events, commits out of id order, an idle-in-
 * transaction session elsewhere, seq order, and room isolation, over a real PostgreSQL and real
 * Socket.IO clients.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendOutboxEvent } from '../../outbox/append.js';
import { SEQUENCER_LOCK_KEY } from '../../src/db/advisory-locks.js';
import { inFlight, withTables, type WithTables } from '../../src/db/pool.js';
import { t } from '../support/tables.js';
import { createTestDatabase } from '../support/database.js';
import { createCompetition, insertDiscipline, insertParticipant, insertScoreRow } from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  commitEvent,
  isStrictlyIncreasing,
  joinCompetition,
  outboxRowCount,
  seqsOf,
  waitForMarker,
  withMarker,
  markerEvent,
  type ReceivedEvent,
} from '../support/realtime.js';

let server: TestServer;
const sockets: Socket[] = [];

async function clientIn(eventId: number): Promise<ReceivedEvent[]> {
  const socket = await openSocket(server.url);
  sockets.push(socket);
  const events = collectEvents(socket);
  expect(await joinCompetition(socket, eventId)).toEqual({ ok: true, room: `competition-${eventId}`, replayed: 0 });
  return events;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

describe('1. atomic: an event exists if and only if its command committed', () => {
  it('delivers the event of a committed command and nothing of one that rolled back', async () => {
    const events = await clientIn(1);
    await expect(
      server.commands.run(async (tx) => {
        await appendOutboxEvent(tx, markerEvent(1, 'rolled-back'));
        throw new Error('the command fails after appending its event');
      }),
    ).rejects.toThrow('the command fails');
    await commitEvent(server.commands, 1, 'committed');

    // Delivery is in seq order, so once the later commit is here the failed one can no longer come.
    await waitForMarker(events, 'committed');
    expect(withMarker(events, 'rolled-back')).toEqual([]);
    expect(await outboxRowCount(server.pool, 'rolled-back')).toBe(0);
    expect(withMarker(events, 'committed')).toHaveLength(1);
    expect(withMarker(events, 'committed')[0]).toMatchObject({ eventId: 1, source: 'api', seq: expect.any(Number) });
  });
});

describe('1. atomic, with statements pipelined behind BEGIN and in front of COMMIT', () => {
  // The pool pipelines (src/db/pool.ts): a handler's last statements travel with the COMMIT
  // unawaited. Its failure must fail the command and take the writes before it along.
  it('commits nothing, and fails the command, when a statement left in flight fails', async () => {
    const events = await clientIn(4);
    await expect(
      server.commands.run(async (tx) => {
        await appendOutboxEvent(tx, markerEvent(4, 'before-failed-append'));
        // event_id is an integer column: this insert fails on the server, after the handler returned.
        void appendOutboxEvent(tx, markerEvent(2 ** 31, 'failed-append'));
      }),
    ).rejects.toThrow(/out of range for type integer/);
    await expect(
      server.commands.run(async (tx) => {
        void appendOutboxEvent(tx, markerEvent(4, 'before-failed-statement'));
        void inFlight(tx.query('SELECT 1 / 0'));
      }),
    ).rejects.toThrow(/division by zero/);
    // A statement awaited behind the failed one fails only because of it: the caller hears the cause.
    await expect(
      server.commands.run(async (tx) => {
        void appendOutboxEvent(tx, markerEvent(2 ** 31, 'failed-append'));
        await appendOutboxEvent(tx, markerEvent(4, 'after-failed-append'));
      }),
    ).rejects.toThrow(/out of range for type integer/);
    await commitEvent(server.commands, 4, 'committed-after');

    await waitForMarker(events, 'committed-after');
    for (const marker of ['before-failed-append', 'failed-append', 'before-failed-statement', 'after-failed-append']) {
      expect(await outboxRowCount(server.pool, marker)).toBe(0);
      expect(withMarker(events, marker)).toEqual([]);
    }
  });
});

describe('1. atomic, through the real commands', () => {
  // Guards against a command that commits its writes but not its event, e.g. `saveScoreValue`
  // (commands/save-score-value.ts) without its `appendScoreValueEvent` call: the other tests of
  // this file append events by hand and never run a command.
  it('delivers exactly one event for each committed save-value and jury-result, and none for a refused one', async () => {
    const competition = await createCompetition(server.pool, 'Outbox-Cup');
    const discipline = await insertDiscipline(server.pool);
    const participantId = await insertParticipant(server.pool, competition, { firstName: 'Mia', lastName: 'Roth', gender: 2 });
    const scoreId = await insertScoreRow(server.pool, competition, participantId);
    const events = await clientIn(competition.eventId);
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    expect(
      (
        await post('/api/scores/save-value', {
          competitionId: competition.competitionId,
          participantId: scoreId,
          disciplineId: discipline.id,
          score: 12.5,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post('/api/jury-results', {
          participantId: scoreId,
          disciplineFieldId: discipline.fields.A,
          performance: 9,
          attempt: 1,
          type: 0,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post('/api/scores/save-value', {
          competitionId: competition.competitionId,
          participantId: scoreId,
          disciplineId: 999_999,
          score: 1,
        })
      ).status,
    ).toBe(404);
    // Barrier: committed after the commands, so once it is here their events can no longer come.
    await commitAndAwait(server.commands, events, competition.eventId, 'after-commands');

    const fromCommands = events.filter((event) => event.scoreId === scoreId);
    expect(fromCommands.map((event) => event.source)).toEqual(['api', 'api']);
    // Event 2 (save-value) carries storedScore, event 1 (jury-results) the formula.
    expect(fromCommands[0]).toMatchObject({ participantId, disciplineId: discipline.id, storedScore: 12.5 });
    expect(fromCommands[1]).toMatchObject({ disciplineId: discipline.id, formula: expect.any(String) });
    expect(fromCommands[1]).not.toHaveProperty('storedScore');
    expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
  });
});

describe('a gap in the seq numbers', () => {
  it('still delivers the next event when sequence numbers were burnt in between', async () => {
    const events = await clientIn(11);
    await commitAndAwait(server.commands, events, 11, 'before-gap');
    // A failed numbering statement consumes sequence values without using them; readers must not
    // wait for numbers that will never be used.
    await server.pool.query(`SELECT nextval('${t.svc_outbox_seq}') FROM generate_series(1, 3)`);
    const after = await commitAndAwait(server.commands, events, 11, 'after-gap');
    const before = withMarker(events, 'before-gap')[0]!;
    expect(after.seq).toBeGreaterThan(before.seq + 3);
    expect(withMarker(events, 'after-gap')).toHaveLength(1);
  });
});

describe('2. commits that finish out of id order', () => {
  it('delivers both when the transaction with the lower outbox id commits last', async () => {
    const events = await clientIn(2);
    const first = await server.pool.connect();
    const second = await server.pool.connect();
    try {
      await first.query('BEGIN');
      const firstId = await appendOutboxEvent(first, markerEvent(2, 'lower-id'));
      await second.query('BEGIN');
      const secondId = await appendOutboxEvent(second, markerEvent(2, 'higher-id'));
      expect(firstId).toBeLessThan(secondId);
      await second.query('COMMIT');
      const higher = await waitForMarker(events, 'higher-id');
      await first.query('COMMIT');
      const lower = await waitForMarker(events, 'lower-id');

      expect(lower.seq).toBeGreaterThan(higher.seq);
      expect(events.map((event) => event.marker)).toEqual(['higher-id', 'lower-id']);
    } finally {
      first.release();
      second.release();
    }
  });
});

/** Gives the row `id` the next seq, as the sequencer does. */
async function assignSeq(sequencer: pg.Client & WithTables, ids: number[]): Promise<void> {
  await sequencer.query(
    `UPDATE ${t.svc_outbox} SET seq = nextval('${t.svc_outbox_seq}'), sequenced_at = now() WHERE id = ANY ($1::bigint[])`,
    [ids],
  );
}

describe('2b. rows numbered out of id order and read in one pass', () => {
  // Guards against the relay reading `ORDER BY id` instead of `ORDER BY seq` in
  // `selectSequencedAfter` (outbox/relay.ts): it delivers [lower id, higher id], the wrong order,
  // and moves its cursor back to the lower seq (checked: this test then fails on the order).
  it('delivers them in seq order, each once', async () => {
    // The test is this database's sequencer: it holds the lock before the service starts, so it
    // decides which rows get numbered, in which order and when, and the relay only reads.
    const database = await createTestDatabase();
    const sequencer = withTables(new pg.Client({ connectionString: database.url }), t);
    await sequencer.connect();
    let other: TestServer | undefined;
    try {
      expect((await sequencer.query('SELECT pg_try_advisory_lock($1) AS locked', [SEQUENCER_LOCK_KEY])).rows[0].locked).toBe(true);
      other = await startTestServer({ database });
      const socket = await openSocket(other.url);
      sockets.push(socket);
      const events = collectEvents(socket);
      await joinCompetition(socket, 21);

      const lowerId = await commitEvent(other.commands, 21, 'lower-id');
      const higherId = await commitEvent(other.commands, 21, 'higher-id');
      expect(lowerId).toBeLessThan(higherId);
      // As when a later transaction's row commits first and is numbered in an earlier step: the
      // higher id gets the lower seq. One transaction makes both visible to the same relay read.
      await sequencer.query('BEGIN');
      await assignSeq(sequencer, [higherId]);
      await assignSeq(sequencer, [lowerId]);
      await sequencer.query('COMMIT');
      // Barrier: a row numbered after both; once it is here, nothing of the two can still come.
      const barrierId = await commitEvent(other.commands, 21, 'barrier');
      await assignSeq(sequencer, [barrierId]);
      await waitForMarker(events, 'barrier', 10_000);

      expect(events.map((event) => event.marker)).toEqual(['higher-id', 'lower-id', 'barrier']);
      expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
      expect(other.relay.status().sequencer).toBe(false);
    } finally {
      await other?.stop();
      await sequencer.end();
      await database.drop();
    }
  });
});

describe('3. nothing stalls behind an idle transaction', () => {
  it('delivers other events while a session sits idle in transaction with an outbox row, a snapshot and a row lock', async () => {
    const events = await clientIn(3);
    const idle = await server.pool.connect();
    try {
      // Everything a desktop session might hold: an old snapshot, an uncommitted outbox row (lower
      // id than all that follow) and a row lock on a table the commands write.
      await idle.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const { rows } = await idle.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid, (SELECT count(*) FROM ${t.svc_outbox}) AS seen`);
      const idlePid = rows[0]!.pid;
      await appendOutboxEvent(idle, markerEvent(3, 'idle-session'));
      await idle.query(`SELECT 1 FROM ${t.status} WHERE int_statusid = 1 FOR UPDATE`);

      // Each event must arrive while the session still sits idle in transaction: were the
      // sequencer or the relay waiting for it, none would arrive before the COMMIT below. How fast
      // they arrive depends on the machine, so the deadline is generous and no latency is asserted.
      for (let index = 0; index < 10; index++) {
        const marker = `during-idle-${index}`;
        await commitAndAwait(server.commands, events, 3, marker, 15_000);
        const state = await server.pool.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [idlePid]);
        expect(state.rows[0]?.state).toBe('idle in transaction');
      }
      expect(withMarker(events, 'idle-session')).toEqual([]);

      await idle.query('COMMIT');
      const late = await waitForMarker(events, 'idle-session');
      expect(late.seq).toBeGreaterThan(Math.max(...seqsOf(events.filter((event) => event !== late))));
    } finally {
      await idle.query('ROLLBACK').catch(() => undefined);
      idle.release();
    }
  });
});

describe('4. seq strictly increases in delivery order', () => {
  it('numbers concurrent commands so that every client sees the same strictly increasing sequence', async () => {
    const first = await clientIn(4);
    const second = await clientIn(4);
    const markers = Array.from({ length: 40 }, (_, index) => `concurrent-${index}`);
    await Promise.all(markers.map((marker) => commitEvent(server.commands, 4, marker)));

    await waitFor(() => first.length === markers.length && second.length === markers.length, { message: 'all 40 events at both clients' });
    expect(isStrictlyIncreasing(seqsOf(first))).toBe(true);
    expect(seqsOf(second)).toEqual(seqsOf(first));
    expect(new Set(first.map((event) => event.marker))).toEqual(new Set(markers));

    const health = (await (await fetch(`${server.url}/api/system/health`)).json()) as {
      eventsDelivered: number;
      relaySeq: number;
      sequencer: boolean;
    };
    expect(health.eventsDelivered).toBeGreaterThanOrEqual(markers.length);
    expect(health.relaySeq).toBe(first[first.length - 1]!.seq);
    expect(health.sequencer).toBe(true);
  });
});

describe('10. rooms', () => {
  it('never sends a client in competition-5 an event of event 6, and stops after leave-competition', async () => {
    const inFive = await clientIn(5);
    const inSix = await clientIn(6);
    const handshakeSocket = await openSocket(server.url, { auth: { eventId: 5 } });
    sockets.push(handshakeSocket);
    const joinedAtConnect = collectEvents(handshakeSocket);

    for (let index = 0; index < 5; index++) {
      await commitEvent(server.commands, 6, `six-${index}`);
      await commitEvent(server.commands, 5, `five-${index}`);
    }
    await waitForMarker(inFive, 'five-4');
    await waitForMarker(inSix, 'six-4');
    await waitForMarker(joinedAtConnect, 'five-4');
    expect(inFive.map((event) => event.marker)).toEqual(['five-0', 'five-1', 'five-2', 'five-3', 'five-4']);
    expect(inFive.every((event) => event.eventId === 5)).toBe(true);
    expect(inSix.every((event) => event.eventId === 6)).toBe(true);
    expect(joinedAtConnect.map((event) => event.marker)).toEqual(inFive.map((event) => event.marker));

    handshakeSocket.emit('leave-competition', { eventId: 5 });
    // The leave has no ack; a round trip on the same socket orders it before the next event.
    await joinCompetition(handshakeSocket, 6);
    await commitEvent(server.commands, 5, 'after-leave');
    await commitAndAwait(server.commands, joinedAtConnect, 6, 'six-after-leave');
    await waitForMarker(inFive, 'after-leave');
    expect(withMarker(joinedAtConnect, 'after-leave')).toEqual([]);
  });

  it('refuses a join without a valid eventId or since', async () => {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    expect(await socket.timeout(5_000).emitWithAck('join-competition', { eventId: 'five' })).toMatchObject({ ok: false });
    expect(await socket.timeout(5_000).emitWithAck('join-competition', { eventId: 5, since: -1 })).toMatchObject({ ok: false });
  });
});

describe('11. one sequencer numbers every event (migration 0019)', () => {
  it('numbers a burst larger than one statement takes in id order, each event once', async () => {
    const eventId = 51;
    const events = await clientIn(eventId);
    // One transaction outside any command, as a restore or a large import would leave them: no
    // wake-up, so the relay's backstop finds all 1,234 at once.
    await server.pool.query(
      `INSERT INTO ${t.svc_outbox} (topic, event_id, source, payload)
       SELECT 'score-updated', $1, 'api', jsonb_build_object('marker', 'burst-' || n) FROM generate_series(1, 1234) AS n`,
      [eventId],
    );
    await waitForMarker(events, 'burst-1234', 15_000);
    expect(events.map((event) => event.marker)).toEqual(Array.from({ length: 1234 }, (_, index) => `burst-${index + 1}`));
    expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
  });

  it('never lets a later save of a score overtake an earlier one: the boards end on the stored value', async () => {
    const competition = await createCompetition(server.pool, 'Sequencer-Cup');
    const discipline = await insertDiscipline(server.pool, { formula: 'A' });
    const participantId = await insertParticipant(server.pool, competition, { firstName: 'Lea', lastName: 'Berg', gender: 2 });
    const scoreId = await insertScoreRow(server.pool, competition, participantId);
    const events = await clientIn(competition.eventId);

    const values = Array.from({ length: 30 }, (_, index) => 5 + index / 10);
    const answers = await Promise.all(
      values.map((performance) =>
        postJson(`${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: discipline.fields.A, performance }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(values.map(() => 200));
    await commitAndAwait(server.commands, events, competition.eventId, 'after-the-saves');

    const { rows } = await server.pool.query<{ value: number }>(
      `SELECT rel_leistung AS value FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`,
      [scoreId, discipline.fields.A],
    );
    const ofTheScore = events.filter((event) => event.scoreId === scoreId);
    expect(ofTheScore).toHaveLength(values.length);
    // Each save's event carries the final computed from the value it stored; the formula is A.
    expect(ofTheScore.at(-1)!.finalScore).toBeCloseTo(rows[0]!.value, 5);
    expect(isStrictlyIncreasing(seqsOf(events))).toBe(true);
  });
});
