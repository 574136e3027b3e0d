import { describe, expect, it } from 'vitest';
import {
  calculateFinalScore,
  compileFormula,
  finalCorrection,
  finalFieldOf,
  genderFromCode,
  type FieldResult,
} from '../../src/domain/final-score.js';

const field = (fieldId: number, sortOrder: number | null, value: number | null, isFinal = false): FieldResult => ({
  fieldId,
  sortOrder,
  isFinal,
  resultId: value === null ? null : 100 + fieldId,
  value,
});

describe('compileFormula', () => {
  it('takes the formula record first, then the discipline formula, blank text counting as absent', () => {
    expect(compileFormula('A * 2', 'A + B').text).toBe('A * 2');
    expect(compileFormula('  ', 'A + B').text).toBe('A + B');
    expect(compileFormula(null, null)).toEqual({ text: null, expr: null, startValue: 10, rejected: null });
  });

  it('treats a malformed formula as none and says why', () => {
    const formula = compileFormula(null, '8 + * A');
    expect(formula).toMatchObject({
      text: null,
      expr: null,
      startValue: 10,
      rejected: { stored: '8 + * A', error: expect.stringMatching(/position/) },
    });
  });

  it('derives the start value from the formula', () => {
    expect(compileFormula(null, '(9.5 - A)').startValue).toBe(9.5);
  });
});

describe('calculateFinalScore', () => {
  const formula = compileFormula(null, 'A + B - C');

  it('binds letters to the non-final results by sort order, fields without a sort order last', () => {
    const fields = [field(1, null, 1), field(2, 2, 8), field(3, 1, 9), field(4, 4, 99, true)];
    expect(calculateFinalScore(formula, fields)).toBe(16);
  });

  it('breaks sort-order ties by field id and skips fields without a value', () => {
    const fields = [field(7, 1, 2), field(5, 1, 9), field(6, 2, null), field(8, 3, 1)];
    expect(calculateFinalScore(formula, fields)).toBe(10);
  });

  it('gives null without a formula, with an unbound letter, or for a non-finite result', () => {
    expect(calculateFinalScore(compileFormula(null, null), [field(1, 1, 9)])).toBeNull();
    expect(calculateFinalScore(formula, [field(1, 1, 9), field(2, 2, 8)])).toBeNull();
    expect(calculateFinalScore(compileFormula(null, 'A / (B - B)'), [field(1, 1, 9), field(2, 2, 8)])).toBeNull();
  });
});

describe('finalCorrection', () => {
  const formula = compileFormula(null, 'A + B - C');
  const inputs = [field(1, 1, 9), field(2, 2, 8), field(3, 3, 1)];
  const missingFinal = field(4, 4, null, true);

  it('calculates a missing final when non-final values exist (rule 5)', () => {
    expect(finalCorrection(formula, [...inputs, missingFinal], 0)).toEqual({ kind: 'calculate', fieldId: 4, value: 16 });
    expect(finalCorrection(formula, [missingFinal], 0)).toBeNull();
    expect(finalCorrection(formula, inputs, 0)).toBeNull();
    expect(finalCorrection(compileFormula(null, 'A / 0'), [...inputs, missingFinal], 0)).toBeNull();
  });

  it('copies a differing detail value into the final (rule 6), never a missing one', () => {
    expect(finalCorrection(formula, [...inputs, field(4, 4, 14, true)], 15)).toEqual({ kind: 'sync', fieldId: 4, value: 15 });
    expect(finalCorrection(formula, [...inputs, field(4, 4, 15, true)], 15)).toBeNull();
    expect(finalCorrection(formula, [...inputs, field(4, 4, 14, true)], null)).toBeNull();
  });

  it('fills a final row that holds no number from the detail', () => {
    const emptyFinal: FieldResult = { fieldId: 4, sortOrder: 4, isFinal: true, resultId: 104, value: null };
    expect(finalCorrection(formula, [...inputs, emptyFinal], 12)).toEqual({ kind: 'sync', fieldId: 4, value: 12 });
  });
});

describe('finalFieldOf and genderFromCode', () => {
  it('picks the first final field in sort order', () => {
    expect(finalFieldOf([field(9, 5, null, true), field(8, 4, null, true), field(1, 1, 3)])?.fieldId).toBe(8);
    expect(finalFieldOf([field(1, 1, 3)])).toBeNull();
  });

  it('maps 1 to male, 2 to female and anything else to other', () => {
    expect([1, 2, 0, 3, null].map(genderFromCode)).toEqual(['male', 'female', 'other', 'other', 'other']);
  });
});
