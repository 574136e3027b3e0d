import { inFlight, type TxClient } from '../src/db/pool.js';
import { NUMBERING_LOCK_KEY } from '../src/db/advisory-locks.js';
import { sqlPerInstallation } from '../src/db/tables.js';
import type { OutboxEvent } from './events.js';

/**
 * A CTE `numbering_lock` that takes the numbering lock: a statement draws its seqs from rows that
 * come after the CTE's one row, so no seq is drawn before the lock, whichever way it is planned.
 */
export const NUMBERING_LOCK_CTE = `numbering_lock AS MATERIALIZED (SELECT pg_advisory_xact_lock(${NUMBERING_LOCK_KEY}))`;

/** An event as it was numbered: what the relay delivers. */
export interface NumberedRow {
  seq: number;
  topic: string;
  event_id: number | null;
  source: string;
  payload: Record<string, unknown>;
}

const appendOutboxEventSql = sqlPerInstallation(
  (tables) => `INSERT INTO ${tables.svc_outbox} (topic, event_id, source, payload) VALUES ($1, $2, 'api', $3) RETURNING id`,
);

/**
 * Appends an event inside the command's transaction: it exists if and only if the command commits.
 * Build `event` with the builders of `outbox/events.ts`. The insert is sent at once and its promise
 * is in flight (`inFlight`): a handler whose last statement it is need not await it, and it travels
 * with the COMMIT, which withTransaction lets count only if the insert succeeded. The row is left
 * for the sequencer to number.
 */
export function appendOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const inserting = tx.query<{ id: number }>(appendOutboxEventSql(tx.tables), [event.topic, event.eventId, JSON.stringify(event.payload)]);
  commitOf(tx).unnumbered = true;
  return inFlight(inserting.then(({ rows }) => rows[0]!.id));
}

const appendLastOutboxEventSql = sqlPerInstallation(
  (tables) =>
    `WITH waiting AS MATERIALIZED (SELECT (SELECT min(id) FROM ${tables.svc_outbox} WHERE seq IS NULL) IS NOT NULL AS waiting),
          before_own AS MATERIALIZED (
            SELECT CASE WHEN NOT waiting THEN CASE WHEN $5 = 'wait' OR pg_try_advisory_xact_lock($4) THEN '[]'::jsonb END
                        WHEN $6 THEN ${tables.prefix}svc_number_waiting_events($4, $5) END AS numbered
              FROM waiting)
     INSERT INTO ${tables.svc_outbox} (topic, event_id, source, payload, seq, sequenced_at)
     SELECT $1, $2, 'api', $3, n.seq, CASE WHEN n.seq IS NOT NULL THEN now() END
       FROM (SELECT CASE WHEN numbered IS NOT NULL THEN (WITH ${NUMBERING_LOCK_CTE} SELECT nextval('${tables.svc_outbox_seq}') FROM numbering_lock) END AS seq
               FROM before_own) AS n
     RETURNING id, seq, CASE WHEN seq IS NOT NULL THEN payload END AS payload,
               (SELECT NULLIF(numbered, '[]'::jsonb) FROM before_own) AS numbered_before`,
);

/**
 * Appends the command's last event and numbers it in place when it safely can, so that the event
 * needs no second transaction and the committing instance delivers it without reading it back.
 * A later event must never overtake an earlier one of the same score: an earlier save of the score
 * committed before this command got the score's row lock, so this statement sees its event. When
 * events wait for their number and no other command of the instance is at this point, the command
 * numbers them first, in id order, under the numbering lock (`svc_number_waiting_events`,
 * migrations 0017 and 0018), and returns them with its own for its instance to deliver; otherwise it leaves
 * its event to the sequencer too. The check asks for the lowest waiting id, not whether one
 * exists: for `EXISTS` the planner may expect a match at once and scan the table
 * (docs/decisions.md). The seqs are drawn under the numbering lock. While the instance's relay is
 * idle the statement waits for a holder's commit (another save holds the lock through its COMMIT,
 * the sequencer for one statement): only trying it left 1 save in 5 to the sequencer at 50
 * portals in a command loop, and those saves were the tail. While the relay is at work, as under
 * a stream of commands, it only tries the lock: waits would queue the stream's commits one behind
 * the other; the event of a save that found it taken is numbered by the next save that gets it,
 * or by the sequencer. It is left to the sequencer too while a desktop write's capture, or a
 * burst, waits. Nothing may follow this statement (runCommand refuses): it travels with the
 * COMMIT, so the numbering lock is held no longer than the commit takes, and whoever waits for it
 * never waits on a command's other work. A wait past the command's lock timeout runs the command
 * again, as for any lock.
 */
