/**
 * E-panel settings (`svc_panel_settings`, migrations 0009 and 0029) as commands and queries read
 * them: the SQL that builds a stored row's JSON in the `PanelSettings` shape, so the statement that
 * reads a discipline (the scoring state, the catalog) carries its panel without a statement of its own.
 */
export const panelSettingsJson = (alias: string) =>
  `json_build_object('judgeFieldIds', ${alias}.judge_field_ids, 'aggregation', ${alias}.aggregation,
     'aggregateFieldId', ${alias}.aggregate_field_id, 'tolerance', ${alias}.tolerance,
     'size', cardinality(${alias}.judge_field_ids),
     'reference', CASE WHEN ${alias}.reference_field_ids IS NOT NULL THEN json_build_object(
       'fieldIds', ${alias}.reference_field_ids, 'agreement', ${alias}.reference_agreement,
       'tolerances', ${alias}.reference_tolerances) END,
     'missingJudge', ${alias}.missing_judge, 'absentFieldIds', ${alias}.absent_field_ids)`;
