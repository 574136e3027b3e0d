/**
 * Rotations (Durchgänge) of a competition day: each rotation puts squads on apparatus
 * (disciplines) from a planned start time. Pure rules: what makes a plan invalid, and the
 * generator's proposal (squad i starts on apparatus i and moves on by the apparatus order).
 */
import { splitIntoEvenBlocks } from './squad-planner.js';

export interface RotationSlot {
  disciplineId: number;
  squadName: string;
  /** Judge names shown on the timetable; may be empty. */
  judges: string[];
}

export interface Rotation {
  rotation: number;
  /** ISO 8601. */
  plannedStart: string;
  slots: RotationSlot[];
}

/** What the event offers: the apparatus and squads a plan may name. */
export interface RotationPlanScope {
  disciplineIds: readonly number[];
  squadNames: readonly string[];
}

/** Every reason `rotations` cannot be stored, each naming where; empty when it can. */
export function rotationPlanProblems(rotations: readonly Rotation[], scope: RotationPlanScope): string[] {
  const problems: string[] = [];
  const apparatus = new Set(scope.disciplineIds);
  const squads = new Set(scope.squadNames);
  const numbers = new Set<number>();
  rotations.forEach((rotation, index) => {
    const where = `body.rotations[${index}]`;
    if (numbers.has(rotation.rotation)) problems.push(`${where}.rotation: rotation ${rotation.rotation} is planned twice`);
    numbers.add(rotation.rotation);
    const usedApparatus = new Set<number>();
    const usedSquads = new Set<string>();
    rotation.slots.forEach((slot, slotIndex) => {
      const at = `${where}.slots[${slotIndex}]`;
      if (!apparatus.has(slot.disciplineId)) problems.push(`${at}.disciplineId: apparatus ${slot.disciplineId} is not one of the event`);
      if (!squads.has(slot.squadName)) problems.push(`${at}.squadName: squad "${slot.squadName}" is not one of the event`);
      if (usedApparatus.has(slot.disciplineId))
        problems.push(`${at}.disciplineId: apparatus ${slot.disciplineId} has two squads in rotation ${rotation.rotation}`);
      if (usedSquads.has(slot.squadName))
        problems.push(`${at}.squadName: squad "${slot.squadName}" is on two apparatus in rotation ${rotation.rotation}`);
      usedApparatus.add(slot.disciplineId);
      usedSquads.add(slot.squadName);
    });
  });
  return problems;
}

export interface RotationBreak {
  /** The break follows this rotation (1-based). */
  afterRotation: number;
  minutes: number;
}

export interface GenerateRotationsInput {
  /** Apparatus in the order squads move on. */
  disciplineIds: readonly number[];
  /** Squads in start order: squad i of a group starts on apparatus i. */
  squadNames: readonly string[];
  start: Date;
  /** Minutes a squad spends on an apparatus (warm-up and change included). */
  minutesPerApparatus: number;
  /** Per apparatus overrides of `minutesPerApparatus`; a rotation lasts as long as its longest occupied apparatus. */
  apparatusMinutes?: ReadonlyMap<number, number>;
  breaks?: readonly RotationBreak[];
}

/**
 * The proposal: with no more squads than apparatus, one group of as many rotations as apparatus;
 * with more, the squads form groups of at most one squad per apparatus that go through the
 * apparatus one group after another (each squad still starting on apparatus i of its group).
 * An apparatus takes one squad at a time, so this is the only way every squad gets every apparatus.
 */
export function generateRotations(input: GenerateRotationsInput): Rotation[] {
  const apparatus = input.disciplineIds;
  if (apparatus.length === 0 || input.squadNames.length === 0) return [];
  const breaks = new Map<number, number>();
  for (const pause of input.breaks ?? []) breaks.set(pause.afterRotation, (breaks.get(pause.afterRotation) ?? 0) + pause.minutes);
  const minutesOf = (disciplineId: number) => input.apparatusMinutes?.get(disciplineId) ?? input.minutesPerApparatus;
  const rotations: Rotation[] = [];
  let startMs = input.start.getTime();
  for (const group of splitIntoEvenBlocks(input.squadNames, apparatus.length)) {
    for (let step = 0; step < apparatus.length; step++) {
      const slots = group.map((squadName, index) => ({
        disciplineId: apparatus[(index + step) % apparatus.length]!,
        squadName,
        judges: [],
      }));
      const number = rotations.length + 1;
      rotations.push({ rotation: number, plannedStart: new Date(startMs).toISOString(), slots });
      const longest = Math.max(...slots.map((slot) => minutesOf(slot.disciplineId)));
      startMs += (longest + (breaks.get(number) ?? 0)) * 60_000;
    }
  }
  return rotations;
}

/** Squad names in the order people read them: "2" before "10", then alphabetically. */
export function compareSquadNames(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'variant' });
}

/** Whole minutes the start is behind the plan (negative: ahead). */
export function delayMinutes(plannedStart: string, startedAt: string): number {
  return Math.round((Date.parse(startedAt) - Date.parse(plannedStart)) / 60_000);
}
