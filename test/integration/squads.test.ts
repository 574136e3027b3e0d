import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../src/db/pool.js';
import { t } from '../support/tables.js';
import { ageOn, SQUAD_CRITERIA_DEFAULTS } from '../../src/domain/squad-planner.js';
import { insertRow, createCompetition, insertParticipant, insertScoreRow, storeAppSetting, type Competition } from '../support/fixtures.js';
import { postJson, sendJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, foreignToken, juryToken } from '../support/tokens.js';

const GENERATE = '/api/squad-management/auto-assign/generate';
const APPLY = '/api/squad-management/auto-assign/apply';
const EVENT_START = '2025-06-14';

interface SeededEvents {
  /** Event with dat_von EVENT_START, two competitions and three clubs. */
  main: Competition;
  secondCompetitionId: number;
  /** Event without dat_von. */
  other: Competition;
  /** Event whose only participant has no score row. */
  empty: Competition;
  /** Every participant of `main` with a score row there. */
  plannedIds: number[];
  /** Born the day after EVENT_START, 10 years earlier: 10 in the event's year, still 9 on its first day. */
  ida: number;
  clubless: number;
  /** int_eventid is `main`, but no score row. */
  unplanned: number;
  /** Score row in `other` only. */
  otherParticipant: number;
  /** Participant of `main` with score rows in both events. */
  commuter: number;
}

async function createSeededEvents(pool: Pool): Promise<SeededEvents> {
  const main = await createCompetition(pool, 'Kreisturnfest', EVENT_START);
  const secondCompetitionId = await insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: main.eventId,
    var_name: 'Kür',
  });
  const other = await createCompetition(pool, 'Herbstpokal');
  const empty = await createCompetition(pool, 'Leer');
  const clubIds = [
    main.clubId,
    await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'SV Nord' }),
    await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'TSG Süd' }),
  ];
  const second = { ...main, competitionId: secondCompetitionId };

  const plannedIds: number[] = [];
  for (let n = 0; n < 30; n++) {
    const id = await insertParticipant(pool, main, {
      firstName: `Turnerin${n}`,
      lastName: `Nummer ${n}`,
      gender: [1, 2, 1, 2, 3][n % 5],
      clubId: clubIds[n % 3],
      birthDate: `${2008 + (n % 10)}-0${1 + (n % 9)}-1${n % 10}`,
    });
    await insertScoreRow(pool, main, id);
    // Two score rows for some: they must still count once.
    if (n % 3 === 0) await insertScoreRow(pool, second, id);
    plannedIds.push(id);
  }
  const ida = await insertParticipant(pool, main, { firstName: 'Ida', lastName: 'Ahorn', gender: 2, birthDate: '2015-06-15' });
  const clubless = await insertParticipant(pool, main, { firstName: 'Ole', lastName: 'Ohneverein', gender: null, clubId: null });
  const commuter = await insertParticipant(pool, main, { firstName: 'Pia', lastName: 'Pendel', gender: 2, birthDate: '2012-01-01' });
  for (const id of [ida, clubless, commuter]) await insertScoreRow(pool, second, id);
  await insertScoreRow(pool, other, commuter);
  plannedIds.push(ida, clubless, commuter);

  const unplanned = await insertParticipant(pool, main, { firstName: 'Uwe', lastName: 'Ungeplant' });
  const otherParticipant = await insertParticipant(pool, other, { firstName: 'Olga', birthDate: '2014-03-03' });
  await insertScoreRow(pool, other, otherParticipant);
  await insertParticipant(pool, empty, { firstName: 'Erna' });

  // A group score row of the main event: clearExisting clears it too ("every score row").
  const groupId = await insertRow(pool, 'gruppen', 'int_gruppenid', { int_veranstaltungenid: main.eventId, var_name: 'Gruppe Sonne' });
  await insertRow(pool, 'wertungen', 'int_wertungenid', { int_wettkaempfeid: main.competitionId, int_gruppenid: groupId, int_statusid: 1 });

  return { main, secondCompetitionId, other, empty, plannedIds, ida, clubless, unplanned, otherParticipant, commuter };
}

interface ScoreRow {
  id: number;
  eventId: number;
  participantId: number | null;
  squadName: string | null;
}

