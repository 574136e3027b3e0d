/**
 * Apparatus ranking: one device's scores ranked, with the apparatus tie-break rule and the rank
 * notation. Pure: no database, no I/O, no DOM. The server's live results and result lists and the
 * scoreboards all rank with `rankApparatus`, so a board re-ranking on a live event shows what the
 * server would answer.
 *
 * Rules (app setting `results`, `apparatusTieBreak`, per competition):
 * - `shared`: equal scores share the rank.
 * - `e-then-d` (FIG Technical Regulations, ties on an apparatus): the higher E score ranks first;
 *   equal E, the higher D score; still equal, the rank is shared. Where an entry of a tied group
 *   lacks its E (or, at the second step, D), that group is not split and shares the rank: one
 *   unknown value cannot be placed against the others.
 *
 * Which fields hold E and D comes from the discipline's field definitions (`scorePartFields`).
 */
import { scoreUnits, sharedRanks, type RankNotation } from './ranks.js';

export type ApparatusTieBreak = 'shared' | 'e-then-d';
export const APPARATUS_TIE_BREAKS: readonly ApparatusTieBreak[] = ['shared', 'e-then-d'];
export const DEFAULT_APPARATUS_TIE_BREAK: ApparatusTieBreak = 'shared';

export function isApparatusTieBreak(value: unknown): value is ApparatusTieBreak {
  return typeof value === 'string' && (APPARATUS_TIE_BREAKS as readonly string[]).includes(value);
}

export interface ApparatusEntry {
  score: number | null;
  outOfCompetition: boolean;
  /** E and D score of the routine that gave `score`; null or absent where unknown. */
  e?: number | null | undefined;
  d?: number | null | undefined;
}

export interface ApparatusRanking {
  rule: ApparatusTieBreak;
  notation?: RankNotation | undefined;
  /** `ascending` for a time mask: the smallest value ranks first. */
  order?: 'ascending' | 'descending' | undefined;
}

export interface ApparatusRank {
  /** null: out of competition or no score. */
  rank: number | null;
  /** The rule, where it ranked this entry apart from another with the same score; else null. */
  tieBreak: ApparatusTieBreak | null;
}

/** Score order in thousandths: negative when `a` ranks first. */
export function compareScores(a: ApparatusEntry, b: ApparatusEntry, order: ApparatusRanking['order'] = 'descending'): number {
  const difference = scoreUnits(a.score ?? 0) - scoreUnits(b.score ?? 0);
  return order === 'ascending' ? difference : -difference;
}

/** Groups of neighbours of `sorted` that `same` puts together. */
function runs<T>(sorted: readonly T[], same: (a: T, b: T) => boolean): T[][] {
  const groups: T[][] = [];
  for (const item of sorted) {
    const last = groups[groups.length - 1];
    if (last && same(last[0]!, item)) last.push(item);
    else groups.push([item]);
  }
  return groups;
}

const known = (value: number | null | undefined): value is number => typeof value === 'number';

/**
 * Splits one group of equal entries by `part` (higher first), the next steps splitting each
 * resulting group again. A group where an entry lacks the part stays whole: one unknown value
 * cannot be placed against the others, so the group shares the rank.
 */
function splitBy<T>(group: readonly T[], steps: ReadonlyArray<(item: T) => number | null | undefined>): T[][] {
  const [part, ...rest] = steps;
  if (!part || group.length < 2 || !group.every((item) => known(part(item)))) return [[...group]];
  const sorted = [...group].sort((a, b) => scoreUnits(part(b)!) - scoreUnits(part(a)!));
  return runs(sorted, (a, b) => scoreUnits(part(a)!) === scoreUnits(part(b)!)).flatMap((next) => splitBy(next, rest));
}

/**
 * Ranks one device's entries; the result is parallel to `entries`. Entries out of competition or
 * without a score get rank null and take no rank from anybody.
 */
