/** The rules of group and team saves, without a database (the SQL side: group-scores, team-scores). */
import { describe, expect, it } from 'vitest';
import {
  decideCollectiveScore,
  GROUP_KIND,
  TEAM_KIND,
  type CollectiveScoreInput,
  type CollectiveScoreRows,
  type CompetitionRow,
  type UnitRow,
} from '../../commands/collective-score-decision.js';
import { DomainError } from '../../src/domain/errors.js';
import { compileFormula } from '../../src/domain/final-score.js';
import type { DisciplineContext, DisciplineField } from '../../src/model/discipline-context.js';

const field = (fieldId: number, shortName: string, sortOrder: number, isFinal = false): DisciplineField => ({
  fieldId,
  name: shortName,
  shortName,
  sortOrder,
  isFinal,
  isStarting: false,
  enabled: true,
  group: null,
});

// Field ids deliberately not in sort order: the final field (sort 4) has the lowest id.
const discipline = (
  formula: string | null,
  fields: DisciplineField[] = [field(31, 'D', 1), field(32, 'E', 2), field(33, 'Abz', 3), field(30, 'End', 4, true)],
): DisciplineContext => ({
  id: 7,
  name: 'Gruppe Boden',
  formula: compileFormula(null, formula),
  fields,
});

const unit: UnitRow = { id: 5, name: 'Gruppe Sonne', eventId: 1, startNumber: 17, squadName: 'R1' };
const competition: CompetitionRow = { id: 3, eventId: 1, isGroupCompetition: true, attempts: 2, statusExists: true };
const rows = (changes: Partial<CollectiveScoreRows> = {}): CollectiveScoreRows => ({
  unit,
  competition,
  discipline: discipline('D + E - Abz'),
  ...changes,
});
const input = (changes: Partial<CollectiveScoreInput> = {}): CollectiveScoreInput => ({
  unitId: 5,
  competitionId: 3,
  disciplineId: 7,
  attempt: 1,
  squadName: null,
  statusId: null,
  components: [
    { fieldId: 33, value: 0.5 },
    { fieldId: 31, value: 4 },
    { fieldId: 32, value: 8 },
  ],
  finalScore: null,
  ...changes,
});

/** The 400 a decision refuses with (its message names the offending input). */
function refusal(decide: () => unknown): string {
  try {
    decide();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('validation-failed');
    return (error as DomainError).message;
  }
  throw new Error('the decision did not refuse');
}

describe('decideCollectiveScore', () => {
  it('calculates the final score from the components and orders the detail rows by the fields', () => {
    const decided = decideCollectiveScore(GROUP_KIND, input(), rows());
    expect(decided.finalField.fieldId).toBe(30);
    expect(decided.details).toEqual([
      { fieldId: 31, value: 4 },
      { fieldId: 32, value: 8 },
      { fieldId: 33, value: 0.5 },
      { fieldId: 30, value: 11.5 },
    ]);
  });

  it('takes a given final score as it is, and a final field echoed as a component as the final score', () => {
    expect(decideCollectiveScore(GROUP_KIND, input({ finalScore: 9 }), rows()).details.at(-1)).toEqual({ fieldId: 30, value: 9 });
    const echoed = decideCollectiveScore(
      TEAM_KIND,
      input({
        components: [
          { fieldId: 31, value: 4 },
          { fieldId: 30, value: 7.25 },
        ],
      }),
      rows(),
    );
    expect(echoed.details).toEqual([
      { fieldId: 31, value: 4 },
      { fieldId: 30, value: 7.25 },
    ]);
    expect(
      refusal(() => decideCollectiveScore(TEAM_KIND, input({ components: [{ fieldId: 30, value: 7 }], finalScore: 8 }), rows())),
    ).toMatch(/final field and its value contradicts finalScore/);
  });

  it('refuses a unit of another event, a plain competition for a group, an attempt too many and an unknown status', () => {
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input(), rows({ unit: { ...unit, eventId: 2 } })))).toMatch(
      /^groupId: group 5 does not belong to the event of competition 3/,
    );
    expect(
      refusal(() => decideCollectiveScore(GROUP_KIND, input(), rows({ competition: { ...competition, isGroupCompetition: false } }))),
    ).toMatch(/not a group competition/);
    // Teams need no group competition.
    expect(
      decideCollectiveScore(TEAM_KIND, input(), rows({ competition: { ...competition, isGroupCompetition: false } })).details,
    ).toHaveLength(4);
    expect(refusal(() => decideCollectiveScore(TEAM_KIND, input({ attempt: 3 }), rows()))).toMatch(
      /^attempt: 3 exceeds the 2 attempt\(s\)/,
    );
    expect(
      refusal(() =>
        decideCollectiveScore(TEAM_KIND, input({ statusId: 9 }), rows({ competition: { ...competition, statusExists: false } })),
      ),
    ).toMatch(/^statusId: status 9 does not exist/);
  });

  it('refuses components that are not fields of the discipline or appear twice, and a discipline without a final field', () => {
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input({ components: [{ fieldId: 99, value: 1 }] }), rows()))).toMatch(
      /field 99 is not a field of discipline 7/,
    );
    expect(
      refusal(() =>
        decideCollectiveScore(
          GROUP_KIND,
          input({
            components: [
              { fieldId: 31, value: 1 },
              { fieldId: 31, value: 2 },
            ],
          }),
          rows(),
        ),
      ),
    ).toMatch(/field 31 appears more than once/);
    const withoutFinal = discipline('D + E', [field(31, 'D', 1), field(32, 'E', 2)]);
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input({ components: [] }), rows({ discipline: withoutFinal })))).toMatch(
      /has no final field/,
    );
  });

  it('asks for finalScore when the formula is missing, unusable or lacks a component', () => {
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input(), rows({ discipline: discipline(null) })))).toMatch(
      /finalScore is required: discipline 7 \(Gruppe Boden\) has no formula/,
    );
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input(), rows({ discipline: discipline('D + (') })))).toMatch(
      /finalScore is required: the formula of discipline 7 cannot be used/,
    );
    expect(refusal(() => decideCollectiveScore(GROUP_KIND, input({ components: [{ fieldId: 31, value: 4 }] }), rows()))).toMatch(
      /components lack a value for field E, Abz/,
    );
  });
});
