/**
 * E-panel settings (`svc_panel_settings`, migration 0009) as commands and queries load them.
 * `panelSettingsJson` gives the SQL that builds the stored row's JSON, so the scoring state's
 * statement can carry a discipline's panel without a statement of its own.
 */
import type { Queryable } from '../db/pool.js';
import type { PanelSettings } from '../domain/panel.js';

/** json_build_object of the settings row `alias` in the `PanelSettings` shape. */
export const panelSettingsJson = (alias: string) =>
  `json_build_object('judgeFieldIds', ${alias}.judge_field_ids, 'aggregation', ${alias}.aggregation,
     'aggregateFieldId', ${alias}.aggregate_field_id, 'tolerance', ${alias}.tolerance,
     'size', cardinality(${alias}.judge_field_ids))`;

/** Panels of the given disciplines (set-wise); a discipline without one is absent. */
export async function selectPanelSettings(db: Queryable, disciplineIds: readonly number[]): Promise<Map<number, PanelSettings>> {
  const { rows } = await db.query<{ disciplineId: number; panel: PanelSettings }>(
    `SELECT s.discipline_id AS "disciplineId", ${panelSettingsJson('s')} AS panel
       FROM ${db.tables.svc_panel_settings} s WHERE s.discipline_id = ANY($1::int[])`,
    [disciplineIds],
  );
  return new Map(rows.map((row) => [row.disciplineId, row.panel]));
}
