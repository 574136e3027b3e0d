/**
 * The reference-judge rule and the missing-judge rule (issue 47) against worked examples.
 *
 * Reference judges, source: FIG Appendix to the Code of Points, "Rules for Reference Judges": the
 * E-panel score (five judges, highest and lowest dropped, the middle three averaged) is compared
 * with the reference score (mean of the two reference judges); when they differ by more than the
 * tolerance the table gives for the reference score, the E score becomes the average of the E-panel
 * score and the reference score; the reference score counts only while the two reference judges
 * agree within the set range. Table: 9.600–10.000: 0.05, 9.400–9.599: 0.10, 9.000–9.399: 0.15,
 * 8.500–8.999: 0.20, 8.000–8.499: 0.30, 7.500–7.999: 0.40, below 7.500: 0.50.
 *
 * Missing judge, source: FIG Aerobic Gymnastics Code of Points, general principle of scoring: "In a
 * case where a judge fails to give a score in time or does not give a score at all, the average of
 * the given scores will replace the missing score."
 */
import { describe, expect, it } from 'vitest';
import { readPanel, type PanelSettings } from '../../src/domain/panel.js';
import { applyReference, FIG_REFERENCE_TOLERANCES, toleranceFor, type ReferenceSettings } from '../../src/domain/reference-judges.js';

const reference: ReferenceSettings = { fieldIds: [106, 107], agreement: 0.3, tolerances: FIG_REFERENCE_TOLERANCES };

// E1–E5 are fields 101–105, R1 and R2 106 and 107.
const panel = (extra: Partial<PanelSettings> = {}): PanelSettings => ({
  judgeFieldIds: [101, 102, 103, 104, 105],
  aggregation: 'trimmed-mean',
  aggregateFieldId: 200,
  tolerance: 1,
  size: 5,
  ...extra,
});
const valuesOf = (values: Array<number | null>) => (fieldId: number) => values[fieldId - 101] ?? null;

describe('FIG reference tolerance table', () => {
  it('gives 0.05 near 10.0, rising to 0.5 below 7.5, each row from its lower bound', () => {
    expect(toleranceFor(10, FIG_REFERENCE_TOLERANCES)).toBe(0.05);
    expect(toleranceFor(9.6, FIG_REFERENCE_TOLERANCES)).toBe(0.05);
    expect(toleranceFor(9.599, FIG_REFERENCE_TOLERANCES)).toBe(0.1);
    expect(toleranceFor(9.0, FIG_REFERENCE_TOLERANCES)).toBe(0.15);
    expect(toleranceFor(8.95, FIG_REFERENCE_TOLERANCES)).toBe(0.2);
    expect(toleranceFor(8.2, FIG_REFERENCE_TOLERANCES)).toBe(0.3);
    expect(toleranceFor(7.5, FIG_REFERENCE_TOLERANCES)).toBe(0.4);
    expect(toleranceFor(7.499, FIG_REFERENCE_TOLERANCES)).toBe(0.5);
    expect(toleranceFor(3.2, FIG_REFERENCE_TOLERANCES)).toBe(0.5);
  });

  it('an edited table is used as given, in any row order', () => {
    const table = [
      { from: 0, tolerance: 0.6 },
      { from: 9, tolerance: 0.1 },
    ];
    expect(toleranceFor(9.2, table)).toBe(0.1);
    expect(toleranceFor(8.99, table)).toBe(0.6);
  });
});

