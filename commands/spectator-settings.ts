/**
 * PUT /api/events/:eventId/spectator-settings (admin): the event's publish mode, and which of its
 * participants the spectator page shows without a name. The hidden list replaces the flags of the
 * event's participants; flags of participants outside the event stay as they are.
 */
import type { TxClient } from '../src/db/pool.js';
import type { PublishMode } from '../src/model/spectator-privacy.js';

export async function setSpectatorSettings(
  tx: TxClient,
  eventId: number,
  input: { publish: PublishMode; hiddenParticipantIds: number[] },
  actor: string | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${tx.tables.svc_spectator_settings} (event_id, publish, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (event_id) DO UPDATE SET publish = EXCLUDED.publish, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [eventId, input.publish, actor],
  );
  // Only participants of the event: an id from elsewhere is not this event's to flag.
  await tx.query(
    `WITH event_participants AS (
       SELECT DISTINCT w.int_teilnehmerid AS id FROM ${tx.tables.wertungen} w
         JOIN ${tx.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
        WHERE c.int_veranstaltungenid = $1 AND w.int_teilnehmerid IS NOT NULL
     ), cleared AS (
       DELETE FROM ${tx.tables.svc_spectator_hidden} h USING event_participants e
        WHERE h.participant_id = e.id AND h.participant_id <> ALL ($2::int[])
     )
     INSERT INTO ${tx.tables.svc_spectator_hidden} (participant_id, hidden_by)
     SELECT e.id, $3 FROM event_participants e WHERE e.id = ANY ($2::int[])
     ON CONFLICT (participant_id) DO NOTHING`,
    [eventId, input.hiddenParticipantIds, actor],
  );
}
