/** src/db/resource-shortage.ts: which errors are a shortage and how long health reports one, without a database. */
import { describe, expect, it } from 'vitest';
import { RESOURCE_SHORTAGE_HOLD_MS, ResourceShortage, resourceConditionOf } from '../../src/db/resource-shortage.js';

const failure = (code: string) => Object.assign(new Error('x'), { code });

describe('resourceConditionOf', () => {
  it('names the conditions of class 53 and nothing else', () => {
    expect(['53000', '53100', '53200', '53300', '53400', '53999'].map((code) => resourceConditionOf(failure(code)))).toEqual([
      'insufficient-resources',
      'disk-full',
      'out-of-memory',
      'too-many-connections',
      'limit-exceeded',
      'insufficient-resources',
    ]);
    for (const other of [failure('57P03'), failure('23505'), failure('5310'), new Error('53100'), null, 'disk full'])
      expect(resourceConditionOf(other)).toBeNull();
  });
});

describe('ResourceShortage', () => {
  it('lasts from the first error until a write has committed after the last and the hold has passed', () => {
    const shortage = new ResourceShortage();
    expect(shortage.record(failure('23505'), 0)).toBe(false);
    expect(shortage.current(0)).toBeNull();
    expect(shortage.record(failure('53100'), 1_000)).toBe(true);
    shortage.record(failure('53100'), 2_000);
    expect(shortage.current(2_000)).toEqual({
      condition: 'disk-full',
      sqlState: '53100',
      since: new Date(1_000).toISOString(),
      lastAt: new Date(2_000).toISOString(),
      errors: 2,
    });
    // No write since: it stays, however long.
    expect(shortage.current(2_000 + 10 * RESOURCE_SHORTAGE_HOLD_MS)?.errors).toBe(2);
    // A write that fitted meanwhile does not end it within the hold.
    shortage.committed(3_000);
    expect(shortage.current(2_000 + RESOURCE_SHORTAGE_HOLD_MS - 1)?.condition).toBe('disk-full');
    expect(shortage.current(2_000 + RESOURCE_SHORTAGE_HOLD_MS)).toBeNull();
    // A new error starts a new shortage.
    shortage.record(failure('53200'), 20_000);
    expect(shortage.current(20_000)).toMatchObject({ condition: 'out-of-memory', since: new Date(20_000).toISOString(), errors: 1 });
  });

  it('is not ended by a commit from before its last error', () => {
    const shortage = new ResourceShortage();
    shortage.committed(500);
    shortage.record(failure('53100'), 1_000);
    expect(shortage.current(1_000 + 2 * RESOURCE_SHORTAGE_HOLD_MS)?.condition).toBe('disk-full');
  });
});
