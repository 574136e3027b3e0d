/**
 * PUT / DELETE /api/disciplines/:disciplineId/panel (admin): a discipline's E-panel settings
 * (issue 21, `svc_panel_settings`). Checked against the discipline's fields before anything is
 * written; a new or removed configuration drops the discipline's standing deviations, which were
 * measured against the old one (the next save of a judge value measures again).
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { DEFAULT_PANEL_TOLERANCE, panelSettingsProblems, type PanelAggregation, type PanelSettings } from '../src/domain/panel.js';
import { selectDisciplineContext } from '../src/model/discipline-context.js';
import { panelSettingsJson } from '../src/model/panel-settings.js';

export interface PanelSettingsInput {
  judgeFieldIds: number[];
  aggregation: PanelAggregation;
  aggregateFieldId: number;
  /** Absent: DEFAULT_PANEL_TOLERANCE. */
  tolerance?: number | undefined;
}

export async function setPanelSettings(
  tx: TxClient,
  disciplineId: number,
  input: PanelSettingsInput,
  actor: string,
): Promise<PanelSettings> {
  const discipline = await selectDisciplineContext(tx, disciplineId);
  if (discipline === null) throw notFound(`No discipline ${disciplineId}`);
  const settings = { ...input, tolerance: input.tolerance ?? DEFAULT_PANEL_TOLERANCE };
  const problems = panelSettingsProblems(settings, discipline.fields);
  if (problems.length > 0) throw validationFailed(problems.join('; '));
  const stored = await upsertPanelSettings(tx, disciplineId, settings, actor);
  await deleteDisciplineDeviations(tx, disciplineId);
  return stored;
}

/** 404 for an unknown discipline; removing a panel that is not there is no error. */
export async function removePanelSettings(tx: TxClient, disciplineId: number): Promise<void> {
  if ((await selectDisciplineContext(tx, disciplineId)) === null) throw notFound(`No discipline ${disciplineId}`);
  await deletePanelSettings(tx, disciplineId);
  await deleteDisciplineDeviations(tx, disciplineId);
}

export async function upsertPanelSettings(
  tx: TxClient,
  disciplineId: number,
  settings: Required<PanelSettingsInput>,
  actor: string,
): Promise<PanelSettings> {
  const { rows } = await tx.query<{ panel: PanelSettings }>(
    `INSERT INTO ${tx.tables.svc_panel_settings} AS s (discipline_id, judge_field_ids, aggregation, aggregate_field_id, tolerance, updated_by)
     VALUES ($1, $2::int[], $3, $4, $5, $6)
     ON CONFLICT (discipline_id) DO UPDATE
        SET judge_field_ids = EXCLUDED.judge_field_ids, aggregation = EXCLUDED.aggregation,
            aggregate_field_id = EXCLUDED.aggregate_field_id, tolerance = EXCLUDED.tolerance,
            updated_at = now(), updated_by = EXCLUDED.updated_by
     RETURNING ${panelSettingsJson('s')} AS panel`,
    [disciplineId, settings.judgeFieldIds, settings.aggregation, settings.aggregateFieldId, settings.tolerance, actor],
  );
  return rows[0]!.panel;
}

export async function deletePanelSettings(tx: TxClient, disciplineId: number): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.svc_panel_settings} WHERE discipline_id = $1`, [disciplineId]);
}

export async function deleteDisciplineDeviations(tx: TxClient, disciplineId: number): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.svc_panel_deviations} WHERE discipline_id = $1`, [disciplineId]);
}
