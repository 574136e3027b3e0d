/**
 * Demo data for `npm run seed:demo`: one realistic event on an empty database. Everything is
 * derived from a seeded PRNG, so names, values and (on a fresh database) ids are the same on every
 * run. The plan is built in memory first and then written set-wise: the number of statements does
 * not depend on how many participants, fields or scores the plan holds.
 */
import { bindLettersToResults, evaluate, parse, type Expr } from '../src/domain/formula.js';
import { roundToDecimals } from '../src/domain/input-mask.js';
import { aggregateValues, DEFAULT_PANEL_TOLERANCE } from '../src/domain/panel.js';
import { mulberry32, splitIntoEvenBlocks, SQUAD_COLORS, type RandomSource } from '../src/domain/squad-planner.js';
import type { TxClient } from '../src/db/pool.js';
import type { TableName } from '../src/db/tables.js';

const SEED = 20250517;
const STATUS_PENDING = 1;
const STATUS_CAPTURED = 9;
const GENDER = { male: 1, female: 2 } as const;
const INDIVIDUAL_TYPE = 'Einzel';
const GROUP_MEMBER_TYPE = 'Gruppe';
const SQUAD_SIZE = 8;

const EVENT = { name: 'Bezirksmeisterschaften Gerätturnen 2025', from: '2025-05-17', to: '2025-05-18' };
const REGION = 'Turngau Nord';
const CLUBS = ['TV Lindenau 1848', 'TSV Bergheim', 'SC Rheinau', 'Turnerschaft Waldkirchen', 'MTV Holzhausen'] as const;
// Relative club sizes, so squads and candidate lists are not uniform.
const CLUB_WEIGHTS = [5, 4, 3, 3, 2];

export const FEMALE_NAMES = [
  'Anna',
  'Lena',
  'Marie',
  'Sophie',
  'Emma',
  'Mia',
  'Hannah',
  'Lea',
  'Laura',
  'Julia',
  'Clara',
  'Lina',
  'Emilia',
  'Johanna',
  'Leonie',
  'Paula',
  'Frieda',
  'Greta',
  'Ida',
  'Luisa',
  'Charlotte',
  'Amelie',
  'Nele',
  'Pia',
  'Jana',
  'Katharina',
  'Selin',
  'Zoe',
  'Mila',
  'Ella',
];
const MALE_NAMES = [
  'Lukas',
  'Jonas',
  'Leon',
  'Finn',
  'Paul',
  'Felix',
  'Noah',
  'Elias',
  'Ben',
  'Luca',
  'Maximilian',
  'Moritz',
  'Jakob',
  'Tim',
  'Niklas',
  'Julian',
  'David',
  'Emil',
  'Henry',
  'Theo',
  'Anton',
  'Ole',
  'Till',
  'Mats',
  'Levin',
  'Jannik',
  'Simon',
  'Tom',
  'Erik',
  'Malte',
];
export const LAST_NAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Braun',
  'Zimmermann',
  'Krüger',
  'Hartmann',
  'Lange',
  'Werner',
  'Krause',
  'Lehmann',
  'Köhler',
  'Maier',
  'Herrmann',
  'König',
  'Walter',
  'Kaiser',
  'Fuchs',
  'Peters',
  'Möller',
  'Vogel',
  'Friedrich',
  'Keller',
  'Günther',
  'Frank',
  'Berger',
];

const SPORTS = ['Gerätturnen', 'Gymnastik & Tanz', 'TeamGym', 'Turnerjugend-Mehrkampf'] as const;
type Sport = (typeof SPORTS)[number];

// Letters appear in the formulas in the order of the fields (A = first non-final field), so the
// server's binding (distinct letters by first appearance) and the portal's labels agree.
const FORMULAS = {
  kuer3: { name: 'Kür, 3 Kampfrichter', formula: '10 + A - (B + C + D) / 3 - E' },
  pStage: { name: 'P-Stufe', formula: '10 + (A - 1) * 0.5 - B' },
  groupDance: { name: 'Gruppe Gymnastik & Tanz', formula: 'Schw + Ausf + Choreo + Ausdr - Abzug' },
} as const;
type FormulaKey = keyof typeof FORMULAS;
const FORMULA_TYPE = 'Endwert';

interface FieldSpec {
  name: string;
  shortName: string;
  layoutGroup: number;
  startingValue?: boolean;
}

type ValueModel = (random: RandomSource, age: number) => number[];

type DisciplineKind = 'apparatus' | 'p-device' | 'neutral' | 'group' | 'team';

interface DisciplineSpec {
  name: string;
  /** Group and team formulas name the fields' short names; the others use letters A-Z. */
  kind: DisciplineKind;
  displayName: string;
  shortName: string;
  sport: Sport;
  male: boolean;
  female: boolean;
  extSystemId: number | null;
  formulaRecord: FormulaKey | null;
  /** var_formel on the discipline; with a formula record as well, the record wins (Calculation rule 1). */
  ownFormula: string | null;
  inputMask: string;
  decimals: number;
  /** Non-final fields in sort order; the final field `Endwert` follows them. */
  fields: FieldSpec[];
  values: ValueModel;
  /**
   * An E-panel set up in `svc_panel_settings` (indexes into `fields`): the formula's letters skip
   * the judges' fields, so it names the aggregate field like any other.
   */
  panel?: { judges: number[]; aggregate: number };
}

const FINAL_FIELD: FieldSpec = { name: 'Endwert', shortName: 'Endwert', layoutGroup: 9 };

/** A multiple of `step` in [min, max]; demo values are typed by judges, not measured. */
function stepped(random: RandomSource, min: number, max: number, step = 0.1): number {
  const steps = Math.round((max - min) / step);
  return round(min + Math.floor(random() * (steps + 1)) * step, 2);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))] as T;
}

/** Deductions of `count` execution judges spread around one mean, so their average is a round number. */
function judgeDeductions(random: RandomSource, count: number, min: number, max: number): number[] {
  const mean = stepped(random, min, max);
  const offsets = Array.from({ length: count - 1 }, () => stepped(random, -0.2, 0.2));
  offsets.push(-offsets.reduce((sum, offset) => sum + offset, 0));
  return offsets.map((offset) => round(mean + offset, 2));
}

