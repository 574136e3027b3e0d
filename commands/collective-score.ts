import type { TxClient } from '../src/db/pool.js';
import { evaluate, variablesInOrder } from '../src/domain/formula.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { collectiveScoreUpdated } from '../outbox/events.js';
import { selectDisciplineContext, type DisciplineContext, type DisciplineField } from '../src/model/discipline-context.js';

/**
 * Group and team scores differ only in the legacy table and id column they point to, so both
 * commands share this core. The identifiers here are spliced into SQL text, which is safe because
 * they come from these two constants and never from a request.
 */
export interface CollectiveKind {
  label: 'group' | 'team';
  table: 'gruppen' | 'mannschaften';
  idColumn: 'int_gruppenid' | 'int_mannschaftenid';
  payloadKey: 'groupId' | 'teamId';
  /** bol_gruppe is what enables group scoring on a competition; teams have no such flag. */
  needsGroupCompetition: boolean;
}

export const GROUP_KIND: CollectiveKind = { label: 'group', table: 'gruppen', idColumn: 'int_gruppenid', payloadKey: 'groupId', needsGroupCompetition: true };
export const TEAM_KIND: CollectiveKind = { label: 'team', table: 'mannschaften', idColumn: 'int_mannschaftenid', payloadKey: 'teamId', needsGroupCompetition: false };

export interface ComponentValue {
  fieldId: number;
  value: number;
}

export interface CollectiveScoreInput {
  unitId: number;
  competitionId: number;
  disciplineId: number;
  attempt: number;
  /** Null: take the group's or team's squad name. */
  squadName: string | null;
  /** Null: 1 for a new score row, unchanged for an existing one. */
  statusId: number | null;
  components: readonly ComponentValue[];
  /** Null: calculate it from the components through the discipline's formula. */
  finalScore: number | null;
}

interface UnitRow {
  id: number;
  name: string;
  eventId: number | null;
  startNumber: number | null;
  squadName: string | null;
}

interface CompetitionRow {
  id: number;
  eventId: number;
  isGroupCompetition: boolean;
  attempts: number;
  statusExists: boolean;
}

export interface StoredDetail {
  id: number;
  fieldId: number;
  value: number;
}

/** Everything validated and decided before the first write. */
export interface PreparedScore {
  kind: CollectiveKind;
  input: CollectiveScoreInput;
  unit: UnitRow;
  competition: CompetitionRow;
  discipline: DisciplineContext;
  finalField: DisciplineField;
  /** Component rows plus the final-score row, in the discipline's field order. */
  details: ComponentValue[];
}

/**
 * The row lock serialises concurrent saves for one group or team, so two first saves cannot both
 * create a score row for the same competition (the legacy layout has no unique key for that).
 */
export async function lockUnit(tx: TxClient, kind: CollectiveKind, unitId: number): Promise<UnitRow | null> {
  const { rows } = await tx.query<UnitRow>(
    `SELECT ${kind.idColumn} AS id, var_name AS name, int_veranstaltungenid AS "eventId",
            int_startnummer AS "startNumber", var_riege AS "squadName"
       FROM ${tx.tables[kind.table]}
      WHERE ${kind.idColumn} = $1
      FOR NO KEY UPDATE`,
    [unitId],
  );
  return rows[0] ?? null;
}

export async function selectCompetition(tx: TxClient, competitionId: number, statusId: number | null): Promise<CompetitionRow | null> {
  const { rows } = await tx.query<CompetitionRow>(
    `SELECT c.int_wettkaempfeid AS id, c.int_veranstaltungenid AS "eventId",
            COALESCE(c.bol_gruppe, false) AS "isGroupCompetition", COALESCE(c.int_versuche, 1) AS attempts,
            EXISTS (SELECT 1 FROM ${tx.tables.status} s WHERE s.int_statusid = $2::int) AS "statusExists"
       FROM ${tx.tables.wettkaempfe} c
      WHERE c.int_wettkaempfeid = $1`,
    [competitionId, statusId],
  );
  return rows[0] ?? null;
}

/**
 * Calculation rules 1-3 for group and team scoring: each component binds its field's short name.
 * Only the request's components count, so the result never depends on values stored earlier.
 */
