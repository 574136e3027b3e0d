/**
 * Two purposes sharing an advisory lock key hold each other up: the outbox clean-up once shared the
 * numbering lock's, and a judge's save then answered 503 while the clean-up deleted.
 */
import { describe, expect, it } from 'vitest';
import * as advisoryLocks from '../../src/db/advisory-locks.js';

describe('advisory lock keys', () => {
  it('gives every purpose a key of its own', () => {
    const keys = Object.values(advisoryLocks);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
