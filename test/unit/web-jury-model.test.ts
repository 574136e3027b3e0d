import { describe, expect, it } from 'vitest';
import type { DisciplineField, ScoreEntry, ScoreUpdatedEvent } from '../../web/shared/api.js';
import {
  applyScoreEvent,
  awaitsScore,
  computeFinal,
  fieldLayout,
  formulaUsable,
  formulaValues,
  nextPending,
  participantRows,
} from '../../web/jury/model.js';

const field = (id: number, sortOrder: number | null, extra: Partial<DisciplineField> = {}): DisciplineField => ({
  id,
  disciplineId: 7,
  name: `F${id}`,
  shortName: null,
  sortOrder,
  isFinalScore: false,
  isStartingScore: false,
  enabled: true,
  group: null,
  ...extra,
});

/** A delivered score-updated message; `participantId` makes it an event 2. */
const scoreEvent = (
  values: Pick<ScoreUpdatedEvent, 'scoreId' | 'eventId' | 'disciplineId'> & {
    score: number;
    participantId?: number;
    competitionId?: number;
  },
): ScoreUpdatedEvent => ({
  competitionId: 3,
  disciplineName: 'Boden',
  finalScore: values.score,
  timestamp: '2026-01-01T00:00:00.000Z',
  seq: 1,
  source: 'api',
  released: false,
  ...values,
});

const entry = (values: Partial<ScoreEntry>): ScoreEntry => ({
  id: 1,
  participantId: 10,
  disciplineId: null,
  competitionId: 3,
  eventId: 5,
  score: null,
  formula: null,
  startValue: 10,
  firstName: 'Anna',
  lastName: 'Adler',
  startNumber: '1',
  clubName: 'TV',
  participant: { firstName: 'Anna', lastName: 'Adler' },
  juryResults: [],
  panel: null,
  didNotStart: false,
  ...values,
});

describe('jury portal model', () => {
  it('letters the enabled non-final fields of the device by sort order, ties by id, and finds the final field', () => {
    const layout = fieldLayout(
      [
        field(4, 3),
        field(1, 4, { isFinalScore: true }),
        field(2, 1),
        field(9, 2, { enabled: false }),
        field(3, 1),
        field(8, 0, { disciplineId: 99 }),
        field(5, null),
      ],
      7,
    );
    expect(layout.inputs.map((input) => [input.letter, input.field.id])).toEqual([
      ['A', 2],
      ['B', 3],
      ['C', 4],
      ['D', 5],
    ]);
    expect(layout.finalField?.id).toBe(1);
  });

  it("skips an E-panel's judge fields in the formula's letters, as the service does, and labels them E1, E2…", () => {
    const layout = fieldLayout([field(1, 1), field(2, 2), field(3, 3), field(4, 4), field(5, 5, { isFinalScore: true })], 7, [2, 3]);
    expect(layout.inputs.map((input) => [input.letter, input.field.id, input.judge])).toEqual([
      ['A', 1, false],
      ['E1', 2, true],
      ['E2', 3, true],
      ['B', 4, false],
    ]);
    expect(computeFinal('A + B', formulaValues(layout.inputs, [5, 8.5, 8.7, 8.6]))).toBeCloseTo(13.6, 10);
  });

  it('computes the final with the shared engine only when every input has a value', () => {
    expect(computeFinal('A + B - C', [4.5, 8.2, 0.3])).toBeCloseTo(12.4, 10);
    expect(computeFinal('A + B - C', [4.5, null, 0.3])).toBeNull();
    expect(computeFinal('A / B', [1, 0])).toBeNull();
    expect(computeFinal(null, [1])).toBeNull();
    // Letters bind in order of appearance (calculation rule 2), exactly as on the server.
    expect(computeFinal('10 - B + A', [1, 2])).toBe(11);
  });

  it('uses the formula only when it parses and each variable is a letter an input binds', () => {
    expect(formulaUsable('A + B - C', 3)).toBe(true);
    expect(formulaUsable('A + B - C', 2)).toBe(false);
    expect(formulaUsable('D + E', 3)).toBe(true);
    expect(formulaUsable('Abz + 1', 3)).toBe(false);
    expect(formulaUsable('A +', 3)).toBe(false);
    expect(formulaUsable('9.5', 0)).toBe(true);
    expect(formulaUsable(null, 3)).toBe(false);
  });

  it('lists one row per participant and competition; only the device’s own entry makes it completed', () => {
    const rows = participantRows(
      [
        entry({ id: 1, participantId: 10, disciplineId: 8, score: 12 }),
        entry({ id: 1, participantId: 10, disciplineId: 7, score: 13.5 }),
        entry({ id: 2, participantId: 11, disciplineId: 8, score: 11, startNumber: '2', firstName: 'Ben' }),
        entry({ id: 3, participantId: 12, disciplineId: null, startNumber: '10', firstName: 'Cid' }),
      ],
      7,
    );
    expect(rows.map((row) => [row.participantId, row.wertungenId, row.status, row.currentScore])).toEqual([
      [10, 1, 'completed', 13.5],
      [11, 2, 'pending', null],
      [12, 3, 'pending', null],
    ]);
  });

  it('carries did-not-start into the rows, and the next gymnast to score skips one who did not start', () => {
    const rows = participantRows(
      [
        entry({ id: 1, participantId: 10, startNumber: '1' }),
        entry({ id: 2, participantId: 11, startNumber: '2', didNotStart: true }),
        entry({ id: 3, participantId: 12, startNumber: '3', disciplineId: 7, score: 9, didNotStart: true }),
        entry({ id: 4, participantId: 13, startNumber: '4' }),
      ],
      7,
    );
    expect(rows.map((row) => [row.participantId, row.status, row.didNotStart])).toEqual([
      [10, 'pending', false],
      [11, 'pending', true],
      [12, 'completed', true],
      [13, 'pending', false],
    ]);
    const toScore = (row: (typeof rows)[number]) => awaitsScore(row, row.status);
    expect(nextPending(rows, rows[0]!.key, toScore)?.participantId).toBe(13);
    expect(nextPending(rows, rows[3]!.key, toScore)?.participantId).toBe(10);
  });

  it('applies an event of the selected event and device by participantId or wertungenId, and nothing else', () => {
    const rows = participantRows([entry({ id: 1, participantId: 10 }), entry({ id: 2, participantId: 11, startNumber: '2' })], 7);
    const selection = { eventId: 5, disciplineId: 7 };
    expect(applyScoreEvent(rows, scoreEvent({ scoreId: 1, eventId: 6, disciplineId: 7, score: 9 }), selection)).toBeNull();
    expect(applyScoreEvent(rows, scoreEvent({ scoreId: 1, eventId: 5, disciplineId: 8, score: 9 }), selection)).toBeNull();
    expect(applyScoreEvent(rows, scoreEvent({ scoreId: 2, eventId: 5, disciplineId: 7, score: 12.5 }), selection)?.participantId).toBe(11);
    expect(
      applyScoreEvent(
        rows,
        scoreEvent({ scoreId: 99, participantId: 10, competitionId: 3, eventId: 5, disciplineId: 7, score: 14 }),
        selection,
      )?.participantId,
    ).toBe(10);
    expect(rows.map((row) => [row.status, row.currentScore])).toEqual([
      ['completed', 14],
      ['completed', 12.5],
    ]);
  });
});
