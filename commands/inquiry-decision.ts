/**
 * The rules of an inquiry (FIG Technical Regulations Art. 8.5, docs/decisions.md "Inquiries"): the
 * deadlines and what each step may do. Pure: the command hands in the times the database gave it.
 */
import { conflict, validationFailed } from '../src/domain/errors.js';
import type { InquiryDeadlines } from '../src/model/inquiry.js';

/** What the service knows about the inquired score when the coach files. */
export interface FilingSituation {
  now: Date;
  /** When the score (its final) was last stored, i.e. shown. */
  shownAt: Date;
  /** The first showing of another gymnast's score on the same apparatus after `shownAt`; null: none yet. */
  nextShownAt: Date | null;
  /** No other gymnast of the squad is still to be scored on this apparatus. */
  lastOfRotation: boolean;
}

const iso = (date: Date) => date.toISOString();
const plusSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

/**
 * The verbal deadline: before the next gymnast's score on the apparatus is shown, and for the last
 * gymnast of a rotation (nobody follows) within `lastGymnastSeconds` of the score being shown.
 * Returns the fixed deadline when there is one (null: open until the next score is shown), or
 * throws the refusal with the times.
 */
export function verbalDeadline(situation: FilingSituation, deadlines: InquiryDeadlines): Date | null {
  const { now, shownAt, nextShownAt, lastOfRotation } = situation;
  if (nextShownAt !== null && nextShownAt.getTime() <= now.getTime()) {
    throw conflict(
      `Too late: the inquiry arrived at ${iso(now)}, after the next gymnast's score on this apparatus was shown at ${iso(nextShownAt)}; ` +
        `this score was shown at ${iso(shownAt)}`,
    );
  }
  if (!lastOfRotation) return null;
  const deadline = plusSeconds(shownAt, deadlines.lastGymnastSeconds);
  if (now.getTime() > deadline.getTime()) {
    throw conflict(
      `Too late: the inquiry arrived at ${iso(now)}; for the last gymnast of the rotation it was due within ` +
        `${deadlines.lastGymnastSeconds} s of the score being shown at ${iso(shownAt)}, by ${iso(deadline)}`,
    );
  }
  return deadline;
}

export const writtenDeadline = (filedAt: Date, deadlines: InquiryDeadlines) => plusSeconds(filedAt, deadlines.writtenSeconds);

/** The stored steps of an inquiry, as the confirmation and the decision check them. */
export interface InquiryProgress {
  id: number;
  filedAt: Date;
  writtenDeadline: Date;
  confirmedAt: Date | null;
  decidedAt: Date | null;
  decision: 'upheld' | 'rejected' | null;
}

function checkUndecided(inquiry: InquiryProgress): void {
  if (inquiry.decidedAt !== null) {
    throw conflict(`Inquiry ${inquiry.id} was decided (${inquiry.decision}) at ${iso(inquiry.decidedAt)}; a decision cannot be changed`);
  }
}

/** The written confirmation: once, within the written deadline of the verbal inquiry. */
export function checkConfirmation(inquiry: InquiryProgress, now: Date): void {
  checkUndecided(inquiry);
  if (inquiry.confirmedAt !== null) {
    throw conflict(`Inquiry ${inquiry.id} was already confirmed in writing at ${iso(inquiry.confirmedAt)}`);
  }
  if (now.getTime() > inquiry.writtenDeadline.getTime()) {
    throw conflict(
      `Too late: the written confirmation arrived at ${iso(now)}; the inquiry was filed at ${iso(inquiry.filedAt)} ` +
        `and had to be confirmed in writing by ${iso(inquiry.writtenDeadline)}`,
    );
  }
}

export type InquiryVerdict = { decision: 'upheld'; newD: number } | { decision: 'rejected' };

/** The head judge decides a confirmed inquiry once; upheld carries the new D, rejected none. */
export function checkDecision(
  inquiry: InquiryProgress,
  verdict: { decision: 'upheld' | 'rejected'; newD?: number | undefined },
): InquiryVerdict {
  checkUndecided(inquiry);
  if (inquiry.confirmedAt === null) {
    throw conflict(
      `Inquiry ${inquiry.id} is not confirmed in writing (due by ${iso(inquiry.writtenDeadline)}); only a confirmed inquiry is decided`,
    );
  }
  if (verdict.decision === 'rejected') {
    if (verdict.newD !== undefined) throw validationFailed('body.newD is given only when the inquiry is upheld');
    return { decision: 'rejected' };
  }
  if (verdict.newD === undefined) throw validationFailed('body.newD: an upheld inquiry needs the new D value');
  return { decision: 'upheld', newD: verdict.newD };
}
