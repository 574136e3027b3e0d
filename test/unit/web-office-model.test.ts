/** The office client's DOM-free rules: the team score table and the client-side group membership. */
import { describe, expect, it } from 'vitest';
import type { DisciplineField } from '../../web/shared/api.js';
import { filtersActive, GroupMemberStore, withoutMembers } from '../../web/office/group-members.js';
import { checkSave, decideSave, sheetLayout, storedAttempts, type SheetLayout } from '../../web/office/team-sheet.js';

const field = (id: number, shortName: string | null, extra: Partial<DisciplineField> = {}): DisciplineField => ({
  id,
  disciplineId: 7,
  name: `Field ${shortName ?? id}`,
  shortName,
  sortOrder: id,
  isFinalScore: false,
  isStartingScore: false,
  enabled: true,
  group: null,
  ...extra,
});

const FIELDS = [
  field(1, 'D'),
  field(2, 'E'),
  field(3, 'Abz'),
  field(4, 'End', { isFinalScore: true }),
  field(5, 'Off', { enabled: false }),
  field(6, 'X', { disciplineId: 8 }),
];
const same = (a: number, b: number) => a.toFixed(3) === b.toFixed(3);
const typed = (values: Array<[number, number]>, finalScore: number | null = null) => ({ values: new Map(values), finalScore });

describe('sheetLayout', () => {
  it('has a column per enabled non-final field of the discipline, and the fields the formula reads', () => {
    const layout = sheetLayout(FIELDS, 7, 'D + E - Abz');
    expect(layout.columns.map((column) => column.id)).toEqual([1, 2, 3]);
    expect(layout.finalField?.id).toBe(4);
    expect(layout.formulaFields?.map((column) => column.id)).toEqual([1, 2, 3]);
  });

  it('leaves the final score to be typed when there is no formula, it does not parse, or it reads an unknown name', () => {
    for (const formula of [null, 'D +', 'D + Off', 'D + Q']) expect(sheetLayout(FIELDS, 7, formula).formulaFields).toBeNull();
    expect(sheetLayout(FIELDS, 7, '10').formulaFields).toEqual([]);
  });
});

describe("checkSave: the portal's plausibility rule on a save", () => {
  const layout = sheetLayout([...FIELDS, field(9, 'Bon', { name: 'Bonus' })], 7, 'D + E - Abz + Bon');
  const discipline = { inputMask: '00.000', startValue: null };
  const save = (values: Array<[number, number]>, finalScore?: number) => ({
    kind: 'save' as const,
    components: values.map(([fieldId, value]) => ({ fieldId, value })),
    ...(finalScore === undefined ? {} : { finalScore }),
  });
  const row = (d: number, e: number, abz: number, bonus: number) =>
    save([
      [1, d],
      [2, e],
      [3, abz],
      [9, bonus],
    ]);

  it('holds a typo for confirmation, naming the field and the final the formula makes of it', () => {
    const outcome = checkSave(layout, row(3.5, 35, 0.3, 0), discipline, 'Final');
    expect(outcome.kind === 'confirm' && outcome.checks.map((check) => [check.column, check.label, check.value])).toEqual([
      [2, 'Field E', 35],
      ['final', 'Final', 38.2],
    ]);
  });

  it('refuses a negative value except in a bonus field, and checks a typed final as typed', () => {
    const negative = checkSave(layout, save([[3, -1]]), discipline, 'Final');
    expect(negative.kind === 'refuse' && negative.check.column).toBe(3);
    expect(checkSave(layout, row(3, 8, 0, -0.5), discipline, 'Final')).toEqual({ kind: 'ok' });
    const typedLayout = sheetLayout(FIELDS, 7, null);
    expect(checkSave(typedLayout, save([[1, 3]], 31), { ...discipline, startValue: 16 }, 'Final')).toEqual({ kind: 'ok' });
    const tooHigh = checkSave(typedLayout, save([[1, 3]], 31), discipline, 'Final');
    expect(tooHigh.kind === 'confirm' && tooHigh.checks.map((check) => check.column)).toEqual(['final']);
  });
});