async function scoreRows(pool: Pool): Promise<ScoreRow[]> {
  const { rows } = await pool.query<ScoreRow>(
    `SELECT w.int_wertungenid AS id, c.int_veranstaltungenid AS "eventId", w.int_teilnehmerid AS "participantId", w.var_riege AS "squadName"
       FROM ${t.wertungen} w JOIN ${t.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
      ORDER BY w.int_wertungenid`,
  );
  return rows;
}

async function squadEvents(pool: Pool): Promise<Array<{ eventId: number; payload: Record<string, unknown> }>> {
  const { rows } = await pool.query<{ eventId: number; payload: Record<string, unknown> }>(
    `SELECT event_id AS "eventId", payload FROM ${t.svc_outbox} WHERE topic = 'squads-applied' ORDER BY id`,
  );
  return rows;
}

interface Member {
  id: number;
  firstname: string;
  lastname: string;
  club: string;
  clubId: number;
  gender: string;
  age: number;
  birthYear: number;
}

interface Proposal {
  id: number;
  squads: Array<{
    name: string;
    colorName: string;
    genderGroup: string;
    ageCategory: string | null;
    participants: Member[];
    isBreak: boolean;
    competitionIds?: number[];
  }>;
  stats: Record<string, unknown>;
}

const memberIds = (proposal: Proposal) =>
  proposal.squads.flatMap((squad) => squad.participants.map((member) => member.id)).sort((a, b) => a - b);
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

let server: TestServer;
let seeded: SeededEvents;

beforeAll(async () => {
  server = await startTestServer();
  seeded = await createSeededEvents(server.pool);
});
afterAll(async () => {
  await server?.stop();
});

const generate = (body: unknown, token: string | null = adminToken) =>
  postJson(`${server.url}${GENERATE}`, body, token === null ? {} : bearer(token));
const apply = (body: unknown, token: string | null = adminToken) =>
  postJson(`${server.url}${APPLY}`, body, token === null ? {} : bearer(token));

describe.each([
  ['generate', GENERATE],
  ['apply', APPLY],
])('%s requires the admin role', (_name, path) => {
  it.each([
    ['no token', null, 401, 'UNAUTHORIZED'],
    ['a token signed with another secret', foreignToken, 401, 'UNAUTHORIZED'],
    ['a malformed token', 'not-a-jwt', 401, 'UNAUTHORIZED'],
    ['role jury', juryToken, 403, 'FORBIDDEN'],
  ] as const)('refuses %s, before looking at the body', async (_case, token, status, code) => {
    const before = await scoreRows(server.pool);
    // An invalid body: the answer must still be about the token.
    const response = await postJson(`${server.url}${path}`, { eventId: 'x' }, token === null ? {} : bearer(token));
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ statusCode: status, code });
    expect(await scoreRows(server.pool)).toEqual(before);
  });
});

