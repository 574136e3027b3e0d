import { describe, expect, it } from 'vitest';
import { compareSquadNames, delayMinutes, generateRotations, rotationPlanProblems, type Rotation } from '../../src/domain/rotation-plan.js';

const scope = { disciplineIds: [1, 2, 3], squadNames: ['A', 'B', 'C'] };
const rotation = (slots: Array<[number, string]>, number = 1): Rotation => ({
  rotation: number,
  plannedStart: '2026-05-02T08:00:00.000Z',
  slots: slots.map(([disciplineId, squadName]) => ({ disciplineId, squadName, judges: [] })),
});
const placement = (rotations: Rotation[]) => rotations.map((r) => r.slots.map((slot) => `${slot.squadName}@${slot.disciplineId}`));

describe('rotation plan rules', () => {
  it('accepts a plan with each squad once and each apparatus once per rotation', () => {
    expect(
      rotationPlanProblems(
        [
          rotation([
            [1, 'A'],
            [2, 'B'],
            [3, 'C'],
          ]),
          rotation(
            [
              [2, 'A'],
              [3, 'B'],
            ],
            2,
          ),
        ],
        scope,
      ),
    ).toEqual([]);
  });

  it('names a squad on two apparatus, an apparatus with two squads, an unknown squad and apparatus, a rotation planned twice', () => {
    expect(
      rotationPlanProblems(
        [
          rotation([
            [1, 'A'],
            [2, 'A'],
          ]),
        ],
        scope,
      ),
    ).toEqual(['body.rotations[0].slots[1].squadName: squad "A" is on two apparatus in rotation 1']);
    expect(
      rotationPlanProblems(
        [
          rotation([
            [1, 'A'],
            [1, 'B'],
          ]),
        ],
        scope,
      ),
    ).toEqual(['body.rotations[0].slots[1].disciplineId: apparatus 1 has two squads in rotation 1']);
    expect(rotationPlanProblems([rotation([[9, 'Z']])], scope)).toEqual([
      'body.rotations[0].slots[0].disciplineId: apparatus 9 is not one of the event',
      'body.rotations[0].slots[0].squadName: squad "Z" is not one of the event',
    ]);
    expect(rotationPlanProblems([rotation([[1, 'A']]), rotation([[2, 'A']])], scope)).toEqual([
      'body.rotations[1].rotation: rotation 1 is planned twice',
    ]);
  });
});

describe('rotation generator', () => {
  const start = new Date('2026-05-02T08:00:00Z');

  it('starts squad i on apparatus i and moves every squad on by the apparatus order each rotation', () => {
    const rotations = generateRotations({ disciplineIds: [10, 20, 30], squadNames: ['1', '2', '3'], start, minutesPerApparatus: 20 });
    expect(placement(rotations)).toEqual([
      ['1@10', '2@20', '3@30'],
      ['1@20', '2@30', '3@10'],
      ['1@30', '2@10', '3@20'],
    ]);
    expect(rotations.map((r) => r.plannedStart)).toEqual([
      '2026-05-02T08:00:00.000Z',
      '2026-05-02T08:20:00.000Z',
      '2026-05-02T08:40:00.000Z',
    ]);
    expect(
      rotations.every((r) => rotationPlanProblems([r], { disciplineIds: [10, 20, 30], squadNames: ['1', '2', '3'] }).length === 0),
    ).toBe(true);
  });

  it('leaves apparatus free with fewer squads than apparatus; every squad still meets every apparatus once', () => {
    const rotations = generateRotations({ disciplineIds: [1, 2, 3, 4], squadNames: ['A', 'B'], start, minutesPerApparatus: 15 });
    expect(rotations).toHaveLength(4);
    for (const squad of ['A', 'B']) {
      const visited = rotations.map((r) => r.slots.find((slot) => slot.squadName === squad)!.disciplineId).sort();
      expect(visited).toEqual([1, 2, 3, 4]);
    }
  });

  it('splits more squads than apparatus into even groups that go through the apparatus one group after another', () => {
    const rotations = generateRotations({
      disciplineIds: [1, 2, 3],
      squadNames: ['A', 'B', 'C', 'D', 'E'],
      start,
      minutesPerApparatus: 10,
    });
    expect(placement(rotations)).toEqual([
      ['A@1', 'B@2', 'C@3'],
      ['A@2', 'B@3', 'C@1'],
      ['A@3', 'B@1', 'C@2'],
      ['D@1', 'E@2'],
      ['D@2', 'E@3'],
      ['D@3', 'E@1'],
    ]);
    expect(rotations.map((r) => r.rotation)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rotations[5]!.plannedStart).toBe('2026-05-02T08:50:00.000Z');
  });

  it('lasts as long as the longest occupied apparatus and adds breaks after the rotations they follow', () => {
    const rotations = generateRotations({
      disciplineIds: [1, 2],
      squadNames: ['A'],
      start,
      minutesPerApparatus: 10,
      apparatusMinutes: new Map([[2, 25]]),
      breaks: [{ afterRotation: 1, minutes: 30 }],
    });
    // Rotation 1: A on apparatus 1 (10 min) + 30 min break; rotation 2 starts 40 minutes in.
    expect(rotations.map((r) => r.plannedStart)).toEqual(['2026-05-02T08:00:00.000Z', '2026-05-02T08:40:00.000Z']);
    const both = generateRotations({
      disciplineIds: [1, 2],
      squadNames: ['A', 'B'],
      start,
      minutesPerApparatus: 10,
      apparatusMinutes: new Map([[2, 25]]),
    });
    expect(both[1]!.plannedStart).toBe('2026-05-02T08:25:00.000Z');
  });

  it('proposes nothing without apparatus or squads', () => {
    expect(generateRotations({ disciplineIds: [], squadNames: ['A'], start, minutesPerApparatus: 10 })).toEqual([]);
    expect(generateRotations({ disciplineIds: [1], squadNames: [], start, minutesPerApparatus: 10 })).toEqual([]);
  });
});

describe('rotation helpers', () => {
  it('orders squad names as people read them', () => {
    expect(['10', 'B', '2', 'A', '1'].sort(compareSquadNames)).toEqual(['1', '2', '10', 'A', 'B']);
  });

  it('counts the delay in whole minutes, negative when early', () => {
    expect(delayMinutes('2026-05-02T08:00:00.000Z', '2026-05-02T08:12:20.000Z')).toBe(12);
    expect(delayMinutes('2026-05-02T08:00:00.000Z', '2026-05-02T07:55:00.000Z')).toBe(-5);
  });
});
