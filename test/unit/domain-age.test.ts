/** src/domain/age.ts without a database: both age rules, date parsing, class ranges and order. */
import { describe, expect, it } from 'vitest';
import {
  AGE_CLASS_OTHER,
  AGE_CLASS_UNKNOWN,
  ageByRule,
  ageCategoryOf,
  ageClassOrder,
  ageOn,
  DEFAULT_AGE_RULE,
  isAgeRule,
  parseAgeCategoryRanges,
  parseIsoDate,
  referenceDay,
} from '../../src/domain/age.js';

describe('age rules', () => {
  it('counts birth-year as the year difference, whatever the day', () => {
    expect(DEFAULT_AGE_RULE).toBe('birth-year');
    expect(ageOn('2010-12-31', '2024-01-01', 'birth-year')).toBe(14);
    expect(ageOn('2010-01-01', '2024-12-31', 'birth-year')).toBe(14);
  });

  it('counts exact completed years: the day before the birthday, on it, and in an earlier month', () => {
    expect(ageOn('2010-06-15', '2024-06-14', 'exact')).toBe(13);
    expect(ageOn('2010-06-15', '2024-06-15', 'exact')).toBe(14);
    expect(ageOn('2010-06-15', '2024-06-16', 'exact')).toBe(14);
    expect(ageOn('2010-06-15', '2024-05-20', 'exact')).toBe(13);
    expect(ageOn('2010-06-15', '2024-07-01', 'exact')).toBe(14);
  });

  it('gives 0 for a birth after the reference under both rules', () => {
    expect(ageByRule({ year: 2025, month: 1, day: 1 }, { year: 2024, month: 6, day: 1 }, 'birth-year')).toBe(0);
    expect(ageByRule({ year: 2024, month: 8, day: 1 }, { year: 2024, month: 6, day: 1 }, 'exact')).toBe(0);
    expect(ageByRule({ year: 2023, month: 6, day: 2 }, { year: 2024, month: 6, day: 1 }, 'exact')).toBe(0);
  });

  it('is null without a valid birth date', () => {
    expect(ageOn(null, '2024-01-01', 'exact')).toBeNull();
    expect(ageOn('2010-02-30', '2024-01-01', 'exact')).toBeNull();
  });

  it('reads a Date reference as the local calendar day and refuses an invalid one', () => {
    expect(referenceDay(new Date(2024, 1, 29, 23, 30))).toEqual({ year: 2024, month: 2, day: 29 });
    expect(() => referenceDay(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => referenceDay('29.02.2024')).toThrow(/YYYY-MM-DD/);
    expect(ageOn('2010-06-15', new Date(2024, 5, 14), 'exact')).toBe(13);
  });

  it('knows its rule names', () => {
    expect(isAgeRule('exact')).toBe(true);
    expect(isAgeRule('birth-year')).toBe(true);
    expect(isAgeRule('Exact')).toBe(false);
    expect(isAgeRule(1)).toBe(false);
  });
});

describe('parseIsoDate', () => {
  it('parses a real day and rejects rolled-over or malformed ones', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDate('2023-02-29')).toBeNull();
    expect(parseIsoDate('2023-13-01')).toBeNull();
    expect(parseIsoDate('2023-12-32')).toBeNull();
    expect(parseIsoDate('2023-1-01')).toBeNull();
    expect(parseIsoDate(' 2023-01-01')).toBeNull();
    expect(parseIsoDate('2023-01-01x')).toBeNull();
    // Date.UTC maps the years 0-99 to 1900-1999: such a year is not the one written.
    expect(parseIsoDate('0050-01-01')).toBeNull();
  });
});

describe('age classes', () => {
  it('parses ranges, skipping what is not low-high with low <= high', () => {
    expect(parseAgeCategoryRanges(' 6 - 8 ,9-10,x,12-11,7,13-13')).toEqual([
      { low: 6, high: 8, label: '6-8' },
      { low: 9, high: 10, label: '9-10' },
      { low: 13, high: 13, label: '13-13' },
    ]);
    expect(parseAgeCategoryRanges('')).toEqual([]);
    expect(parseAgeCategoryRanges('a6-8,6-8b')).toEqual([]);
  });

  it('puts an age in the first range that holds it, bounds included, else other or unknown', () => {
    const ranges = parseAgeCategoryRanges('6-8,8-10');
    expect(ageCategoryOf(6, ranges)).toBe('6-8');
    expect(ageCategoryOf(8, ranges)).toBe('6-8');
    expect(ageCategoryOf(10, ranges)).toBe('8-10');
    expect(ageCategoryOf(5, ranges)).toBe(AGE_CLASS_OTHER);
    expect(ageCategoryOf(11, ranges)).toBe(AGE_CLASS_OTHER);
    expect(ageCategoryOf(null, ranges)).toBe(AGE_CLASS_UNKNOWN);
  });

  it('lists classes as written, duplicates once, then other and unknown', () => {
    expect(ageClassOrder(parseAgeCategoryRanges('9-10,6-8,9-10'))).toEqual(['9-10', '6-8', 'other', 'unknown']);
  });
});