describe('POST /api/squad-management/auto-assign/generate', () => {
  it('uses and echoes the spec defaults, and places every participant of the event exactly once in every proposal', async () => {
    const response = await generate({ eventId: seeded.main.eventId });
    expect(response.status).toBe(200);
    const { proposals, eventId, totalParticipants, criteria } = response.body as {
      proposals: Proposal[];
      eventId: number;
      totalParticipants: number;
      criteria: unknown;
    };
    expect(eventId).toBe(seeded.main.eventId);
    expect(criteria).toEqual(SQUAD_CRITERIA_DEFAULTS);
    expect(totalParticipants).toBe(seeded.plannedIds.length);
    expect(proposals.map((proposal) => proposal.id)).toEqual([1, 2, 3]);
    for (const proposal of proposals) {
      expect(memberIds(proposal)).toEqual(sorted(seeded.plannedIds));
      expect(proposal.stats).toMatchObject({ totalParticipants: seeded.plannedIds.length, breakSquads: 0 });
      for (const squad of proposal.squads) {
        expect(squad.participants.length).toBeLessThanOrEqual(SQUAD_CRITERIA_DEFAULTS.maxParticipantsPerSquad);
        expect(squad.name.length).toBeGreaterThanOrEqual(1);
        expect(squad.name.length).toBeLessThanOrEqual(5);
        // separateGenders: male and female pools hold only their gender, the rest is mixed.
        if (squad.genderGroup !== 'mixed')
          expect(new Set(squad.participants.map((member) => member.gender))).toEqual(new Set([squad.genderGroup]));
      }
      expect(new Set(proposal.squads.map((squad) => squad.name)).size).toBe(proposal.squads.length);
    }
  });

  it('maps the participant rows: club, gender from int_geschlecht, age reached in the event year (ageRule birth-year)', async () => {
    const response = await generate({ eventId: seeded.main.eventId, numberOfProposals: 1 });
    const members = (response.body.proposals as Proposal[])[0]!.squads.flatMap((squad) => squad.participants);
    const byId = new Map(members.map((member) => [member.id, member]));
    expect(byId.get(seeded.ida)).toEqual({
      id: seeded.ida,
      firstname: 'Ida',
      lastname: 'Ahorn',
      club: 'TV Musterstadt',
      clubId: seeded.main.clubId,
      gender: 'female',
      age: 10,
      birthYear: 2015,
    });
    expect(byId.get(seeded.clubless)).toEqual({
      id: seeded.clubless,
      firstname: 'Ole',
      lastname: 'Ohneverein',
      club: '',
      clubId: 0,
      gender: 'other',
      age: 0,
      birthYear: 0,
    });
    expect(byId.get(seeded.plannedIds[4]!)?.gender).toBe('other');
    expect(byId.get(seeded.plannedIds[0]!)?.gender).toBe('male');
    expect(byId.has(seeded.unplanned)).toBe(false);
  });

  it("takes today's date as the age reference when the event has no start date", async () => {
    const response = await generate({ eventId: seeded.other.eventId, numberOfProposals: 1 });
    expect(response.status).toBe(200);
    const members = (response.body.proposals as Proposal[])[0]!.squads.flatMap((squad) => squad.participants);
    expect(sorted(members.map((member) => member.id))).toEqual(sorted([seeded.otherParticipant, seeded.commuter]));
    expect(members.find((member) => member.id === seeded.otherParticipant)?.age).toBe(ageOn('2014-03-03', new Date(), 'birth-year'));
  });

  it('applies the criteria it is given and echoes them', async () => {
    const criteria = {
      maxParticipantsPerSquad: 4,
      separateGenders: false,
      keepClubsTogether: false,
      groupByAgeCategory: true,
      ageCategoryRanges: '8-11, 12-14, bogus',
      numberOfProposals: 10,
      namingPrefix: 'number',
      breakCount: 2,
    };
    const response = await generate({ eventId: seeded.main.eventId, ...criteria });
    expect(response.status).toBe(200);
    // separateCompetitions (not in the spec) is echoed with its default.
    expect(response.body.criteria).toEqual({ ...criteria, separateCompetitions: false });
    const proposals = response.body.proposals as Proposal[];
    expect(proposals).toHaveLength(10);
    for (const proposal of proposals) {
      expect(memberIds(proposal)).toEqual(sorted(seeded.plannedIds));
      const breaks = proposal.squads.filter((squad) => squad.isBreak);
      expect(breaks.map((squad) => [squad.name, squad.participants.length])).toEqual([
        ['P01', 0],
        ['P02', 0],
      ]);
      for (const squad of proposal.squads.filter((entry) => !entry.isBreak)) {
        expect(squad.name).toMatch(/^R\d{2}$/);
        expect(squad.genderGroup).toBe('mixed');
        expect(squad.participants.length).toBeLessThanOrEqual(4);
        expect(['8-11', '12-14', 'other', 'unknown']).toContain(squad.ageCategory);
      }
    }
  });

  describe('ageRule app setting', () => {
    afterAll(async () => {
      await server.pool.query(`DELETE FROM ${t.svc_settings} WHERE key = 'ageRule'`);
    });

    // Born 1 January and 31 December of one year; the event starts in May.
    async function yearBoundaryEvent(): Promise<{ eventId: number; january: number; december: number }> {
      const competition = await createCompetition(server.pool, 'Jahreswechsel', '2024-05-17');
      const january = await insertParticipant(server.pool, competition, { firstName: 'Jana', birthDate: '2014-01-01' });
      const december = await insertParticipant(server.pool, competition, { firstName: 'Dora', birthDate: '2014-12-31' });
      await insertScoreRow(server.pool, competition, january);
      await insertScoreRow(server.pool, competition, december);
      return { eventId: competition.eventId, january, december };
    }
    const categories = async (eventId: number) => {
      const response = await generate({ eventId, numberOfProposals: 1, groupByAgeCategory: true, ageCategoryRanges: '9-9,10-10' });
      expect(response.status).toBe(200);
      const proposal = (response.body.proposals as Proposal[])[0]!;
      return new Map(
        proposal.squads.flatMap((squad) => squad.participants.map((member) => [member.id, [squad.ageCategory, member.age]] as const)),
      );
    };

    it('birth-year (the default): both are 10 and in one age category', async () => {
      const { eventId, january, december } = await yearBoundaryEvent();
      const byId = await categories(eventId);
      expect(byId.get(january)).toEqual(['10-10', 10]);
      expect(byId.get(december)).toEqual(['10-10', 10]);
    });

    it('exact: completed years on the start date put them in different categories', async () => {
      const { eventId, january, december } = await yearBoundaryEvent();
      await storeAppSetting(server.pool, 'ageRule', { rule: 'exact' });
      const byId = await categories(eventId);
      expect(byId.get(january)).toEqual(['10-10', 10]);
      expect(byId.get(december)).toEqual(['9-9', 9]);
    });
  });

  it('separateCompetitions (not in the spec): participants of different competitions never share a squad', async () => {
    const response = await generate({ eventId: seeded.main.eventId, separateCompetitions: true, maxParticipantsPerSquad: 50 });
    expect(response.status).toBe(200);
    expect(response.body.criteria).toMatchObject({ separateCompetitions: true });
    const { rows } = await server.pool.query<{ id: number; competitions: number[] }>(
      `SELECT w.int_teilnehmerid AS id, array_agg(DISTINCT w.int_wettkaempfeid ORDER BY w.int_wettkaempfeid) AS competitions
         FROM ${t.wertungen} w JOIN ${t.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
        WHERE c.int_veranstaltungenid = $1 AND w.int_teilnehmerid IS NOT NULL GROUP BY 1`,
      [seeded.main.eventId],
    );
    const competitionsOf = new Map(rows.map((row) => [row.id, row.competitions.join(',')]));
    for (const proposal of response.body.proposals as Proposal[]) {
      expect(memberIds(proposal)).toEqual(sorted(seeded.plannedIds));
      for (const squad of proposal.squads.filter((candidate) => !candidate.isBreak)) {
        const keys = new Set(squad.participants.map((member) => competitionsOf.get(member.id)));
        expect([...keys]).toEqual([squad.competitionIds!.join(',')]);
      }
    }
    // Without it (the spec), 50 per squad puts each gender pool of both competitions in one squad.
    const mixed = ((await generate({ eventId: seeded.main.eventId, maxParticipantsPerSquad: 50 })).body.proposals as Proposal[])[0]!;
    expect(mixed.squads.some((squad) => new Set(squad.participants.map((member) => competitionsOf.get(member.id))).size > 1)).toBe(true);
  });

  it('reads the participants in one statement', async () => {
    const { statements } = await captureStatements(server.pool, () => generate({ eventId: seeded.main.eventId }));
    expect(statements.filter((text) => text.includes(t.teilnehmer))).toHaveLength(1);
  });

  it.each([
    ['eventId', { eventId: undefined }, /body\.eventId is required/],
    ['eventId', { eventId: 0 }, /body\.eventId must be >= 1/],
    ['eventId', { eventId: 1.5 }, /body\.eventId must be integer/],
    ['eventId', { eventId: '1' }, /body\.eventId must be integer/],
    ['maxParticipantsPerSquad', { maxParticipantsPerSquad: 1 }, /must be >= 2/],
    ['maxParticipantsPerSquad', { maxParticipantsPerSquad: 51 }, /must be <= 50/],
    ['maxParticipantsPerSquad', { maxParticipantsPerSquad: 12.5 }, /must be integer/],
    ['numberOfProposals', { numberOfProposals: 0 }, /must be >= 1/],
    ['numberOfProposals', { numberOfProposals: 11 }, /must be <= 10/],
    ['breakCount', { breakCount: -1 }, /must be >= 0/],
    ['breakCount', { breakCount: 11 }, /must be <= 10/],
    ['namingPrefix', { namingPrefix: 'color' }, /must be one of gender, number, none/],
    ['separateGenders', { separateGenders: 'true' }, /must be boolean/],
    ['keepClubsTogether', { keepClubsTogether: 1 }, /must be boolean/],
    ['groupByAgeCategory', { groupByAgeCategory: null }, /must be boolean/],
    ['ageCategoryRanges', { ageCategoryRanges: 6 }, /must be string/],
    ['ageCategoryRanges', { ageCategoryRanges: '6-8,'.repeat(60) }, /must NOT have more than 200 characters/],
  ])('refuses an invalid %s (%j) with 400 naming the field', async (field, change, message) => {
    const response = await generate({ eventId: seeded.main.eventId, ...change });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(response.body.message).toContain(`body.${field}`);
    expect(response.body.message).toMatch(message);
  });

  it.each([
    ['an event whose participants have no score row', () => seeded.empty.eventId],
    ['an unknown event', () => 999_999],
  ])('answers 400 for %s', async (_case, eventId) => {
    const response = await generate({ eventId: eventId() });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/body\.eventId: event \d+ has no participants/),
    });
  });
});

