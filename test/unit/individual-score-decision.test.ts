/** The rules of individual saves (save-value, jury results, capture), without a database; the SQL side: score-commands, scores-query. */
import { describe, expect, it } from 'vitest';
import {
  captureFinal,
  checkDistinctFields,
  checkExpectedPerformance,
  checkExpectedScore,
  checkJuryResultAttempt,
  decideSaveTarget,
  disciplineOfFields,
  type SaveTarget,
} from '../../commands/individual-score-decision.js';
import { DomainError, StaleValueError } from '../../src/domain/errors.js';

const input = { competitionId: 7, participantId: 42, disciplineId: 3 };
const found: SaveTarget = {
  competitionFound: true,
  disciplineFound: true,
  participantFound: true,
  scoreId: null,
  competitionEvent: 1,
  participantEvent: 1,
};

function refusal(run: () => unknown): { kind: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('decideSaveTarget', () => {
  it('takes the score row whose id participantId carries, even when a participant has that id too', () => {
    expect(decideSaveTarget(input, { ...found, scoreId: 42 })).toEqual({ kind: 'score-row', scoreId: 42 });
  });

  it('takes the participant when no score row has the id, for a participant without an event too', () => {
    expect(decideSaveTarget(input, found)).toEqual({ kind: 'participant', participantId: 42 });
    expect(decideSaveTarget(input, { ...found, participantEvent: null })).toEqual({ kind: 'participant', participantId: 42 });
  });

  it('refuses an unknown competition or discipline first, with 404s naming them', () => {
    expect(refusal(() => decideSaveTarget(input, { ...found, competitionFound: false, disciplineFound: false, scoreId: 42 }))).toEqual({
      kind: 'not-found',
      message: 'No competition 7',
    });
    expect(refusal(() => decideSaveTarget(input, { ...found, disciplineFound: false, scoreId: 42 }))).toEqual({
      kind: 'not-found',
      message: 'No discipline 3',
    });
  });

  it('refuses an id that is neither a score row of the competition nor a participant', () => {
    expect(refusal(() => decideSaveTarget(input, { ...found, participantFound: false }))).toEqual({
      kind: 'not-found',
      message: 'No score row or participant with id 42 in competition 7',
    });
  });

  it("refuses a participant of another event than the competition's", () => {
    expect(refusal(() => decideSaveTarget(input, { ...found, participantEvent: 2 }))).toEqual({
      kind: 'validation-failed',
      message: 'participantId 42 is a participant of event 2, not of event 1 of competition 7; nothing was saved',
    });
  });
});

describe('optimistic checks', () => {
  it('passes without an expectation, and when the expectation is the stored value (as float4 stores it)', () => {
    expect(() => checkExpectedScore(undefined, 9.5)).not.toThrow();
    expect(() => checkExpectedScore(null, null)).not.toThrow();
    expect(() => checkExpectedScore(9.1, Math.fround(9.1))).not.toThrow();
    expect(() => checkExpectedPerformance(5, undefined, null)).not.toThrow();
    expect(() => checkExpectedPerformance(5, 3.3, Math.fround(3.3))).not.toThrow();
  });

  it('refuses a changed final with a conflict carrying the stored value', () => {
    const error = (() => {
      try {
        checkExpectedScore(null, 12.5);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(StaleValueError);
    expect(error).toMatchObject({
      kind: 'conflict',
      current: 12.5,
      message: 'The stored final score is 12.5, not none as expected: it was changed elsewhere; nothing was saved',
    });
  });

  it('refuses a changed field value, and an expected value where none is stored', () => {
    expect(() => checkExpectedPerformance(5, 3, 4)).toThrow(
      'The stored value of field 5 is 4, not 3 as expected: it was changed elsewhere; nothing was saved',
    );
    expect(() => checkExpectedPerformance(5, 3, null)).toThrow(/is none, not 3/);
    expect(() => checkExpectedScore(3, null)).toThrow(/is none, not 3/);
  });
});

describe('jury results and captures', () => {
  it('accepts attempt 1 only', () => {
    expect(() => checkJuryResultAttempt(1)).not.toThrow();
    expect(refusal(() => checkJuryResultAttempt(2))).toEqual({
      kind: 'validation-failed',
      message: 'body.attempt must be 1: jury results only use attempt 1, got 2',
    });
  });

  it('refuses a field named twice', () => {
    expect(() => checkDistinctFields([1, 2, 3])).not.toThrow();
    expect(() => checkDistinctFields([1, 2, 1])).toThrow('body.fieldValues: each fieldId may appear only once');
  });

  it('finds the one discipline of the fields, naming unknown fields, and refuses fields of two disciplines', () => {
    expect(
      disciplineOfFields(
        [1, 2],
        new Map([
          [1, 9],
          [2, 9],
        ]),
      ),
    ).toBe(9);
    expect(refusal(() => disciplineOfFields([1, 2, 3], new Map([[2, 9]])))).toEqual({
      kind: 'validation-failed',
      message: 'body.fieldValues: unknown fieldId 1, 3',
    });
    expect(() =>
      disciplineOfFields(
        [1, 2],
        new Map([
          [1, 9],
          [2, 8],
        ]),
      ),
    ).toThrow('the fields belong to 2 disciplines; a capture covers one');
  });

  it('stores the final the request sent, without calculating', () => {
    const calculate = () => {
      throw new Error('must not calculate');
    };
    expect(
      captureFinal(
        4,
        [
          { fieldId: 1, value: 2 },
          { fieldId: 4, value: 15.5 },
        ],
        calculate,
      ),
    ).toEqual({ value: 15.5, calculated: false });
  });

  it("stores the formula's result otherwise, and nothing when the formula gives none (rule 5)", () => {
    expect(captureFinal(4, [{ fieldId: 1, value: 2 }], () => 11)).toEqual({ value: 11, calculated: true });
    expect(captureFinal(null, [{ fieldId: 4, value: 15.5 }], () => 11)).toEqual({ value: 11, calculated: true });
    expect(captureFinal(4, [{ fieldId: 1, value: 2 }], () => null)).toEqual({ value: null, calculated: false });
  });
});
