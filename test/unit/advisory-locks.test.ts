/**
 * Two purposes sharing an advisory lock key hold each other up: the outbox clean-up sharing the
 * sequencer's would stop the numbering of every event while it deletes.
 */
import { describe, expect, it } from 'vitest';
import * as advisoryLocks from '../../src/db/advisory-locks.js';

describe('advisory lock keys', () => {
  it('gives every purpose a key of its own', () => {
    const keys = Object.values(advisoryLocks);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
