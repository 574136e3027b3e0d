/**
 * What the office pages pick from within one event: its competitions (with their attempt count),
 * its groups and its teams. Each list is one statement that also tells a missing event (no row)
 * from an event without entries (one row whose entry columns are null), so the route can answer
 * 404 for the first without a second round trip.
 */
import type { Queryable } from '../src/db/pool.js';

export interface CompetitionSummary {
  id: number;
  name: string | null;
  isGroupCompetition: boolean;
  /** int_versuche as the score commands read it (missing counts as 1). */
  attempts: number;
  /**
   * Its devices: the disciplines its score rows are planned on (detail rows), in the order they were
   * planned; a board or picker offers these only.
   */
  disciplineIds: number[];
}

/** A competition a group or team is entered in (it has a score row there) and the devices it offers. */
export interface UnitCompetition {
  id: number;
  /**
   * The devices of the competition as its group and team rows show them: every discipline with a
   * detail row of one of them, widened to the disciplines of the same sport (disciplines without a sport count as one; a competition is held
   * in one sport, and the desktop program plans collective rows device by device as they are
   * scored). Empty: nothing recorded yet, so every device is offered.
   */
  disciplineIds: number[];
}

export interface UnitSummary {
  id: number;
  name: string;
  startNumber: number | null;
  clubId: number | null;
  clubName: string | null;
  squadName: string | null;
  /** By competition id; empty when the unit has no score row yet. */
  competitions: UnitCompetition[];
}

/** Group and team rows differ only in table and id column; both come from these constants, never a request. */
export const UNIT_TABLES = {
  groups: { table: 'gruppen', idColumn: 'int_gruppenid' },
  teams: { table: 'mannschaften', idColumn: 'int_mannschaftenid' },
} as const;

export type UnitKind = keyof typeof UNIT_TABLES;

type Entry<T> = { [K in keyof T]: T[K] | null };

/** null: no such event. The LEFT JOIN row with a null id is the event itself, present but empty. */
function entriesOfEvent<T extends { id: number }>(rows: ReadonlyArray<Entry<T>>): T[] | null {
  if (rows.length === 0) return null;
  return rows.filter((row): row is T => row.id !== null);
}

export async function selectEventCompetitions(db: Queryable, eventId: number): Promise<CompetitionSummary[] | null> {
  const { rows } = await db.query<Entry<CompetitionSummary>>(
    `SELECT c.int_wettkaempfeid AS id, c.var_name AS name,
            COALESCE(c.bol_gruppe, false) AS "isGroupCompetition", COALESCE(c.int_versuche, 1) AS attempts,
            ARRAY(SELECT d.int_disziplinenid
                    FROM ${db.tables.wertungen} w
                    JOIN ${db.tables.wertungen_details} d ON d.int_wertungenid = w.int_wertungenid
                   WHERE w.int_wettkaempfeid = c.int_wettkaempfeid
                   GROUP BY d.int_disziplinenid
                   ORDER BY min(d.int_wertungen_detailsid)) AS "disciplineIds"
       FROM ${db.tables.veranstaltungen} e
       LEFT JOIN ${db.tables.wettkaempfe} c ON c.int_veranstaltungenid = e.int_veranstaltungenid
      WHERE e.int_veranstaltungenid = $1
      ORDER BY c.int_wettkaempfeid`,
    [eventId],
  );
  return entriesOfEvent(rows);
}

export async function selectEventUnits(db: Queryable, kind: UnitKind, eventId: number): Promise<UnitSummary[] | null> {
  const { table, idColumn } = UNIT_TABLES[kind];
  const { rows } = await db.query<Entry<UnitSummary>>(
    `SELECT u.${idColumn} AS id, u.var_name AS name, u.int_startnummer AS "startNumber",
            u.int_vereineid AS "clubId", v.var_name AS "clubName", u.var_riege AS "squadName",
            CASE WHEN u.${idColumn} IS NULL THEN NULL ELSE COALESCE(entered.competitions, '[]'::json) END AS competitions
       FROM ${db.tables.veranstaltungen} e
       LEFT JOIN ${db.tables[table]} u ON u.int_veranstaltungenid = e.int_veranstaltungenid
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = u.int_vereineid
       LEFT JOIN LATERAL (
         SELECT json_agg(json_build_object('id', c.id, 'disciplineIds', c.devices) ORDER BY c.id) AS competitions
           FROM (SELECT w.int_wettkaempfeid AS id,
                        COALESCE((SELECT array_agg(DISTINCT dz.int_disziplinenid ORDER BY dz.int_disziplinenid)
                                    FROM ${db.tables.wertungen} cw
                                    JOIN ${db.tables.wertungen_details} d ON d.int_wertungenid = cw.int_wertungenid
                                    JOIN ${db.tables.disziplinen} used ON used.int_disziplinenid = d.int_disziplinenid
                                    JOIN ${db.tables.disziplinen} dz
                                      ON dz.int_sportid IS NOT DISTINCT FROM used.int_sportid
                                   WHERE cw.int_wettkaempfeid = w.int_wettkaempfeid AND cw.int_teilnehmerid IS NULL),
                                 '{}') AS devices
                   FROM ${db.tables.wertungen} w
                  WHERE w.${idColumn} = u.${idColumn}
                  GROUP BY w.int_wettkaempfeid) c
       ) entered ON true
      WHERE e.int_veranstaltungenid = $1
      ORDER BY u.int_startnummer NULLS LAST, u.var_name, u.${idColumn}`,
    [eventId],
  );
  return entriesOfEvent(rows);
}
