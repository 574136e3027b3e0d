/**
 * State loading shared by the individual-scoring commands and queries (the model both sides read,
 * so neither reaches into the other): everything about a score row in one discipline, loaded
 * set-wise in one statement.
 */
import type { BaseLogger } from 'pino';
import { inFlight, type Queryable } from '../db/pool.js';
import { sqlPerInstallation, type Tables } from '../db/tables.js';
import {
  calculateFinalScore,
  compareFields,
  compileFormula,
  finalCorrection,
  finalFieldOf,
  type DisciplineFormula,
  type FieldResult,
  type FinalCorrection,
} from '../domain/final-score.js';
import {
  deviationTransition,
  isOverTolerance,
  panelDecimals,
  panelInputFieldIds,
  readPanel,
  type PanelReading,
  type PanelSettings,
  type PanelValue,
} from '../domain/panel.js';
import { sameStoredValue } from '../domain/stored-value.js';
import { panelSettingsJson } from './panel-settings.js';

export type WarnLogger = Pick<BaseLogger, 'warn'>;

/** Contract: the service reads the sort order from either legacy column. */
export const fieldSortOrder = (alias: string) => `COALESCE(${alias}.int_sortierung, ${alias}.int_reihenfolge)`;

/** ORDER BY items: ascending sort order, fields without one last, ties by id. */
export const fieldOrdering = (alias: string) => `${fieldSortOrder(alias)} NULLS LAST, ${alias}.int_disziplinen_felderid`;

/** json_build_object arguments giving field `alias` the `ScoringField` shape (without a result). */
export const fieldJsonPairs = (alias: string) =>
  `'fieldId', ${alias}.int_disziplinen_felderid, 'name', ${alias}.var_name, 'shortName', ${alias}.var_kurzname,
   'sortOrder', ${fieldSortOrder(alias)}, 'isFinal', COALESCE(${alias}.bol_endwert, false),
   'isStarting', COALESCE(${alias}.bol_ausgangswert, false), 'enabled', COALESCE(${alias}.bol_enabled, true),
   'group', ${alias}.int_gruppe`;

export interface ScoringKey {
  scoreId: number;
  /** null: the score row alone, with no discipline (and so no fields). */
  disciplineId: number | null;
}

export interface ScoringField extends FieldResult {
  readonly name: string | null;
  readonly shortName: string | null;
  readonly isStarting: boolean;
  readonly enabled: boolean;
  readonly group: number | null;
}

export interface ScoringState {
  scoreId: number;
  competitionId: number;
  eventId: number;
  participantId: number | null;
  firstName: string | null;
  lastName: string | null;
  genderCode: number | null;
  startNumber: string | null;
  clubName: string | null;
  squadName: string | null;
  /** null when the key named none or the discipline does not exist. */
  disciplineId: number | null;
  disciplineName: string | null;
  formula: DisciplineFormula;
  /** The attempt-1 detail row (`int_versuch` 1, `int_kp` 0): the authoritative final score. */
  detailId: number | null;
  detailValue: number | null;
  /** All fields of the discipline in sort order, each with this score's attempt-1 jury result. */
  fields: ScoringField[];
  /** The discipline's E-panel (issue 21); null when it has none. */
  panel: PanelSettings | null;
  /** Decimals the panel's aggregate is rounded to (input mask, else decimal places, else 3). */
  panelDecimals: number;
  /** The standing deviation of this score's panel (attempt 1), if any. */
  deviationState: 'open' | 'confirmed' | null;
  /**
   * Whether the head judge has released the score's device (for its squad or all). Read with one
   * key only (a command's read); null from the list form, whose events get it from the outbox's
   * insert trigger instead.
   */
  released: boolean | null;
}

