/**
 * Which registrations the database already has (docs/decisions.md, "Participants in the office"):
 * a club by its name, a person of the event by first and last name, birth date and club (any case,
 * outer blanks ignored), an entry by person and competition. Read by the import's preview and by
 * the command that enters them, so both decide alike. One statement each, whatever the row count.
 */
import type { Queryable } from '../db/pool.js';
import type { CompetitionName, Registration } from '../domain/registrations.js';

export interface RegistrationContext {
  eventFound: boolean;
  competitions: CompetitionName[];
}

export async function selectRegistrationContext(db: Queryable, eventId: number): Promise<RegistrationContext> {
  const { rows } = await db.query<RegistrationContext>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS "eventFound",
            COALESCE((SELECT json_agg(json_build_object('id', int_wettkaempfeid, 'name', var_name) ORDER BY int_wettkaempfeid)
                        FROM ${db.tables.wettkaempfe} WHERE int_veranstaltungenid = $1), '[]'::json) AS competitions`,
    [eventId],
  );
  return rows[0]!;
}

export interface RegistrationMatch {
  clubId: number | null;
  participantId: number | null;
  /** The person's score row in the registration's competition. */
  scoreId: number | null;
}

/** Per registration (in order) what already exists. */
export async function selectRegistrationMatches(
  db: Queryable,
  eventId: number,
  registrations: readonly Registration[],
): Promise<RegistrationMatch[]> {
  const { rows } = await db.query<RegistrationMatch & { ord: number }>(
    `WITH input AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::date[], $5::text[], $6::int[])
                WITH ORDINALITY AS i(first_name, last_name, birth_date, club_name, competition_id, ord)
     ), clubs AS (
       SELECT i.*, (SELECT min(v.int_vereineid) FROM ${db.tables.vereine} v
                     WHERE lower(btrim(v.var_name)) = lower(btrim(i.club_name))) AS club_id
         FROM input i
     ), people AS (
       SELECT c.*, (SELECT min(p.int_teilnehmerid) FROM ${db.tables.teilnehmer} p
                     WHERE p.int_eventid = $1 AND p.var_typ IS DISTINCT FROM 'Gruppe'
                       AND (c.club_name IS NULL OR c.club_id IS NOT NULL)
                       AND lower(btrim(p.var_vorname)) = lower(btrim(c.first_name))
                       AND lower(btrim(p.var_nachname)) = lower(btrim(c.last_name))
                       AND p.dat_geburtstag IS NOT DISTINCT FROM c.birth_date
                       AND p.int_vereineid IS NOT DISTINCT FROM c.club_id) AS participant_id
         FROM clubs c
     )
     SELECT p.ord::int AS ord, p.club_id AS "clubId", p.participant_id AS "participantId",
            (SELECT min(w.int_wertungenid) FROM ${db.tables.wertungen} w
              WHERE w.int_teilnehmerid = p.participant_id AND w.int_wettkaempfeid = p.competition_id) AS "scoreId"
       FROM people p ORDER BY p.ord`,
    [
      eventId,
      registrations.map((registration) => registration.firstName),
      registrations.map((registration) => registration.lastName),
      registrations.map((registration) => registration.birthDate),
      registrations.map((registration) => registration.clubName),
      registrations.map((registration) => registration.competitionId),
    ],
  );
  return rows.map(({ clubId, participantId, scoreId }) => ({ clubId, participantId, scoreId }));
}
