/**
 * The inquiry rules of FIG Technical Regulations Art. 8.5 (docs/decisions.md "Inquiries"), worked
 * through with written-out times: verbally before the next gymnast's score is shown, the last
 * gymnast of a rotation within one minute, written within four minutes, decided once.
 */
import { describe, expect, it } from 'vitest';
import { checkConfirmation, checkDecision, verbalDeadline, writtenDeadline } from '../../commands/inquiry-decision.js';
import { DomainError } from '../../src/domain/errors.js';
import { FIG_DEADLINES, inquiryState } from '../../src/model/inquiry.js';

const at = (time: string) => new Date(`2026-11-28T${time}Z`);
const shownAt = at('10:00:00.000');

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the verbal deadline', () => {
  it('is open while the next gymnast’s score is not shown, for a gymnast who is not the last', () => {
    expect(verbalDeadline({ now: at('10:09:00.000'), shownAt, nextShownAt: null, lastOfRotation: false }, FIG_DEADLINES)).toBeNull();
    expect(
      verbalDeadline({ now: at('10:01:59.999'), shownAt, nextShownAt: at('10:02:00.000'), lastOfRotation: false }, FIG_DEADLINES),
    ).toBeNull();
  });

  it('has passed once the next gymnast’s score is shown, and the refusal names both times', () => {
    const error = refusal(() =>
      verbalDeadline({ now: at('10:02:00.000'), shownAt, nextShownAt: at('10:02:00.000'), lastOfRotation: false }, FIG_DEADLINES),
    );
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe(
      "Too late: the inquiry arrived at 2026-11-28T10:02:00.000Z, after the next gymnast's score on this apparatus was shown at " +
        '2026-11-28T10:02:00.000Z; this score was shown at 2026-11-28T10:00:00.000Z',
    );
  });

  it('is one minute after the score for the last gymnast of a rotation, the minute included', () => {
    const last = { shownAt, nextShownAt: null, lastOfRotation: true };
    expect(verbalDeadline({ ...last, now: at('10:01:00.000') }, FIG_DEADLINES)).toEqual(at('10:01:00.000'));
    const error = refusal(() => verbalDeadline({ ...last, now: at('10:01:00.001') }, FIG_DEADLINES));
    expect(error.message).toMatch(/within 60 s of the score being shown at 2026-11-28T10:00:00.000Z, by 2026-11-28T10:01:00.000Z/);
    // A competition's own deadline (30 s) replaces the minute.
    const ownDeadline = { lastGymnastSeconds: 30, writtenSeconds: 240 };
    expect(verbalDeadline({ ...last, now: at('10:00:30.000') }, ownDeadline)).toEqual(at('10:00:30.000'));
    expect(refusal(() => verbalDeadline({ ...last, now: at('10:00:40.000') }, ownDeadline)).message).toMatch(/within 30 s/);
  });
});

describe('the written confirmation', () => {
  const filed = { id: 7, filedAt: at('10:01:00.000'), writtenDeadline: writtenDeadline(at('10:01:00.000'), FIG_DEADLINES) };
  const open = { ...filed, confirmedAt: null, decidedAt: null, decision: null };

  it('is due four minutes after the verbal inquiry, the last moment included', () => {
    expect(filed.writtenDeadline).toEqual(at('10:05:00.000'));
    expect(() => checkConfirmation(open, at('10:05:00.000'))).not.toThrow();
    expect(refusal(() => checkConfirmation(open, at('10:05:00.001'))).message).toBe(
      'Too late: the written confirmation arrived at 2026-11-28T10:05:00.001Z; the inquiry was filed at 2026-11-28T10:01:00.000Z ' +
        'and had to be confirmed in writing by 2026-11-28T10:05:00.000Z',
    );
  });

  it('comes once', () => {
    expect(refusal(() => checkConfirmation({ ...open, confirmedAt: at('10:02:00.000') }, at('10:03:00.000'))).message).toMatch(
      /already confirmed/,
    );
  });

  it('lapses unconfirmed after the deadline', () => {
    expect(inquiryState({ ...open, writtenDeadline: filed.writtenDeadline.toISOString() }, at('10:05:00.000'))).toBe('filed');
    expect(inquiryState({ ...open, writtenDeadline: filed.writtenDeadline.toISOString() }, at('10:05:00.001'))).toBe('lapsed');
  });
});

describe('the decision', () => {
  const confirmed = {
    id: 7,
    filedAt: at('10:01:00.000'),
    writtenDeadline: at('10:05:00.000'),
    confirmedAt: at('10:03:00.000'),
    decidedAt: null,
    decision: null,
  };

  it('upholds with the new D or rejects without one', () => {
    expect(checkDecision(confirmed, { decision: 'upheld', newD: 5.4 })).toEqual({ decision: 'upheld', newD: 5.4 });
    expect(checkDecision(confirmed, { decision: 'rejected' })).toEqual({ decision: 'rejected' });
    expect(refusal(() => checkDecision(confirmed, { decision: 'upheld' })).kind).toBe('validation-failed');
    expect(refusal(() => checkDecision(confirmed, { decision: 'rejected', newD: 5 })).kind).toBe('validation-failed');
  });

  it('needs the written confirmation and cannot be changed', () => {
    expect(refusal(() => checkDecision({ ...confirmed, confirmedAt: null }, { decision: 'rejected' })).message).toMatch(
      /not confirmed in writing/,
    );
    const decided = { ...confirmed, decidedAt: at('10:06:00.000'), decision: 'rejected' as const };
    expect(refusal(() => checkDecision(decided, { decision: 'upheld', newD: 6 })).message).toBe(
      'Inquiry 7 was decided (rejected) at 2026-11-28T10:06:00.000Z; a decision cannot be changed',
    );
    expect(inquiryState({ ...decided, writtenDeadline: '2026-11-28T10:05:00.000Z' }, at('11:00:00.000'))).toBe('rejected');
  });
});
