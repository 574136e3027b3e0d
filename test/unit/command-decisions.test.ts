/** The rules of applying squads, releasing a scope and writing back read corrections, without a database. */
import { describe, expect, it } from 'vitest';
import { inLockOrder, lostCalculations } from '../../commands/final-corrections-decision.js';
import { eventOfReleaseScope, releaseStateOf } from '../../commands/release-decision.js';
import { checkForeignParticipants, decideSquadEdit, flattenAssignments, squadsCreated } from '../../commands/squads-decision.js';
import type { PendingCorrection, WrittenCorrection } from '../../src/model/scoring-context.js';

describe('squads', () => {
  it('flattens the squads into parallel participant and name lists, in request order', () => {
    expect(
      flattenAssignments([
        { name: 'R1', participantIds: [5, 3] },
        { name: 'Pause', participantIds: [] },
        { name: 'R2', participantIds: [9] },
      ]),
    ).toEqual({ participantIds: [5, 3, 9], names: ['R1', 'R1', 'R2'] });
  });

  it('refuses padded names, a name used twice and a participant in two squads, naming the squads', () => {
    expect(() => flattenAssignments([{ name: ' R1', participantIds: [] }])).toThrow(
      'body.squads.0.name must not start or end with whitespace',
    );
    expect(() =>
      flattenAssignments([
        { name: 'R1', participantIds: [] },
        { name: 'R1', participantIds: [] },
      ]),
    ).toThrow('body.squads.1.name "R1" is already used by body.squads.0');
    expect(() =>
      flattenAssignments([
        { name: 'R1', participantIds: [4] },
        { name: 'R2', participantIds: [6, 4] },
      ]),
    ).toThrow('body.squads.1.participantIds: participant 4 is already listed in body.squads.0');
  });

  it('refuses participants without a score row in the event, listing ten of them at most', () => {
    expect(() => checkForeignParticipants(3, [])).not.toThrow();
    expect(() => checkForeignParticipants(3, [7, 8])).toThrow('body.squads: participants without a score row in event 3: 7, 8');
    const many = Array.from({ length: 12 }, (_, index) => index + 1);
    expect(() => checkForeignParticipants(3, many)).toThrow(/event 3: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, \.\.\.$/);
    expect(() => checkForeignParticipants(3, many.slice(0, 10))).toThrow(/event 3: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10$/);
  });

  it('counts the squads that got a participant (empty break squads leave no trace)', () => {
    expect(
      squadsCreated([
        { name: 'R1', participantIds: [1] },
        { name: 'Pause', participantIds: [] },
        { name: 'R2', participantIds: [2, 3] },
      ]),
    ).toBe(2);
  });
});

describe('release scope', () => {
  const scope = { competitionId: 4, disciplineId: 6 };

  it('answers the event of an existing scope, else a 404 naming the competition before the discipline', () => {
    expect(eventOfReleaseScope(scope, { eventId: 2, disciplineFound: true })).toBe(2);
    expect(() => eventOfReleaseScope(scope, { eventId: null, disciplineFound: false })).toThrow('No competition 4');
    expect(() => eventOfReleaseScope(scope, { eventId: 2, disciplineFound: false })).toThrow('No discipline 6');
  });

  it('is released with who and when while a release row applies, and open without one', () => {
    expect(releaseStateOf({ ...scope, squadName: 'R1' }, { releasedAt: '2026-11-23T10:00:00.000Z', releasedBy: 'head' })).toEqual({
      competitionId: 4,
      disciplineId: 6,
      squadName: 'R1',
      released: true,
      releasedAt: '2026-11-23T10:00:00.000Z',
      releasedBy: 'head',
    });
    expect(releaseStateOf(scope, null)).toEqual({
      competitionId: 4,
      disciplineId: 6,
      squadName: null,
      released: false,
      releasedAt: null,
      releasedBy: null,
    });
  });
});