export function calculateCollectiveFinalScore(discipline: DisciplineContext, components: readonly ComponentValue[]): number {
  const { expr, text, rejected } = discipline.formula;
  if (rejected) {
    throw validationFailed(`finalScore is required: the formula of discipline ${discipline.id} cannot be used (${rejected.error})`);
  }
  if (expr === null) {
    throw validationFailed(`finalScore is required: discipline ${discipline.id} (${discipline.name}) has no formula`);
  }
  const fieldsById = new Map(discipline.fields.map((field) => [field.fieldId, field]));
  const bindings = new Map<string, number>();
  for (const component of components) {
    const shortName = fieldsById.get(component.fieldId)?.shortName;
    if (shortName) bindings.set(shortName, component.value);
  }
  const missing = variablesInOrder(expr).filter((name) => !bindings.has(name));
  if (missing.length > 0) {
    throw validationFailed(`finalScore cannot be calculated: components lack a value for field ${missing.join(', ')} (formula ${text})`);
  }
  const result = evaluate(expr, bindings);
  if (result === null) {
    throw validationFailed(`finalScore cannot be calculated: formula ${text} gives no finite number for these components`);
  }
  return result;
}

/**
 * A client that echoes a read (team reads list the final field among the components) may send the
 * final field as a component; it then stands for finalScore, and only a contradiction is refused.
 */
function splitFinalComponent(
  finalField: DisciplineField,
  components: readonly ComponentValue[],
  finalScore: number | null,
): { components: ComponentValue[]; finalScore: number | null } {
  const echoed = components.find((component) => component.fieldId === finalField.fieldId);
  if (echoed && finalScore !== null && echoed.value !== finalScore) {
    throw validationFailed(`components: field ${finalField.fieldId} is the final field and its value contradicts finalScore`);
  }
  return {
    components: components.filter((component) => component.fieldId !== finalField.fieldId),
    finalScore: finalScore ?? echoed?.value ?? null,
  };
}

function checkComponents(discipline: DisciplineContext, components: readonly ComponentValue[]): void {
  const fieldIds = new Set(discipline.fields.map((field) => field.fieldId));
  const seen = new Set<number>();
  for (const { fieldId } of components) {
    if (!fieldIds.has(fieldId)) {
      throw validationFailed(`components: field ${fieldId} is not a field of discipline ${discipline.id}`);
    }
    if (seen.has(fieldId)) throw validationFailed(`components: field ${fieldId} appears more than once`);
    seen.add(fieldId);
  }
}

/** Loads and validates everything; throws the 404/400 AppErrors before anything is written. */
export async function prepareCollectiveScore(tx: TxClient, kind: CollectiveKind, input: CollectiveScoreInput): Promise<PreparedScore> {
  const unit = await lockUnit(tx, kind, input.unitId);
  if (!unit) throw notFound(`${kind.label} ${input.unitId} not found`);
  const competition = await selectCompetition(tx, input.competitionId, input.statusId);
  if (!competition) throw notFound(`competition ${input.competitionId} not found`);
  const discipline = await selectDisciplineContext(tx, input.disciplineId);
  if (!discipline) throw notFound(`discipline ${input.disciplineId} not found`);

  if (unit.eventId !== competition.eventId) {
    throw validationFailed(`${kind.payloadKey}: ${kind.label} ${unit.id} does not belong to the event of competition ${competition.id}`);
  }
  if (kind.needsGroupCompetition && !competition.isGroupCompetition) {
    throw validationFailed(`competitionId: competition ${competition.id} is not a group competition (bol_gruppe is not set)`);
  }
  if (input.attempt > competition.attempts) {
    throw validationFailed(`attempt: ${input.attempt} exceeds the ${competition.attempts} attempt(s) of competition ${competition.id}`);
  }
  if (input.statusId !== null && !competition.statusExists) {
    throw validationFailed(`statusId: status ${input.statusId} does not exist`);
  }
  checkComponents(discipline, input.components);
  // Fields arrive in sort order, so with several flagged (bad legacy data) the first in sort order wins.
  const finalField = discipline.fields.find((field) => field.isFinal);
  if (!finalField) {
    throw validationFailed(`disciplineId: discipline ${discipline.id} has no final field (bol_endwert), so its final score has nowhere to go`);
  }
  const split = splitFinalComponent(finalField, input.components, input.finalScore);
  const finalScore = split.finalScore ?? calculateCollectiveFinalScore(discipline, split.components);

  const order = new Map(discipline.fields.map((field, index) => [field.fieldId, index]));
  const details = [...split.components, { fieldId: finalField.fieldId, value: finalScore }].sort(
    (a, b) => (order.get(a.fieldId) ?? 0) - (order.get(b.fieldId) ?? 0),
  );
  return { kind, input, unit, competition, discipline, finalField, details };
}

