/**
 * The spectator page's privacy settings of an event (migration 0026): which scores it publishes and
 * which of the event's participants it shows without a name. One statement, whatever the number of
 * participants.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { DEFAULT_PUBLISH, type PublishMode, type SpectatorPrivacy } from '../src/model/spectator-privacy.js';

export interface SpectatorParticipant {
  participantId: number;
  firstName: string | null;
  lastName: string | null;
  clubName: string | null;
  hidden: boolean;
}

export interface SpectatorSettings extends SpectatorPrivacy {
  eventId: number;
  /** The event's participants (those with a score row in one of its competitions), for the office's list. */
  participants: SpectatorParticipant[];
}

interface SettingsRow {
  event_found: boolean;
  publish: PublishMode | null;
  participants: SpectatorParticipant[];
}

export async function readSpectatorSettings(db: Queryable, eventId: number): Promise<SpectatorSettings> {
  const { rows } = await db.query<SettingsRow>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event_found,
            (SELECT publish FROM ${db.tables.svc_spectator_settings} WHERE event_id = $1) AS publish,
            COALESCE((SELECT json_agg(json_build_object('participantId', p.int_teilnehmerid, 'firstName', p.var_vorname,
                                        'lastName', p.var_nachname, 'clubName', v.var_name, 'hidden', h.participant_id IS NOT NULL)
                                      ORDER BY p.var_nachname, p.var_vorname, p.int_teilnehmerid)
                        FROM ${db.tables.teilnehmer} p
                        LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
                        LEFT JOIN ${db.tables.svc_spectator_hidden} h ON h.participant_id = p.int_teilnehmerid
                       WHERE p.int_teilnehmerid IN (SELECT w.int_teilnehmerid FROM ${db.tables.wertungen} w
                                                      JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                                                     WHERE c.int_veranstaltungenid = $1)), '[]') AS participants`,
    [eventId],
  );
  const row = rows[0]!;
  if (!row.event_found) throw notFound(`No event ${eventId}`);
  return {
    eventId,
    publish: row.publish ?? DEFAULT_PUBLISH,
    hiddenParticipantIds: row.participants.filter((participant) => participant.hidden).map((participant) => participant.participantId),
    participants: row.participants,
  };
}

/** What the spectator page's filters need of an event; null when there is no such event. */
export async function readSpectatorPrivacy(db: Queryable, eventId: number): Promise<SpectatorPrivacy | null> {
  const { rows } = await db.query<{ publish: PublishMode | null; hidden: number[] }>(
    `SELECT (SELECT publish FROM ${db.tables.svc_spectator_settings} WHERE event_id = $1) AS publish,
            ARRAY(SELECT h.participant_id FROM ${db.tables.svc_spectator_hidden} h
                   WHERE h.participant_id IN (SELECT w.int_teilnehmerid FROM ${db.tables.wertungen} w
                                                JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                                               WHERE c.int_veranstaltungenid = $1)
                   ORDER BY 1) AS hidden
       FROM ${db.tables.veranstaltungen} e WHERE e.int_veranstaltungenid = $1`,
    [eventId],
  );
  const row = rows[0];
  return row ? { publish: row.publish ?? DEFAULT_PUBLISH, hiddenParticipantIds: row.hidden } : null;
}