describe('final corrections', () => {
  const calculate = (scoreId: number, fieldId: number): PendingCorrection => ({
    scoreId,
    disciplineId: 1,
    correction: { kind: 'calculate', fieldId, value: 10 },
  });
  const sync = (scoreId: number, fieldId: number): PendingCorrection => ({
    scoreId,
    disciplineId: 1,
    correction: { kind: 'sync', fieldId, value: 9 },
  });
  const written = (kind: 'calculate' | 'sync', scoreId: number, fieldId: number): WrittenCorrection => ({
    kind,
    result_id: 100 + scoreId,
    score_id: scoreId,
    field_id: fieldId,
    value: 10,
  });

  it('orders by score, then field, leaving the input as it was', () => {
    const corrections = [calculate(3, 2), sync(1, 9), calculate(3, 1), calculate(2, 5)];
    expect(inLockOrder(corrections).map((item) => [item.scoreId, item.correction.fieldId])).toEqual([
      [1, 9],
      [2, 5],
      [3, 1],
      [3, 2],
    ]);
    expect(corrections[0]).toEqual(calculate(3, 2));
  });

  it('finds the calculations the statement did not insert; syncs never count as lost', () => {
    const corrections = [calculate(1, 4), calculate(2, 4), sync(3, 4), calculate(4, 4)];
    expect(lostCalculations(corrections, [written('calculate', 1, 4), written('sync', 2, 4)])).toEqual([calculate(2, 4), calculate(4, 4)]);
    expect(lostCalculations(corrections, [written('calculate', 1, 4), written('calculate', 2, 4), written('calculate', 4, 4)])).toEqual([]);
  });
});

describe('decideSquadEdit (the squad page by hand)', () => {
  const state = { squads: ['A', 'B'], foreignIds: [] };
  const kind = (run: () => unknown) => {
    try {
      run();
      return 'ok';
    } catch (error) {
      return (error as { kind?: string }).kind;
    }
  };

  it('selects the rows to change and the name they get', () => {
    expect(decideSquadEdit({ action: 'move', participantId: 7, squadName: 'B' }, 1, state)).toEqual({
      participantIds: [7],
      squad: null,
      to: 'B',
    });
    expect(decideSquadEdit({ action: 'move', participantId: 7, squadName: null }, 1, state)).toEqual({
      participantIds: [7],
      squad: null,
      to: null,
    });
    expect(decideSquadEdit({ action: 'create', name: 'C', participantIds: [7, 8] }, 1, state)).toEqual({
      participantIds: [7, 8],
      squad: null,
      to: 'C',
    });
    expect(decideSquadEdit({ action: 'rename', name: 'A', newName: 'C' }, 1, state)).toEqual({ participantIds: [], squad: 'A', to: 'C' });
    expect(decideSquadEdit({ action: 'delete', name: 'B' }, 1, state)).toEqual({ participantIds: [], squad: 'B', to: null });
  });

  it('refuses merging into a taken name, unknown squads, outsiders and padded names', () => {
    expect(kind(() => decideSquadEdit({ action: 'create', name: 'A', participantIds: [7] }, 1, state))).toBe('conflict');
    expect(kind(() => decideSquadEdit({ action: 'rename', name: 'A', newName: 'B' }, 1, state))).toBe('conflict');
    expect(kind(() => decideSquadEdit({ action: 'rename', name: 'X', newName: 'C' }, 1, state))).toBe('not-found');
    expect(kind(() => decideSquadEdit({ action: 'rename', name: 'A', newName: 'A' }, 1, state))).toBe('validation-failed');
    expect(kind(() => decideSquadEdit({ action: 'delete', name: 'X' }, 1, state))).toBe('not-found');
    expect(kind(() => decideSquadEdit({ action: 'move', participantId: 9, squadName: 'A' }, 1, { ...state, foreignIds: [9] }))).toBe(
      'not-found',
    );
    expect(kind(() => decideSquadEdit({ action: 'create', name: 'C', participantIds: [9] }, 1, { ...state, foreignIds: [9] }))).toBe(
      'validation-failed',
    );
    expect(kind(() => decideSquadEdit({ action: 'create', name: ' C', participantIds: [7] }, 1, state))).toBe('validation-failed');
  });
});