/**
 * Create-or-update of the (group or team, competition) score row in one statement. The insert
 * names only the columns it sets: score record rule 2 forbids naming the participant column for
 * team rows, and the same holds for the team column of group rows. An update never blanks a value
 * the legacy program may have set just because the request and the group or team lack one.
 */
export async function upsertScoreRow(tx: TxClient, prepared: PreparedScore): Promise<{ scoreId: number; squadName: string | null }> {
  const { kind, input, unit } = prepared;
  const { rows } = await tx.query<{ scoreId: number; squadName: string | null }>(
    `WITH existing AS (
       SELECT int_wertungenid FROM ${tx.tables.wertungen}
        WHERE ${kind.idColumn} = $1::int AND int_wettkaempfeid = $2::int
        ORDER BY int_wertungenid
        LIMIT 1
     ), updated AS (
       UPDATE ${tx.tables.wertungen} w
          SET int_statusid = COALESCE($3::int, w.int_statusid),
              int_startnummer = COALESCE($4::int, w.int_startnummer),
              var_riege = COALESCE($5::varchar, w.var_riege)
        WHERE w.int_wertungenid = (SELECT int_wertungenid FROM existing)
        RETURNING w.int_wertungenid, w.var_riege
     ), inserted AS (
       INSERT INTO ${tx.tables.wertungen} (int_wettkaempfeid, ${kind.idColumn}, int_statusid, int_runde, int_startnummer, var_riege)
       SELECT $2, $1, COALESCE($3, 1), 1, $4, $5
        WHERE NOT EXISTS (SELECT 1 FROM existing)
       RETURNING int_wertungenid, var_riege
     )
     SELECT int_wertungenid AS "scoreId", var_riege AS "squadName" FROM updated
     UNION ALL
     SELECT int_wertungenid, var_riege FROM inserted`,
    [input.unitId, input.competitionId, input.statusId, unit.startNumber, input.squadName ?? unit.squadName],
  );
  return rows[0]!;
}

/** One row per component plus the final-score row, keyed by the detail table's unique index. */
export async function upsertDetailRows(tx: TxClient, prepared: PreparedScore, scoreId: number): Promise<StoredDetail[]> {
  const { input, details } = prepared;
  const { rows } = await tx.query<StoredDetail>(
    `INSERT INTO ${tx.tables.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT $1::int, $2::int, $3::int, v.field_id, v.value
       FROM unnest($4::int[], $5::float8[]) AS v (field_id, value)
     ON CONFLICT (int_wertungenid, int_disziplinenid, int_versuch, int_kp)
     DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung
     RETURNING int_wertungen_detailsid AS id, int_kp AS "fieldId", rel_leistung AS value`,
    [scoreId, input.disciplineId, input.attempt, details.map((detail) => detail.fieldId), details.map((detail) => detail.value)],
  );
  const order = new Map(details.map((detail, index) => [detail.fieldId, index]));
  return rows.sort((a, b) => (order.get(a.fieldId) ?? 0) - (order.get(b.fieldId) ?? 0));
}

/** The stored final value: `real` storage rounds, and clients must see what a later read returns. */
export function storedFinalScore(prepared: PreparedScore, details: readonly StoredDetail[]): number {
  return details.find((detail) => detail.fieldId === prepared.finalField.fieldId)!.value;
}

/** Scoreboards receive group and team saves like individual ones, with the unit's name instead of a person's. */
export async function appendCollectiveScoreEvent(
  tx: TxClient,
  prepared: PreparedScore,
  stored: { scoreId: number; squadName: string | null; finalScore: number },
): Promise<void> {
  const { kind, input, unit, competition, discipline } = prepared;
  await appendOutboxEvent(
    tx,
    collectiveScoreUpdated({
      kind: kind.label,
      unitId: unit.id,
      name: unit.name,
      scoreId: stored.scoreId,
      eventId: competition.eventId,
      competitionId: competition.id,
      disciplineId: discipline.id,
      disciplineName: discipline.name,
      attempt: input.attempt,
      finalScore: stored.finalScore,
      squadName: stored.squadName,
    }),
  );
}
