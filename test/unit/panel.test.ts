import { describe, expect, it } from 'vitest';
import {
  aggregateValues,
  countedValues,
  deviationTransition,
  exceedsTolerance,
  panelDecimals,
  panelSettingsProblems,
  readPanel,
  spreadOf,
  valuesThePanelReplaces,
  type PanelSettings,
} from '../../src/domain/panel.js';

const settings = (size: number, aggregation: PanelSettings['aggregation'] = 'trimmed-mean', tolerance = 0.5): PanelSettings => ({
  judgeFieldIds: Array.from({ length: size }, (_, index) => 101 + index),
  aggregation,
  aggregateFieldId: 200,
  tolerance,
  size,
});

const valuesOf = (values: Array<number | null>) => (fieldId: number) => values[fieldId - 101] ?? null;

describe('trimmed mean (FIG: drop one highest and one lowest from four values on)', () => {
  it('five judges: the middle three averaged', () => {
    expect(aggregateValues([8.5, 8.7, 8.4, 9.0, 8.6], 'trimmed-mean')).toBeCloseTo((8.5 + 8.7 + 8.6) / 3, 12);
    expect(countedValues([8.5, 8.7, 8.4, 9.0, 8.6], 'trimmed-mean')).toEqual([8.5, 8.6, 8.7]);
  });

  it('four judges: the middle two', () => {
    expect(aggregateValues([8.0, 9.0, 8.4, 8.6], 'trimmed-mean')).toBeCloseTo(8.5, 12);
  });

  it('three judges: no trimming, the mean of all three', () => {
    expect(countedValues([8.0, 9.0, 8.5], 'trimmed-mean')).toEqual([8.0, 8.5, 9.0]);
    expect(aggregateValues([8.0, 9.0, 8.5], 'trimmed-mean')).toBeCloseTo(8.5, 12);
  });

  it('seven judges: still one highest and one lowest, five counted', () => {
    const values = [7.0, 8.1, 8.2, 8.3, 8.4, 8.5, 9.9];
    expect(countedValues(values, 'trimmed-mean')).toEqual([8.1, 8.2, 8.3, 8.4, 8.5]);
    expect(aggregateValues(values, 'trimmed-mean')).toBeCloseTo(8.3, 12);
  });

  it('ties at the top and bottom: only one of the tied values is dropped', () => {
    expect(countedValues([8.0, 8.0, 9.0, 9.0, 8.5], 'trimmed-mean')).toEqual([8.0, 8.5, 9.0]);
    expect(aggregateValues([8.0, 8.0, 9.0, 9.0, 8.5], 'trimmed-mean')).toBeCloseTo(8.5, 12);
  });

  it('all equal: that value, spread 0', () => {
    expect(aggregateValues([8.3, 8.3, 8.3, 8.3, 8.3], 'trimmed-mean')).toBeCloseTo(8.3, 12);
    expect(spreadOf([8.3, 8.3, 8.3, 8.3, 8.3], 'trimmed-mean')).toBe(0);
  });

  it('no values: no aggregate and no spread', () => {
    expect(aggregateValues([], 'trimmed-mean')).toBeNull();
    expect(spreadOf([], 'mean')).toBeNull();
  });
});

describe('mean and median', () => {
  it('mean counts every value', () => {
    expect(aggregateValues([8.0, 9.0, 8.4, 8.6], 'mean')).toBeCloseTo(8.5, 12);
    expect(spreadOf([8.0, 9.0, 8.4, 8.6], 'mean')).toBe(1);
  });

  it('median of an odd and an even count; its spread is that of all values', () => {
    expect(aggregateValues([9.0, 8.0, 8.4], 'median')).toBe(8.4);
    expect(aggregateValues([9.0, 8.0, 8.4, 8.6], 'median')).toBeCloseTo(8.5, 12);
    expect(spreadOf([9.0, 8.0, 8.4, 8.6], 'median')).toBe(1);
  });
});

describe('spread and tolerance', () => {
  it('the spread of the counted values only: trimmed outliers do not count', () => {
    expect(spreadOf([5.0, 8.4, 8.5, 8.6, 9.9], 'trimmed-mean')).toBeCloseTo(0.2, 10);
  });

  it('float noise does not decide: 8.6 - 8.1 equals a tolerance of 0.5', () => {
    const spread = spreadOf([8.1, 8.6], 'mean');
    expect(spread).toBe(0.5);
    expect(exceedsTolerance(spread, 0.5)).toBe(false);
    expect(exceedsTolerance(0.51, 0.5)).toBe(true);
  });
});