export function appendLastOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const inserting = tx.query<{
    id: number;
    seq: number | null;
    payload: Record<string, unknown> | null;
    numbered_before: NumberedRow[] | null;
  }>(appendLastOutboxEventSql(tx.tables), [
    event.topic,
    event.eventId,
    JSON.stringify(event.payload),
    NUMBERING_LOCK_KEY,
    inPlaceNumbering(tx),
    countLastEvent(tx) === 0,
  ]);
  const commit = commitOf(tx);
  commit.last = true;
  return inFlight(
    inserting.then(({ rows }) => {
      const row = rows[0]!;
      if (row.numbered_before) commit.numbered.push(...row.numbered_before);
      if (row.seq === null) commit.unnumbered = true;
      else commit.numbered.push({ seq: row.seq, topic: event.topic, event_id: event.eventId, source: 'api', payload: row.payload! });
      return row.id;
    }),
  );
}

/** What a command's transaction appended, as its instance's relay learns after the commit. */
export interface CommittedEvents {
  /** Events the command numbered itself, in seq order. */
  numbered: NumberedRow[];
  /** Whether it appended events the sequencer has yet to number. */
  unnumbered: boolean;
}

const appendedIn = new WeakMap<object, CommittedEvents & { last: boolean; countedOn?: object }>();

function commitOf(tx: object) {
  let commit = appendedIn.get(tx);
  if (!commit) appendedIn.set(tx, (commit = { numbered: [], unnumbered: false, last: false }));
  return commit;
}

/**
 * How a command may number its last event in place, as its instance's relay sees it: `wait` for the
 * numbering lock, or `try` it and leave the event to the sequencer when it is taken.
 */
export type InPlaceNumbering = 'wait' | 'try';

// The pool each command's transaction client runs on, and per pool its relay's answer (no relay:
// wait, and the statement's own check decides).
const poolOf = new WeakMap<object, object>();
const inPlaceHints = new WeakMap<object, () => InPlaceNumbering>();

/** Tells `appendLastOutboxEvent` which pool the command's transaction client `tx` belongs to. */
export function commandOnPool(tx: object, pool: object): void {
  poolOf.set(tx, pool);
}

/** Registers the relay's answer to "number in place now, and how?" for the commands of `pool`; returns the unregister. */
export function onNumberInPlace(pool: object, hint: () => InPlaceNumbering): () => void {
  inPlaceHints.set(pool, hint);
  return () => inPlaceHints.delete(pool);
}

function inPlaceNumbering(tx: object): InPlaceNumbering {
  const pool = poolOf.get(tx);
  return (pool === undefined ? undefined : inPlaceHints.get(pool)?.()) ?? 'wait';
}

// Per pool, how many commands have appended their last event and not yet ended. A command numbers
// the events that wait before its own only while it is the only one: under a stream of commands
// the sequencer numbers them in batches for less. At 10 connections, when every save could, 1 in
// 5 did, and the throughput fell to 0.62-0.63× the minimal outbox command (0.67-0.68× with this).
const lastEventsUnderway = new WeakMap<object, number>();

/** Counts the command of `tx` as underway until `lastEventSettled`; returns how many others are. */
function countLastEvent(tx: object): number {
  const pool = poolOf.get(tx);
  if (pool === undefined) return 0;
  const others = lastEventsUnderway.get(pool) ?? 0;
  lastEventsUnderway.set(pool, others + 1);
  commitOf(tx).countedOn = pool;
  return others;
}

/** Called when the command of `tx` has ended, committed or not. */
export function lastEventSettled(tx: object): void {
  const pool = appendedIn.get(tx)?.countedOn;
  if (pool !== undefined) lastEventsUnderway.set(pool, (lastEventsUnderway.get(pool) ?? 1) - 1);
}

/** What was appended through this transaction client; undefined when nothing was. */
export function appendedThrough(tx: object): CommittedEvents | undefined {
  return appendedIn.get(tx);
}

/** Whether the command's last event has been appended through this client: nothing may follow it. */
export function lastEventAppended(tx: object): boolean {
  return appendedIn.get(tx)?.last === true;
}

// ---------------------------------------------------------------------------------------------
// In-process wake-up. A command's commit notifies nobody (migration 0010): the instance that
// committed wakes its own relay through the pool the command ran on.

const committedListeners = new WeakMap<object, Set<(events: CommittedEvents) => void>>();

/** Registers `listener` for commits of commands that appended events on `pool`; returns the unsubscribe. */
export function onOutboxCommitted(pool: object, listener: (events: CommittedEvents) => void): () => void {
  let listeners = committedListeners.get(pool);
  if (!listeners) committedListeners.set(pool, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called after a command that appended `events` has committed on `pool`. */
export function outboxCommitted(pool: object, events: CommittedEvents): void {
  for (const listener of committedListeners.get(pool) ?? []) listener(events);
}