interface StateRow {
  score_id: number;
  competition_id: number;
  event_id: number;
  participant_id: number | null;
  first_name: string | null;
  last_name: string | null;
  gender_code: number | null;
  start_number: string | null;
  club_name: string | null;
  squad_name: string | null;
  discipline_id: number | null;
  discipline_name: string | null;
  record_formula: string | null;
  discipline_formula: string | null;
  detail_id: number | null;
  detail_value: number | null;
  /**
   * The discipline's fields (JSON text, resultId and value null), on the discipline's first row
   * only: it is the same for every row, and sending it once halves a 1,000-row page's transfer.
   */
  field_defs: string | null;
  /** The discipline's panel settings (JSON text), on the discipline's first row only, like field_defs. */
  panel: string | null;
  input_mask: string | null;
  decimals: number | null;
  deviation_state: 'open' | 'confirmed' | null;
  released: boolean | null;
  /** This score's attempt-1 jury results in the discipline, as parallel arrays (null: none). */
  result_field_ids: number[] | null;
  result_ids: number[] | null;
  result_values: unknown[] | null;
}

/**
 * Where the state query's keys come from. Commands read one score at a time, and a generic plan
 * (commands plan once per connection) of the list form assumes a list of ten and joins the score
 * table by a full scan, whose cost grows with the competition; with scalar parameters every join is
 * an index lookup.
 */
interface KeySource {
  source: string;
  scoreFilter: string;
  disciplineFilter: string;
  /** At most one row: it is its discipline's first, and there is nothing to order. */
  single: boolean;
}
const LIST_OF_KEYS: KeySource = {
  source: 'unnest($1::int[], $2::int[]) WITH ORDINALITY',
  scoreFilter: '= ANY($1::int[])',
  disciplineFilter: '= ANY($2::int[])',
  single: false,
};
const ONE_KEY: KeySource = {
  source: '(SELECT $1::int AS score_id, $2::int AS discipline_id, 1::bigint AS ord)',
  scoreFilter: '= $1::int',
  disciplineFilter: '= $2::int',
  single: true,
};

/**
 * One score and the discipline of one of the fields: known to the statement itself, so a command
 * need not wait for an answer before it sends the read (loadFieldDisciplineState).
 */
function oneFieldKey(tables: Tables): KeySource {
  const disciplineOfField = `(SELECT int_disziplinenid FROM ${tables.disziplinen_felder} WHERE int_disziplinen_felderid = $2::int)`;
  return {
    source: `(SELECT $1::int AS score_id, ${disciplineOfField} AS discipline_id, 1::bigint AS ord)`,
    scoreFilter: '= $1::int',
    disciplineFilter: `= ${disciplineOfField}`,
    single: true,
  };
}

