import { describe, expect, it } from 'vitest';
import type { ScoreEntry } from '../../web/shared/api.js';
import { fieldValues } from '../../web/jury/model.js';
import { applyDeviation, deviationFromState, deviationKey, type PanelDeviation, type PanelState } from '../../web/shared/panel.js';

const deviation = (overrides: Partial<PanelDeviation> = {}): PanelDeviation => ({
  scoreId: 5,
  disciplineId: 7,
  attempt: 1,
  values: [
    { fieldId: 1, value: 8.5 },
    { fieldId: 2, value: 7 },
  ],
  spread: 1.5,
  tolerance: 0.5,
  resolved: false,
  ...overrides,
});

describe('E-panel on the web (issue 21)', () => {
  it('keeps one open deviation per score, device and attempt until a resolved message closes it', () => {
    const open = new Map<string, PanelDeviation>();
    expect(applyDeviation(open, deviation())).toBe(true);
    expect(applyDeviation(open, deviation({ spread: 2 }))).toBe(true);
    expect(applyDeviation(open, deviation({ attempt: 2 }))).toBe(true);
    expect([...open.values()].map((entry) => [entry.attempt, entry.spread])).toEqual([
      [1, 2],
      [2, 1.5],
    ]);
    expect(applyDeviation(open, deviation({ resolved: true }))).toBe(true);
    expect(applyDeviation(open, deviation({ resolved: true }))).toBe(false);
    expect([...open.keys()]).toEqual([deviationKey(deviation({ attempt: 2 }))]);
  });

  it('reads an open deviation from a panel state only when it deviates and is not confirmed', () => {
    const state: PanelState = {
      values: deviation().values,
      aggregate: 7.75,
      complete: false,
      spread: 1.5,
      tolerance: 0.5,
      deviation: true,
      confirmed: false,
      given: 2,
      missing: [],
      missingJudge: 'fewer-values',
      substitute: null,
      panelAggregate: 7.75,
      reference: null,
    };
    expect(deviationFromState(5, 7, state)).toEqual(deviation());
    expect(deviationFromState(5, 7, { ...state, deviation: false, confirmed: true })).toBeNull();
    expect(deviationFromState(5, 7, null)).toBeNull();
  });

  it("counts a participant done for a judge once the judge's own field of the device holds a value", () => {
    const entry = (id: number, participantId: number, disciplineId: number | null, results: Array<[number, number]>): ScoreEntry =>
      ({
        id,
        participantId,
        disciplineId,
        competitionId: 3,
        juryResults: results.map(([disciplineFieldId, performance]) => ({ disciplineFieldId, performance })),
      }) as unknown as ScoreEntry;
    const entries = [
      entry(1, 10, 7, [
        [21, 8.5],
        [22, 8.7],
      ]),
      entry(2, 11, 7, [[22, 8.1]]),
      entry(3, 12, 8, [[21, 9]]),
      entry(4, 13, null, []),
    ];
    expect([...fieldValues(entries, 7, 21)]).toEqual([['3:10', 8.5]]);
    expect([...fieldValues(entries, 7, 22)]).toEqual([
      ['3:10', 8.7],
      ['3:11', 8.1],
    ]);
  });
});
