import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  decimalPlaces,
  formatByMask,
  legacyDisplay,
  maskClass,
  normalize,
  padByDecimals,
  parseTyped,
} from '../../src/domain/input-mask.js';

describe('spec checks', () => {
  it.each<[number, string, string]>([
    [5, '0.00', '5.00'],
    [5, '00.00', '05.00'],
    [5, '0,00', '5,00'],
    [65.5, '0:00.00', '1:05.50'],
    [3661.5, 'hh:mm:ss.ss', '01:01:01.50'],
  ])('%d with mask %s gives %s', (value, mask, expected) => {
    expect(formatByMask(value, mask)).toBe(expected);
  });
});

describe('mask class and decimals', () => {
  it.each<[string, 'time' | 'comma' | 'decimal', number]>([
    ['0.00', 'decimal', 2],
    ['000', 'decimal', 0],
    ['0,000', 'comma', 3],
    ['0:00.00', 'time', 2],
    ['00:00', 'time', 0],
    ['hh:mm:ss.ss', 'time', 2],
    ['0:00,0', 'time', 1],
    ['', 'decimal', 0],
  ])('%j is %s with %d decimals', (mask, klass, decimals) => {
    expect(maskClass(mask)).toBe(klass);
    expect(decimalPlaces(mask)).toBe(decimals);
  });
});

describe('formatByMask', () => {
  it('pads the integer part up to the mask width', () => {
    expect(formatByMask(5, '000.0')).toBe('005.0');
    expect(formatByMask(7, '000')).toBe('007');
    expect(formatByMask(12.345, '0,0')).toBe('12,3');
    expect(formatByMask(1234.5, '00.00')).toBe('1234.50');
  });

  it('keeps the sign of negative numbers in front of the padded digits', () => {
    expect(formatByMask(-5, '00.00')).toBe('-05.00');
    expect(formatByMask(-0.3, '0,00')).toBe('-0,30');
    expect(formatByMask(-65.5, '0:00.00')).toBe('-1:05.50');
    expect(formatByMask(-0.001, '0.00')).toBe('0.00');
    expect(formatByMask(-0, '0.0')).toBe('0.0');
  });

  it('rounds half away from zero without binary surprises', () => {
    expect(formatByMask(1.005, '0.00')).toBe('1.01');
    expect(formatByMask(-1.005, '0.00')).toBe('-1.01');
    expect(formatByMask(2.5, '0')).toBe('3');
    expect(formatByMask(-2.5, '0')).toBe('-3');
    expect(formatByMask(0.045, '0,00')).toBe('0,05');
    expect(formatByMask(1.0049, '0.00')).toBe('1.00');
    expect(formatByMask(8.675, '0.00')).toBe('8.68');
  });

  it('handles very small and very large magnitudes', () => {
    expect(formatByMask(1e-7, '0.00')).toBe('0.00');
    expect(formatByMask(1e21, '0')).toBe('1000000000000000000000');
    expect(formatByMask(5e-324, '0.000')).toBe('0.000');
  });

  it('renders time masks with carries after rounding', () => {
    expect(formatByMask(59.999, '0:00.00')).toBe('1:00.00');
    expect(formatByMask(65.5, '00:00.00')).toBe('01:05.50');
    expect(formatByMask(3661.5, '0:00.00')).toBe('61:01.50');
    expect(formatByMask(3661.5, '0:00:00')).toBe('1:01:02');
    expect(formatByMask(5, '0:00')).toBe('0:05');
    expect(formatByMask(65.25, '0:00,0')).toBe('1:05,3');
    expect(formatByMask(90061, 'hh:mm:ss')).toBe('25:01:01');
  });

  it('renders non-finite values as an empty field', () => {
    expect(formatByMask(Number.NaN, '0.00')).toBe('');
    expect(formatByMask(Number.POSITIVE_INFINITY, '0:00.00')).toBe('');
  });
});

describe('padByDecimals', () => {
  it('pads by the decimal count only', () => {
    expect(padByDecimals(5, 2)).toBe('5.00');
    expect(padByDecimals(12.3456, 3)).toBe('12.346');
    expect(padByDecimals(9.95, 1)).toBe('10.0');
    expect(padByDecimals(7.5, 0)).toBe('8');
    expect(padByDecimals(-0.5, 2)).toBe('-0.50');
  });

  it('rejects an invalid decimal count', () => {
    expect(() => padByDecimals(5, -1)).toThrow(RangeError);
    expect(() => padByDecimals(5, 1.5)).toThrow(RangeError);
  });
});

