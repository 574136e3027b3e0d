import { inFlight, type TxClient } from '../src/db/pool.js';
import type { OutboxEvent } from './events.js';

/**
 * Appends an event inside the command's transaction: it exists if and only if the command commits.
 * Build `event` with the builders of `outbox/events.ts`. The insert is sent at once and its promise
 * is in flight (`inFlight`): a handler whose last statement it is need not await it, and it travels
 * with the COMMIT, which withTransaction lets count only if the insert succeeded.
 */
export function appendOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const inserting = tx.query<{ id: number }>(
    `INSERT INTO ${tx.tables.svc_outbox} (topic, event_id, source, payload) VALUES ($1, $2, 'api', $3) RETURNING id`,
    [event.topic, event.eventId, JSON.stringify(event.payload)],
  );
  appendedIn.add(tx);
  return inFlight(inserting.then(({ rows }) => rows[0]!.id));
}

// ---------------------------------------------------------------------------------------------
// In-process wake-up. A command's commit notifies nobody (migration 0010): the instance that
// committed wakes its own relay through the pool the command ran on.

const appendedIn = new WeakSet<object>();
const committedListeners = new WeakMap<object, Set<() => void>>();

/** Whether an event was appended through this transaction client. */
export function appendedThrough(tx: object): boolean {
  return appendedIn.has(tx);
}

/** Registers `listener` for commits of commands that appended events on `pool`; returns the unsubscribe. */
export function onOutboxCommitted(pool: object, listener: () => void): () => void {
  let listeners = committedListeners.get(pool);
  if (!listeners) committedListeners.set(pool, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called after a command that appended events has committed on `pool`. */
export function outboxCommitted(pool: object): void {
  for (const listener of committedListeners.get(pool) ?? []) listener();
}
