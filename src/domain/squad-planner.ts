/**
 * Squad planner for the auto-assign dialog (service spec "Squad auto-assign", generate steps 2-9).
 * Pure: no database, no clock, no I/O. Randomness comes only from the injected `random` source,
 * so a seeded source (`mulberry32`) makes proposals reproducible in tests.
 *
 * Decisions the spec leaves open:
 *
 * - Missing or unparseable birth date: `age` and `birthYear` are 0 (the spec types both as
 *   integer, so null is not possible); with age grouping the participant lands in `unknown`.
 *   Age follows the `ageRule` option (`./age.ts`: age reached in the event's year, or completed
 *   years on the reference day).
 * - Age categories: the range format and rules of `./age.ts`. The label is the normalised text
 *   (" 6 - 8" -> "6-8"). Without age grouping `ageCategory` is null.
 * - Order of squads: pools male, female, mixed; inside a pool the categories in range order, then
 *   `other`, then `unknown`; break squads last.
 * - Clubs are identified by `clubId`. Clubs of equal size keep their shuffled order, so proposals
 *   differ there too. A club, or a block of a split club, goes into the first squad of its set
 *   that has room for all of it (first fit), else into a new squad.
 * - Colors run over the whole proposal, not per gender pool, so squads carry distinct colors
 *   until the 21st squad. Squad i (0-based) gets color i mod 20 and round r = floor(i / 20) + 1.
 * - Names, schemes `gender` and `none`: prefix (m/w/g, or nothing) + color body + round suffix
 *   (nothing in round 1, then "2", "3", ...). The body is the color short name cut to the room
 *   left of 5 characters: its first N letters when N >= 3, its first and last letter when N = 2
 *   (the first two letters would make Rot/Rosa and Grn/Grau equal). Examples: mRot, mWeis,
 *   wTuer, mRot2, Tue12, mRt13. Unique because (prefix, color, round) is unique per squad and, for
 *   every room size, the 20 bodies are distinct.
 * - Names, scheme `number`: "R" + running number padded to two digits (R01..R99, R100..R9999).
 * - Capacity of 5 characters: 1980 squads for `gender` (99 rounds), 19980 for `none`, 9999 for
 *   `number`; more squads throw a RangeError instead of breaking the name guarantees.
 * - Break squads: empty, `isBreak` true, colorName "Pause", genderGroup mixed, ageCategory null.
 *   Color schemes: a single break is "Pause", several are Paus1..Paus9, Pau10. Scheme number:
 *   P01..P10. They cannot collide with squad names: those start with m/w/g, with the first letter
 *   of a color short name (never P), or with R.
 * - Stats: `totalSquads`, average, minimum and maximum cover squads with participants only;
 *   breaks are counted in `breakSquads`, so squads.length = totalSquads + breakSquads. With no
 *   participant squad, average/minimum/maximum are 0. The average is not rounded.
 * - `genderDistribution` counts male and female participants; gender `other` is in neither (but
 *   in totalParticipants), since the spec's object has only those two keys.
 * - Participant ids must be unique (the loader counts each participant once); a duplicate or a
 *   criterion outside the spec's limits throws a RangeError.
 * - `separateCompetitions` (not in the spec; default false, so the spec's behaviour stays): the
 *   participants of different competitions never share a squad. A participant's competitions
 *   (`competitionIds`, sorted) form the key, so one starting in two competitions plans with the
 *   others starting in the same two. Sets are competition first (in key order), then pool, then
 *   age category; such squads carry `competitionIds`.
 */

import {
  AGE_CLASS_OTHER,
  AGE_CLASS_UNKNOWN,
  ageByRule,
  ageCategoryOf,
  parseAgeCategoryRanges,
  parseIsoDate,
  referenceDay,
  type AgeRule,
} from './age.js';

export { ageCategoryOf, ageOn, parseAgeCategoryRanges, type AgeRange } from './age.js';

export type Gender = 'male' | 'female' | 'other';
export type GenderGroup = 'male' | 'female' | 'mixed';
export type NamingPrefix = 'gender' | 'number' | 'none';

/** Returns a number in [0, 1). */
export type RandomSource = () => number;

export interface PlannerParticipant {
  id: number;
  firstname: string;
  lastname: string;
  club: string;
  clubId: number;
  gender: Gender;
  /** `YYYY-MM-DD` */
  birthDate: string | null;
  /** The competitions of the event the participant starts in (for `separateCompetitions`). */
  competitionIds?: readonly number[];
}

