import type { TxClient } from '../src/db/pool.js';
import { t } from '../src/db/tables.js';

export type OutboxTopic = 'score-updated' | 'squads-applied';

export interface OutboxEvent {
  topic: OutboxTopic;
  /** The competition event (Veranstaltung) whose room receives it. */
  eventId: number;
  /** The event body as clients receive it, minus `seq` and `source`, which delivery adds. */
  payload: Record<string, unknown>;
}

/** Appends an event inside the command's transaction: it exists if and only if the command commits. */
export async function appendOutboxEvent(tx: TxClient, event: OutboxEvent): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ${t('svc_outbox')} (topic, event_id, source, payload) VALUES ($1, $2, 'api', $3) RETURNING id`,
    [event.topic, event.eventId, JSON.stringify(event.payload)],
  );
  return rows[0]!.id;
}