describe('POST /api/squad-management/auto-assign/apply', () => {
  /** Every score row of every event starts with the squad name "Alt". */
  async function resetSquadNames(): Promise<void> {
    await server.pool.query(`UPDATE ${t.wertungen} SET var_riege = 'Alt'`);
  }

  const [a, b, c, d] = [0, 1, 2, 3];
  const squadsOf = () => [
    { name: 'mRot', participantIds: [seeded.plannedIds[a]!, seeded.commuter] },
    { name: 'wBlau', participantIds: [seeded.plannedIds[b]!, seeded.plannedIds[c]!] },
    { name: 'Pause', participantIds: [] },
  ];
  const expectedName = (row: ScoreRow): string | undefined =>
    row.participantId === null ? undefined : squadsOf().find((squad) => squad.participantIds.includes(row.participantId!))?.name;

  it('clearExisting (the default): clears every score row of the event, names the listed participants, leaves other events alone', async () => {
    await resetSquadNames();
    const eventsBefore = (await squadEvents(server.pool)).length;
    const response = await apply({ eventId: seeded.main.eventId, squads: squadsOf() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: expect.any(String),
      eventId: seeded.main.eventId,
      squadsCreated: 2,
      participantsAssigned: 4,
    });

    const rows = await scoreRows(server.pool);
    for (const row of rows) {
      if (row.eventId !== seeded.main.eventId) expect(row, 'a score row of another event').toMatchObject({ squadName: 'Alt' });
      else expect(row).toMatchObject({ squadName: expectedName(row) ?? null });
    }
    // Both score rows of a participant with two competitions carry the name.
    expect(rows.filter((row) => row.participantId === seeded.plannedIds[a]).map((row) => row.squadName)).toEqual(['mRot', 'mRot']);
    expect(rows.filter((row) => row.participantId === seeded.commuter).map((row) => [row.eventId, row.squadName])).toEqual(
      expect.arrayContaining([
        [seeded.main.eventId, 'mRot'],
        [seeded.other.eventId, 'Alt'],
      ]),
    );

    const events = await squadEvents(server.pool);
    expect(events).toHaveLength(eventsBefore + 1);
    expect(events.at(-1)).toEqual({
      eventId: seeded.main.eventId,
      payload: { eventId: seeded.main.eventId, squads: 2, timestamp: expect.any(String) },
    });
    expect(Number.isNaN(Date.parse(String(events.at(-1)!.payload.timestamp)))).toBe(false);
  });

  it("delivers squads-applied to the event's room, so open squad pages can refresh", async () => {
    const socket = await openSocket(server.url, { auth: { eventId: seeded.main.eventId } });
    try {
      const received: Array<Record<string, unknown>> = [];
      socket.on('squads-applied', (message: Record<string, unknown>) => received.push(message));
      expect((await apply({ eventId: seeded.main.eventId, squads: squadsOf() })).status).toBe(200);
      const message = await waitFor(() => received[0], { message: 'squads-applied on the socket' });
      expect(message).toMatchObject({ eventId: seeded.main.eventId, squads: 2, source: 'api', seq: expect.any(Number) });
    } finally {
      socket.disconnect();
    }
  });

  it('clearExisting false: keeps the squad names of participants that are not listed', async () => {
    await resetSquadNames();
    const response = await apply({ eventId: seeded.main.eventId, squads: squadsOf(), clearExisting: false });
    expect(response.status).toBe(200);
    for (const row of await scoreRows(server.pool)) {
      expect(row).toMatchObject({ squadName: (row.eventId === seeded.main.eventId ? expectedName(row) : undefined) ?? 'Alt' });
    }
  });

  it('keepGroupAndTeamSquads (not in the spec): the clear leaves group and team rows as they are', async () => {
    await resetSquadNames();
    const response = await apply({ eventId: seeded.main.eventId, squads: squadsOf(), keepGroupAndTeamSquads: true });
    expect(response.status).toBe(200);
    const rows = (await scoreRows(server.pool)).filter((row) => row.eventId === seeded.main.eventId);
    expect(rows.filter((row) => row.participantId === null).map((row) => row.squadName)).toEqual(['Alt']);
    for (const row of rows.filter((candidate) => candidate.participantId !== null))
      expect(row).toMatchObject({ squadName: expectedName(row) ?? null });
    // false is the spec's default: the group row is cleared with the rest.
    await resetSquadNames();
    expect((await apply({ eventId: seeded.main.eventId, squads: squadsOf(), keepGroupAndTeamSquads: false })).status).toBe(200);
    const cleared = (await scoreRows(server.pool)).filter((row) => row.eventId === seeded.main.eventId && row.participantId === null);
    expect(cleared.map((row) => row.squadName)).toEqual([null]);
  });

  it('runs the same statements for one squad as for many', async () => {
    const count = async (squads: Array<{ name: string; participantIds: number[] }>) => {
      const { result, statements } = await captureStatements(server.pool, () => apply({ eventId: seeded.main.eventId, squads }));
      expect(result.status).toBe(200);
      return statements.filter((text) => /wertungen|veranstaltungen|INSERT INTO \S*svc_outbox/.test(text)).length;
    };
    const one = await count([{ name: 'A', participantIds: [seeded.plannedIds[0]!] }]);
    const many = await count(seeded.plannedIds.map((id, index) => ({ name: `S${index}`, participantIds: [id] })));
    // Lock and check, clear, set, outbox row.
    expect(one).toBe(4);
    expect(many).toBe(one);
  });

  it.each<[string, () => Record<string, unknown>, RegExp]>([
    [
      'an empty name',
      () => ({ squads: [{ name: '', participantIds: [seeded.plannedIds[a]!] }] }),
      /body\.squads\.0\.name must NOT have fewer than 1 characters/,
    ],
    [
      'a name over 5 characters',
      () => ({ squads: [{ name: 'Gruen1', participantIds: [seeded.plannedIds[a]!] }] }),
      /body\.squads\.0\.name must NOT have more than 5 characters/,
    ],
    [
      'a name padded with blanks',
      () => ({ squads: [{ name: ' Rot', participantIds: [seeded.plannedIds[a]!] }] }),
      /body\.squads\.0\.name must not start or end with whitespace/,
    ],
    [
      'a name used twice',
      () => ({
        squads: [
          { name: 'Rot', participantIds: [seeded.plannedIds[a]!] },
          { name: 'Rot', participantIds: [seeded.plannedIds[b]!] },
        ],
      }),
      /body\.squads\.1\.name "Rot" is already used by body\.squads\.0/,
    ],
    [
      'a participant in two squads',
      () => ({
        squads: [
          { name: 'Rot', participantIds: [seeded.plannedIds[a]!] },
          { name: 'Blau', participantIds: [seeded.plannedIds[d]!, seeded.plannedIds[a]!] },
        ],
      }),
      /participant \d+ is already listed in body\.squads\.0/,
    ],
    [
      'a participant of another event',
      () => ({ squads: [{ name: 'Rot', participantIds: [seeded.plannedIds[a]!, seeded.otherParticipant] }] }),
      /without a score row in event \d+: \d+$/,
    ],
    [
      'a participant of the event without a score row',
      () => ({ squads: [{ name: 'Rot', participantIds: [seeded.unplanned] }] }),
      /without a score row/,
    ],
    [
      'an unknown participant id',
      () => ({ squads: [{ name: 'Rot', participantIds: [999_999] }] }),
      /without a score row in event \d+: 999999/,
    ],
    [
      'a participant id that is not an integer',
      () => ({ squads: [{ name: 'Rot', participantIds: ['1'] }] }),
      /body\.squads\.0\.participantIds\.0 must be integer/,
    ],
    ['a missing squads list', () => ({ squads: undefined }), /body\.squads is required/],
    ['a non-boolean clearExisting', () => ({ clearExisting: 'yes' }), /body\.clearExisting must be boolean/],
  ])('refuses %s with 400 and writes nothing', async (_case, change, message) => {
    await resetSquadNames();
    const [rowsBefore, eventsBefore] = [await scoreRows(server.pool), await squadEvents(server.pool)];
    const response = await apply({ eventId: seeded.main.eventId, squads: squadsOf(), ...change() });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(response.body.message).toMatch(message);
    expect(await scoreRows(server.pool)).toEqual(rowsBefore);
    expect(await squadEvents(server.pool)).toEqual(eventsBefore);
  });

  it('answers 404 for an unknown event and writes nothing', async () => {
    const eventsBefore = await squadEvents(server.pool);
    const response = await apply({ eventId: 999_999, squads: [] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: 'event 999999 not found' });
    expect(await squadEvents(server.pool)).toEqual(eventsBefore);
  });

  it('accepts a proposal from generate as it is', async () => {
    await resetSquadNames();
    const proposal = (
      (await generate({ eventId: seeded.main.eventId, numberOfProposals: 1, breakCount: 1 })).body.proposals as Proposal[]
    )[0]!;
    const squads = proposal.squads.map((squad) => ({ name: squad.name, participantIds: squad.participants.map((member) => member.id) }));
    const response = await apply({ eventId: seeded.main.eventId, squads });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ squadsCreated: proposal.stats.totalSquads, participantsAssigned: seeded.plannedIds.length });
    const named = (await scoreRows(server.pool)).filter((row) => row.eventId === seeded.main.eventId && row.participantId !== null);
    expect(
      named.every((row) => squads.some((squad) => squad.name === row.squadName && squad.participantIds.includes(row.participantId!))),
    ).toBe(true);
  });
});

