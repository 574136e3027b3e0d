/**
 * PUT / DELETE /api/disciplines/:disciplineId/panel (admin): a discipline's E-panel settings
 * (issue 21, `svc_panel_settings`). Checked against the discipline's fields before anything is
 * written; a new or removed configuration drops the discipline's standing deviations, which were
 * measured against the old one (the next save of a judge value measures again). Settings never
 * hand stored values of the aggregate field over to the panel unless the request names how many
 * it replaces (`replaceStoredValues`), as the 409 told the office (issue 44).
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, ReplacesStoredValuesError, validationFailed } from '../src/domain/errors.js';
import {
  DEFAULT_PANEL_TOLERANCE,
  panelDecimals,
  panelInputFieldIds,
  panelSettingsProblems,
  valuesThePanelReplaces,
  type MissingJudgeRule,
  type PanelAggregation,
  type PanelSettings,
  type StoredAggregate,
} from '../src/domain/panel.js';
import {
  DEFAULT_REFERENCE_AGREEMENT,
  FIG_REFERENCE_TOLERANCES,
  type ReferenceSettings,
  type ToleranceStep,
} from '../src/domain/reference-judges.js';
import { selectDisciplineContext } from '../src/model/discipline-context.js';
import { panelSettingsJson } from '../src/model/panel-settings.js';

export interface PanelSettingsInput {
  judgeFieldIds: number[];
  aggregation: PanelAggregation;
  aggregateFieldId: number;
  /** Absent: DEFAULT_PANEL_TOLERANCE. */
  tolerance?: number | undefined;
  /** The number of stored aggregate-field values the user agreed to replace (the 409's `replaced`). */
  replaceStoredValues?: number | undefined;
  /** Absent or null: no reference judges. Their agreement and table default to the service's and the FIG's. */
  reference?: { fieldIds: number[]; agreement?: number | undefined; tolerances?: ToleranceStep[] | undefined } | null | undefined;
  /** Absent: `fewer-values`. */
  missingJudge?: MissingJudgeRule | undefined;
  /** Absent: none. */
  absentFieldIds?: number[] | undefined;
}

/** The settings as stored, the defaults filled in. */
type StoredSettings = Omit<PanelSettings, 'size'> & {
  tolerance: number;
  reference: ReferenceSettings | null;
  missingJudge: MissingJudgeRule;
  absentFieldIds: readonly number[];
};

function withDefaults(input: Omit<PanelSettingsInput, 'replaceStoredValues'>): StoredSettings {
  const reference = input.reference ?? null;
  return {
    judgeFieldIds: input.judgeFieldIds,
    aggregation: input.aggregation,
    aggregateFieldId: input.aggregateFieldId,
    tolerance: input.tolerance ?? DEFAULT_PANEL_TOLERANCE,
    reference:
      reference === null
        ? null
        : {
            fieldIds: reference.fieldIds,
            agreement: reference.agreement ?? DEFAULT_REFERENCE_AGREEMENT,
            tolerances: reference.tolerances ?? FIG_REFERENCE_TOLERANCES,
          },
    missingJudge: input.missingJudge ?? 'fewer-values',
    absentFieldIds: input.absentFieldIds ?? [],
  };
}

