/** The outbox relay's pure decisions (outbox/replay-plan.ts), without a database. */
import { describe, expect, it } from 'vitest';
import { mayHaveMore, nextReplayStep, sentUpToAfterRead } from '../../outbox/replay-plan.js';

describe('nextReplayStep', () => {
  it('reads the range after what was sent up to the cursor while behind it', () => {
    expect(nextReplayStep(0, 1, false)).toEqual({ kind: 'read', after: 0, upTo: 1 });
    expect(nextReplayStep(7, 20, true)).toEqual({ kind: 'read', after: 7, upTo: 20 });
  });

  it('follows once it has sent up to the cursor', () => {
    expect(nextReplayStep(20, 20, false)).toEqual({ kind: 'follow' });
    expect(nextReplayStep(0, 0, false)).toEqual({ kind: 'follow' });
  });

  it('waits for one relay pass when the client is ahead of this relay, then follows', () => {
    expect(nextReplayStep(21, 20, false)).toEqual({ kind: 'wait-for-relay' });
    expect(nextReplayStep(21, 20, true)).toEqual({ kind: 'follow' });
  });
});

describe('mayHaveMore', () => {
  it('is true for a full read and false for a shorter one', () => {
    expect(mayHaveMore(500, 500)).toBe(true);
    expect(mayHaveMore(499, 500)).toBe(false);
    expect(mayHaveMore(0, 500)).toBe(false);
  });
});

describe('sentUpToAfterRead', () => {
  it('stands at the last row of a full read, which may have more behind it', () => {
    expect(sentUpToAfterRead([3, 5, 9], 3, 40)).toBe(9);
  });

  it('stands at the end of the range after a shorter read, rows of other events included', () => {
    expect(sentUpToAfterRead([3, 5], 3, 40)).toBe(40);
    expect(sentUpToAfterRead([], 3, 40)).toBe(40);
  });
});
