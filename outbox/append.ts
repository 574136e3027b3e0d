import type { TxClient } from '../src/db/pool.js';
import type { OutboxEvent } from './events.js';

/**
 * Appends an event inside the command's transaction: it exists if and only if the command commits.
 * Build `event` with the builders of `outbox/events.ts`.
 */
export async function appendOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ${tx.tables.svc_outbox} (topic, event_id, source, payload) VALUES ($1, $2, 'api', $3) RETURNING id`,
    [event.topic, event.eventId, JSON.stringify(event.payload)],
  );
  return rows[0]!.id;
}
