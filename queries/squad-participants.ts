import type { Queryable } from '../src/db/pool.js';
import { genderFromCode } from '../src/domain/final-score.js';
import type { PlannerParticipant } from '../src/domain/squad-planner.js';

export interface SquadPlanningInput {
  participants: PlannerParticipant[];
  /** `dat_von` of the event (`YYYY-MM-DD`), null when the event has no start date. */
  eventStart: string | null;
}

interface ParticipantRow {
  id: number;
  firstname: string | null;
  lastname: string | null;
  clubId: number | null;
  club: string | null;
  genderCode: number | null;
  birthDate: string | null;
  eventStart: string | null;
  competitionIds: number[];
}

/**
 * Step 1 of "Squad auto-assign" in one statement: the participants having a score row in a
 * competition of the event, each once (the IN is a semi-join, so two score rows do not make two
 * entries). The event's start date rides along on every row, so the age reference needs no
 * second round trip. A participant without a club gets club id 0 and an empty club name, since the
 * proposal types both as non-null; with keepClubsTogether those participants form one club.
 */
export async function selectSquadPlanningInput(db: Queryable, eventId: number): Promise<SquadPlanningInput> {
  const { rows } = await db.query<ParticipantRow>(
    `SELECT p.int_teilnehmerid AS id, p.var_vorname AS firstname, p.var_nachname AS lastname,
            p.int_vereineid AS "clubId", v.var_name AS club, p.int_geschlecht AS "genderCode",
            p.dat_geburtstag AS "birthDate", e.dat_von AS "eventStart",
            ARRAY(SELECT DISTINCT w.int_wettkaempfeid
                    FROM ${db.tables.wertungen} w
                    JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                   WHERE w.int_teilnehmerid = p.int_teilnehmerid AND c.int_veranstaltungenid = $1
                   ORDER BY 1) AS "competitionIds"
       FROM ${db.tables.teilnehmer} p
       JOIN ${db.tables.veranstaltungen} e ON e.int_veranstaltungenid = $1
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
      WHERE p.int_teilnehmerid IN (
              SELECT w.int_teilnehmerid
                FROM ${db.tables.wertungen} w
                JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
               WHERE c.int_veranstaltungenid = $1)
      ORDER BY p.int_teilnehmerid`,
    [eventId],
  );
  return {
    eventStart: rows[0]?.eventStart ?? null,
    participants: rows.map((row) => ({
      id: row.id,
      firstname: row.firstname ?? '',
      lastname: row.lastname ?? '',
      club: row.club ?? '',
      clubId: row.clubId ?? 0,
      gender: genderFromCode(row.genderCode),
      birthDate: row.birthDate,
      competitionIds: row.competitionIds,
    })),
  };
}
