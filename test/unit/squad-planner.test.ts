import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SQUAD_COLORS,
  SQUAD_CRITERIA_DEFAULTS,
  ageCategoryOf,
  ageOn,
  breakName,
  colorBody,
  computeStats,
  distributeIntoSquads,
  generateSquadProposals,
  mulberry32,
  parseAgeCategoryRanges,
  resolveSquadCriteria,
  shuffle,
  splitIntoEvenBlocks,
  squadName,
  type Gender,
  type NamingPrefix,
  type PlannerParticipant,
  type Squad,
  type SquadCriteria,
  type SquadProposal,
} from '../../src/domain/squad-planner.js';
import { propertyRuns } from '../support/property-runs.js';

const TODAY = '2024-06-15';

function person(id: number, overrides: Partial<PlannerParticipant> = {}): PlannerParticipant {
  return {
    id,
    firstname: `First${id}`,
    lastname: `Last${id}`,
    club: `Club ${overrides.clubId ?? id}`,
    clubId: id,
    gender: 'male',
    birthDate: '2014-01-01',
    ...overrides,
  };
}

function people(count: number, overrides: (i: number) => Partial<PlannerParticipant> = () => ({})): PlannerParticipant[] {
  return Array.from({ length: count }, (_, i) => person(i + 1, overrides(i)));
}

function generate(participants: readonly PlannerParticipant[], criteria: Partial<SquadCriteria> = {}, seed = 1): SquadProposal[] {
  return generateSquadProposals(participants, criteria, { referenceDate: TODAY, ageRule: 'exact', random: mulberry32(seed) });
}

function only(participants: readonly PlannerParticipant[], criteria: Partial<SquadCriteria> = {}, seed = 1): SquadProposal {
  const [proposal] = generate(participants, { numberOfProposals: 1, ...criteria }, seed);
  if (!proposal) throw new Error('no proposal');
  return proposal;
}

const sizes = (squads: readonly Squad[]): number[] => squads.map((squad) => squad.participants.length);
const ids = (squad: Squad | undefined): number[] => (squad?.participants ?? []).map((member) => member.id);

describe('random sources', () => {
  it('mulberry32 repeats its sequence for the same seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const drawsA = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(drawsA);
    expect(drawsA.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(drawsA[0]);
  });

  it('shuffle returns a permutation on a copy and tolerates a source that returns 1', () => {
    const input = [1, 2, 3, 4, 5, 6, 7, 8];
    const out = shuffle(input, mulberry32(7));
    expect(input).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...out].sort((x, y) => x - y)).toEqual(input);
    expect(shuffle(input, mulberry32(7))).toEqual(out);
    expect([...shuffle(input, () => 1)].sort((x, y) => x - y)).toEqual(input);
  });
});

