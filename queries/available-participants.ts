import type { Queryable } from '../src/db/pool.js';
import { genderFromCode } from '../src/domain/final-score.js';
import type { Gender } from '../src/domain/squad-planner.js';
import { GROUP_PARTICIPANT_TYPE } from '../src/model/participant-types.js';

export interface CandidateFilter {
  eventId: number;
  clubId: number;
  hidePlanned: boolean;
  hideOtherClubs: boolean;
}

export interface Candidate {
  id: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubId: number | null;
  clubName: string | null;
  gender: Gender;
  birthDate: string | null;
}

/**
 * Rules 1-4 of "Group candidates" in one statement. The filters are spliced in as fixed fragments
 * rather than `$flag OR ...`, so the planned check (NOT EXISTS over all score rows) is not even in
 * the statement unless hidePlanned is set; a generic plan cannot evaluate it needlessly.
 */
export async function selectCandidates(db: Queryable, filter: CandidateFilter): Promise<Candidate[]> {
  const clubCondition = filter.hideOtherClubs ? 'AND p.int_vereineid = $3' : '';
  const plannedCondition = filter.hidePlanned
    ? `AND NOT EXISTS (SELECT 1 FROM ${db.tables.wertungen} w WHERE w.int_teilnehmerid = p.int_teilnehmerid)`
    : '';
  const { rows } = await db.query<Omit<Candidate, 'gender'> & { genderCode: number | null }>(
    `SELECT p.int_teilnehmerid AS id, p.var_vorname AS "firstName", p.var_nachname AS "lastName",
            p.var_startnummer AS "startNumber", p.int_vereineid AS "clubId", v.var_name AS "clubName",
            p.int_geschlecht AS "genderCode", p.dat_geburtstag AS "birthDate"
       FROM ${db.tables.teilnehmer} p
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
      WHERE p.int_eventid = $1 AND p.var_typ = $2 ${clubCondition} ${plannedCondition}
      ORDER BY p.var_nachname, p.var_vorname, p.int_teilnehmerid`,
    filter.hideOtherClubs ? [filter.eventId, GROUP_PARTICIPANT_TYPE, filter.clubId] : [filter.eventId, GROUP_PARTICIPANT_TYPE],
  );
  return rows.map(({ genderCode, ...candidate }) => ({ ...candidate, gender: genderFromCode(genderCode) }));
}
