/**
 * Issue 4, "What must hold" 7: `join-competition` with `since` replays the missed events of that
 * event in order, then live ones, with no duplicate and no gap across the switch; node-cron's
 * clean-up removes events older than the retention window, one instance at a time.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { deleteExpiredOutboxRows } from '../../outbox/retention.js';
import { appendOutboxEvent } from '../../outbox/append.js';
import { RETENTION_LOCK_KEY } from '../../src/db/advisory-locks.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  commitEvent,
  isStrictlyIncreasing,
  joinCompetition,
  seqsOf,
  sequencedSeqs,
  waitForMarker,
  waitUntilDelivered,
  markerEvent,
  type ReceivedEvent,
} from '../support/realtime.js';

let server: TestServer;
const sockets: Socket[] = [];

async function socketWithEvents(auth?: Record<string, unknown>): Promise<{ socket: Socket; events: ReceivedEvent[] }> {
  const socket = await openSocket(server.url, auth ? { auth } : {});
  sockets.push(socket);
  return { socket, events: collectEvents(socket) };
}

/** Commits events and waits until this instance has delivered them, so their seqs are known. */
async function commitDelivered(eventId: number, markers: string[]): Promise<void> {
  for (const marker of markers) await commitEvent(server.commands, eventId, marker);
  await waitUntilDelivered(server.pool, server.relay);
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
});

describe('7. replay with since', () => {
  it('re-sends the missed events of that event in seq order, then live ones, each once', async () => {
    await commitDelivered(8, ['other-0']);
    await commitDelivered(7, ['a', 'b', 'c', 'd', 'e']);
    await commitDelivered(8, ['other-1']);
    const all = await sequencedSeqs(server.pool, 7);

    const { socket, events } = await socketWithEvents();
    const ack = await joinCompetition(socket, 7, all[1]);
    expect(ack).toEqual({ ok: true, room: 'competition-7', replayed: 3 });
    expect(events.map((event) => event.marker)).toEqual(['c', 'd', 'e']);
    expect(seqsOf(events)).toEqual(all.slice(2));

    await commitAndAwait(server.commands, events, 7, 'live');
    expect(events.map((event) => event.marker)).toEqual(['c', 'd', 'e', 'live']);
    expect(events.every((event) => event.eventId === 7 && event.source === 'api')).toBe(true);

    const fromStart = await socketWithEvents();
    expect(await joinCompetition(fromStart.socket, 7, 0)).toMatchObject({ ok: true, replayed: 6 });
    expect(fromStart.events.map((event) => event.marker)).toEqual(['a', 'b', 'c', 'd', 'e', 'live']);
  });

  it('has no gap and no duplicate when clients join while events are being committed', async () => {
    const eventId = 9;
    const total = 60;
    const joiners: Array<{ since: number; events: ReceivedEvent[]; ack: Promise<unknown> }> = [];
    for (let index = 0; index < total; index++) {
      // Joins land at different points of the stream, some with a since inside what is live.
      if (index % 12 === 6) {
        const { socket, events } = await socketWithEvents();
        const seen = await sequencedSeqs(server.pool, eventId);
        const since = seen.length > 3 ? seen[seen.length - 3]! : 0;
        joiners.push({ since, events, ack: joinCompetition(socket, eventId, since) });
      }
      await commitEvent(server.commands, eventId, `stream-${index}`);
    }
    const acks = await Promise.all(joiners.map((joiner) => joiner.ack));
    expect(acks.every((ack) => (ack as { ok: boolean }).ok)).toBe(true);

    const all = await waitFor(async () => {
      const numbered = await sequencedSeqs(server.pool, eventId);
      return numbered.length === total ? numbered : null;
    });
    for (const joiner of joiners) {
      const expected = all.filter((seq) => seq > joiner.since);
      await waitFor(() => joiner.events.length >= expected.length, { message: `joiner since ${joiner.since} received everything` });
      expect(seqsOf(joiner.events)).toEqual(expected);
      expect(isStrictlyIncreasing(seqsOf(joiner.events))).toBe(true);
    }
  });

  // Guards against a relay that drops rows of a read batch, e.g. every 10th row of what
  // `selectSequencedAfter` (live) or `selectEventRange` (replay) returned: the other tests here
  // read batches of fewer than ten rows. Both reads below hold 25 rows, and what each client got
  // is compared, seq by seq, with what the outbox holds.
  it('replays and delivers batches of many rows without a gap', async () => {
    const eventId = 13;
    const markers = (prefix: string) => Array.from({ length: 25 }, (_, index) => `${prefix}-${index}`);
    // One transaction: the sequencer numbers the 25 rows in one step and the relay reads them in one pass.
    const commitTogether = (names: string[]) =>
      server.commands.run(async (tx) => {
        for (const marker of names) await appendOutboxEvent(tx, markerEvent(eventId, marker));
      });

    const live = await socketWithEvents();
    await joinCompetition(live.socket, eventId);
    await commitTogether(markers('batch'));
    await commitAndAwait(server.commands, live.events, eventId, 'barrier');
    const all = await sequencedSeqs(server.pool, eventId);
    expect(all).toHaveLength(26);
    expect(seqsOf(live.events)).toEqual(all);
    expect(live.events.map((event) => event.marker)).toEqual([...markers('batch'), 'barrier']);

    const replaying = await socketWithEvents();
    expect(await joinCompetition(replaying.socket, eventId, 0)).toMatchObject({ ok: true, replayed: 26 });
    await commitAndAwait(server.commands, replaying.events, eventId, 'after-replay');
    expect(replaying.events.map((event) => event.marker)).toEqual([...markers('batch'), 'barrier', 'after-replay']);
    expect(isStrictlyIncreasing(seqsOf(replaying.events))).toBe(true);
  });

  it('replays at connect when the handshake carries eventId and since', async () => {
    await commitDelivered(10, ['h-0', 'h-1', 'h-2']);
    const seqs = await sequencedSeqs(server.pool, 10);
    const { events } = await socketWithEvents({ eventId: 10, since: seqs[0] });
    await waitForMarker(events, 'h-2');
    expect(events.map((event) => event.marker)).toEqual(['h-1', 'h-2']);
  });

  it('joins without replaying anything for a since beyond every seq', async () => {
    const { socket, events } = await socketWithEvents();
    const ack = await joinCompetition(socket, 11, server.relay.status().cursor + 1_000);
    expect(ack).toEqual({ ok: true, room: 'competition-11', replayed: 0 });
    await commitAndAwait(server.commands, events, 11, 'after-future-since');
  });
});

