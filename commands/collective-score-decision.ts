/**
 * The rules of group and team scoring, decided without a database: given the request and the rows
 * it names (loaded by `collective-score.ts`), either what to write or the 400 that refuses it.
 */
import { evaluate, variablesInOrder } from '../src/domain/formula.js';
import { validationFailed } from '../src/domain/errors.js';
import type { DisciplineContext, DisciplineField } from '../src/model/discipline-context.js';

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

export const GROUP_KIND: CollectiveKind = {
  label: 'group',
  table: 'gruppen',
  idColumn: 'int_gruppenid',
  payloadKey: 'groupId',
  needsGroupCompetition: true,
};
export const TEAM_KIND: CollectiveKind = {
  label: 'team',
  table: 'mannschaften',
  idColumn: 'int_mannschaftenid',
  payloadKey: 'teamId',
  needsGroupCompetition: false,
};

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

/** The group or team row a save names. */
export interface UnitRow {
  id: number;
  name: string;
  eventId: number | null;
  startNumber: number | null;
  squadName: string | null;
}

/** The competition a save names, with what the rules need to know about it. */
export interface CompetitionRow {
  id: number;
  eventId: number;
  isGroupCompetition: boolean;
  attempts: number;
  statusExists: boolean;
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

/** The rows a save names, as loaded (each exists: a missing one is a 404 before any rule runs). */
export interface CollectiveScoreRows {
  unit: UnitRow;
  competition: CompetitionRow;
  discipline: DisciplineContext;
}

/**
 * Every rule of a group or team save: the unit belongs to the competition's event, a group needs a
 * group competition, the attempt and status exist, the components are fields of the discipline,
 * and the final score is given (or echoed as a component) or calculable. Throws the 400s.
 */
export function decideCollectiveScore(kind: CollectiveKind, input: CollectiveScoreInput, rows: CollectiveScoreRows): PreparedScore {
  const { unit, competition, discipline } = rows;
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
    throw validationFailed(
      `disciplineId: discipline ${discipline.id} has no final field (bol_endwert), so its final score has nowhere to go`,
    );
  }
  const split = splitFinalComponent(finalField, input.components, input.finalScore);
  const finalScore = split.finalScore ?? calculateCollectiveFinalScore(discipline, split.components);

  const order = new Map(discipline.fields.map((field, index) => [field.fieldId, index]));
  const details = [...split.components, { fieldId: finalField.fieldId, value: finalScore }].sort(
    (a, b) => (order.get(a.fieldId) ?? 0) - (order.get(b.fieldId) ?? 0),
  );
  return { kind, input, unit, competition, discipline, finalField, details };
}
