/**
 * The office's participants list: every individual score row of an event with its gymnast, club,
 * competition, squad and the did-not-start / out-of-competition flags. One statement.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';

export interface ParticipantEntry {
  scoreId: number;
  participantId: number;
  competitionId: number;
  competitionName: string | null;
  firstName: string | null;
  lastName: string | null;
  birthDate: string | null;
  gender: number | null;
  startNumber: string | null;
  clubId: number | null;
  clubName: string | null;
  squadName: string | null;
  didNotStart: boolean;
  outOfCompetition: boolean;
}

export async function listParticipantEntries(db: Queryable, eventId: number): Promise<ParticipantEntry[]> {
  const { rows } = await db.query<{ event_found: boolean; entries: ParticipantEntry[] }>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event_found,
            COALESCE((SELECT json_agg(json_build_object(
                       'scoreId', w.int_wertungenid, 'participantId', p.int_teilnehmerid,
                       'competitionId', c.int_wettkaempfeid, 'competitionName', c.var_name,
                       'firstName', p.var_vorname, 'lastName', p.var_nachname,
                       'birthDate', to_char(p.dat_geburtstag, 'YYYY-MM-DD'), 'gender', p.int_geschlecht,
                       'startNumber', p.var_startnummer, 'clubId', v.int_vereineid, 'clubName', v.var_name,
                       'squadName', NULLIF(btrim(w.var_riege), ''),
                       'didNotStart', COALESCE(w.bol_startet_nicht, false), 'outOfCompetition', COALESCE(w.bol_ak, false))
                       ORDER BY lower(p.var_nachname), lower(p.var_vorname), p.int_teilnehmerid, c.int_wettkaempfeid)
                        FROM ${db.tables.wettkaempfe} c
                        JOIN ${db.tables.wertungen} w ON w.int_wettkaempfeid = c.int_wettkaempfeid
                        JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
                        LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
                       WHERE c.int_veranstaltungenid = $1), '[]'::json) AS entries`,
    [eventId],
  );
  if (!rows[0]!.event_found) throw notFound(`No event ${eventId}`);
  return rows[0]!.entries;
}