export async function setPanelSettings(
  tx: TxClient,
  disciplineId: number,
  input: PanelSettingsInput,
  actor: string,
): Promise<PanelSettings> {
  const discipline = await selectDisciplineContext(tx, disciplineId);
  if (discipline === null) throw notFound(`No discipline ${disciplineId}`);
  const { replaceStoredValues, ...rest } = input;
  const settings = withDefaults(rest);
  const problems = panelSettingsProblems(settings, discipline.fields);
  if (problems.length > 0) throw validationFailed(problems.join('; '));
  const panel = { ...settings, size: settings.judgeFieldIds.length };
  const current = await selectStoredAggregates(tx, disciplineId, {
    judgeFieldIds: panelInputFieldIds(panel),
    aggregateFieldId: panel.aggregateFieldId,
  });
  const replaced = valuesThePanelReplaces(panel, current.scores, current.decimals);
  if (replaced > 0 && replaceStoredValues !== replaced) {
    const field = discipline.fields.find((candidate) => candidate.fieldId === settings.aggregateFieldId);
    throw new ReplacesStoredValuesError(
      `${replaced} stored value(s) of field "${field?.name ?? settings.aggregateFieldId}" are not what the panel computes and would be ` +
        `replaced by its aggregate; repeat with replaceStoredValues: ${replaced} to replace them`,
      replaced,
    );
  }
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

/** Every stored value of the aggregate field (attempt 1) with the values of `judgeFieldIds` beside it, and the aggregate's decimals. */
export async function selectStoredAggregates(
  tx: TxClient,
  disciplineId: number,
  settings: { judgeFieldIds: readonly number[]; aggregateFieldId: number },
): Promise<{ scores: StoredAggregate[]; decimals: number }> {
  const { rows } = await tx.query<{ inputMask: string | null; decimals: number | null; scores: StoredAggregate[] }>(
    `SELECT d.var_eingabemaske AS "inputMask", d.int_berechnung AS decimals,
            COALESCE((
              SELECT json_agg(json_build_object('stored', a.rel_leistung, 'judgeValues', (
                       SELECT json_agg(v.rel_leistung ORDER BY k.ord)
                         FROM unnest($3::int[]) WITH ORDINALITY AS k(field_id, ord)
                         LEFT JOIN ${tx.tables.jury_results} v
                           ON v.int_wertungenid = a.int_wertungenid AND v.int_disziplinen_felderid = k.field_id AND v.int_versuch = 1)))
                FROM ${tx.tables.jury_results} a
               WHERE a.int_disziplinen_felderid = $2 AND a.int_versuch = 1 AND a.rel_leistung IS NOT NULL
            ), '[]'::json) AS scores
       FROM ${tx.tables.disziplinen} d WHERE d.int_disziplinenid = $1`,
    [disciplineId, settings.aggregateFieldId, settings.judgeFieldIds],
  );
  const row = rows[0];
  return { scores: row?.scores ?? [], decimals: panelDecimals(row?.inputMask ?? null, row?.decimals ?? null) };
}

async function upsertPanelSettings(tx: TxClient, disciplineId: number, settings: StoredSettings, actor: string): Promise<PanelSettings> {
  const { rows } = await tx.query<{ panel: PanelSettings }>(
    `INSERT INTO ${tx.tables.svc_panel_settings} AS s (discipline_id, judge_field_ids, aggregation, aggregate_field_id, tolerance, updated_by,
            reference_field_ids, reference_agreement, reference_tolerances, missing_judge, absent_field_ids)
     VALUES ($1, $2::int[], $3, $4, $5, $6, $7::int[], $8, $9::jsonb, $10, $11::int[])
     ON CONFLICT (discipline_id) DO UPDATE
        SET judge_field_ids = EXCLUDED.judge_field_ids, aggregation = EXCLUDED.aggregation,
            aggregate_field_id = EXCLUDED.aggregate_field_id, tolerance = EXCLUDED.tolerance,
            reference_field_ids = EXCLUDED.reference_field_ids, reference_agreement = EXCLUDED.reference_agreement,
            reference_tolerances = EXCLUDED.reference_tolerances, missing_judge = EXCLUDED.missing_judge,
            absent_field_ids = EXCLUDED.absent_field_ids,
            updated_at = now(), updated_by = EXCLUDED.updated_by
     RETURNING ${panelSettingsJson('s')} AS panel`,
    [
      disciplineId,
      settings.judgeFieldIds,
      settings.aggregation,
      settings.aggregateFieldId,
      settings.tolerance,
      actor,
      settings.reference?.fieldIds ?? null,
      settings.reference?.agreement ?? null,
      settings.reference === null ? null : JSON.stringify(settings.reference.tolerances),
      settings.missingJudge,
      settings.absentFieldIds,
    ],
  );
  return rows[0]!.panel;
}

export async function deletePanelSettings(tx: TxClient, disciplineId: number): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.svc_panel_settings} WHERE discipline_id = $1`, [disciplineId]);
}

export async function deleteDisciplineDeviations(tx: TxClient, disciplineId: number): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.svc_panel_deviations} WHERE discipline_id = $1`, [disciplineId]);
}
