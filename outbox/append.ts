import { inFlight, type TxClient } from '../src/db/pool.js';
import { sqlPerInstallation } from '../src/db/tables.js';
import type { OutboxEvent } from './events.js';

const appendOutboxEventSql = sqlPerInstallation(
  (tables) => `INSERT INTO ${tables.svc_outbox} (topic, event_id, source, payload) VALUES ($1, $2, 'api', $3) RETURNING id`,
);

/**
 * Appends an event inside the command's transaction: it exists if and only if the command commits.
 * Build `event` with the builders of `outbox/events.ts`. The row has no seq: the sequencer numbers
 * it once the commit is visible (outbox/sequencer.ts). The insert is sent at once and its promise
 * is in flight (`inFlight`): a handler whose last statement it is need not await it, and it travels
 * with the COMMIT, which withTransaction lets count only if the insert succeeded.
 */
export function appendOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const inserting = tx.query<{ id: number }>(appendOutboxEventSql(tx.tables), [event.topic, event.eventId, JSON.stringify(event.payload)]);
  return inFlight(inserting.then(({ rows }) => rows[0]!.id));
}