const neutralDeduction = (random: RandomSource) => pick(random, [0, 0, 0, 0, 0.1, 0.3]);
const difficulty = (random: RandomSource, age: number) => stepped(random, 1.6 + (age - 13) * 0.4, 2.8 + (age - 13) * 0.4);

const KUER3_FIELDS: FieldSpec[] = [
  { name: 'D-Note', shortName: 'D', layoutGroup: 1, startingValue: true },
  { name: 'E1 Abzug', shortName: 'E1', layoutGroup: 2 },
  { name: 'E2 Abzug', shortName: 'E2', layoutGroup: 2 },
  { name: 'E3 Abzug', shortName: 'E3', layoutGroup: 2 },
  { name: 'Neutraler Abzug', shortName: 'ND', layoutGroup: 3 },
];
const kuer3Values: ValueModel = (random, age) => [
  difficulty(random, age),
  ...judgeDeductions(random, 3, 0.9, 2.6),
  neutralDeduction(random),
];

/** Five E-judges' deductions, the panel's trimmed mean in its own field (the formula reads that one), then the neutral deduction. */
const PANEL5_FIELDS: FieldSpec[] = [
  KUER3_FIELDS[0]!,
  ...[1, 2, 3, 4, 5].map((n) => ({ name: `E${n} Abzug`, shortName: `E${n}`, layoutGroup: 2 })),
  { name: 'E-Abzug (Kampfgericht)', shortName: 'E', layoutGroup: 2 },
  KUER3_FIELDS[4]!,
];
const panel5Values: ValueModel = (random, age) => {
  // Within ±0.2 of one mean: a spread of at most 0.4, inside the default tolerance, so the demo opens no deviation.
  const mean = stepped(random, 0.9, 2.6);
  const judges = Array.from({ length: 5 }, () => round(mean + stepped(random, -0.2, 0.2), 2));
  return [difficulty(random, age), ...judges, roundToDecimals(aggregateValues(judges, 'trimmed-mean')!, 3), neutralDeduction(random)];
};

const P_FIELDS: FieldSpec[] = [
  { name: 'Stufe', shortName: 'Stufe', layoutGroup: 1, startingValue: true },
  { name: 'AbzugAusf.', shortName: 'AbzugAusf.', layoutGroup: 2 },
];
const pValues: ValueModel = (random, age) => [Math.max(1, Math.min(9, age - 5 + pick(random, [-1, 0, 0, 1]))), stepped(random, 0.4, 2.6)];

const COLLECTIVE_FIELDS = {
  groupDance: [
    { name: 'Schwierigkeit', shortName: 'Schw', layoutGroup: 1 },
    { name: 'Ausführung', shortName: 'Ausf', layoutGroup: 2 },
    { name: 'Choreografie', shortName: 'Choreo', layoutGroup: 2 },
    { name: 'Ausdruck', shortName: 'Ausdr', layoutGroup: 2 },
    { name: 'Abzug', shortName: 'Abzug', layoutGroup: 3 },
  ],
  teamGym: [
    { name: 'Schwierigkeit', shortName: 'D', layoutGroup: 1 },
    { name: 'Ausführung', shortName: 'E', layoutGroup: 2 },
    { name: 'Komposition', shortName: 'C', layoutGroup: 2 },
    { name: 'Bonus', shortName: 'Bonus', layoutGroup: 3 },
    { name: 'Abzug', shortName: 'Abzug', layoutGroup: 3 },
  ],
} satisfies Record<string, FieldSpec[]>;

const apparatus = (spec: Omit<DisciplineSpec, 'kind' | 'sport' | 'inputMask' | 'decimals'>): DisciplineSpec => ({
  kind: 'apparatus',
  sport: 'Gerätturnen',
  inputMask: '00.000',
  decimals: 3,
  ...spec,
});
const pDevice = (name: string, shortName: string, male: boolean, female: boolean): DisciplineSpec => ({
  name: `P-${name}`,
  kind: 'p-device',
  displayName: `${name} (P-Stufe)`,
  shortName: `P-${shortName}`,
  sport: 'Gerätturnen',
  male,
  female,
  extSystemId: null,
  formulaRecord: 'pStage',
  ownFormula: null,
  inputMask: '00,00',
  decimals: 2,
  fields: P_FIELDS,
  values: pValues,
});