export interface SquadCriteria {
  maxParticipantsPerSquad: number;
  separateGenders: boolean;
  keepClubsTogether: boolean;
  groupByAgeCategory: boolean;
  ageCategoryRanges: string;
  numberOfProposals: number;
  namingPrefix: NamingPrefix;
  breakCount: number;
  separateCompetitions: boolean;
}

/** A participant as placed in a squad: the age reached in the reference year instead of the birth date. */
export interface SquadMember extends Omit<PlannerParticipant, 'birthDate'> {
  age: number;
  birthYear: number;
}

export interface Squad {
  name: string;
  colorName: string;
  genderGroup: GenderGroup;
  ageCategory: string | null;
  participants: SquadMember[];
  isBreak: boolean;
  /** With `separateCompetitions`: the competitions all its participants start in. */
  competitionIds?: number[];
}

export interface SquadStats {
  totalSquads: number;
  totalParticipants: number;
  avgParticipantsPerSquad: number;
  minParticipantsPerSquad: number;
  maxParticipantsPerSquad: number;
  breakSquads: number;
  genderDistribution: { male: number; female: number };
}

export interface SquadProposal {
  id: number;
  squads: Squad[];
  stats: SquadStats;
}

export interface GenerateOptions {
  referenceDate: string | Date;
  /** How ages are counted (the `ageRule` app setting, shared with the result lists). */
  ageRule: AgeRule;
  random?: RandomSource;
}

export const NAMING_PREFIXES: readonly NamingPrefix[] = ['gender', 'number', 'none'];

export const SQUAD_CRITERIA_DEFAULTS: Readonly<SquadCriteria> = Object.freeze({
  maxParticipantsPerSquad: 12,
  separateGenders: true,
  keepClubsTogether: true,
  groupByAgeCategory: false,
  ageCategoryRanges: '6-8,9-10,11-12,13-14,15-18',
  numberOfProposals: 3,
  namingPrefix: 'gender',
  breakCount: 0,
  separateCompetitions: false,
});

export const SQUAD_CRITERIA_LIMITS = Object.freeze({
  maxParticipantsPerSquad: { min: 2, max: 50 },
  numberOfProposals: { min: 1, max: 10 },
  breakCount: { min: 0, max: 10 },
});

export const SQUAD_NAME_MAX_LENGTH = 5;

export const SQUAD_COLORS: readonly { name: string; shortName: string }[] = [
  { name: 'Rot', shortName: 'Rot' },
  { name: 'Blau', shortName: 'Blau' },
  { name: 'Grün', shortName: 'Grn' },
  { name: 'Gelb', shortName: 'Glb' },
  { name: 'Schwarz', shortName: 'Schw' },
  { name: 'Weiß', shortName: 'Weiss' },
  { name: 'Lila', shortName: 'Lila' },
  { name: 'Orange', shortName: 'Oran' },
  { name: 'Gold', shortName: 'Gold' },
  { name: 'Kupfer', shortName: 'Kpfr' },
  { name: 'Rosa', shortName: 'Rosa' },
  { name: 'Grau', shortName: 'Grau' },
  { name: 'Türkis', shortName: 'Tuerk' },
  { name: 'Braun', shortName: 'Brn' },
  { name: 'Mint', shortName: 'Mint' },
  { name: 'Sand', shortName: 'Sand' },
  { name: 'Navy', shortName: 'Navy' },
  { name: 'Rubin', shortName: 'Rbn' },
  { name: 'Silber', shortName: 'Slbr' },
  { name: 'Jade', shortName: 'Jade' },
];

export const BREAK_COLOR_NAME = 'Pause';

const GENDER_PREFIX: Record<GenderGroup, string> = { male: 'm', female: 'w', mixed: 'g' };
const POOL_ORDER: readonly GenderGroup[] = ['male', 'female', 'mixed'];

export const defaultRandom: RandomSource = () => Math.random();

/** Small seeded PRNG (mulberry32): same seed, same sequence. */
export function mulberry32(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates on a copy. */
export function shuffle<T>(items: readonly T[], random: RandomSource): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    // Clamped so a source that returns 1 cannot index past the end.
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const picked = out[j] as T;
    out[j] = out[i] as T;
    out[i] = picked;
  }
  return out;
}