describe('readPanel', () => {
  it('fewer values than the panel: provisional aggregate, incomplete, no deviation', () => {
    const reading = readPanel(settings(5), valuesOf([8.0, 9.5, null, null, null]), 2, false);
    expect(reading).toMatchObject({ aggregate: 8.75, complete: false, spread: 1.5, deviation: false, confirmed: false });
    expect(reading.values).toEqual([
      { fieldId: 101, value: 8.0 },
      { fieldId: 102, value: 9.5 },
      { fieldId: 103, value: null },
      { fieldId: 104, value: null },
      { fieldId: 105, value: null },
    ]);
  });

  it('complete: rounded to the decimals, half away from zero', () => {
    // (8.5 + 8.6 + 8.7) / 3 = 8.6; (8.4 + 8.5 + 8.6 + 8.7 + 8.8) trimmed to three → 8.6
    expect(readPanel(settings(5), valuesOf([8.4, 8.5, 8.6, 8.7, 8.8]), 2, false).aggregate).toBe(8.6);
    // (8.3 + 8.4 + 8.4) / 3 = 8.3666… → 8.37 (2 places), 8.367 (3 places)
    const values = valuesOf([8.2, 8.3, 8.4, 8.4, 9.0]);
    expect(readPanel(settings(5), values, 2, false).aggregate).toBe(8.37);
    expect(readPanel(settings(5), values, 3, false).aggregate).toBe(8.367);
    // 8.125 → 8.13 (half away from zero on the decimal text, not binary 8.12)
    expect(readPanel(settings(2, 'mean'), valuesOf([8.1, 8.15]), 2, false).aggregate).toBe(8.13);
  });

  it('a complete panel over the tolerance deviates until confirmed', () => {
    const over = valuesOf([8.0, 8.1, 8.9, 9.5]);
    expect(readPanel(settings(4, 'trimmed-mean', 0.5), over, 2, false)).toMatchObject({ spread: 0.8, deviation: true, confirmed: false });
    expect(readPanel(settings(4, 'trimmed-mean', 0.5), over, 2, true)).toMatchObject({ deviation: false, confirmed: true });
    expect(readPanel(settings(4, 'trimmed-mean', 1), over, 2, true)).toMatchObject({ deviation: false, confirmed: false });
  });
});

describe('deviation transitions: one announcement per crossing', () => {
  it.each([
    [null, true, { kind: 'open' }],
    [null, false, { kind: 'none' }],
    ['open', true, { kind: 'none' }],
    ['confirmed', true, { kind: 'none' }],
    ['open', false, { kind: 'close', announce: true }],
    ['confirmed', false, { kind: 'close', announce: false }],
  ] as const)('stored %s, over %s → %o', (stored, over, expected) => {
    expect(deviationTransition(stored, over)).toEqual(expected);
  });
});

describe('panelDecimals', () => {
  it('mask places first, then the discipline decimals, then 3', () => {
    expect(panelDecimals('00.000', 2)).toBe(3);
    expect(panelDecimals('0,0', null)).toBe(1);
    expect(panelDecimals(null, 2)).toBe(2);
    expect(panelDecimals('not a mask!', 1)).toBe(1);
    expect(panelDecimals(null, null)).toBe(3);
  });
});

describe('panelSettingsProblems', () => {
  const fields = [
    { fieldId: 1, isFinal: false },
    { fieldId: 2, isFinal: false },
    { fieldId: 3, isFinal: false },
    { fieldId: 4, isFinal: true },
  ];
  it('valid settings have none', () => {
    expect(panelSettingsProblems({ judgeFieldIds: [1, 2], aggregateFieldId: 3, tolerance: 0.3 }, fields)).toEqual([]);
  });
  it.each([
    [{ judgeFieldIds: [1], aggregateFieldId: 3, tolerance: 0.3 }, /at least 2/],
    [{ judgeFieldIds: [1, 1], aggregateFieldId: 3, tolerance: 0.3 }, /only once/],
    [{ judgeFieldIds: [1, 99], aggregateFieldId: 3, tolerance: 0.3 }, /99 not a field/],
    [{ judgeFieldIds: [1, 4], aggregateFieldId: 3, tolerance: 0.3 }, /final field cannot be a judge/],
    [{ judgeFieldIds: [1, 2], aggregateFieldId: 4, tolerance: 0.3 }, /final field cannot receive/],
    [{ judgeFieldIds: [1, 2], aggregateFieldId: 2, tolerance: 0.3 }, /not be one of the judge fields/],
    [{ judgeFieldIds: [1, 2], aggregateFieldId: 77, tolerance: 0.3 }, /aggregateFieldId: 77/],
    [{ judgeFieldIds: [1, 2], aggregateFieldId: 3, tolerance: -1 }, /tolerance/],
  ])('%o is refused', (input, message) => {
    expect(panelSettingsProblems(input, fields).join('; ')).toMatch(message);
  });
});

describe('valuesThePanelReplaces (settings never overwrite data unasked)', () => {
  const three = settings(3, 'mean');
  it('counts stored values that are not the aggregate of a complete panel', () => {
    const scores = [
      // The aggregate as the panel computes it (8.5), stored as the float4 column returns it.
      { stored: Math.fround(8.5), judgeValues: [8.4, 8.5, 8.6] },
      { stored: 1.2, judgeValues: [8.4, 8.5, 8.6] },
      // Incomplete: the panel writes the field once every judge has a value.
      { stored: 0.3, judgeValues: [8.4, null, null] },
      { stored: 0.3, judgeValues: [null, null, null] },
    ];
    expect(valuesThePanelReplaces(three, scores, 3)).toBe(3);
    expect(valuesThePanelReplaces(three, scores.slice(0, 1), 3)).toBe(0);
    expect(valuesThePanelReplaces(three, [], 3)).toBe(0);
  });

  it("compares at the aggregate's decimals", () => {
    const judged = [8.33, 8.33, 8.34];
    expect(valuesThePanelReplaces(three, [{ stored: 8.33, judgeValues: judged }], 2)).toBe(0);
    expect(valuesThePanelReplaces(three, [{ stored: 8.33, judgeValues: judged }], 3)).toBe(1);
  });
});