function scoringStatesSql(tables: Tables, keys: KeySource): string {
  // A command reads one key: the window that keeps the definitions to a discipline's first row, and
  // the sort, cost it a third of the statement's plan nodes for nothing.
  const firstOfDiscipline = keys.single ? 'true' : 'row_number() OVER (PARTITION BY dz.int_disziplinenid ORDER BY k.ord) = 1';
  // What the outbox's insert trigger would add to the command's event, read here where the score's
  // scope is joined already (the trigger looked the score row up again and rebuilt the payload). Not
  // for the list form: a 1,000-row page would call the function 1,000 times for nothing.
  const released = keys.single
    ? `${tables.prefix}svc_scope_released(w.int_wettkaempfeid, dz.int_disziplinenid, w.var_riege)`
    : 'NULL::boolean';
  // Field definitions are built once per discipline and the jury results are aggregated set-wise:
  // a subquery per key that built every field's JSON anew was most of a 1,000-row page's read time
  // (`npm run bench`, read path).
  return `WITH field_defs AS (
       SELECT f.int_disziplinenid AS discipline_id,
              json_agg(json_build_object(${fieldJsonPairs('f')}, 'resultId', NULL, 'value', NULL) ORDER BY ${fieldOrdering('f')})::text AS fields
         FROM ${tables.disziplinen_felder} f
        WHERE f.int_disziplinenid ${keys.disciplineFilter}
        GROUP BY f.int_disziplinenid
     ), results AS (
       SELECT j.int_wertungenid AS score_id, f.int_disziplinenid AS discipline_id,
              array_agg(j.int_disziplinen_felderid) AS field_ids, array_agg(j.int_juryresultsid) AS ids, array_agg(j.rel_leistung) AS vals
         FROM ${tables.jury_results} j
         JOIN ${tables.disziplinen_felder} f ON f.int_disziplinen_felderid = j.int_disziplinen_felderid
        WHERE j.int_wertungenid ${keys.scoreFilter} AND j.int_versuch = 1
        GROUP BY j.int_wertungenid, f.int_disziplinenid
     )
     SELECT w.int_wertungenid AS score_id, w.int_wettkaempfeid AS competition_id, c.int_veranstaltungenid AS event_id,
            w.int_teilnehmerid AS participant_id, p.var_vorname AS first_name, p.var_nachname AS last_name,
            p.int_geschlecht AS gender_code, COALESCE(p.var_startnummer, w.int_startnummer::text) AS start_number,
            v.var_name AS club_name, w.var_riege AS squad_name,
            dz.int_disziplinenid AS discipline_id, dz.var_name AS discipline_name,
            fo.var_formel AS record_formula, dz.var_formel AS discipline_formula,
            det.int_wertungen_detailsid AS detail_id, det.rel_leistung AS detail_value,
            CASE WHEN ${firstOfDiscipline} THEN fd.fields END AS field_defs,
            CASE WHEN ps.discipline_id IS NOT NULL AND ${firstOfDiscipline} THEN ${panelSettingsJson('ps')}::text END AS panel,
            dz.var_eingabemaske AS input_mask, dz.int_berechnung AS decimals, pd.state AS deviation_state, ${released} AS released,
            r.field_ids AS result_field_ids, r.ids AS result_ids, r.vals AS result_values
       FROM ${keys.source} AS k(score_id, discipline_id, ord)
       JOIN ${tables.wertungen} w ON w.int_wertungenid = k.score_id
       JOIN ${tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
       LEFT JOIN ${tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
       LEFT JOIN ${tables.vereine} v ON v.int_vereineid = p.int_vereineid
       LEFT JOIN ${tables.disziplinen} dz ON dz.int_disziplinenid = k.discipline_id
       LEFT JOIN ${tables.formeln} fo ON fo.int_formelid = dz.int_formelid
       LEFT JOIN ${tables.wertungen_details} det
              ON det.int_wertungenid = w.int_wertungenid AND det.int_disziplinenid = dz.int_disziplinenid
             AND det.int_versuch = 1 AND det.int_kp = 0
       LEFT JOIN field_defs fd ON fd.discipline_id = dz.int_disziplinenid
       LEFT JOIN results r ON r.score_id = w.int_wertungenid AND r.discipline_id = dz.int_disziplinenid
       LEFT JOIN ${tables.svc_panel_settings} ps ON ps.discipline_id = dz.int_disziplinenid
       LEFT JOIN ${tables.svc_panel_deviations} pd
              ON pd.score_id = w.int_wertungenid AND pd.discipline_id = dz.int_disziplinenid AND pd.attempt = 1
      ${keys.single ? '' : 'ORDER BY k.ord'}`;
}

// Each text is 3 KB, and a command sends one at every save.
const statesSql = {
  list: sqlPerInstallation((tables) => scoringStatesSql(tables, LIST_OF_KEYS)),
  one: sqlPerInstallation((tables) => scoringStatesSql(tables, ONE_KEY)),
  field: sqlPerInstallation((tables) => scoringStatesSql(tables, oneFieldKey(tables))),
};

/**
 * One row per key that names an existing score row, in key order. Only attempt 1 counts (spec
 * limit); a legacy row with a NULL attempt or kp is not addressed, exactly like the upsert keys.
 */