const DISCIPLINES: DisciplineSpec[] = [
  apparatus({
    name: 'Sprung',
    displayName: 'Sprung',
    shortName: 'SP',
    male: true,
    female: true,
    extSystemId: 1101,
    formulaRecord: null,
    ownFormula: '10 + A - (B + C + D + E) / 4 - F',
    fields: [KUER3_FIELDS[0]!, ...[1, 2, 3, 4].map((n) => ({ name: `E${n} Abzug`, shortName: `E${n}`, layoutGroup: 2 })), KUER3_FIELDS[4]!],
    values: (random, age) => [
      stepped(random, 2.0 + (age - 13) * 0.5, 3.2 + (age - 13) * 0.5),
      ...judgeDeductions(random, 4, 0.6, 1.8),
      neutralDeduction(random),
    ],
  }),
  apparatus({
    name: 'Stufenbarren',
    displayName: 'Stufenbarren',
    shortName: 'SB',
    male: false,
    female: true,
    extSystemId: 1102,
    formulaRecord: 'kuer3',
    ownFormula: null,
    fields: KUER3_FIELDS,
    values: kuer3Values,
  }),
  // The device with a five-judge E-panel: judges on their own portals, the aggregate in E.
  apparatus({
    name: 'Balken',
    displayName: 'Schwebebalken',
    shortName: 'BA',
    male: false,
    female: true,
    extSystemId: 1103,
    formulaRecord: null,
    ownFormula: '10 + A - B - C',
    fields: PANEL5_FIELDS,
    values: panel5Values,
    panel: { judges: [1, 2, 3, 4, 5], aggregate: 6 },
  }),
  apparatus({
    name: 'Boden',
    displayName: 'Boden',
    shortName: 'BO',
    male: true,
    female: true,
    extSystemId: 1104,
    formulaRecord: 'kuer3',
    ownFormula: null,
    fields: KUER3_FIELDS,
    values: kuer3Values,
  }),
  apparatus({
    name: 'Barren',
    displayName: 'Barren',
    shortName: 'BR',
    male: true,
    female: false,
    extSystemId: 1105,
    formulaRecord: null,
    ownFormula: '10 + A - (B + C) / 2 - D - E',
    fields: [
      KUER3_FIELDS[0]!,
      KUER3_FIELDS[1]!,
      KUER3_FIELDS[2]!,
      { name: 'Sturzabzug', shortName: 'Sturz', layoutGroup: 3 },
      KUER3_FIELDS[4]!,
    ],
    values: (random, age) => [
      difficulty(random, age),
      ...judgeDeductions(random, 2, 0.9, 2.4),
      pick(random, [0, 0, 0, 0, 1]),
      neutralDeduction(random),
    ],
  }),
  // The legacy program left an older formula on the discipline; the formula record overrides it.
  apparatus({
    name: 'Reck',
    displayName: 'Reck',
    shortName: 'RE',
    male: true,
    female: false,
    extSystemId: 1106,
    formulaRecord: 'kuer3',
    ownFormula: '10 + A - B - C - D - E',
    fields: KUER3_FIELDS,
    values: kuer3Values,
  }),
  pDevice('Sprung', 'SP', true, true),
  pDevice('Balken', 'BA', false, true),
  pDevice('Boden', 'BO', true, true),
  pDevice('Reck', 'RE', true, false),
  {
    name: 'Tauklettern',
    kind: 'neutral',
    displayName: 'Tauklettern (Zeit)',
    shortName: 'TAU',
    sport: 'Turnerjugend-Mehrkampf',
    male: true,
    female: true,
    extSystemId: null,
    // A neutral discipline: the measured time is the result.
    formulaRecord: null,
    ownFormula: 'A',
    inputMask: '0:00.00',
    decimals: 2,
    fields: [{ name: 'Zeit', shortName: 'Zeit', layoutGroup: 1 }],
    values: (random, age) => [round(24 - age + random() * 8, 2)],
  },
  {
    name: 'Gymnastik & Tanz',
    kind: 'group',
    displayName: 'Gymnastik & Tanz (Gruppe)',
    shortName: 'GT',
    sport: 'Gymnastik & Tanz',
    male: true,
    female: true,
    extSystemId: null,
    formulaRecord: 'groupDance',
    ownFormula: null,
    inputMask: '0,00',
    decimals: 2,
    fields: COLLECTIVE_FIELDS.groupDance,
    values: (random) => [
      stepped(random, 1.8, 3.0),
      stepped(random, 2.8, 4.0),
      stepped(random, 1.2, 2.0),
      stepped(random, 0.5, 1.0),
      pick(random, [0, 0, 0.1, 0.3]),
    ],
  },
  ...['Boden', 'Trampolin'].map((apparatusName): DisciplineSpec => ({
    name: `TeamGym ${apparatusName}`,
    kind: 'team',
    displayName: `TeamGym ${apparatusName}`,
    shortName: `TG-${apparatusName.slice(0, 2).toUpperCase()}`,
    sport: 'TeamGym',
    male: true,
    female: true,
    extSystemId: null,
    formulaRecord: null,
    ownFormula: 'D + E + C + Bonus - Abzug',
    inputMask: '00.000',
    decimals: 3,
    fields: COLLECTIVE_FIELDS.teamGym,
    values: (random) => [
      stepped(random, 2.5, 4.5),
      stepped(random, 7.0, 9.0),
      stepped(random, 1.0, 2.0),
      pick(random, [0, 0.1, 0.2]),
      pick(random, [0, 0, 0.1, 0.3]),
    ],
  })),
];

type CompetitionKind = 'individual' | 'group' | 'team';

interface CompetitionSpec {
  name: string;
  kind: CompetitionKind;
  disciplines: string[];
  attempts: number;
  /** Individual competitions only. */
  entrants?: { gender: 1 | 2; count: number; minAge: number; maxAge: number };
}

const COMPETITIONS: CompetitionSpec[] = [
  {
    name: 'Kür weiblich AK 13-18',
    kind: 'individual',
    disciplines: ['Sprung', 'Stufenbarren', 'Balken', 'Boden'],
    attempts: 1,
    entrants: { gender: GENDER.female, count: 20, minAge: 13, maxAge: 18 },
  },
  {
    name: 'Kür männlich AK 13-18',
    kind: 'individual',
    disciplines: ['Boden', 'Sprung', 'Barren', 'Reck'],
    attempts: 1,
    entrants: { gender: GENDER.male, count: 16, minAge: 13, maxAge: 18 },
  },
  {
    name: 'P-Stufen weiblich AK 6-12',
    kind: 'individual',
    disciplines: ['P-Sprung', 'P-Balken', 'P-Boden'],
    attempts: 1,
    entrants: { gender: GENDER.female, count: 28, minAge: 6, maxAge: 12 },
  },
  {
    name: 'P-Stufen männlich AK 6-12',
    kind: 'individual',
    disciplines: ['P-Boden', 'P-Sprung', 'P-Reck', 'Tauklettern'],
    attempts: 1,
    entrants: { gender: GENDER.male, count: 20, minAge: 6, maxAge: 12 },
  },
  { name: 'Gruppenwettstreit Gymnastik & Tanz', kind: 'group', disciplines: ['Gymnastik & Tanz'], attempts: 1 },
  { name: 'TeamGym Mannschaft', kind: 'team', disciplines: ['TeamGym Boden', 'TeamGym Trampolin'], attempts: 2 },
];