describe('parseTyped', () => {
  it.each<[string, number | null]>([
    ['5', 5],
    [' 5.5 ', 5.5],
    ['5,5', 5.5],
    ['5,', 5],
    [',5', 0.5],
    ['-3,25', -3.25],
    ['+2', 2],
    ['1:5.5', 65.5],
    ['1:05,50', 65.5],
    ['1:01:01.5', 3661.5],
    ['0:75', 75],
    ['-1:05', -65],
    ['', null],
    ['abc', null],
    ['1.234,5', null],
    ['1:2:3:4', null],
    ['1:', null],
    [':5', null],
    ['5 5', null],
    ['--5', null],
    ['1e3', null],
    ['Infinity', null],
  ])('parseTyped(%j) is %s', (typed, expected) => {
    expect(parseTyped(typed)).toBe(expected);
  });
});

describe('normalize', () => {
  it('normalises comma input for any mask', () => {
    expect(normalize('5,5', '0.00')).toEqual({ ok: true, value: 5.5, text: '5.50' });
    expect(normalize('5,5', '00,00')).toEqual({ ok: true, value: 5.5, text: '05,50' });
    expect(normalize('65,5', '0:00.00')).toEqual({ ok: true, value: 65.5, text: '1:05.50' });
  });

  it('normalises typed time notation', () => {
    expect(normalize('1:5.5', '0:00.00')).toEqual({ ok: true, value: 65.5, text: '1:05.50' });
    expect(normalize('1:01:01.5', 'hh:mm:ss.ss')).toEqual({ ok: true, value: 3661.5, text: '01:01:01.50' });
    expect(normalize('61:01.5', 'hh:mm:ss.ss')).toEqual({ ok: true, value: 3661.5, text: '01:01:01.50' });
    expect(normalize('1:05.5', '0.00')).toEqual({ ok: true, value: 65.5, text: '65.50' });
  });

  it('rounds the value to the mask decimals so it matches the text', () => {
    expect(normalize('1.005', '0.00')).toEqual({ ok: true, value: 1.01, text: '1.01' });
    expect(normalize('9.999', '0.0')).toEqual({ ok: true, value: 10, text: '10.0' });
    expect(normalize('-2,5', '0')).toEqual({ ok: true, value: -3, text: '-3' });
  });

  it('returns an error for invalid input', () => {
    for (const typed of ['', 'abc', '5.5.5', '1:xx', '12a']) {
      const result = normalize(typed, '0.00');
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain(JSON.stringify(typed));
    }
  });

  it('is idempotent: normalising the rendered text gives the same text', () => {
    const masks = fc.constantFrom('0.00', '00.00', '0,00', '000,0', '0:00.00', '00:00.00', 'hh:mm:ss.ss', '0:00', '0');
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), masks, (value, mask) => {
        const text = formatByMask(value, mask);
        const again = normalize(text, mask);
        expect(again.ok && again.text).toBe(text);
      }),
    );
  });
});

describe('legacyDisplay', () => {
  it('writes values above 59.59 in minutes:seconds form unless the unit is metres', () => {
    expect(legacyDisplay(65.5, { measurementUnit: 's', mask: '0.00' })).toBe('1:05.50');
    expect(legacyDisplay(65.5, { measurementUnit: null, mask: '0,00' })).toBe('1:05,50');
    expect(legacyDisplay(59.6, { measurementUnit: 'Sekunden', mask: '0.00' })).toBe('0:59.60');
    expect(legacyDisplay(65.5, { measurementUnit: 'm', mask: '0.00' })).toBe('65.50');
    expect(legacyDisplay(65.5, { measurementUnit: ' Meter ', mask: '0.00' })).toBe('65.50');
  });

  it('keeps values up to 59.59 in the mask format', () => {
    expect(legacyDisplay(59.59, { measurementUnit: 's', mask: '00.00' })).toBe('59.59');
    expect(legacyDisplay(12.5, { measurementUnit: null, mask: '0,00' })).toBe('12,50');
  });

  it('always uses minutes:seconds for the mask 00:00.00', () => {
    expect(legacyDisplay(12.5, { measurementUnit: 'm', mask: '00:00.00' })).toBe('00:12.50');
    expect(legacyDisplay(65.5, { measurementUnit: 's', mask: '00:00.00' })).toBe('01:05.50');
  });

  it('leaves other time masks to their own layout', () => {
    expect(legacyDisplay(3661.5, { measurementUnit: 's', mask: 'hh:mm:ss.ss' })).toBe('01:01:01.50');
  });
});