export async function selectScoringStates(db: Queryable, keys: readonly ScoringKey[]): Promise<StateRow[]> {
  const [only] = keys;
  const { rows } =
    keys.length === 1
      ? await db.query<StateRow>(statesSql.one(db.tables), [only!.scoreId, only!.disciplineId])
      : await db.query<StateRow>(statesSql.list(db.tables), [keys.map((key) => key.scoreId), keys.map((key) => key.disciplineId)]);
  return rows;
}

// real columns can hold NaN/Infinity (JSON renders them as strings); neither is a score.
function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The discipline's fields in sort order, each with this row's jury result; the definitions come
 * with the discipline's first row (rows arrive in key order). They carry resultId and value already,
 * so the spread below only overwrites keys (adding keys to a spread copy was 20 times slower).
 */
function fieldsOf(row: StateRow, definitions: Map<number, ScoringField[]>): ScoringField[] {
  if (row.discipline_id === null) return [];
  if (row.field_defs !== null) definitions.set(row.discipline_id, JSON.parse(row.field_defs) as ScoringField[]);
  const fields = definitions.get(row.discipline_id) ?? [];
  const fieldIds = row.result_field_ids ?? [];
  return fields.map((field) => {
    const index = fieldIds.indexOf(field.fieldId);
    return index < 0 ? field : { ...field, resultId: row.result_ids![index]!, value: finiteOrNull(row.result_values![index]) };
  });
}

/**
 * `selectScoringStates` mapped, with formulas compiled once per discipline; a malformed stored
 * formula is logged once per call and treated as none.
 */
export async function loadScoringStates(db: Queryable, keys: readonly ScoringKey[], log: WarnLogger): Promise<ScoringState[]> {
  return scoringStatesOf(await selectScoringStates(db, keys), log);
}

function scoringStatesOf(rows: readonly StateRow[], log: WarnLogger): ScoringState[] {
  const formulas = new Map<number | null, DisciplineFormula>();
  const definitions = new Map<number, ScoringField[]>();
  const panels = new Map<number, PanelSettings>();
  return rows.map((row) => {
    let formula = formulas.get(row.discipline_id);
    if (formula === undefined) {
      formula = compileFormula(row.record_formula, row.discipline_formula);
      formulas.set(row.discipline_id, formula);
      if (formula.rejected) {
        log.warn(
          { disciplineId: row.discipline_id, formula: formula.rejected.stored, reason: formula.rejected.error },
          'stored formula is malformed; treated as no formula',
        );
      }
    }
    return {
      scoreId: row.score_id,
      competitionId: row.competition_id,
      eventId: row.event_id,
      participantId: row.participant_id,
      firstName: row.first_name,
      lastName: row.last_name,
      genderCode: row.gender_code,
      startNumber: row.start_number,
      clubName: row.club_name,
      squadName: row.squad_name,
      disciplineId: row.discipline_id,
      disciplineName: row.discipline_name,
      formula,
      detailId: row.detail_id,
      detailValue: finiteOrNull(row.detail_value),
      fields: fieldsOf(row, definitions),
      panel: panelOf(row, panels),
      panelDecimals: panelDecimals(row.input_mask, row.decimals),
      deviationState: row.deviation_state,
      released: row.released,
    };
  });
}

/** The panel settings arrive with the discipline's first row, like the field definitions. */
function panelOf(row: StateRow, panels: Map<number, PanelSettings>): PanelSettings | null {
  if (row.discipline_id === null) return null;
  if (row.panel !== null) panels.set(row.discipline_id, JSON.parse(row.panel) as PanelSettings);
  return panels.get(row.discipline_id) ?? null;
}

export type DisciplineState = ScoringState & { disciplineId: number; disciplineName: string };

/** One score in one discipline; null when either does not exist. */
export async function loadDisciplineState(
  db: Queryable,
  scoreId: number,
  disciplineId: number,
  log: WarnLogger,
): Promise<DisciplineState | null> {
  return disciplineStateOf(await selectScoringStates(db, [{ scoreId, disciplineId }]), log);
}