const GROUPS = [
  { name: 'Lindenau Showgruppe', club: 0, startNumber: 201, squad: 'G1' },
  { name: 'Bergheim Dance Crew', club: 1, startNumber: 202, squad: 'G1' },
  { name: 'Rheinau Gymnastikgruppe', club: 2, startNumber: 203, squad: 'G2' },
  { name: 'Waldkirchen Tanzgruppe', club: 3, startNumber: 204, squad: 'G2' },
];
const TEAMS = [
  { name: 'TSV Bergheim I', club: 1, startNumber: 301, squad: 'T1' },
  { name: 'TSV Bergheim II', club: 1, startNumber: 302, squad: 'T1' },
  { name: 'SC Rheinau', club: 2, startNumber: 303, squad: 'T2' },
  { name: 'MTV Holzhausen', club: 4, startNumber: 304, squad: 'T2' },
];
const GROUP_MEMBERS = { female: 12, male: 4, minAge: 9, maxAge: 16, startNumberFrom: 401 };

// ---------------------------------------------------------------------------------------------
// The plan: everything the database will hold, keyed by natural keys instead of ids.

interface PlannedParticipant {
  startNumber: string;
  firstName: string;
  lastName: string;
  club: number;
  gender: 1 | 2;
  birthDate: string;
  age: number;
  type: string;
}

interface PlannedEntry {
  competition: number;
  participant: PlannedParticipant;
  squad: string;
  /** Non-final values per discipline name, for the disciplines already captured. */
  captured: Map<string, number[]>;
}

interface DemoPlan {
  participants: PlannedParticipant[];
  entries: PlannedEntry[];
  /** One captured collective score per collective competition: (competition, group/team index, discipline, values). */
  collectiveCaptures: Array<{ competition: number; unit: number; discipline: string; values: number[] }>;
}

function birthDateFor(random: RandomSource, age: number): { birthDate: string; age: number } {
  // At most 364 days before the age-th birthday on the first competition day: the age is exact.
  const [year, month, day] = EVENT.from.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year - age, month - 1, day) - Math.floor(random() * 365) * 86_400_000);
  return { birthDate: date.toISOString().slice(0, 10), age };
}

function weightedClub(random: RandomSource): number {
  const total = CLUB_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
  let ticket = random() * total;
  for (const [index, weight] of CLUB_WEIGHTS.entries()) {
    ticket -= weight;
    if (ticket < 0) return index;
  }
  return CLUB_WEIGHTS.length - 1;
}

function buildPlan(): DemoPlan {
  const random = mulberry32(SEED);
  const usedNames = new Set<string>();
  const person = (gender: 1 | 2, minAge: number, maxAge: number, type: string, club = weightedClub(random)) => {
    let firstName: string;
    let lastName: string;
    do {
      firstName = pick(random, gender === GENDER.female ? FEMALE_NAMES : MALE_NAMES);
      lastName = pick(random, LAST_NAMES);
    } while (usedNames.has(`${firstName} ${lastName}`));
    usedNames.add(`${firstName} ${lastName}`);
    const age = minAge + Math.floor(random() * (maxAge - minAge + 1));
    return { firstName, lastName, club, gender, type, ...birthDateFor(random, age) };
  };

  const participants: PlannedParticipant[] = [];
  const entries: PlannedEntry[] = [];
  let squadColor = 0;
  COMPETITIONS.forEach((competition, competitionIndex) => {
    if (!competition.entrants) return;
    const { gender, count, minAge, maxAge } = competition.entrants;
    const people = Array.from({ length: count }, () => person(gender, minAge, maxAge, INDIVIDUAL_TYPE));
    // Start lists and squads keep clubs together, as competition offices draw them. Plain code-point
    // order, not a locale's: the ids must not depend on the ICU data of the machine.
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    people.sort((a, b) => a.club - b.club || byName(a.lastName, b.lastName) || byName(a.firstName, b.firstName));
    splitIntoEvenBlocks(people, SQUAD_SIZE).forEach((block, squadIndex) => {
      const squad = SQUAD_COLORS[squadColor++ % SQUAD_COLORS.length]!.shortName;
      block.forEach((member, indexInSquad) => {
        const participant = { ...member, startNumber: String(participants.length + 1) };
        participants.push(participant);
        // Already captured: the first squad has finished its first device, its first two starters everything.
        const capturedDisciplines = squadIndex > 0 ? [] : competition.disciplines.slice(0, indexInSquad < 2 ? undefined : 1);
        const captured = new Map(capturedDisciplines.map((name) => [name, disciplineSpec(name).values(random, participant.age)]));
        entries.push({ competition: competitionIndex, participant, squad, captured });
      });
    });
  });

  let memberNumber = GROUP_MEMBERS.startNumberFrom;
  for (const gender of [GENDER.female, GENDER.male] as const) {
    const count = gender === GENDER.female ? GROUP_MEMBERS.female : GROUP_MEMBERS.male;
    for (let i = 0; i < count; i++) {
      const club = GROUPS[i % GROUPS.length]!.club;
      participants.push({
        ...person(gender, GROUP_MEMBERS.minAge, GROUP_MEMBERS.maxAge, GROUP_MEMBER_TYPE, club),
        startNumber: String(memberNumber++),
      });
    }
  }

  const collectiveCaptures = COMPETITIONS.flatMap((competition, competitionIndex) => {
    if (competition.kind === 'individual') return [];
    const discipline = competition.disciplines[0]!;
    return [{ competition: competitionIndex, unit: 0, discipline, values: disciplineSpec(discipline).values(random, 0) }];
  });
  return { participants, entries, collectiveCaptures };
}

function disciplineSpec(name: string): DisciplineSpec {
  const spec = DISCIPLINES.find((discipline) => discipline.name === name);
  if (!spec) throw new Error(`demo data names an unknown discipline ${name}`);
  return spec;
}

function resolvedFormula(spec: DisciplineSpec): string | null {
  return spec.formulaRecord ? FORMULAS[spec.formulaRecord].formula : spec.ownFormula;
}

const parsedFormulas = new Map<string, Expr>();
function parsedFormula(text: string): Expr {
  let expr = parsedFormulas.get(text);
  if (!expr) {
    const result = parse(text);
    if (!result.ok) throw new Error(`demo formula "${text}" does not parse: ${result.error}`);
    expr = result.expr;
    parsedFormulas.set(text, expr);
  }
  return expr;
}

/**
 * The final value exactly as the service computes it: individual formulas bind letters to the
 * non-final values in sort order, group and team formulas name the fields' short names.
 */
