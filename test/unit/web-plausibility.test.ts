import { describe, expect, it } from 'vitest';
import { checkPlausibility, PLAUSIBILITY_DEFAULTS, type PlausibilityValue } from '../../web/shared/plausibility.js';

const floor = { inputMask: '00.00', startValue: 10 };
const field = (value: number, name = 'D-score', shortName: string | null = null): PlausibilityValue => ({
  kind: 'field',
  label: name,
  value,
  name,
  shortName,
});
const final = (value: number): PlausibilityValue => ({ kind: 'final', label: 'final', value });

describe('checkPlausibility', () => {
  it('lets values within their usual range through', () => {
    expect(checkPlausibility(floor, [field(4.5), field(PLAUSIBILITY_DEFAULTS.fieldMax, 'E-score'), final(14.5)])).toEqual({ kind: 'ok' });
  });

  it('holds a typo like 45 for 4.5 for a confirmation, naming every doubtful value with its range', () => {
    expect(checkPlausibility(floor, [field(45), field(8.2, 'E-score'), final(53.2)])).toEqual({
      kind: 'confirm',
      checks: [
        { label: 'D-score', value: 45, range: { min: 0, max: 10, negative: false, source: 'default' }, index: 0 },
        { label: 'final', value: 53.2, range: { min: 0, max: 20, negative: false, source: 'start value' }, index: 2 },
      ],
    });
  });

  it('refuses a negative value where none can be, before asking about anything else', () => {
    const outcome = checkPlausibility(floor, [field(45), field(-1, 'E-score')]);
    expect(outcome).toMatchObject({ kind: 'refuse', check: { label: 'E-score', value: -1 } });
  });

  it('allows negative bonus and correction fields (by name or short name) within the field range', () => {
    expect(checkPlausibility(floor, [field(-0.5, 'Bonus'), field(-2, 'Abzug', 'Korrektur')])).toEqual({ kind: 'ok' });
    expect(checkPlausibility(floor, [field(-12, 'Correction')])).toMatchObject({ kind: 'confirm', checks: [{ value: -12 }] });
  });

  it('bounds the final by twice the start value, and by twice 10 without a positive one', () => {
    expect(checkPlausibility({ inputMask: null, startValue: 15 }, [final(29.9)])).toEqual({ kind: 'ok' });
    for (const startValue of [0, null]) {
      expect(checkPlausibility({ inputMask: null, startValue }, [final(20.5)])).toMatchObject({
        kind: 'confirm',
        checks: [{ range: { max: 20, source: 'default' } }],
      });
    }
  });

  it('takes a time mask as seconds up to ten minutes, never negative', () => {
    const run = { inputMask: '0:00.00', startValue: 10 };
    expect(checkPlausibility(run, [field(75.3, 'Time'), final(75.3)])).toEqual({ kind: 'ok' });
    expect(checkPlausibility(run, [final(PLAUSIBILITY_DEFAULTS.timeMaxSeconds + 1)])).toMatchObject({ kind: 'confirm' });
    expect(checkPlausibility(run, [field(-1, 'Bonus')])).toMatchObject({ kind: 'refuse' });
  });

  it('uses the defaults when the discipline is unknown', () => {
    expect(checkPlausibility(null, [field(11), final(21)])).toMatchObject({ kind: 'confirm', checks: [{ value: 11 }, { value: 21 }] });
  });
});