/**
 * `loadDisciplineState` of the discipline `fieldId` belongs to, sent at once and in flight
 * (`inFlight`): behind a write of that field in the same transaction it shares the write's round
 * trip and sees the write, since each statement reads a snapshot taken when it starts.
 */
export function loadFieldDisciplineState(
  db: Queryable,
  scoreId: number,
  fieldId: number,
  log: WarnLogger,
): Promise<DisciplineState | null> {
  const reading = db.query<StateRow>(statesSql.field(db.tables), [scoreId, fieldId]);
  return inFlight(reading.then(({ rows }) => disciplineStateOf(rows, log)));
}

function disciplineStateOf(rows: readonly StateRow[], log: WarnLogger): DisciplineState | null {
  const [state] = scoringStatesOf(rows, log);
  return state !== undefined && state.disciplineId !== null ? (state as DisciplineState) : null;
}

export interface JuryResultEntry {
  id: number;
  disciplineFieldId: number;
  fieldName: string | null;
  performance: number;
  isFinalScore: boolean;
  isStartingScore: boolean;
  sortOrder: number | null;
}

/** The spec's jury result entries of a state: attempt 1, final field included, in sort order. */
export function juryResultEntries(state: ScoringState): JuryResultEntry[] {
  return [...state.fields].sort(compareFields).flatMap((field) =>
    field.resultId === null || field.value === null
      ? []
      : [
          {
            id: field.resultId,
            disciplineFieldId: field.fieldId,
            fieldName: field.name,
            performance: field.value,
            isFinalScore: field.isFinal,
            isStartingScore: field.isStarting,
            sortOrder: field.sortOrder,
          },
        ],
  );
}

export function finalFieldOfState(state: ScoringState): ScoringField | null {
  return finalFieldOf(state.fields);
}

/**
 * The fields the formula's letters bind to (rule 2): with an E-panel the judges' fields are the
 * aggregate's inputs, not the formula's, so they are left out and the aggregate field stands for
 * them (decision in docs/decisions.md, "E-panel").
 */
export function formulaFieldsOf(state: ScoringState): ScoringField[] {
  if (state.panel === null) return state.fields;
  const inputs = panelInputFieldIds(state.panel);
  return state.fields.filter((field) => !inputs.includes(field.fieldId));
}

/** The formula's result from the state's current jury results (null: no formula or not finite). */
export function calculatedScoreOf(state: ScoringState): number | null {
  return calculateFinalScore(state.formula, formulaFieldsOf(state));
}

/** The E-panel of a state from its stored judge values; null when the discipline has none. */
export function panelReadingOf(state: ScoringState): PanelReading | null {
  if (state.panel === null) return null;
  const values = new Map(state.fields.map((field) => [field.fieldId, field.value]));
  return readPanel(state.panel, (fieldId) => values.get(fieldId) ?? null, state.panelDecimals, state.deviationState === 'confirmed');
}

/**
 * E-panel corrections on read (issue 21): a judge value written directly by the desktop program
 * leaves the aggregate field and the final as they were; the next read of the score's page writes
 * them, like rule 5 writes a missing final. `expected` is the value the read saw: the write only
 * happens while it is still stored, so a command that wrote meanwhile wins.
 * - `aggregate`: overwrite the aggregate field's result (`aggregate-new`: insert it, none exists);
 * - `recalculate`: overwrite the final field's result and the detail (expected: the detail value).
 */
export type PanelCorrection =
  | { readonly kind: 'aggregate' | 'recalculate'; readonly fieldId: number; readonly value: number; readonly expected: number | null }
  | { readonly kind: 'aggregate-new'; readonly fieldId: number; readonly value: number }
  | DeviationCorrection;