/** Merges defaults and enforces the spec's limits. */
export function resolveSquadCriteria(criteria: Partial<SquadCriteria> = {}): SquadCriteria {
  const resolved: SquadCriteria = { ...SQUAD_CRITERIA_DEFAULTS };
  // Only the known keys, so a whole request body (with eventId) can be passed and echoed back.
  for (const key of Object.keys(SQUAD_CRITERIA_DEFAULTS) as (keyof SquadCriteria)[]) {
    const value = criteria[key];
    // An explicit undefined (an omitted optional request field) means "use the default".
    if (value !== undefined) (resolved as Record<keyof SquadCriteria, unknown>)[key] = value;
  }
  for (const [field, { min, max }] of Object.entries(SQUAD_CRITERIA_LIMITS)) {
    const value = resolved[field as keyof typeof SQUAD_CRITERIA_LIMITS];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new RangeError(`${field} must be an integer from ${min} to ${max}`);
    }
  }
  if (!NAMING_PREFIXES.includes(resolved.namingPrefix)) {
    throw new RangeError(`namingPrefix must be one of ${NAMING_PREFIXES.join(', ')}`);
  }
  return resolved;
}

/** Splits into ceil(n / max) blocks whose sizes differ by at most one (25, max 12 -> 9, 8, 8). */
export function splitIntoEvenBlocks<T>(items: readonly T[], max: number): T[][] {
  const blockCount = Math.ceil(items.length / max);
  const base = Math.floor(items.length / blockCount);
  const larger = items.length % blockCount;
  const blocks: T[][] = [];
  let start = 0;
  for (let b = 0; b < blockCount; b++) {
    const size = base + (b < larger ? 1 : 0);
    blocks.push(items.slice(start, start + size));
    start += size;
  }
  return blocks;
}

/** Step 5 for one set (one pool, or one age category of a pool). */
export function distributeIntoSquads<T extends { clubId: number }>(set: readonly T[], max: number, keepClubsTogether: boolean): T[][] {
  const squads: T[][] = [];
  if (!keepClubsTogether) {
    for (let start = 0; start < set.length; start += max) squads.push(set.slice(start, start + max));
    return squads;
  }
  const clubs = new Map<number, T[]>();
  for (const item of set) {
    const members = clubs.get(item.clubId);
    if (members) members.push(item);
    else clubs.set(item.clubId, [item]);
  }
  // Array.prototype.sort is stable, so equal-sized clubs keep their shuffled order.
  const bySize = [...clubs.values()].sort((a, b) => b.length - a.length);
  for (const club of bySize) {
    for (const block of splitIntoEvenBlocks(club, max)) {
      const target = squads.find((squad) => squad.length + block.length <= max);
      if (target) target.push(...block);
      else squads.push([...block]);
    }
  }
  return squads;
}

/** The color short name cut to `room` characters; see the module comment for why 2 is special. */
export function colorBody(shortName: string, room: number): string {
  if (room < 2) throw new RangeError(`no room for a color in a ${SQUAD_NAME_MAX_LENGTH}-character name`);
  if (shortName.length <= room) return shortName;
  if (room === 2) return `${shortName.charAt(0)}${shortName.charAt(shortName.length - 1)}`;
  return shortName.slice(0, room);
}

function colorOf(index: number): { name: string; shortName: string } {
  return SQUAD_COLORS[index % SQUAD_COLORS.length] as { name: string; shortName: string };
}

/** Name of the `index`-th (0-based) participant squad of a proposal. */
export function squadName(scheme: NamingPrefix, genderGroup: GenderGroup, index: number): string {
  if (scheme === 'number') {
    const name = `R${String(index + 1).padStart(2, '0')}`;
    if (name.length > SQUAD_NAME_MAX_LENGTH) throw new RangeError('too many squads to number within 5 characters');
    return name;
  }
  const prefix = scheme === 'gender' ? GENDER_PREFIX[genderGroup] : '';
  const round = Math.floor(index / SQUAD_COLORS.length) + 1;
  const suffix = round === 1 ? '' : String(round);
  const room = SQUAD_NAME_MAX_LENGTH - prefix.length - suffix.length;
  return `${prefix}${colorBody(colorOf(index).shortName, room)}${suffix}`;
}

/** Name of the `index`-th (0-based) of `count` break squads. */
export function breakName(scheme: NamingPrefix, index: number, count: number): string {
  const number = String(index + 1);
  if (scheme === 'number') return `P${number.padStart(2, '0')}`;
  if (count === 1) return BREAK_COLOR_NAME;
  return `${BREAK_COLOR_NAME.slice(0, SQUAD_NAME_MAX_LENGTH - number.length)}${number}`;
}

