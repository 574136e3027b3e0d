/** The E-panel's decisions without a database: what a judge save writes, what a read corrects. */
import { describe, expect, it } from 'vitest';
import { ANONYMOUS_ACTOR, decidePanel, panelFieldRefusal } from '../../commands/panel-decision.js';
import { compileFormula } from '../../src/domain/final-score.js';
import {
  calculatedScoreOf,
  deviationCorrection,
  panelCorrections,
  type DisciplineState,
  type ScoringField,
} from '../../src/model/scoring-context.js';

const D = 1;
const JUDGES = [11, 12, 13, 14, 15];
const AGGREGATE = 20;
const FINAL = 30;

function field(fieldId: number, sortOrder: number, value: number | null, isFinal = false): ScoringField {
  return {
    fieldId,
    sortOrder,
    isFinal,
    resultId: value === null ? null : 1000 + fieldId,
    value,
    name: null,
    shortName: null,
    isStarting: false,
    enabled: true,
    group: null,
  };
}

function state(
  judgeValues: Array<number | null>,
  options: { aggregate?: number | null; final?: number | null; deviation?: 'open' | 'confirmed' | null } = {},
): DisciplineState {
  return {
    scoreId: 7,
    competitionId: 2,
    eventId: 3,
    participantId: 4,
    firstName: null,
    lastName: null,
    genderCode: null,
    startNumber: null,
    clubName: null,
    squadName: null,
    disciplineId: 5,
    disciplineName: 'Sprung',
    formula: compileFormula(null, 'A + B'),
    detailId: 9,
    detailValue: options.final ?? null,
    fields: [
      field(D, 1, 5.4),
      ...JUDGES.map((fieldId, index) => field(fieldId, 2 + index, judgeValues[index] ?? null)),
      field(AGGREGATE, 7, options.aggregate ?? null),
      field(FINAL, 8, options.final ?? null, true),
    ],
    panel: { judgeFieldIds: JUDGES, aggregation: 'trimmed-mean', aggregateFieldId: AGGREGATE, tolerance: 0.3, size: 5 },
    panelDecimals: 3,
    deviationState: options.deviation ?? null,
    released: false,
  };
}

describe('decidePanel (a judge save)', () => {
  it('incomplete: nothing to store, a provisional final from the provisional aggregate', () => {
    const decision = decidePanel(state([8.5, 8.7]))!;
    expect(decision.storeAggregate).toBeNull();
    expect(decision.reading).toMatchObject({ aggregate: 8.6, complete: false });
    expect(decision.finalScore).toBeCloseTo(14, 10);
    expect(decision.deviation).toEqual({ kind: 'none' });
  });

  it('complete: the trimmed mean to store and the final with it', () => {
    const decision = decidePanel(state([8.5, 8.7, 8.4, 9.0, 8.6]))!;
    expect(decision.storeAggregate).toEqual({ fieldId: AGGREGATE, value: 8.6 });
    expect(decision.finalScore).toBeCloseTo(14, 10);
  });

  it('an aggregate already stored as it should be is not written again', () => {
    expect(decidePanel(state([8.5, 8.7, 8.4, 9.0, 8.6], { aggregate: 8.6 }))!.storeAggregate).toBeNull();
  });

  it('opens a deviation once, keeps it while over, closes it within the tolerance', () => {
    const over = [8.0, 8.1, 8.6, 8.9, 9.5];
    expect(decidePanel(state(over))!.deviation).toEqual({ kind: 'open' });
    expect(decidePanel(state(over, { deviation: 'open' }))!.deviation).toEqual({ kind: 'none' });
    expect(decidePanel(state([8.5, 8.5, 8.5, 8.5, 8.5], { deviation: 'open' }))!.deviation).toEqual({ kind: 'close', announce: true });
    expect(decidePanel(state([8.5, 8.5, 8.5, 8.5, 8.5], { deviation: 'confirmed' }))!.deviation).toEqual({
      kind: 'close',
      announce: false,
    });
  });

  it('no panel: no decision', () => {
    expect(decidePanel({ ...state([]), panel: null })).toBeNull();
  });
});

describe('formula letters skip the judge fields', () => {
  it('A + B is D + the aggregate field', () => {
    expect(calculatedScoreOf(state([8.5, 8.7, 8.4, 9.0, 8.6], { aggregate: 8.6 }))).toBeCloseTo(14, 10);
    // Without a panel the judges' values would be the letters (rule 2 literally): D + E1.
    expect(calculatedScoreOf({ ...state([8.5, 8.7, 8.4, 9.0, 8.6], { aggregate: 8.6 }), panel: null })).toBeCloseTo(13.9, 10);
  });
});

