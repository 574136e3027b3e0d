/**
 * The squads an event has now, read from the squad names (var_riege) of its individual score rows:
 * the legacy layout keeps no squad table, so a squad exists exactly while a score row names it.
 */
import type { Queryable } from '../src/db/pool.js';
import { genderFromCode } from '../src/domain/final-score.js';
import type { Gender } from '../src/domain/squad-planner.js';

export interface SquadParticipant {
  id: number;
  firstName: string | null;
  lastName: string | null;
  clubName: string | null;
  gender: Gender;
}

export interface CurrentSquad {
  name: string;
  participants: SquadParticipant[];
}

export interface EventSquads {
  eventId: number;
  squads: CurrentSquad[];
  /** Participants with score rows in the event none of which names a squad. */
  unassigned: SquadParticipant[];
}

interface SquadRow extends Omit<SquadParticipant, 'gender' | 'id'> {
  id: number | null;
  squad: string | null;
  genderCode: number | null;
}

/**
 * One statement: a participant appears once per distinct squad name on its rows (the desktop
 * program may have given two competitions different squads; both are shown, as stored). A blank
 * name counts as none, as it does for the desktop program's squad lists.
 */
export async function selectEventSquads(db: Queryable, eventId: number): Promise<EventSquads | null> {
  const { rows } = await db.query<SquadRow>(
    `SELECT s.squad, s.id, s."firstName", s."lastName", s."clubName", s."genderCode"
       FROM ${db.tables.veranstaltungen} e
       LEFT JOIN LATERAL (
         SELECT DISTINCT NULLIF(btrim(w.var_riege), '') AS squad, p.int_teilnehmerid AS id,
                p.var_vorname AS "firstName", p.var_nachname AS "lastName", v.var_name AS "clubName",
                p.int_geschlecht AS "genderCode"
           FROM ${db.tables.wertungen} w
           JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
           JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
           LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
          WHERE c.int_veranstaltungenid = e.int_veranstaltungenid
       ) s ON true
      WHERE e.int_veranstaltungenid = $1
      ORDER BY s.squad NULLS LAST, s."lastName", s."firstName", s.id`,
    [eventId],
  );
  if (rows.length === 0) return null;
  const squads = new Map<string, CurrentSquad>();
  const assigned = new Set<number>();
  const unplaced = new Map<number, SquadParticipant>();
  for (const { squad, id, genderCode, ...names } of rows) {
    if (id === null) continue;
    const participant: SquadParticipant = { id, ...names, gender: genderFromCode(genderCode) };
    if (squad === null) {
      unplaced.set(id, participant);
      continue;
    }
    assigned.add(id);
    let entry = squads.get(squad);
    if (!entry) squads.set(squad, (entry = { name: squad, participants: [] }));
    entry.participants.push(participant);
  }
  return {
    eventId,
    squads: [...squads.values()],
    unassigned: [...unplaced.values()].filter((participant) => !assigned.has(participant.id)),
  };
}