/**
 * A deviation the judges' values show but the record does not (or the other way round), after a
 * direct write: `deviation-open` records it and announces `resolved: false`, `deviation-close`
 * removes it and announces `resolved: true` if it was open. `fieldId` is the aggregate field,
 * `value` the spread. Only what the statement actually changes is announced.
 */
export interface DeviationCorrection {
  readonly kind: 'deviation-open' | 'deviation-close';
  readonly fieldId: number;
  readonly value: number;
  readonly eventId: number;
  readonly values: PanelValue[];
  readonly tolerance: number;
}

/** A correction (calculation rule 5 or 6, or an E-panel's) that reading a score found, keyed by score and discipline. */
export interface PendingCorrection {
  scoreId: number;
  disciplineId: number;
  correction: FinalCorrection | PanelCorrection;
}

/** A jury result the correction statement wrote, as that statement returns it. */
export interface WrittenCorrection {
  kind: FinalCorrection['kind'] | PanelCorrection['kind'];
  result_id: number;
  score_id: number;
  field_id: number;
  value: number;
}

/**
 * A complete panel whose stored aggregate is not what its judges' values give: the aggregate and
 * the final the formula then gives (inserted when there is none, else overwritten). Null when the
 * panel is incomplete or its aggregate is stored as it should be (rules 5 and 6 then apply as usual).
 */
export function panelCorrections(state: ScoringState): Array<FinalCorrection | PanelCorrection> | null {
  const reading = panelReadingOf(state);
  if (reading === null || !reading.complete || reading.aggregate === null) return null;
  const aggregateFieldId = state.panel!.aggregateFieldId;
  const stored = state.fields.find((field) => field.fieldId === aggregateFieldId);
  if (stored === undefined || sameStoredValue(reading.aggregate, stored.value)) return null;
  const aggregate: PanelCorrection =
    stored.resultId === null
      ? { kind: 'aggregate-new', fieldId: aggregateFieldId, value: reading.aggregate }
      : { kind: 'aggregate', fieldId: aggregateFieldId, value: reading.aggregate, expected: stored.value };
  const withAggregate = formulaFieldsOf(state).map((field) =>
    field.fieldId === aggregateFieldId ? { ...field, value: reading.aggregate } : field,
  );
  const final = calculateFinalScore(state.formula, withAggregate);
  const finalField = finalFieldOf(state.fields);
  if (final === null || finalField === null) return [aggregate];
  return [
    aggregate,
    finalField.resultId === null
      ? { kind: 'calculate', fieldId: finalField.fieldId, value: final }
      : { kind: 'recalculate', fieldId: finalField.fieldId, value: final, expected: state.detailValue },
  ];
}

/** The deviation record a state's panel needs and does not have (only after a direct write or a settings change). */
export function deviationCorrection(state: ScoringState): DeviationCorrection | null {
  const reading = panelReadingOf(state);
  if (reading === null) return null;
  const transition = deviationTransition(state.deviationState, isOverTolerance(reading));
  if (transition.kind === 'none') return null;
  return {
    kind: transition.kind === 'open' ? 'deviation-open' : 'deviation-close',
    fieldId: state.panel!.aggregateFieldId,
    value: reading.spread ?? 0,
    eventId: state.eventId,
    values: reading.values,
    tolerance: reading.tolerance,
  };
}

/**
 * What the states need corrected on read: per score and discipline, a panel's corrections or at
 * most one of rules 5 and 6, and the panel's deviation record.
 */
export function pendingCorrections(states: readonly ScoringState[]): PendingCorrection[] {
  return states.flatMap((state) => {
    if (state.disciplineId === null) return [];
    const disciplineId = state.disciplineId;
    const corrections = [
      ...(panelCorrections(state) ?? [finalCorrection(state.formula, formulaFieldsOf(state), state.detailValue)]),
      deviationCorrection(state),
    ];
    return corrections.flatMap((correction) => (correction === null ? [] : [{ scoreId: state.scoreId, disciplineId, correction }]));
  });
}