export function rankApparatus(entries: readonly ApparatusEntry[], ranking: ApparatusRanking): ApparatusRank[] {
  const competing = entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => entry.score !== null && !entry.outOfCompetition)
    .sort((a, b) => compareScores(a.entry, b.entry, ranking.order));
  const steps =
    ranking.rule === 'e-then-d'
      ? [(item: (typeof competing)[number]) => item.entry.e, (item: (typeof competing)[number]) => item.entry.d]
      : [];
  const result: ApparatusRank[] = entries.map(() => ({ rank: null, tieBreak: null }));
  // Each tied group split by the rule; every part of the split shares a rank.
  const parts = runs(competing, (a, b) => compareScores(a.entry, b.entry) === 0).flatMap((group) => {
    const split = splitBy(group, steps);
    return split.map((members) => ({ members, decided: split.length > 1 }));
  });
  const ranks = sharedRanks(
    parts.flatMap((part) => part.members.map(() => part)),
    (a, b) => a === b,
    ranking.notation,
  );
  parts
    .flatMap((part) => part.members.map((member) => ({ member, decided: part.decided })))
    .forEach(({ member, decided }, position) => {
      result[member.index] = { rank: ranks[position]!, tieBreak: decided ? ranking.rule : null };
    });
  return result;
}

/** A discipline field as its definition row gives it. */
export interface FieldDefinition {
  fieldId: number;
  name: string | null;
  shortName: string | null;
  isFinal: boolean;
  isStarting: boolean;
  enabled: boolean;
}

/**
 * Where a discipline keeps E and D. `e.deduction`: the fields hold execution deductions, the E
 * score is 10 minus their mean (FIG: E starts at 10.0). Several fields: their mean. Null: the
 * discipline has no such field, and `e-then-d` falls back to a shared rank there.
 */
export interface ScorePartFields {
  e: { fieldIds: number[]; deduction: boolean } | null;
  d: { fieldIds: number[] } | null;
}

const E_SCORE_START = 10;
const lower = (text: string | null) => (text ?? '').trim().toLowerCase();
const isDeduction = (field: FieldDefinition) => /abzug|deduction|ded\./.test(`${lower(field.name)} ${lower(field.shortName)}`);
const namedFor = (field: FieldDefinition, pattern: RegExp) => pattern.test(lower(field.name)) || pattern.test(lower(field.shortName));

/**
 * E and D by the field conventions, first match wins:
 * - E: the E-panel's aggregate field; else the field with short name `E`; else the fields `E1`,
 *   `E2`, … (the judges' values, their mean); else a field named for execution (`…Ausf…`,
 *   `Execution`). A name with `Abzug`/`deduction` makes it a deduction.
 * - D: the start-value field (`bol_ausgangswert`); else the field with short name `D`; else a
 *   field named for difficulty (`D-…`, `Schwierigkeit`, `Difficulty`).
 * The final field is never E or D; disabled fields are left out.
 */
export function scorePartFields(fields: readonly FieldDefinition[], panelAggregateFieldId: number | null): ScorePartFields {
  const usable = fields.filter((field) => field.enabled && !field.isFinal);
  const short = (field: FieldDefinition) => lower(field.shortName);
  const panel = usable.filter((field) => field.fieldId === panelAggregateFieldId);
  const eFields = [
    panel,
    usable.filter((field) => short(field) === 'e'),
    usable.filter((field) => /^e\d+$/.test(short(field))),
    usable.filter((field) => namedFor(field, /ausf|execution/)),
  ].find((candidates) => candidates.length > 0);
  const dFields = [
    usable.filter((field) => field.isStarting),
    usable.filter((field) => short(field) === 'd'),
    usable.filter((field) => namedFor(field, /^d-|^schwierigkeit|^difficulty/)),
  ].find((candidates) => candidates.length > 0);
  return {
    e: eFields ? { fieldIds: eFields.map((field) => field.fieldId), deduction: eFields.every(isDeduction) } : null,
    d: dFields ? { fieldIds: dFields.slice(0, 1).map((field) => field.fieldId) } : null,
  };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** E and D of one routine from its field values; null where a field it needs has no value. */
export function scoreParts(
  parts: ScorePartFields,
  valueOf: (fieldId: number) => number | null | undefined,
): { e: number | null; d: number | null } {
  const values = (fieldIds: readonly number[]) => {
    const found = fieldIds.map(valueOf);
    return found.every((value): value is number => typeof value === 'number') ? found : null;
  };
  const eValues = parts.e ? values(parts.e.fieldIds) : null;
  const dValues = parts.d ? values(parts.d.fieldIds) : null;
  const round = (value: number) => scoreUnits(value) / 1000;
  return {
    e: eValues === null ? null : round(parts.e!.deduction ? E_SCORE_START - mean(eValues) : mean(eValues)),
    d: dValues === null ? null : round(mean(dValues)),
  };
}