describe('reference judges (FIG Appendix to the Code of Points, Rules for Reference Judges)', () => {
  // E-panel 8.1, 8.3, 8.4, 8.5, 8.9: drop 8.1 and 8.9, (8.3 + 8.4 + 8.5) / 3 = 8.400.
  const ePanel = [8.1, 8.3, 8.4, 8.5, 8.9];

  it('outside the tolerance the E score becomes the mean of panel and reference score', () => {
    // Reference 8.9 and 9.0: mean 8.950, table 0.20 (8.500–8.999); |8.400 − 8.950| = 0.55 > 0.20
    // → E = (8.400 + 8.950) / 2 = 8.675.
    const reading = readPanel(panel({ reference }), valuesOf([...ePanel, 8.9, 9.0]), 3, false);
    expect(reading.panelAggregate).toBe(8.4);
    expect(reading.reference).toMatchObject({ mean: 8.95, agree: true, tolerance: 0.2, difference: 0.55, applied: true });
    expect(reading.aggregate).toBe(8.675);
    expect(reading.complete).toBe(true);
  });

  it('within the tolerance the E score stays the panel’s', () => {
    // Reference 8.5 and 8.6: mean 8.550, table 0.20; |8.400 − 8.550| = 0.15 ≤ 0.20 → E = 8.400.
    const reading = readPanel(panel({ reference }), valuesOf([...ePanel, 8.5, 8.6]), 3, false);
    expect(reading.reference).toMatchObject({ mean: 8.55, tolerance: 0.2, difference: 0.15, applied: false });
    expect(reading.aggregate).toBe(8.4);
  });

  it('a difference exactly the tolerance is within it', () => {
    // Reference 8.6 and 8.6: mean 8.600, table 0.20; |8.400 − 8.600| = 0.20 → E = 8.400.
    expect(readPanel(panel({ reference }), valuesOf([...ePanel, 8.6, 8.6]), 3, false).aggregate).toBe(8.4);
  });

  it('reference judges who disagree beyond the range change nothing', () => {
    // Reference 8.8 and 9.4 differ by 0.6 > 0.3: their mean 9.100 does not count → E = 8.400.
    const reading = readPanel(panel({ reference }), valuesOf([...ePanel, 8.8, 9.4]), 3, false);
    expect(reading.reference).toMatchObject({ mean: 9.1, agree: false, applied: false });
    expect(reading.aggregate).toBe(8.4);
  });

  it('the panel waits for both reference values: provisional before', () => {
    const reading = readPanel(panel({ reference }), valuesOf([...ePanel, 8.9, null]), 3, false);
    expect(reading.complete).toBe(false);
    expect(reading.aggregate).toBe(8.4);
    expect(reading.reference).toMatchObject({ mean: null, applied: false });
  });

  it('near 10 the table is narrow: 0.05', () => {
    // E-panel 9.7, 9.7, 9.8, 9.8, 9.9 → (9.7 + 9.8 + 9.8) / 3 = 9.767; reference 9.9 and 9.9: mean 9.900,
    // table 0.05; 0.133 > 0.05 → E = (9.767 + 9.900) / 2 = 9.8335 → 9.834 (half away from zero).
    const outcome = applyReference(9.767, [9.9, 9.9], reference, 3);
    expect(outcome.outcome.tolerance).toBe(0.05);
    expect(outcome.score).toBe(9.834);
  });
});

describe('missing judge (FIG Aerobic Code of Points: the average of the given scores replaces the missing score)', () => {
  // E3 (field 103) is absent; given 8.0, 8.2, 8.4, 8.9.
  const values = valuesOf([8.0, 8.2, null, 8.4, 8.9]);

  it('mean of the given: 8.375 stands in for E3, five values trimmed', () => {
    // Given mean (8.0 + 8.2 + 8.4 + 8.9) / 4 = 8.375; values 8.0, 8.2, 8.375, 8.4, 8.9: drop 8.0 and 8.9,
    // (8.2 + 8.375 + 8.4) / 3 = 8.325.
    const reading = readPanel(panel({ absentFieldIds: [103], missingJudge: 'mean-of-given' }), values, 3, false);
    expect(reading).toMatchObject({ complete: true, given: 4, missing: [103], substitute: 8.375, aggregate: 8.325 });
  });

  it('fewer values: the panel counts four, trimmed to the middle two', () => {
    // 8.0, 8.2, 8.4, 8.9: drop 8.0 and 8.9, (8.2 + 8.4) / 2 = 8.300.
    const reading = readPanel(panel({ absentFieldIds: [103], missingJudge: 'fewer-values' }), values, 3, false);
    expect(reading).toMatchObject({ complete: true, given: 4, missing: [103], substitute: null, aggregate: 8.3 });
  });

  it('a judge not declared absent is not missing: the panel stays provisional', () => {
    const reading = readPanel(panel({ missingJudge: 'mean-of-given' }), values, 3, false);
    expect(reading).toMatchObject({ complete: false, given: 4, missing: [], substitute: null });
  });

  it('an absent judge who did give a value counts like any other', () => {
    const reading = readPanel(
      panel({ absentFieldIds: [103], missingJudge: 'mean-of-given' }),
      valuesOf([8.0, 8.2, 8.3, 8.4, 8.9]),
      3,
      false,
    );
    expect(reading).toMatchObject({ complete: true, given: 5, missing: [], substitute: null, aggregate: 8.3 });
  });
});
