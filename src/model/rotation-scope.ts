/**
 * What a rotation plan and a judge credential of an event may name: the event's apparatus and
 * squads. Shared by the commands that store them and the queries that propose them.
 */
import type { Queryable } from '../db/pool.js';

export interface RotationScope {
  eventFound: boolean;
  /**
   * Apparatus in the order squads move on (discipline id order: the desktop program creates a
   * programme's apparatus in its order). The legacy layout links no apparatus to a competition, so
   * these are the disciplines the event's score rows have detail rows of (planned or scored), or
   * every discipline while it has none (as the portal's device choice).
   */
  disciplines: Array<{ id: number; name: string }>;
  /** Distinct non-empty squad names (var_riege, trimmed) of the event's score rows. */
  squadNames: string[];
  /** The event's competitions, by id. */
  competitionIds: number[];
  /** The first day of the event (dat_von), YYYY-MM-DD, or null. */
  startDate: string | null;
}

export async function selectRotationScope(db: Queryable, eventId: number): Promise<RotationScope> {
  const { rows } = await db.query<RotationScope>(
    `WITH rows_of_event AS (
       SELECT w.int_wertungenid AS score_id, NULLIF(btrim(w.var_riege), '') AS squad
         FROM ${db.tables.wettkaempfe} c JOIN ${db.tables.wertungen} w ON w.int_wettkaempfeid = c.int_wettkaempfeid
        WHERE c.int_veranstaltungenid = $1
     ), planned AS (
       SELECT DISTINCT det.int_disziplinenid AS id
         FROM rows_of_event r JOIN ${db.tables.wertungen_details} det ON det.int_wertungenid = r.score_id
     )
     SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS "eventFound",
            COALESCE((SELECT json_agg(json_build_object('id', d.int_disziplinenid, 'name', COALESCE(d.var_anzeigename, d.var_name))
                                      ORDER BY d.int_disziplinenid)
                        FROM ${db.tables.disziplinen} d
                       WHERE d.int_disziplinenid IN (SELECT id FROM planned) OR NOT EXISTS (SELECT 1 FROM planned)), '[]'::json) AS disciplines,
            COALESCE((SELECT array_agg(DISTINCT squad) FROM rows_of_event WHERE squad IS NOT NULL), '{}') AS "squadNames",
            COALESCE((SELECT array_agg(int_wettkaempfeid ORDER BY int_wettkaempfeid) FROM ${db.tables.wettkaempfe}
                       WHERE int_veranstaltungenid = $1), '{}') AS "competitionIds",
            (SELECT to_char(dat_von, 'YYYY-MM-DD') FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS "startDate"`,
    [eventId],
  );
  return rows[0]!;
}
