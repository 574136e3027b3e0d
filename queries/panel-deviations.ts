/**
 * GET /api/panel-deviations?eventId=: the open (unconfirmed) E-panel deviations of an event, oldest
 * first; optionally of one competition's scores only, and a page of them (one statement either way).
 */
import type { Queryable } from '../src/db/pool.js';
import type { PanelDeviation } from '../src/domain/panel.js';

export type OpenDeviation = PanelDeviation & { resolved: false };

export interface DeviationsQuery {
  eventId: number;
  competitionId?: number | undefined;
  /** Absent: all. */
  limit?: number | undefined;
  offset?: number | undefined;
}

export async function selectOpenDeviations(db: Queryable, query: DeviationsQuery): Promise<OpenDeviation[]> {
  const { rows } = await db.query<OpenDeviation>(
    `SELECT o.score_id AS "scoreId", o.discipline_id AS "disciplineId", o.attempt, o.panel_values AS values, o.spread, o.tolerance, false AS resolved
       FROM ${db.tables.svc_panel_deviations} o
      WHERE o.event_id = $1 AND o.state = 'open'
        AND ($2::int IS NULL OR EXISTS (SELECT 1 FROM ${db.tables.wertungen} w WHERE w.int_wertungenid = o.score_id AND w.int_wettkaempfeid = $2))
      ORDER BY o.opened_at, o.score_id, o.discipline_id, o.attempt
      LIMIT $3 OFFSET $4`,
    [query.eventId, query.competitionId ?? null, query.limit ?? null, query.offset ?? 0],
  );
  return rows;
}