export function demoFinalScore(disciplineName: string, values: readonly number[]): number {
  const spec = disciplineSpec(disciplineName);
  const text = resolvedFormula(spec);
  if (text === null) throw new Error(`demo discipline ${disciplineName} has no formula`);
  const expr = parsedFormula(text);
  const judges = new Set(spec.panel?.judges);
  const bindings =
    spec.kind === 'group' || spec.kind === 'team'
      ? new Map(spec.fields.map((field, index) => [field.shortName, values[index] ?? Number.NaN]))
      : bindLettersToResults(
          expr,
          values.filter((_, index) => !judges.has(index)),
        );
  const value = evaluate(expr, bindings);
  if (value === null) throw new Error(`demo values for ${disciplineName} do not evaluate`);
  return round(value, spec.decimals);
}

// ---------------------------------------------------------------------------------------------
// Writing: one set-wise INSERT per table.

type SqlType = 'int' | 'text' | 'bool' | 'date' | 'real';

/**
 * `INSERT INTO <table> (<columns>) SELECT * FROM unnest(<one array per column>) RETURNING ...`.
 * Column names and types are constants of this module; every value travels as a parameter.
 */
async function insertRows<R extends object>(
  tx: TxClient,
  table: TableName,
  columns: Record<string, [SqlType, unknown[]]>,
  returning: string,
): Promise<R[]> {
  const names = Object.keys(columns);
  const arrays = Object.values(columns);
  const unnest = arrays.map(([type], index) => `$${index + 1}::${type}[]`).join(', ');
  const { rows } = await tx.query<R>(
    `INSERT INTO ${tx.tables[table]} (${names.join(', ')}) SELECT * FROM unnest(${unnest}) RETURNING ${returning}`,
    arrays.map(([, values]) => values),
  );
  return rows;
}

function idsBy<R extends { id: number }>(rows: readonly R[], key: (row: R) => string | number): Map<string, number> {
  return new Map(rows.map((row) => [String(key(row)), row.id]));
}

function idOf(ids: ReadonlyMap<string, number>, key: string | number): number {
  const id = ids.get(String(key));
  if (id === undefined) throw new Error(`demo seed: no id was returned for ${key}`);
  return id;
}

/** Thrown when the database already holds events and `force` was not given. */
export class DemoSeedRefused extends Error {
  constructor(readonly existingEvents: number) {
    super(`the database already holds ${existingEvents} event(s)`);
    this.name = 'DemoSeedRefused';
  }
}

export interface DemoField {
  id: number;
  name: string;
  shortName: string;
  isFinal: boolean;
}

export interface DemoSummary {
  event: { id: number; name: string; from: string; to: string };
  clubs: Array<{ id: number; name: string }>;
  formulas: Array<{ id: number; name: string; formula: string }>;
  disciplines: Array<{
    id: number;
    name: string;
    kind: DisciplineKind;
    formula: string | null;
    formulaId: number | null;
    /** var_formel; only effective when there is no formula record. */
    ownFormula: string | null;
    inputMask: string;
    decimals: number;
    fields: DemoField[];
    /** The E-panel the seed sets up; null for the other devices. */
    panel: { judgeFieldIds: number[]; aggregateFieldId: number } | null;
  }>;
  competitions: Array<{
    id: number;
    name: string;
    kind: CompetitionKind;
    attempts: number;
    disciplineIds: number[];
    scoreRows: number;
    squads: string[];
  }>;
  groups: Array<{ id: number; name: string; startNumber: number; clubId: number; squad: string }>;
  teams: Array<{ id: number; name: string; startNumber: number; clubId: number; squad: string }>;
  participants: { individual: number; female: number; male: number; groupMembers: number; minAge: number; maxAge: number };
  scores: {
    individualRows: number;
    groupRows: number;
    teamRows: number;
    capturedValues: number;
    completeRows: number;
    capturedExample: {
      scoreId: number;
      participant: string;
      competitionId: number;
      disciplineId: number;
      discipline: string;
      finalScore: number;
    };
    pendingExample: { scoreId: number; participant: string; competitionId: number; disciplineId: number; discipline: string };
    groupExample: { scoreId: number; groupId: number; disciplineId: number; finalScore: number };
    teamExample: { scoreId: number; teamId: number; disciplineId: number; attempt: number; finalScore: number };
  };
}

/**
 * Writes the demo event inside the caller's transaction. Refuses (DemoSeedRefused) when any event
 * exists unless `force`, which adds the demo event beside the existing data.
 */