describe('7. retention', () => {
  it('deletes events older than OUTBOX_RETENTION_HOURS, so a replay no longer holds them', async () => {
    await commitDelivered(12, ['old-0', 'old-1', 'recent-0']);
    await server.pool.query(
      `UPDATE ${t.svc_outbox} SET sequenced_at = now() - interval '49 hours', created_at = now() - interval '49 hours' WHERE payload->>'marker' IN ('old-0', 'old-1')`,
    );
    expect(await server.retention.runOnce()).toBe(2);
    expect(await server.retention.runOnce()).toBe(0);

    const { socket, events } = await socketWithEvents();
    expect(await joinCompetition(socket, 12, 0)).toMatchObject({ ok: true, replayed: 1 });
    expect(events.map((event) => event.marker)).toEqual(['recent-0']);
  });

  it('never deletes an event that has not been numbered yet, however old', async () => {
    // Inside a transaction that is never committed, so the sequencer never sees (or numbers) the row.
    const probe = await server.pool.connect();
    try {
      await probe.query('BEGIN');
      const id = await appendOutboxEvent(probe, markerEvent(12, 'unnumbered'));
      await probe.query(`UPDATE ${t.svc_outbox} SET created_at = now() - interval '1000 hours' WHERE id = $1`, [id]);
      await deleteExpiredOutboxRows(probe, 48);
      expect((await probe.query(`SELECT 1 FROM ${t.svc_outbox} WHERE id = $1`, [id])).rowCount).toBe(1);
    } finally {
      await probe.query('ROLLBACK');
      probe.release();
    }
  });

  it('skips the clean-up while another instance runs it', async () => {
    const other = await server.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await server.retention.runOnce()).toBeNull();
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    expect(await server.retention.runOnce()).toBe(0);
  });
});