describe('squad edits by hand (admin, audited)', () => {
  const squadsUrl = (eventId = seeded.main.eventId) => `${server.url}/api/events/${eventId}/squads`;
  const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token: string | null = adminToken) =>
    sendJson(method, url, body, token === null ? {} : bearer(token));
  const namesOf = async (participantId: number) =>
    (await scoreRows(server.pool))
      .filter((row) => row.participantId === participantId && row.eventId === seeded.main.eventId)
      .map((row) => row.squadName);
  const auditRows = async () =>
    (
      await server.pool.query(
        `SELECT action, actor, squad_name, new_name, participant_ids, rows_changed FROM ${t.svc_squad_audit}
          WHERE event_id = $1 AND action <> 'apply' ORDER BY id`,
        [seeded.main.eventId],
      )
    ).rows;
  const [first, second] = [0, 3];

  beforeAll(async () => {
    await server.pool.query(`UPDATE ${t.wertungen} SET var_riege = 'Alt'`);
    await server.pool.query(`DELETE FROM ${t.svc_squad_audit}`);
  });

  it('creates a squad with its first gymnast (every score row of the gymnast in the event), and refuses a taken name', async () => {
    const id = seeded.plannedIds[first]!;
    const created = await send('POST', squadsUrl(), { name: 'Neu', participantIds: [id] });
    expect(created).toEqual({ status: 200, body: { eventId: seeded.main.eventId, action: 'create', squadName: 'Neu', rowsChanged: 2 } });
    expect(await namesOf(id)).toEqual(['Neu', 'Neu']);
    const taken = await send('POST', squadsUrl(), { name: 'Alt', participantIds: [seeded.plannedIds[second]!] });
    expect(taken).toMatchObject({ status: 409, body: { code: 'CONFLICT', message: expect.stringContaining('"Alt" exists already') } });
    expect(await namesOf(seeded.plannedIds[second]!)).toEqual(['Alt', 'Alt']);
  });

  it('moves a gymnast to another squad and out of every squad', async () => {
    const id = seeded.plannedIds[second]!;
    const moveUrl = `${server.url}/api/events/${seeded.main.eventId}/participants/${id}/squad`;
    expect((await send('PUT', moveUrl, { squadName: 'Neu' })).body).toMatchObject({ action: 'move', squadName: 'Neu', rowsChanged: 2 });
    expect(await namesOf(id)).toEqual(['Neu', 'Neu']);
    expect((await send('PUT', moveUrl, { squadName: null })).body).toMatchObject({ action: 'move', squadName: null, rowsChanged: 2 });
    expect(await namesOf(id)).toEqual([null, null]);
    const stranger = await send('PUT', `${server.url}/api/events/${seeded.main.eventId}/participants/${seeded.otherParticipant}/squad`, {
      squadName: 'Neu',
    });
    expect(stranger).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('renames a squad on every row that names it, refusing a taken or unknown name', async () => {
    const renamed = await send('PUT', `${squadsUrl()}/Neu`, { name: 'Blau' });
    expect(renamed.body).toMatchObject({ action: 'rename', squadName: 'Blau', rowsChanged: 2 });
    expect(await namesOf(seeded.plannedIds[first]!)).toEqual(['Blau', 'Blau']);
    expect(await send('PUT', `${squadsUrl()}/Blau`, { name: 'Alt' })).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(await send('PUT', `${squadsUrl()}/Nix`, { name: 'Neu' })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await send('PUT', `${squadsUrl()}/Blau`, { name: 'zu lang' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED' },
    });
    expect(await namesOf(seeded.plannedIds[first]!)).toEqual(['Blau', 'Blau']);
  });

  it('deletes a squad: its rows name no squad; other events keep theirs', async () => {
    const otherBefore = (await scoreRows(server.pool)).filter((row) => row.eventId !== seeded.main.eventId);
    const deleted = await send('DELETE', `${squadsUrl()}/Blau`);
    expect(deleted.body).toMatchObject({ action: 'delete', squadName: 'Blau', rowsChanged: 2 });
    expect(await namesOf(seeded.plannedIds[first]!)).toEqual([null, null]);
    expect((await scoreRows(server.pool)).filter((row) => row.eventId !== seeded.main.eventId)).toEqual(otherBefore);
    expect(await send('DELETE', `${squadsUrl()}/Blau`)).toMatchObject({ status: 404 });
  });

  it('records each edit with its actor in the squad audit; refusals record nothing', async () => {
    const first_ = seeded.plannedIds[first]!;
    const second_ = seeded.plannedIds[second]!;
    expect(await auditRows()).toEqual([
      { action: 'create', actor: 'anna', squad_name: null, new_name: 'Neu', participant_ids: [first_], rows_changed: 2 },
      { action: 'move', actor: 'anna', squad_name: null, new_name: 'Neu', participant_ids: [second_], rows_changed: 2 },
      { action: 'move', actor: 'anna', squad_name: null, new_name: null, participant_ids: [second_], rows_changed: 2 },
      { action: 'rename', actor: 'anna', squad_name: 'Neu', new_name: 'Blau', participant_ids: [], rows_changed: 2 },
      { action: 'delete', actor: 'anna', squad_name: 'Blau', new_name: null, participant_ids: [], rows_changed: 2 },
    ]);
  });

  it('needs the admin role and refuses before reading the body', async () => {
    const before = await scoreRows(server.pool);
    expect(await send('POST', squadsUrl(), { name: 'X' }, null)).toMatchObject({ status: 401 });
    expect(await send('DELETE', `${squadsUrl()}/Alt`, undefined, juryToken)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(await send('PUT', `${squadsUrl()}/Alt`, { name: 'B' }, juryToken)).toMatchObject({ status: 403 });
    expect(await scoreRows(server.pool)).toEqual(before);
  });
});