describe('panelCorrections (the next read after a direct write)', () => {
  it('a complete panel without a stored aggregate: insert it and calculate the missing final', () => {
    expect(panelCorrections(state([8.5, 8.7, 8.4, 9.0, 8.6]))).toEqual([
      { kind: 'aggregate-new', fieldId: AGGREGATE, value: 8.6 },
      { kind: 'calculate', fieldId: FINAL, value: expect.closeTo(14, 10) },
    ]);
  });

  it('a stale aggregate: overwrite it and the final, guarded by what was read', () => {
    expect(panelCorrections(state([8.8, 8.7, 8.4, 9.0, 8.6], { aggregate: 8.6, final: 14 }))).toEqual([
      { kind: 'aggregate', fieldId: AGGREGATE, value: 8.7, expected: 8.6 },
      { kind: 'recalculate', fieldId: FINAL, value: expect.closeTo(14.1, 10), expected: 14 },
    ]);
  });

  it('nothing while incomplete or when the aggregate is right (rules 5 and 6 then apply as usual)', () => {
    expect(panelCorrections(state([8.5, 8.7, null, 9.0, 8.6], { aggregate: 1 }))).toBeNull();
    expect(panelCorrections(state([8.5, 8.7, 8.4, 9.0, 8.6], { aggregate: 8.6, final: 14 }))).toBeNull();
  });
});

describe('deviationCorrection (the record a read finds missing or stale)', () => {
  const over = [8.0, 8.1, 8.6, 8.9, 9.5];
  it('opens an unrecorded deviation, closes a recorded one within tolerance, leaves a consistent record alone', () => {
    expect(deviationCorrection(state(over))).toMatchObject({
      kind: 'deviation-open',
      fieldId: AGGREGATE,
      value: 0.8,
      eventId: 3,
      tolerance: 0.3,
    });
    expect(deviationCorrection(state([8.5, 8.5, 8.5, 8.5, 8.5], { deviation: 'open' }))).toMatchObject({
      kind: 'deviation-close',
      value: 0,
    });
    expect(deviationCorrection(state(over, { deviation: 'open' }))).toBeNull();
    expect(deviationCorrection(state(over, { deviation: 'confirmed' }))).toBeNull();
    expect(deviationCorrection(state([8.5, 8.5, 8.5, 8.5, 8.5]))).toBeNull();
    expect(deviationCorrection({ ...state(over), panel: null })).toBeNull();
  });
});

describe('panelFieldRefusal: who may change a panel field of a score', () => {
  const panel = { judgeFieldIds: [11, 12, 13], aggregation: 'mean' as const, aggregateFieldId: AGGREGATE, tolerance: 0.5, size: 3 };
  const record = (fieldId: number, judge: string | null, changed = false) => ({ fieldId, judge, changed });
  const anna = { actor: 'Anna', role: null };
  const refusal = (caller: { actor: string; role: string | null }, records: ReturnType<typeof record>[]) =>
    panelFieldRefusal(7, panel, caller, records)?.message ?? null;

  it('lets a judge change her own value, and anyone give a field nobody has given', () => {
    expect(refusal(anna, [record(11, 'Anna', true), record(12, 'Bert')])).toBeNull();
    expect(refusal(anna, [record(11, null, true), record(12, 'Bert')])).toBeNull();
    expect(refusal({ actor: ANONYMOUS_ACTOR, role: null }, [record(11, null, true), record(12, null, true)])).toBeNull();
  });

  it("refuses another judge's value to a judge, an anonymous save and a jury token, not to the head judge or an admin", () => {
    const records = [record(11, 'Anna'), record(12, 'Bert', true)];
    const bertsValue = "field 12 of score 7 holds Bert's value; the head judge may change it";
    expect(refusal(anna, records)).toBe(bertsValue);
    expect(refusal({ actor: ANONYMOUS_ACTOR, role: null }, records)).toBe(bertsValue);
    expect(refusal({ actor: 'judge-1', role: 'jury' }, records)).toBe(bertsValue);
    expect(refusal({ actor: 'oberkampfrichter', role: 'head' }, records)).toBeNull();
    expect(refusal({ actor: 'anna', role: 'admin' }, records)).toBeNull();
  });

  it('refuses a named judge a second field of the same score', () => {
    expect(refusal(anna, [record(11, 'Anna'), record(13, 'Anna', true)])).toBe(
      'Anna gave field 11 of score 7; a judge gives one field of a panel',
    );
  });

  it('looks only at what the command changed', () => {
    expect(refusal(anna, [record(11, 'Anna', true), record(12, 'Bert'), record(AGGREGATE, null)])).toBeNull();
  });

  it('refuses a change of the aggregate to everyone', () => {
    const message = "field 20 is the E-panel's aggregate: the service computes it from the judges' values";
    expect(refusal({ actor: 'oberkampfrichter', role: 'head' }, [record(AGGREGATE, null, true)])).toBe(message);
    expect(panelFieldRefusal(7, panel, anna, [record(AGGREGATE, 'Anna', true)])?.kind).toBe('validation-failed');
    expect(panelFieldRefusal(7, panel, anna, [record(12, 'Bert', true)])?.kind).toBe('conflict');
  });
});