export async function seedDemo(tx: TxClient, options: { force?: boolean } = {}): Promise<DemoSummary> {
  // Two seeds started together must not both see an empty table.
  await tx.query(`LOCK TABLE ${tx.tables.veranstaltungen} IN SHARE ROW EXCLUSIVE MODE`);
  const { rows: existing } = await tx.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${tx.tables.veranstaltungen}`);
  const existingEvents = existing[0]?.count ?? 0;
  if (existingEvents > 0 && !options.force) throw new DemoSeedRefused(existingEvents);

  const plan = buildPlan();
  const [region] = await insertRows<{ id: number }>(tx, 'bereiche', { var_name: ['text', [REGION]] }, 'int_bereicheid AS id');
  const sportIds = idsBy(
    await insertRows<{ id: number; name: string }>(tx, 'sport', { var_name: ['text', [...SPORTS]] }, 'int_sportid AS id, var_name AS name'),
    (row) => row.name,
  );
  const [event] = await insertRows<{ id: number }>(
    tx,
    'veranstaltungen',
    { var_name: ['text', [EVENT.name]], dat_von: ['date', [EVENT.from]], dat_bis: ['date', [EVENT.to]] },
    'int_veranstaltungenid AS id',
  );
  const eventId = event!.id;
  const clubRows = await insertRows<{ id: number; name: string }>(
    tx,
    'vereine',
    { var_name: ['text', [...CLUBS]] },
    'int_vereineid AS id, var_name AS name',
  );
  const clubIds = idsBy(clubRows, (row) => row.name);
  const clubId = (index: number) => idOf(clubIds, CLUBS[index]!);

  const formulaKeys = Object.keys(FORMULAS) as FormulaKey[];
  const formulaRows = await insertRows<{ id: number; name: string; formula: string }>(
    tx,
    'formeln',
    {
      var_name: ['text', formulaKeys.map((key) => FORMULAS[key].name)],
      var_formel: ['text', formulaKeys.map((key) => FORMULAS[key].formula)],
      var_typ: ['text', formulaKeys.map(() => FORMULA_TYPE)],
    },
    'int_formelid AS id, var_name AS name, var_formel AS formula',
  );
  const formulaIds = idsBy(formulaRows, (row) => row.name);
  const formulaIdOf = (spec: DisciplineSpec) => (spec.formulaRecord ? idOf(formulaIds, FORMULAS[spec.formulaRecord].name) : null);

  const disciplineIds = idsBy(
    await insertRows<{ id: number; name: string }>(
      tx,
      'disziplinen',
      {
        int_bereicheid: ['int', DISCIPLINES.map(() => region!.id)],
        int_sportid: ['int', DISCIPLINES.map((spec) => idOf(sportIds, spec.sport))],
        var_name: ['text', DISCIPLINES.map((spec) => spec.name)],
        var_anzeigename: ['text', DISCIPLINES.map((spec) => spec.displayName)],
        var_kurzname: ['text', DISCIPLINES.map((spec) => spec.shortName)],
        bol_m: ['bool', DISCIPLINES.map((spec) => spec.male)],
        bol_w: ['bool', DISCIPLINES.map((spec) => spec.female)],
        int_extsystemid: ['int', DISCIPLINES.map((spec) => spec.extSystemId)],
        var_formel: ['text', DISCIPLINES.map((spec) => spec.ownFormula)],
        int_formelid: ['int', DISCIPLINES.map(formulaIdOf)],
        var_eingabemaske: ['text', DISCIPLINES.map((spec) => spec.inputMask)],
        int_berechnung: ['int', DISCIPLINES.map((spec) => spec.decimals)],
      },
      'int_disziplinenid AS id, var_name AS name',
    ),
    (row) => row.name,
  );
  const disciplineId = (name: string) => idOf(disciplineIds, name);

  const fieldPlan = DISCIPLINES.flatMap((spec) =>
    [...spec.fields, FINAL_FIELD].map((field, index) => ({
      discipline: disciplineId(spec.name),
      field,
      sort: index + 1,
      isFinal: field === FINAL_FIELD,
    })),
  );
  const fieldRows = await insertRows<{ id: number; discipline: number; sort: number }>(
    tx,
    'disziplinen_felder',
    {
      int_disziplinenid: ['int', fieldPlan.map((row) => row.discipline)],
      var_name: ['text', fieldPlan.map((row) => row.field.name)],
      var_kurzname: ['text', fieldPlan.map((row) => row.field.shortName)],
      // Both legacy layouts' sort columns, as the service writes them.
      int_reihenfolge: ['int', fieldPlan.map((row) => row.sort)],
      int_sortierung: ['int', fieldPlan.map((row) => row.sort)],
      bol_endwert: ['bool', fieldPlan.map((row) => row.isFinal)],
      bol_ausgangswert: ['bool', fieldPlan.map((row) => row.field.startingValue === true)],
      int_gruppe: ['int', fieldPlan.map((row) => row.field.layoutGroup)],
      bol_enabled: ['bool', fieldPlan.map(() => true)],
    },
    'int_disziplinen_felderid AS id, int_disziplinenid AS discipline, int_sortierung AS sort',
  );
  const fieldIds = idsBy(fieldRows, (row) => `${row.discipline}:${row.sort}`);
  /** Field ids of a discipline in sort order, the final field last. */
  const fieldsOf = (name: string) =>
    [...disciplineSpec(name).fields, FINAL_FIELD].map((_, index) => idOf(fieldIds, `${disciplineId(name)}:${index + 1}`));

  const panelSpecs = DISCIPLINES.filter((spec) => spec.panel);
  const panelOf = (spec: DisciplineSpec) => {
    const ids = fieldsOf(spec.name);
    return spec.panel
      ? { judgeFieldIds: spec.panel.judges.map((index) => ids[index]!), aggregateFieldId: ids[spec.panel.aggregate]! }
      : null;
  };
  await tx.query(
    `INSERT INTO ${tx.tables.svc_panel_settings} (discipline_id, judge_field_ids, aggregation, aggregate_field_id, tolerance, updated_by)
     SELECT d, ARRAY(SELECT jsonb_array_elements_text(j)::int), 'trimmed-mean', a, $4, 'demo seed'
       FROM unnest($1::int[], $2::jsonb[], $3::int[]) AS p(d, j, a)`,
    [
      panelSpecs.map((spec) => disciplineId(spec.name)),
      panelSpecs.map((spec) => JSON.stringify(panelOf(spec)!.judgeFieldIds)),
      panelSpecs.map((spec) => panelOf(spec)!.aggregateFieldId),
      DEFAULT_PANEL_TOLERANCE,
    ],
  );

  const competitionIds = idsBy(
    await insertRows<{ id: number; name: string }>(
      tx,
      'wettkaempfe',
      {
        int_veranstaltungenid: ['int', COMPETITIONS.map(() => eventId)],
        var_name: ['text', COMPETITIONS.map((competition) => competition.name)],
        bol_gruppe: ['bool', COMPETITIONS.map((competition) => competition.kind === 'group')],
        int_versuche: ['int', COMPETITIONS.map((competition) => competition.attempts)],
      },
      'int_wettkaempfeid AS id, var_name AS name',
    ),
    (row) => row.name,
  );
  const competitionId = (index: number) => idOf(competitionIds, COMPETITIONS[index]!.name);

  const participantIds = idsBy(
    await insertRows<{ id: number; startNumber: string }>(
      tx,
      'teilnehmer',
      {
        var_vorname: ['text', plan.participants.map((p) => p.firstName)],
        var_nachname: ['text', plan.participants.map((p) => p.lastName)],
        var_startnummer: ['text', plan.participants.map((p) => p.startNumber)],
        int_vereineid: ['int', plan.participants.map((p) => clubId(p.club))],
        int_eventid: ['int', plan.participants.map(() => eventId)],
        var_typ: ['text', plan.participants.map((p) => p.type)],
        int_geschlecht: ['int', plan.participants.map((p) => p.gender)],
        dat_geburtstag: ['date', plan.participants.map((p) => p.birthDate)],
      },
      'int_teilnehmerid AS id, var_startnummer AS "startNumber"',
    ),
    (row) => row.startNumber,
  );

  const insertUnits = (table: 'gruppen' | 'mannschaften', idColumn: string, units: typeof GROUPS) =>
    insertRows<{ id: number; startNumber: number }>(
      tx,
      table,
      {
        int_veranstaltungenid: ['int', units.map(() => eventId)],
        var_name: ['text', units.map((unit) => unit.name)],
        int_startnummer: ['int', units.map((unit) => unit.startNumber)],
        int_vereineid: ['int', units.map((unit) => clubId(unit.club))],
        var_riege: ['text', units.map((unit) => unit.squad)],
      },
      `${idColumn} AS id, int_startnummer AS "startNumber"`,
    );
  const groupIds = idsBy(await insertUnits('gruppen', 'int_gruppenid', GROUPS), (row) => row.startNumber);
  const teamIds = idsBy(await insertUnits('mannschaften', 'int_mannschaftenid', TEAMS), (row) => row.startNumber);

  const isComplete = (entry: PlannedEntry) => entry.captured.size === COMPETITIONS[entry.competition]!.disciplines.length;
  const individualScoreIds = idsBy(
    await insertRows<{ id: number; participant: number }>(
      tx,
      'wertungen',
      {
        int_wettkaempfeid: ['int', plan.entries.map((entry) => competitionId(entry.competition))],
        int_teilnehmerid: ['int', plan.entries.map((entry) => idOf(participantIds, entry.participant.startNumber))],
        int_statusid: ['int', plan.entries.map((entry) => (isComplete(entry) ? STATUS_CAPTURED : STATUS_PENDING))],
        int_startnummer: ['int', plan.entries.map((entry) => Number(entry.participant.startNumber))],
        var_riege: ['text', plan.entries.map((entry) => entry.squad)],
      },
      'int_wertungenid AS id, int_teilnehmerid AS participant',
    ),
    (row) => row.participant,
  );
  const scoreIdOf = (entry: PlannedEntry) => idOf(individualScoreIds, idOf(participantIds, entry.participant.startNumber));

  // Group and team rows leave int_teilnehmerid out of the insert altogether (spec rule for team rows).
  const collectiveUnits = COMPETITIONS.flatMap((competition, index) => {
    if (competition.kind === 'individual') return [];
    const units = competition.kind === 'group' ? GROUPS : TEAMS;
    const ids = competition.kind === 'group' ? groupIds : teamIds;
    return units.map((unit, unitIndex) => ({
      competition: index,
      kind: competition.kind,
      unitIndex,
      unitId: idOf(ids, unit.startNumber),
      unit,
    }));
  });
  const capturedUnit = (unit: (typeof collectiveUnits)[number]) =>
    plan.collectiveCaptures.find((capture) => capture.competition === unit.competition && capture.unit === unit.unitIndex);
  const collectiveScoreRows = await insertRows<{ id: number; competition: number; groupId: number | null; teamId: number | null }>(
    tx,
    'wertungen',
    {
      int_wettkaempfeid: ['int', collectiveUnits.map((unit) => competitionId(unit.competition))],
      int_gruppenid: ['int', collectiveUnits.map((unit) => (unit.kind === 'group' ? unit.unitId : null))],
      int_mannschaftenid: ['int', collectiveUnits.map((unit) => (unit.kind === 'team' ? unit.unitId : null))],
      int_statusid: [
        'int',
        collectiveUnits.map((unit) =>
          capturedUnit(unit) && COMPETITIONS[unit.competition]!.disciplines.length === 1 ? STATUS_CAPTURED : STATUS_PENDING,
        ),
      ],
      int_startnummer: ['int', collectiveUnits.map((unit) => unit.unit.startNumber)],
      var_riege: ['text', collectiveUnits.map((unit) => unit.unit.squad)],
    },
    'int_wertungenid AS id, int_wettkaempfeid AS competition, int_gruppenid AS "groupId", int_mannschaftenid AS "teamId"',
  );
  const collectiveScoreIds = idsBy(collectiveScoreRows, (row) => `${row.competition}:${row.groupId ?? row.teamId}`);

  // Individual scores: one detail row per discipline of the competition (the start list; the value
  // stays NULL until captured) and, where captured, one jury result per field including the final.
  const details: Array<{ score: number; discipline: number; attempt: number; value: number | null; kp: number }> = [];
  const juryResults: Array<{ score: number; field: number; value: number }> = [];
  for (const entry of plan.entries) {
    const scoreId = scoreIdOf(entry);
    for (const name of COMPETITIONS[entry.competition]!.disciplines) {
      const values = entry.captured.get(name);
      const finalScore = values ? demoFinalScore(name, values) : null;
      details.push({ score: scoreId, discipline: disciplineId(name), attempt: 1, value: finalScore, kp: 0 });
      if (values && finalScore !== null) {
        const withFinal = [...values, finalScore];
        fieldsOf(name).forEach((field, index) => juryResults.push({ score: scoreId, field, value: withFinal[index]! }));
      }
    }
  }
  // Group and team scores keep one detail row per component, int_kp naming the field, plus the final.
  const collectiveFinals = new Map<number, number>();
  for (const capture of plan.collectiveCaptures) {
    const competition = COMPETITIONS[capture.competition]!;
    const unit = (competition.kind === 'group' ? GROUPS : TEAMS)[capture.unit]!;
    const scoreId = idOf(
      collectiveScoreIds,
      `${competitionId(capture.competition)}:${idOf(competition.kind === 'group' ? groupIds : teamIds, unit.startNumber)}`,
    );
    const finalScore = demoFinalScore(capture.discipline, capture.values);
    collectiveFinals.set(scoreId, finalScore);
    const withFinal = [...capture.values, finalScore];
    fieldsOf(capture.discipline).forEach((field, index) =>
      details.push({ score: scoreId, discipline: disciplineId(capture.discipline), attempt: 1, value: withFinal[index]!, kp: field }),
    );
  }
  await insertRows(
    tx,
    'wertungen_details',
    {
      int_wertungenid: ['int', details.map((row) => row.score)],
      int_disziplinenid: ['int', details.map((row) => row.discipline)],
      int_versuch: ['int', details.map((row) => row.attempt)],
      rel_leistung: ['real', details.map((row) => row.value)],
      int_kp: ['int', details.map((row) => row.kp)],
    },
    'int_wertungen_detailsid',
  );
  await insertRows(
    tx,
    'jury_results',
    {
      int_wertungenid: ['int', juryResults.map((row) => row.score)],
      int_disziplinen_felderid: ['int', juryResults.map((row) => row.field)],
      rel_leistung: ['real', juryResults.map((row) => row.value)],
      int_versuch: ['int', juryResults.map(() => 1)],
      int_kp: ['int', juryResults.map(() => 0)],
    },
    'int_juryresultsid',
  );

  // The summary: what a newcomer needs to try the API at once.
  const nameOf = (p: PlannedParticipant) => `${p.firstName} ${p.lastName}`;
  const capturedEntry = plan.entries.find((entry) => entry.captured.size > 0)!;
  const capturedDiscipline = [...capturedEntry.captured.keys()][0]!;
  const pendingEntry = plan.entries.find((entry) => entry.captured.size === 0)!;
  const pendingDiscipline = COMPETITIONS[pendingEntry.competition]!.disciplines[0]!;
  const collectiveExample = (kind: CompetitionKind) => {
    const capture = plan.collectiveCaptures.find((c) => COMPETITIONS[c.competition]!.kind === kind)!;
    const row = collectiveScoreRows.find((r) => r.competition === competitionId(capture.competition) && collectiveFinals.has(r.id))!;
    return {
      scoreId: row.id,
      unitId: (row.groupId ?? row.teamId)!,
      disciplineId: disciplineId(capture.discipline),
      finalScore: collectiveFinals.get(row.id)!,
    };
  };
  const groupExample = collectiveExample('group');
  const teamExample = collectiveExample('team');
  const individuals = plan.participants.filter((p) => p.type === INDIVIDUAL_TYPE);
  const ages = individuals.map((p) => p.age);

  return {
    event: { id: eventId, ...EVENT },
    clubs: CLUBS.map((name, index) => ({ id: clubId(index), name })),
    formulas: formulaRows.map((row) => ({ id: row.id, name: row.name, formula: row.formula })),
    disciplines: DISCIPLINES.map((spec) => {
      const ids = fieldsOf(spec.name);
      return {
        id: disciplineId(spec.name),
        name: spec.name,
        kind: spec.kind,
        formula: resolvedFormula(spec),
        formulaId: formulaIdOf(spec),
        ownFormula: spec.ownFormula,
        inputMask: spec.inputMask,
        decimals: spec.decimals,
        fields: [...spec.fields, FINAL_FIELD].map((field, index) => ({
          id: ids[index]!,
          name: field.name,
          shortName: field.shortName,
          isFinal: field === FINAL_FIELD,
        })),
        panel: panelOf(spec),
      };
    }),
    competitions: COMPETITIONS.map((competition, index) => {
      const own = plan.entries.filter((entry) => entry.competition === index);
      return {
        id: competitionId(index),
        name: competition.name,
        kind: competition.kind,
        attempts: competition.attempts,
        disciplineIds: competition.disciplines.map(disciplineId),
        scoreRows: competition.kind === 'individual' ? own.length : collectiveUnits.filter((unit) => unit.competition === index).length,
        squads: [
          ...new Set(
            competition.kind === 'individual'
              ? own.map((entry) => entry.squad)
              : (competition.kind === 'group' ? GROUPS : TEAMS).map((unit) => unit.squad),
          ),
        ],
      };
    }),
    groups: GROUPS.map((group) => ({
      id: idOf(groupIds, group.startNumber),
      name: group.name,
      startNumber: group.startNumber,
      clubId: clubId(group.club),
      squad: group.squad,
    })),
    teams: TEAMS.map((team) => ({
      id: idOf(teamIds, team.startNumber),
      name: team.name,
      startNumber: team.startNumber,
      clubId: clubId(team.club),
      squad: team.squad,
    })),
    participants: {
      individual: individuals.length,
      female: individuals.filter((p) => p.gender === GENDER.female).length,
      male: individuals.filter((p) => p.gender === GENDER.male).length,
      groupMembers: plan.participants.length - individuals.length,
      minAge: Math.min(...ages),
      maxAge: Math.max(...ages),
    },
    scores: {
      individualRows: plan.entries.length,
      groupRows: collectiveUnits.filter((unit) => unit.kind === 'group').length,
      teamRows: collectiveUnits.filter((unit) => unit.kind === 'team').length,
      capturedValues: details.filter((row) => row.kp === 0 && row.value !== null).length,
      completeRows: plan.entries.filter(isComplete).length,
      capturedExample: {
        scoreId: scoreIdOf(capturedEntry),
        participant: nameOf(capturedEntry.participant),
        competitionId: competitionId(capturedEntry.competition),
        disciplineId: disciplineId(capturedDiscipline),
        discipline: capturedDiscipline,
        finalScore: demoFinalScore(capturedDiscipline, capturedEntry.captured.get(capturedDiscipline)!),
      },
      pendingExample: {
        scoreId: scoreIdOf(pendingEntry),
        participant: nameOf(pendingEntry.participant),
        competitionId: competitionId(pendingEntry.competition),
        disciplineId: disciplineId(pendingDiscipline),
        discipline: pendingDiscipline,
      },
      groupExample: {
        scoreId: groupExample.scoreId,
        groupId: groupExample.unitId,
        disciplineId: groupExample.disciplineId,
        finalScore: groupExample.finalScore,
      },
      teamExample: {
        scoreId: teamExample.scoreId,
        teamId: teamExample.unitId,
        disciplineId: teamExample.disciplineId,
        attempt: 1,
        finalScore: teamExample.finalScore,
      },
    },
  };
}