describe('criteria', () => {
  it('defaults match the generate table of the spec', () => {
    expect(SQUAD_CRITERIA_DEFAULTS).toEqual({
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
  });

  it('fills omitted and undefined fields with defaults and drops unknown keys', () => {
    const body = { eventId: 7, maxParticipantsPerSquad: 8, breakCount: undefined };
    expect(resolveSquadCriteria(body)).toEqual({ ...SQUAD_CRITERIA_DEFAULTS, maxParticipantsPerSquad: 8 });
  });

  it.each([
    { maxParticipantsPerSquad: 1 },
    { maxParticipantsPerSquad: 51 },
    { maxParticipantsPerSquad: 2.5 },
    { numberOfProposals: 0 },
    { numberOfProposals: 11 },
    { breakCount: -1 },
    { breakCount: 11 },
    { namingPrefix: 'color' as NamingPrefix },
  ])('rejects %o', (criteria) => {
    expect(() => resolveSquadCriteria(criteria)).toThrow(RangeError);
  });

  it('rejects duplicate participant ids', () => {
    expect(() => generate([person(1), person(1)])).toThrow(/listed twice/);
  });
});

describe('step 1: age and birth year', () => {
  it('counts completed years on the reference day', () => {
    expect(ageOn('2014-06-15', TODAY, 'exact')).toBe(10);
    expect(ageOn('2014-06-16', TODAY, 'exact')).toBe(9);
    expect(ageOn('2008-02-29', '2024-02-28', 'exact')).toBe(15);
    expect(ageOn('2014-06-15', new Date(2024, 5, 15, 0, 30), 'exact')).toBe(10);
  });

  it('gives null for a missing or invalid birth date and 0 for a future one', () => {
    expect(ageOn(null, TODAY, 'exact')).toBeNull();
    expect(ageOn('2014-02-30', TODAY, 'exact')).toBeNull();
    expect(ageOn('15.06.2014', TODAY, 'exact')).toBeNull();
    expect(ageOn('2030-01-01', TODAY, 'exact')).toBe(0);
  });

  it('reports age and birth year, 0 and 0 when the birth date is missing', () => {
    const proposal = only([person(1, { birthDate: '2012-09-01' }), person(2, { birthDate: null, clubId: 1 })]);
    const members = proposal.squads.flatMap((squad) => squad.participants);
    expect(members.find((m) => m.id === 1)).toMatchObject({ age: 11, birthYear: 2012 });
    expect(members.find((m) => m.id === 2)).toMatchObject({ age: 0, birthYear: 0 });
  });

  it('rejects an invalid reference date', () => {
    expect(() => generateSquadProposals([], {}, { referenceDate: '2024-13-01', ageRule: 'exact' })).toThrow(RangeError);
  });
});

describe('step 2: gender pools', () => {
  const mixedGenders = people(6, (i) => ({ gender: (['male', 'female', 'other'] as const)[i % 3], clubId: 1 }));

  it('separates male, female and mixed (gender other) in that order', () => {
    const proposal = only(mixedGenders);
    expect(proposal.squads.map((squad) => squad.genderGroup)).toEqual(['male', 'female', 'mixed']);
    expect(proposal.squads.map((squad) => squad.participants.map((m) => m.gender))).toEqual([
      ['male', 'male'],
      ['female', 'female'],
      ['other', 'other'],
    ]);
  });

  it('puts everyone into one mixed pool when separateGenders is false', () => {
    const proposal = only(mixedGenders, { separateGenders: false });
    expect(proposal.squads).toHaveLength(1);
    expect(proposal.squads[0]).toMatchObject({ genderGroup: 'mixed', name: 'gRot' });
    expect(ids(proposal.squads[0]).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('separateCompetitions (not in the spec)', () => {
  // One Kür gymnast (competition 1) and three P-level gymnasts (competition 2) of one club.
  const field = people(4, (i) => ({ clubId: 1, gender: 'female', competitionIds: i === 0 ? [1] : [2] }));

  it('off (the spec): everyone of a pool and club shares a squad', () => {
    expect(only(field).squads.map(ids)).toEqual([expect.arrayContaining([1, 2, 3, 4])]);
    expect(only(field).squads[0]).not.toHaveProperty('competitionIds');
  });

  it('on: competitions never share a squad, in competition order, each squad naming its competitions', () => {
    const { squads } = only(field, { separateCompetitions: true });
    expect(squads.map((squad) => [squad.competitionIds, ids(squad).sort()])).toEqual([
      [[1], [1]],
      [[2], [2, 3, 4]],
    ]);
    expect(squads.map((squad) => squad.name)).toEqual(['wRot', 'wBlau']);
  });
});

describe('step 3: shuffling', () => {
  const field = people(40, (i) => ({ clubId: (i % 8) + 1 }));

  it('is reproducible with the same seed', () => {
    expect(generate(field, {}, 99)).toEqual(generate(field, {}, 99));
  });

  it('gives different proposals for different draws', () => {
    const [first, second, third] = generate(field, { keepClubsTogether: false, numberOfProposals: 3 });
    const order = (p: SquadProposal | undefined) => p?.squads.flatMap(ids);
    expect(order(first)).not.toEqual(order(second));
    expect(order(second)).not.toEqual(order(third));
    expect(order(generate(field, {}, 1)[0])).not.toEqual(order(generate(field, {}, 2)[0]));
  });
});

describe('step 4: age categories', () => {
  it('parses the default ranges', () => {
    expect(parseAgeCategoryRanges(SQUAD_CRITERIA_DEFAULTS.ageCategoryRanges).map((r) => r.label)).toEqual([
      '6-8',
      '9-10',
      '11-12',
      '13-14',
      '15-18',
    ]);
  });

  it('trims whitespace and normalises the label', () => {
    expect(parseAgeCategoryRanges('  6-8 , 9 - 10,11 -12 ')).toEqual([
      { low: 6, high: 8, label: '6-8' },
      { low: 9, high: 10, label: '9-10' },
      { low: 11, high: 12, label: '11-12' },
    ]);
  });

  it('skips invalid ranges', () => {
    expect(parseAgeCategoryRanges('abc,7,10-6,-3-4,4-,,1-2-3,5.5-6,13-14')).toEqual([{ low: 13, high: 14, label: '13-14' }]);
  });

  it('gives no ranges for an empty or blank string', () => {
    expect(parseAgeCategoryRanges('')).toEqual([]);
    expect(parseAgeCategoryRanges(' , ')).toEqual([]);
  });

  it('has inclusive bounds, other outside every range, unknown without age, first match wins', () => {
    const ranges = parseAgeCategoryRanges('6-8,8-10');
    expect(ageCategoryOf(6, ranges)).toBe('6-8');
    expect(ageCategoryOf(8, ranges)).toBe('6-8');
    expect(ageCategoryOf(10, ranges)).toBe('8-10');
    expect(ageCategoryOf(5, ranges)).toBe('other');
    expect(ageCategoryOf(11, ranges)).toBe('other');
    expect(ageCategoryOf(null, ranges)).toBe('unknown');
    expect(ageCategoryOf(9, [])).toBe('other');
  });

  it('splits each pool by category, in range order then other then unknown', () => {
    const births = [null, '2004-01-01', '2016-01-01', '2013-01-01', '2016-03-01'];
    const field = births.map((birthDate, i) => person(i + 1, { birthDate, clubId: 1 }));
    const proposal = only(field, { groupByAgeCategory: true, ageCategoryRanges: '6-8, 9-11' });
    expect(proposal.squads.map((squad) => [squad.ageCategory, ids(squad).sort()])).toEqual([
      ['6-8', [3, 5]],
      ['9-11', [4]],
      ['other', [2]],
      ['unknown', [1]],
    ]);
  });

  it('leaves ageCategory null when not grouping', () => {
    expect(only(people(3)).squads.every((squad) => squad.ageCategory === null)).toBe(true);
  });
});

describe('step 5: distribution', () => {
  it('puts a set of exactly the maximum into one squad', () => {
    expect(sizes(only(people(12)).squads)).toEqual([12]);
    expect(distributeIntoSquads(people(12), 12, false)).toHaveLength(1);
    expect(
      distributeIntoSquads(
        people(12, () => ({ clubId: 1 })),
        12,
        true,
      ),
    ).toHaveLength(1);
  });

  it('puts one participant into one squad', () => {
    expect(sizes(only(people(1)).squads)).toEqual([1]);
    expect(distributeIntoSquads(people(1), 12, true)).toEqual([[person(1)]]);
  });

  it('makes no squad for an empty set', () => {
    expect(only([]).squads).toEqual([]);
    expect(distributeIntoSquads([], 12, true)).toEqual([]);
    expect(distributeIntoSquads([], 12, false)).toEqual([]);
  });

  it('splits into even blocks no larger than the maximum', () => {
    const blockSizes = (n: number, max: number) => splitIntoEvenBlocks(people(n), max).map((b) => b.length);
    expect(blockSizes(25, 12)).toEqual([9, 8, 8]);
    expect(blockSizes(13, 12)).toEqual([7, 6]);
    expect(blockSizes(24, 12)).toEqual([12, 12]);
    expect(blockSizes(5, 2)).toEqual([2, 2, 1]);
    expect(splitIntoEvenBlocks(people(25), 12).flat()).toEqual(people(25));
  });

  it('splits a club larger than the maximum into even blocks', () => {
    const club = people(25, () => ({ clubId: 1 }));
    expect(sizes(only(club).squads)).toEqual([9, 8, 8]);
  });

  it('places clubs largest first, each into the first squad with room', () => {
    // Input order A(3) B(3) C(5) D(5), max 8: in input order this would need 3 squads.
    const clubOf = [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4];
    const field = clubOf.map((clubId, i) => person(i + 1, { clubId }));
    const squads = distributeIntoSquads(field, 8, true);
    expect(squads.map((squad) => squad.map((p) => p.clubId))).toEqual([
      [3, 3, 3, 3, 3, 1, 1, 1],
      [4, 4, 4, 4, 4, 2, 2, 2],
    ]);
  });

  it('keeps every club within one squad when it fits', () => {
    const field = people(60, (i) => ({ clubId: (i % 9) + 1 }));
    for (const squad of only(field, { maxParticipantsPerSquad: 10 }).squads) {
      for (const member of squad.participants) {
        const clubmates = field.filter((p) => p.clubId === member.clubId).map((p) => p.id);
        expect(ids(squad)).toEqual(expect.arrayContaining(clubmates));
      }
    }
  });

  it('fills squads sequentially when clubs need not stay together', () => {
    const field = people(25, () => ({ clubId: 1 }));
    const squads = distributeIntoSquads(field, 12, false);
    expect(squads.map((s) => s.length)).toEqual([12, 12, 1]);
    expect(squads.flat()).toEqual(field);
    expect(sizes(only(field, { keepClubsTogether: false }).squads)).toEqual([12, 12, 1]);
  });
});

describe('step 6: naming', () => {
  it('gender scheme: m/w/g prefix plus the color short name, colors running over the proposal', () => {
    const field = [
      ...people(3, () => ({ gender: 'male' as Gender, clubId: 1 })),
      ...people(3, (i) => ({ id: 10 + i, gender: 'female' as Gender, clubId: 2 })),
      ...people(2, (i) => ({ id: 20 + i, gender: 'other' as Gender, clubId: 3 })),
    ];
    const proposal = only(field, { maxParticipantsPerSquad: 2, keepClubsTogether: false });
    expect(proposal.squads.map((s) => [s.name, s.colorName])).toEqual([
      ['mRot', 'Rot'],
      ['mBlau', 'Blau'],
      ['wGrn', 'Grün'],
      ['wGlb', 'Gelb'],
      ['gSchw', 'Schwarz'],
    ]);
  });

  it('gender scheme: cuts a short name that does not fit beside the prefix', () => {
    expect(squadName('gender', 'male', 5)).toBe('mWeis');
    expect(squadName('gender', 'female', 12)).toBe('wTuer');
    expect(squadName('gender', 'mixed', 4)).toBe('gSchw');
  });

  it('gender scheme: adds the round number when colors wrap, cutting further', () => {
    expect(squadName('gender', 'male', 20)).toBe('mRot2');
    expect(squadName('gender', 'male', 21)).toBe('mBla2');
    expect(squadName('gender', 'female', 199)).toBe('wJe10');
    expect(squadName('gender', 'female', 200)).toBe('wRt11');
    expect(squadName('gender', 'female', 210)).toBe('wRa11');
    expect(squadName('gender', 'female', 202)).toBe('wGn11');
    expect(squadName('gender', 'female', 211)).toBe('wGu11');
  });

  it('number scheme: R plus a two-digit running number, three or four digits beyond 99', () => {
    expect(squadName('number', 'male', 0)).toBe('R01');
    expect(squadName('number', 'female', 98)).toBe('R99');
    expect(squadName('number', 'male', 99)).toBe('R100');
    expect(squadName('number', 'male', 9998)).toBe('R9999');
    expect(() => squadName('number', 'male', 9999)).toThrow(RangeError);
    const proposal = only(people(30), { namingPrefix: 'number', maxParticipantsPerSquad: 10, keepClubsTogether: false });
    expect(proposal.squads.map((s) => [s.name, s.colorName])).toEqual([
      ['R01', 'Rot'],
      ['R02', 'Blau'],
      ['R03', 'Grün'],
    ]);
  });

  it('none scheme: the color short name only, with the round number after a wrap', () => {
    expect(Array.from({ length: 20 }, (_, i) => squadName('none', 'male', i))).toEqual(SQUAD_COLORS.map((color) => color.shortName));
    expect(squadName('none', 'male', 25)).toBe('Weis2');
    expect(squadName('none', 'male', 32)).toBe('Tuer2');
    expect(squadName('none', 'male', 252)).toBe('Tue13');
    expect(squadName('none', 'male', 19979)).toBe('Je999');
    expect(() => squadName('none', 'male', 19980)).toThrow(RangeError);
  });

  it('has 20 colors with umlauts in the display names', () => {
    expect(SQUAD_COLORS.map((c) => c.name)).toEqual([
      'Rot',
      'Blau',
      'Grün',
      'Gelb',
      'Schwarz',
      'Weiß',
      'Lila',
      'Orange',
      'Gold',
      'Kupfer',
      'Rosa',
      'Grau',
      'Türkis',
      'Braun',
      'Mint',
      'Sand',
      'Navy',
      'Rubin',
      'Silber',
      'Jade',
    ]);
  });

  it('keeps the 20 color bodies distinct for every room size', () => {
    for (const room of [2, 3, 4, 5]) {
      const bodies = SQUAD_COLORS.map((color) => colorBody(color.shortName, room));
      expect(new Set(bodies).size, `room ${room}`).toBe(20);
      expect(bodies.every((body) => body.length <= room)).toBe(true);
    }
    expect(() => colorBody('Rot', 1)).toThrow(RangeError);
  });

  it('gives unique names of at most 5 characters over the whole capacity of each scheme', () => {
    const capacity: [NamingPrefix, number][] = [
      ['gender', 1980],
      ['none', 19980],
      ['number', 9999],
    ];
    for (const [scheme, count] of capacity) {
      const names: string[] = [];
      for (let i = 0; i < count; i++) {
        for (const group of ['male', 'female', 'mixed'] as const) names.push(squadName(scheme, group, i));
      }
      expect(names.filter((name) => name.length > 5)).toEqual([]);
      expect(new Set(names).size).toBe(scheme === 'gender' ? count * 3 : count);
      expect(() => squadName(scheme, 'male', count)).toThrow(RangeError);
    }
  });

  it('wraps the colors in a generated proposal with more than 20 squads', () => {
    const proposal = only(people(500), { maxParticipantsPerSquad: 2, namingPrefix: 'gender' });
    const names = proposal.squads.map((s) => s.name);
    expect(names).toHaveLength(250);
    expect(new Set(names).size).toBe(250);
    expect(names.every((n) => n.length >= 1 && n.length <= 5)).toBe(true);
    expect(proposal.squads[20]?.colorName).toBe('Rot');
    expect(names.at(-1)).toBe('mKr13');
  });
});

describe('step 7: break squads', () => {
  it.each<[NamingPrefix, number, string[]]>([
    ['gender', 1, ['Pause']],
    ['none', 1, ['Pause']],
    ['gender', 3, ['Paus1', 'Paus2', 'Paus3']],
    ['none', 10, ['Paus1', 'Paus2', 'Paus3', 'Paus4', 'Paus5', 'Paus6', 'Paus7', 'Paus8', 'Paus9', 'Pau10']],
    ['number', 1, ['P01']],
    ['number', 10, ['P01', 'P02', 'P03', 'P04', 'P05', 'P06', 'P07', 'P08', 'P09', 'P10']],
  ])('%s scheme with %i breaks', (scheme, count, expected) => {
    expect(Array.from({ length: count }, (_, i) => breakName(scheme, i, count))).toEqual(expected);
    const proposal = only(people(3), { namingPrefix: scheme, breakCount: count });
    // The three participants come from different clubs of one pool, so they fill one squad.
    const breaks = proposal.squads.slice(1);
    expect(proposal.squads[0]?.isBreak).toBe(false);
    expect(breaks.map((s) => s.name)).toEqual(expected);
    for (const squad of breaks) {
      expect(squad).toMatchObject({ isBreak: true, participants: [], colorName: 'Pause', genderGroup: 'mixed', ageCategory: null });
    }
  });

  it('appends breaks even without participants', () => {
    expect(only([], { breakCount: 2 }).squads.map((s) => s.name)).toEqual(['Paus1', 'Paus2']);
  });
});

describe('step 8: stats', () => {
  it('counts totals, average, minimum and maximum over participant squads only', () => {
    const field = [
      ...people(5, () => ({ clubId: 1, gender: 'male' as Gender })),
      ...people(2, (i) => ({ id: 10 + i, clubId: 2, gender: 'female' as Gender })),
      person(20, { clubId: 3, gender: 'other' }),
    ];
    const proposal = only(field, { maxParticipantsPerSquad: 4, breakCount: 2 });
    expect(sizes(proposal.squads)).toEqual([3, 2, 2, 1, 0, 0]);
    expect(proposal.stats).toEqual({
      totalSquads: 4,
      totalParticipants: 8,
      avgParticipantsPerSquad: 2,
      minParticipantsPerSquad: 1,
      maxParticipantsPerSquad: 3,
      breakSquads: 2,
      genderDistribution: { male: 5, female: 2 },
    });
  });

  it('is all zeros for no squads', () => {
    expect(computeStats([])).toEqual({
      totalSquads: 0,
      totalParticipants: 0,
      avgParticipantsPerSquad: 0,
      minParticipantsPerSquad: 0,
      maxParticipantsPerSquad: 0,
      breakSquads: 0,
      genderDistribution: { male: 0, female: 0 },
    });
  });

  it('does not round the average', () => {
    const proposal = only(
      people(7, () => ({ clubId: 1 })),
      { maxParticipantsPerSquad: 3, keepClubsTogether: false },
    );
    expect(proposal.stats.avgParticipantsPerSquad).toBe(7 / 3);
  });
});

describe('step 9: proposals', () => {
  it('returns numberOfProposals proposals with ids from 1', () => {
    expect(generate(people(5), { numberOfProposals: 4 }).map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(generate(people(5)).map((p) => p.id)).toEqual([1, 2, 3]);
  });

  it('works with the default random source', () => {
    const proposals = generateSquadProposals(people(20), {}, { referenceDate: TODAY, ageRule: 'exact' });
    expect(proposals).toHaveLength(3);
    expect(proposals.every((p) => p.stats.totalParticipants === 20)).toBe(true);
  });
});

describe('properties', () => {
  const isoDate = fc
    .date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10));

  const participantsArb = fc.integer({ min: 1, max: 30 }).chain((clubCount) =>
    fc
      .array(
        fc.record({
          clubId: fc.integer({ min: 1, max: clubCount }),
          gender: fc.constantFrom<Gender>('male', 'female', 'other'),
          birthDate: fc.option(isoDate, { nil: null }),
          competitionIds: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }),
        }),
        { maxLength: 500, size: 'max' },
      )
      .map((rows) =>
        rows.map((row, i): PlannerParticipant => ({
          id: i + 1,
          firstname: `F${i}`,
          lastname: `L${i}`,
          club: `Club ${row.clubId}`,
          ...row,
        })),
      ),
  );

  const criteriaArb: fc.Arbitrary<SquadCriteria> = fc.record({
    // Small maxima produce hundreds of squads, where naming wraps and gets cut.
    maxParticipantsPerSquad: fc.oneof(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 2, max: 50 })),
    separateGenders: fc.boolean(),
    keepClubsTogether: fc.boolean(),
    groupByAgeCategory: fc.boolean(),
    ageCategoryRanges: fc.oneof(
      fc.constant(SQUAD_CRITERIA_DEFAULTS.ageCategoryRanges),
      fc.constant(''),
      fc.string({ maxLength: 20 }),
      fc
        .array(fc.tuple(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 80 })), { maxLength: 6 })
        .map((pairs) => pairs.map(([low, high]) => ` ${low} - ${high} `).join(',')),
    ),
    numberOfProposals: fc.integer({ min: 1, max: 10 }),
    namingPrefix: fc.constantFrom<NamingPrefix>('gender', 'number', 'none'),
    breakCount: fc.integer({ min: 0, max: 10 }),
    separateCompetitions: fc.boolean(),
  });

  it('keeps every guarantee for any participants and criteria', () => {
    fc.assert(
      fc.property(participantsArb, criteriaArb, fc.integer(), (participants, criteria, seed) => {
        // Checks collect short messages instead of calling expect: a failing expect formats a diff of
        // the whole array, which per shrink step makes a failure on 500 participants take minutes.
        const proposals = generate(participants, criteria, seed);
        const problems: string[] = [];
        if (proposals.length !== criteria.numberOfProposals || proposals.some((p, i) => p.id !== i + 1)) {
          problems.push(`proposal ids ${proposals.map((p) => p.id).join(',')}`);
        }

        const ranges = parseAgeCategoryRanges(criteria.ageCategoryRanges);
        const expected = new Map(
          participants.map((p) => {
            const age = ageOn(p.birthDate, TODAY, 'exact');
            const pool = criteria.separateGenders && p.gender !== 'other' ? p.gender : 'mixed';
            const category = criteria.groupByAgeCategory ? ageCategoryOf(age, ranges) : null;
            const competitions = criteria.separateCompetitions ? [...(p.competitionIds ?? [])].sort((a, b) => a - b).join(',') : '';
            return [p.id, { age: age ?? 0, pool, category, competitions }];
          }),
        );
        const allIds = participants.map((p) => p.id).join(',');
        const male = participants.filter((p) => p.gender === 'male').length;
        const female = participants.filter((p) => p.gender === 'female').length;

        for (const { squads, stats } of proposals) {
          const placed = squads.flatMap(ids).sort((a, b) => a - b);
          if (placed.join(',') !== allIds) problems.push('participants not placed exactly once');

          const names = squads.map((s) => s.name);
          if (new Set(names).size !== names.length) problems.push(`duplicate names ${names.join(' ')}`);
          for (const name of names) if (name.length < 1 || name.length > 5) problems.push(`bad name ${name}`);

          const filled = squads.filter((s) => !s.isBreak);
          const breaks = squads.slice(filled.length);
          if (breaks.length !== criteria.breakCount) problems.push(`${breaks.length} breaks`);
          for (const squad of breaks) {
            if (!squad.isBreak || squad.participants.length > 0) problems.push(`bad break ${squad.name}`);
          }

          const squadsPerClub = new Map<string, Set<number>>();
          const clubSize = new Map<string, number>();
          filled.forEach((squad, index) => {
            const size = squad.participants.length;
            if (size < 1 || size > criteria.maxParticipantsPerSquad) problems.push(`${squad.name} has ${size}`);
            for (const member of squad.participants) {
              const want = expected.get(member.id);
              const competitions = (squad.competitionIds ?? []).join(',');
              if (
                want?.pool !== squad.genderGroup ||
                want.category !== squad.ageCategory ||
                want.age !== member.age ||
                want.competitions !== competitions
              ) {
                problems.push(`member ${member.id} misplaced in ${squad.name}`);
              }
              const key = `${competitions}/${squad.genderGroup}/${squad.ageCategory}/${member.clubId}`;
              squadsPerClub.set(key, (squadsPerClub.get(key) ?? new Set()).add(index));
              clubSize.set(key, (clubSize.get(key) ?? 0) + 1);
            }
          });
          if (criteria.keepClubsTogether) {
            for (const [key, used] of squadsPerClub) {
              const blocks = Math.ceil((clubSize.get(key) ?? 0) / criteria.maxParticipantsPerSquad);
              if (used.size !== blocks) problems.push(`club ${key} spread over ${used.size} squads`);
            }
          }
          const filledSizes = sizes(filled);
          const wantStats = {
            totalSquads: filled.length,
            totalParticipants: participants.length,
            avgParticipantsPerSquad: filled.length ? participants.length / filled.length : 0,
            minParticipantsPerSquad: filledSizes.length ? Math.min(...filledSizes) : 0,
            maxParticipantsPerSquad: filledSizes.length ? Math.max(...filledSizes) : 0,
            breakSquads: criteria.breakCount,
            genderDistribution: { male, female },
          };
          if (JSON.stringify(stats) !== JSON.stringify(wantStats)) problems.push(`stats ${JSON.stringify(stats)}`);
        }
        if (problems.length > 0) throw new Error(problems.slice(0, 5).join('; '));
      }),
      // A synchronous property cannot be stopped by vitest's timeout; this bounds shrinking.
      { numRuns: propertyRuns(150), plugins: [fc.interruptAfterTimeLimit(20_000, { failOnInterrupt: true })] },
    );
  });
});
