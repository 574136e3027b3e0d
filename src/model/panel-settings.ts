/**
 * E-panel settings (`svc_panel_settings`, migration 0009) as commands and queries read them: the
 * SQL that builds a stored row's JSON in the `PanelSettings` shape, so the statement that reads a
 * discipline (the scoring state, the catalog) carries its panel without a statement of its own.
 */
export const panelSettingsJson = (alias: string) =>
  `json_build_object('judgeFieldIds', ${alias}.judge_field_ids, 'aggregation', ${alias}.aggregation,
     'aggregateFieldId', ${alias}.aggregate_field_id, 'tolerance', ${alias}.tolerance,
     'size', cardinality(${alias}.judge_field_ids))`;