describe('decideSave', () => {
  const byFormula = sheetLayout(FIELDS, 7, 'D + E');
  const typedFinal = sheetLayout(FIELDS, 7, null);

  it('waits until every field the formula reads has a value, then saves the whole row without a final score', () => {
    expect(decideSave(byFormula, typed([[1, 4.5]]), undefined, same)).toEqual({
      kind: 'incomplete',
      reason: 'needs',
      missing: ['E'],
    });
    expect(
      decideSave(
        byFormula,
        typed([
          [1, 4.5],
          [2, 8],
        ]),
        undefined,
        same,
      ),
    ).toEqual({
      kind: 'save',
      components: [
        { fieldId: 1, value: 4.5 },
        { fieldId: 2, value: 8 },
      ],
    });
  });

  it('sends nothing when the row equals what is stored, comparing as shown (reals come back inexact)', () => {
    const stored = {
      values: new Map([
        [1, 4.5],
        [2, 8.199999809],
      ]),
      finalScore: 12.7,
    };
    expect(
      decideSave(
        byFormula,
        typed([
          [1, 4.5],
          [2, 8.2],
        ]),
        stored,
        same,
      ),
    ).toEqual({ kind: 'unchanged' });
    expect(
      decideSave(
        byFormula,
        typed([
          [1, 4.5],
          [2, 8.3],
        ]),
        stored,
        same,
      ).kind,
    ).toBe('save');
    expect(
      decideSave(
        byFormula,
        typed([
          [1, 4.5],
          [2, 8.2],
          [3, 0.1],
        ]),
        stored,
        same,
      ).kind,
    ).toBe('save');
    expect(decideSave(byFormula, typed([]), undefined, same)).toEqual({ kind: 'unchanged' });
  });

  it('needs a typed final score without a usable formula, and sends it', () => {
    expect(decideSave(typedFinal, typed([[1, 3]]), undefined, same).kind).toBe('incomplete');
    expect(decideSave(typedFinal, typed([[1, 3]], 7.25), undefined, same)).toEqual({
      kind: 'save',
      components: [{ fieldId: 1, value: 3 }],
      finalScore: 7.25,
    });
    expect(decideSave(typedFinal, typed([[1, 3]], 7.25), { values: new Map([[1, 3]]), finalScore: 7.25 }, same)).toEqual({
      kind: 'unchanged',
    });
  });

  it('refuses to save for a discipline without a final field', () => {
    const layout: SheetLayout = { ...byFormula, finalField: null };
    expect(
      decideSave(
        layout,
        typed([
          [1, 1],
          [2, 2],
        ]),
        undefined,
        same,
      ).kind,
    ).toBe('incomplete');
  });
});

describe('storedAttempts', () => {
  it('keeps the field values per attempt and takes the final field as the final score', () => {
    const entry = (attempt: number, values: Array<[number, number | null]>, finalScore: number | null) => ({
      id: 1,
      teamId: 1,
      competitionId: 1,
      disciplineId: 7,
      attempt,
      finalScore,
      components: values.map(([fieldId, value]) => ({ fieldId, fieldName: null, value })),
      club: { name: null },
      discipline: { name: 'Boden' },
    });
    const stored = storedAttempts(
      [
        entry(
          1,
          [
            [1, 4],
            [2, null],
            [4, 9],
          ],
          9,
        ),
        entry(2, [[1, 5]], null),
      ],
      4,
    );
    expect([...stored.get(1)!.values]).toEqual([[1, 4]]);
    expect(stored.get(1)!.finalScore).toBe(9);
    expect(stored.get(2)!.finalScore).toBeNull();
  });
});

describe('group membership on the client', () => {
  function memoryStorage(): Storage {
    const data = new Map<string, string>();
    return {
      get length() {
        return data.size;
      },
      clear: () => data.clear(),
      getItem: (key) => data.get(key) ?? null,
      key: (index) => [...data.keys()][index] ?? null,
      removeItem: (key) => void data.delete(key),
      setItem: (key, value) => void data.set(key, value),
    };
  }

  it('keeps members per group and removes them from the candidates', () => {
    const store = new GroupMemberStore(memoryStorage());
    const member = { id: 3, firstName: 'Gina', lastName: 'Beta', startNumber: '2', clubName: 'TV' };
    store.add(1, member);
    store.add(1, member);
    expect(store.members(1)).toEqual([member]);
    expect(store.members(2)).toEqual([]);
    expect(withoutMembers([{ id: 2 }, { id: 3 }, { id: 4 }], store.members(1))).toEqual([{ id: 2 }, { id: 4 }]);
    store.remove(1, 3);
    expect(store.members(1)).toEqual([]);
  });

  it('survives unreadable stored data', () => {
    const storage = memoryStorage();
    storage.setItem('gym.office.groupMembers.v1', '{not json');
    expect(new GroupMemberStore(storage).members(1)).toEqual([]);
  });

  it('offers the reset only while a filter is on', () => {
    expect(filtersActive({ hidePlanned: false, hideOtherClubs: false })).toBe(false);
    expect(filtersActive({ hidePlanned: true, hideOtherClubs: false })).toBe(true);
    expect(filtersActive({ hidePlanned: false, hideOtherClubs: true })).toBe(true);
  });
});
