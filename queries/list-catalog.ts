/**
 * GET /api/events and GET /api/disciplines: what a client offers to pick from before it loads
 * scores (the spec names no such list; the jury portal and the scoreboard need one).
 */
import type { Queryable } from '../src/db/pool.js';
import { compileFormula } from '../src/domain/final-score.js';
import { usableDecimals, usableMask } from '../src/domain/input-mask.js';
import type { PanelSettings } from '../src/domain/panel.js';
import { panelSettingsJson } from '../src/model/panel-settings.js';

export interface EventSummary {
  id: number;
  name: string;
  dateFrom: string | null;
  dateTo: string | null;
}

export interface DisciplineSummary {
  id: number;
  name: string;
  displayName: string | null;
  shortName: string | null;
  inputMask: string | null;
  decimals: number | null;
  /** Calculation rule 1 applied; null when none is stored or the stored one does not parse. */
  formula: string | null;
  startValue: number;
  enabledFieldCount: number;
  /** The E-panel settings (issue 21); null when the discipline has none. */
  panel: PanelSettings | null;
}

/** Latest events first: the running competition is at the top of a picker. */
export async function selectEvents(db: Queryable): Promise<EventSummary[]> {
  const { rows } = await db.query<EventSummary>(
    `SELECT int_veranstaltungenid AS id, var_name AS name, dat_von AS "dateFrom", dat_bis AS "dateTo"
       FROM ${db.tables.veranstaltungen}
      ORDER BY dat_von DESC NULLS LAST, var_name, int_veranstaltungenid`,
  );
  return rows;
}

interface DisciplineRow extends Omit<DisciplineSummary, 'formula' | 'startValue'> {
  recordFormula: string | null;
  disciplineFormula: string | null;
}

export async function selectDisciplines(db: Queryable): Promise<DisciplineSummary[]> {
  const { rows } = await db.query<DisciplineRow>(
    `SELECT d.int_disziplinenid AS id, d.var_name AS name, d.var_anzeigename AS "displayName", d.var_kurzname AS "shortName",
            d.var_eingabemaske AS "inputMask", d.int_berechnung AS decimals,
            f.var_formel AS "recordFormula", d.var_formel AS "disciplineFormula",
            (SELECT count(*) FROM ${db.tables.disziplinen_felder} x
              WHERE x.int_disziplinenid = d.int_disziplinenid AND COALESCE(x.bol_enabled, true))::int AS "enabledFieldCount",
            CASE WHEN ps.discipline_id IS NULL THEN NULL ELSE ${panelSettingsJson('ps')} END AS panel
       FROM ${db.tables.disziplinen} d
       LEFT JOIN ${db.tables.formeln} f ON f.int_formelid = d.int_formelid
       LEFT JOIN ${db.tables.svc_panel_settings} ps ON ps.discipline_id = d.int_disziplinenid
      ORDER BY COALESCE(d.var_anzeigename, d.var_name), d.int_disziplinenid`,
  );
  return rows.map(({ recordFormula, disciplineFormula, inputMask, decimals, ...discipline }) => {
    const formula = compileFormula(recordFormula, disciplineFormula);
    return {
      ...discipline,
      inputMask: usableMask(inputMask),
      decimals: usableDecimals(decimals),
      formula: formula.text,
      startValue: formula.startValue,
    };
  });
}