export function computeStats(squads: readonly Squad[]): SquadStats {
  const sizes = squads.filter((squad) => !squad.isBreak).map((squad) => squad.participants.length);
  const totalParticipants = sizes.reduce((sum, size) => sum + size, 0);
  const genderDistribution = { male: 0, female: 0 };
  for (const squad of squads) {
    for (const member of squad.participants) {
      if (member.gender === 'male') genderDistribution.male++;
      else if (member.gender === 'female') genderDistribution.female++;
    }
  }
  return {
    totalSquads: sizes.length,
    totalParticipants,
    avgParticipantsPerSquad: sizes.length === 0 ? 0 : totalParticipants / sizes.length,
    minParticipantsPerSquad: sizes.reduce((min, size) => Math.min(min, size), sizes[0] ?? 0),
    maxParticipantsPerSquad: sizes.reduce((max, size) => Math.max(max, size), 0),
    breakSquads: squads.length - sizes.length,
    genderDistribution,
  };
}

interface Entry {
  member: SquadMember;
  clubId: number;
  pool: GenderGroup;
  category: string | null;
  /** The participant's sorted competition ids joined; '' without `separateCompetitions`. */
  competitions: string;
}

/** Competition keys in order of their first competition id (a participant without any last). */
function byCompetitionKey(a: string, b: string): number {
  const first = (key: string) => (key === '' ? Number.POSITIVE_INFINITY : Number(key.split(',')[0]));
  return first(a) - first(b) || (a < b ? -1 : a > b ? 1 : 0);
}

export function generateSquadProposals(
  participants: readonly PlannerParticipant[],
  criteria: Partial<SquadCriteria>,
  options: GenerateOptions,
): SquadProposal[] {
  const resolved = resolveSquadCriteria(criteria);
  const random = options.random ?? defaultRandom;
  const today = referenceDay(options.referenceDate);
  const ranges = parseAgeCategoryRanges(resolved.ageCategoryRanges);
  const categoryOrder = resolved.groupByAgeCategory
    ? [...new Set(ranges.map((range) => range.label)), AGE_CLASS_OTHER, AGE_CLASS_UNKNOWN]
    : [null];

  const seen = new Set<number>();
  const entries = participants.map((participant): Entry => {
    if (seen.has(participant.id)) throw new RangeError(`participant ${participant.id} is listed twice`);
    seen.add(participant.id);
    const birth = participant.birthDate === null ? null : parseIsoDate(participant.birthDate);
    const age = birth ? ageByRule(birth, today, options.ageRule) : null;
    const pool: GenderGroup = resolved.separateGenders && participant.gender !== 'other' ? participant.gender : 'mixed';
    return {
      member: {
        id: participant.id,
        firstname: participant.firstname,
        lastname: participant.lastname,
        club: participant.club,
        clubId: participant.clubId,
        gender: participant.gender,
        age: age ?? 0,
        birthYear: birth?.year ?? 0,
      },
      clubId: participant.clubId,
      pool,
      category: resolved.groupByAgeCategory ? ageCategoryOf(age, ranges) : null,
      competitions: resolved.separateCompetitions ? [...(participant.competitionIds ?? [])].sort((a, b) => a - b).join(',') : '',
    };
  });
  const competitionOrder = [...new Set(entries.map((entry) => entry.competitions))].sort(byCompetitionKey);

  const proposals: SquadProposal[] = [];
  for (let id = 1; id <= resolved.numberOfProposals; id++) {
    const squads: Squad[] = [];
    for (const competitions of competitionOrder) {
      for (const pool of POOL_ORDER) {
        const shuffled = shuffle(
          entries.filter((entry) => entry.pool === pool && entry.competitions === competitions),
          random,
        );
        for (const category of categoryOrder) {
          const set = shuffled.filter((entry) => entry.category === category);
          for (const group of distributeIntoSquads(set, resolved.maxParticipantsPerSquad, resolved.keepClubsTogether)) {
            const index = squads.length;
            squads.push({
              name: squadName(resolved.namingPrefix, pool, index),
              colorName: colorOf(index).name,
              genderGroup: pool,
              ageCategory: category,
              participants: group.map((entry) => entry.member),
              isBreak: false,
              ...(resolved.separateCompetitions ? { competitionIds: competitions === '' ? [] : competitions.split(',').map(Number) } : {}),
            });
          }
        }
      }
    }
    for (let b = 0; b < resolved.breakCount; b++) {
      squads.push({
        name: breakName(resolved.namingPrefix, b, resolved.breakCount),
        colorName: BREAK_COLOR_NAME,
        genderGroup: 'mixed',
        ageCategory: null,
        participants: [],
        isBreak: true,
      });
    }
    proposals.push({ id, squads, stats: computeStats(squads) });
  }
  return proposals;
}
