/** GET /api/panel-deviations?eventId=: the open (unconfirmed) E-panel deviations of an event, oldest first. */
import type { Queryable } from '../src/db/pool.js';
import type { PanelDeviation } from '../src/domain/panel.js';

export type OpenDeviation = PanelDeviation & { resolved: false };

export async function selectOpenDeviations(db: Queryable, eventId: number): Promise<OpenDeviation[]> {
  const { rows } = await db.query<OpenDeviation>(
    `SELECT score_id AS "scoreId", discipline_id AS "disciplineId", attempt, panel_values AS values, spread, tolerance, false AS resolved
       FROM ${db.tables.svc_panel_deviations}
      WHERE event_id = $1 AND state = 'open'
      ORDER BY opened_at, score_id, discipline_id`,
    [eventId],
  );
  return rows;
}
