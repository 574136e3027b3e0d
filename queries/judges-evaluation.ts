/**
 * GET /api/judges-evaluation?eventId=[&competitionId=]: the judges' evaluation of an event's
 * E-panels (issue 47). One statement: every discipline with a panel, its settings, field names and
 * the scores of the event (or competition) where one of its judges gave a value, each with the
 * values of the panel's judge and reference fields; the evaluation itself is `evaluateJudges`.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { evaluateJudges, type EvaluatedRoutine, type JudgeEvaluation } from '../src/domain/judges-evaluation.js';
import { panelDecimals, type PanelSettings } from '../src/domain/panel.js';
import { panelSettingsJson } from '../src/model/panel-settings.js';

interface PanelRow {
  disciplineId: number;
  disciplineName: string;
  inputMask: string | null;
  decimals: number | null;
  panel: PanelSettings;
  fields: Array<{ fieldId: number; name: string | null }>;
  routines: EvaluatedRoutine[];
}

export interface JudgesEvaluation {
  eventId: number;
  competitionId: number | null;
  judges: JudgeEvaluation[];
}

/** 404 for an unknown event, or a competition outside it. */
export async function selectJudgesEvaluation(db: Queryable, eventId: number, competitionId: number | null): Promise<JudgesEvaluation> {
  const [scope, panels] = await Promise.all([selectScope(db, eventId, competitionId), selectPanels(db, eventId, competitionId)]);
  if (!scope.event) throw notFound(`No event ${eventId}`);
  if (!scope.competition) throw notFound(`No competition ${competitionId} in event ${eventId}`);
  const judges = evaluateJudges(
    panels.map((row) => ({
      disciplineId: row.disciplineId,
      disciplineName: row.disciplineName,
      settings: row.panel,
      decimals: panelDecimals(row.inputMask, row.decimals),
      fieldNames: new Map((row.fields ?? []).map((field) => [field.fieldId, field.name])),
      routines: row.routines,
    })),
  );
  return { eventId, competitionId, judges };
}

async function selectScope(
  db: Queryable,
  eventId: number,
  competitionId: number | null,
): Promise<{ event: boolean; competition: boolean }> {
  const { rows } = await db.query<{ event: boolean; competition: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event,
            ($2::int IS NULL OR EXISTS (SELECT 1 FROM ${db.tables.wettkaempfe}
                                         WHERE int_wettkaempfeid = $2 AND int_veranstaltungenid = $1)) AS competition`,
    [eventId, competitionId],
  );
  return rows[0]!;
}

async function selectPanels(db: Queryable, eventId: number, competitionId: number | null): Promise<PanelRow[]> {
  const { rows } = await db.query<PanelRow>(
    `WITH panels AS (
       SELECT ps.*, ps.judge_field_ids || COALESCE(ps.reference_field_ids, '{}') AS input_ids FROM ${db.tables.svc_panel_settings} ps
     )
     SELECT ps.discipline_id AS "disciplineId", COALESCE(d.var_anzeigename, d.var_name) AS "disciplineName",
            d.var_eingabemaske AS "inputMask", d.int_berechnung AS decimals, ${panelSettingsJson('ps')} AS panel,
            (SELECT json_agg(json_build_object('fieldId', f.int_disziplinen_felderid, 'name', f.var_name))
               FROM ${db.tables.disziplinen_felder} f WHERE f.int_disziplinen_felderid = ANY(ps.input_ids)) AS fields,
            routines.list AS routines
       FROM panels ps
       JOIN ${db.tables.disziplinen} d ON d.int_disziplinenid = ps.discipline_id
       CROSS JOIN LATERAL (
         SELECT json_agg(json_build_object(
                  'scoreId', w.int_wertungenid, 'firstName', p.var_vorname, 'lastName', p.var_nachname,
                  'startNumber', COALESCE(p.var_startnummer, w.int_startnummer::text), 'clubName', v.var_name,
                  'values', (SELECT json_agg(j.rel_leistung ORDER BY k.ord)
                               FROM unnest(ps.input_ids) WITH ORDINALITY AS k(field_id, ord)
                               LEFT JOIN ${db.tables.jury_results} j
                                 ON j.int_wertungenid = w.int_wertungenid AND j.int_disziplinen_felderid = k.field_id AND j.int_versuch = 1)
                ) ORDER BY w.int_wertungenid) AS list
           FROM ${db.tables.wertungen} w
           JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
           LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
           LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
          WHERE c.int_veranstaltungenid = $1 AND ($2::int IS NULL OR w.int_wettkaempfeid = $2)
            AND EXISTS (SELECT 1 FROM ${db.tables.jury_results} j
                         WHERE j.int_wertungenid = w.int_wertungenid AND j.int_versuch = 1
                           AND j.int_disziplinen_felderid = ANY(ps.judge_field_ids) AND j.rel_leistung IS NOT NULL)
       ) routines
      WHERE routines.list IS NOT NULL
      ORDER BY COALESCE(d.var_anzeigename, d.var_name), ps.discipline_id`,
    [eventId, competitionId],
  );
  return rows;
}
