/**
 * The read endpoints of the competition office (src/http/routes/office.ts): competitions, groups,
 * teams and current squads of an event, and who a token belongs to; plus the /office/ page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  insertRow,
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertParticipantWithScoreRow,
  insertScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { getJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, bearer, foreignToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let emptyEventId: number;
const MISSING = 2_147_483_647;

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Office-Cup');
  emptyEventId = await insertRow(server.pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Leer' });
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /api/events/:eventId/competitions', () => {
  it('lists the competitions with group flag and attempts (1 when int_versuche is not set)', async () => {
    const groupCompetition = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: competition.eventId,
      var_name: 'Gruppen',
      bol_gruppe: true,
      int_versuche: 3,
    });
    const unset = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: competition.eventId,
      var_name: null,
      bol_gruppe: null,
      int_versuche: null,
    });
    const { status, body } = await getJson(`${server.url}/api/events/${competition.eventId}/competitions`);
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: competition.competitionId, name: 'Office-Cup WK', isGroupCompetition: false, attempts: 1, disciplineIds: [] },
      { id: groupCompetition, name: 'Gruppen', isGroupCompetition: true, attempts: 3, disciplineIds: [] },
      { id: unset, name: null, isGroupCompetition: false, attempts: 1, disciplineIds: [] },
    ]);
  });

  it("names each competition's devices: the disciplines its score rows are planned on, in planning order", async () => {
    const planned = await createCompetition(server.pool, 'Geräte-Cup');
    const [floor, vault] = [
      await insertDiscipline(server.pool, { name: 'Boden' }),
      await insertDiscipline(server.pool, { name: 'Sprung' }),
    ];
    for (let n = 0; n < 2; n++) {
      const { scoreId } = await insertParticipantWithScoreRow(server.pool, planned);
      await insertDetailRow(server.pool, scoreId, vault.id, null);
      await insertDetailRow(server.pool, scoreId, floor.id, null);
    }
    const { body } = await getJson(`${server.url}/api/events/${planned.eventId}/competitions`);
    expect(body).toMatchObject([{ id: planned.competitionId, disciplineIds: [vault.id, floor.id] }]);
  });

  it('answers [] for an event without competitions and 404 for a missing event', async () => {
    expect(await getJson(`${server.url}/api/events/${emptyEventId}/competitions`)).toEqual({ status: 200, body: [] });
    const missing = await getJson(`${server.url}/api/events/${MISSING}/competitions`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND', message: `event ${MISSING} not found` });
  });
});

describe('GET /api/events/:eventId/groups and /teams', () => {
  it.each([
    ['groups', 'gruppen', 'int_gruppenid'],
    ['teams', 'mannschaften', 'int_mannschaftenid'],
  ] as const)('lists the %s of the event by start number with club and squad', async (kind, table, idColumn) => {
    const late = await insertRow(server.pool, table, idColumn, {
      int_veranstaltungenid: competition.eventId,
      var_name: `${kind} B`,
      int_startnummer: 9,
      int_vereineid: competition.clubId,
      var_riege: 'wRot',
    });
    const early = await insertRow(server.pool, table, idColumn, {
      int_veranstaltungenid: competition.eventId,
      var_name: `${kind} A`,
      int_startnummer: 2,
    });
    await insertRow(server.pool, table, idColumn, { int_veranstaltungenid: emptyEventId, var_name: 'elsewhere' });
    const { status, body } = await getJson(`${server.url}/api/events/${competition.eventId}/${kind}`);
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: early, name: `${kind} A`, startNumber: 2, clubId: null, clubName: null, squadName: null, competitions: [] },
      {
        id: late,
        name: `${kind} B`,
        startNumber: 9,
        clubId: competition.clubId,
        clubName: 'TV Musterstadt',
        squadName: 'wRot',
        competitions: [],
      },
    ]);
    expect((await getJson(`${server.url}/api/events/${MISSING}/${kind}`)).status).toBe(404);
  });

  it('names the competitions a team is entered in and their devices: recorded ones widened to their sport', async () => {
    const eventId = await insertRow(server.pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Team-Tag' });
    const sport = await insertRow(server.pool, 'sport', 'int_sportid', { var_name: 'TeamGym' });
    const otherSport = await insertRow(server.pool, 'sport', 'int_sportid', { var_name: 'Andere' });
    const floor = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: 'TG Boden', int_sportid: sport });
    const tramp = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: 'TG Trampolin', int_sportid: sport });
    await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: 'Reck', int_sportid: otherSport });
    const competition = (name: string) =>
      insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', { int_veranstaltungenid: eventId, var_name: name });
    const [entered, unplanned] = [await competition('TeamGym'), await competition('Neu')];
    await competition('Einzel');
    const team = (name: string) =>
      insertRow(server.pool, 'mannschaften', 'int_mannschaftenid', { int_veranstaltungenid: eventId, var_name: name });
    const [scored, other, idle] = [await team('A'), await team('B'), await team('C')];
    const row = (competitionId: number, teamId: number) =>
      insertRow(server.pool, 'wertungen', 'int_wertungenid', {
        int_wettkaempfeid: competitionId,
        int_mannschaftenid: teamId,
        int_statusid: 1,
      });
    await row(entered, scored);
    const otherRow = await row(entered, other);
    await row(unplanned, other);
    // Another team's recorded floor score says the competition is held on the TeamGym devices.
    await insertRow(server.pool, 'wertungen_details', 'int_wertungen_detailsid', {
      int_wertungenid: otherRow,
      int_disziplinenid: floor,
      int_versuch: 1,
      rel_leistung: 9.5,
      int_kp: 0,
    });
    const { body } = await getJson(`${server.url}/api/events/${eventId}/teams`);
    const byId = new Map((body as Array<{ id: number; competitions: unknown }>).map((unit) => [unit.id, unit.competitions]));
    expect(byId.get(scored)).toEqual([{ id: entered, disciplineIds: [floor, tramp].sort((a, b) => a - b) }]);
    expect(byId.get(other)).toEqual([
      { id: entered, disciplineIds: [floor, tramp].sort((a, b) => a - b) },
      { id: unplanned, disciplineIds: [] },
    ]);
    expect(byId.get(idle)).toEqual([]);
  });
});

describe('GET /api/events/:eventId/squads', () => {
  it('groups the participants by the squad names of their score rows; blank names and group rows count as none', async () => {
    const squadEvent = await createCompetition(server.pool, 'Riegen');
    const second = {
      ...squadEvent,
      competitionId: await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
        int_veranstaltungenid: squadEvent.eventId,
        var_name: 'Finale',
      }),
    };
    const person = (lastName: string, gender = 2) => insertParticipant(server.pool, squadEvent, { firstName: 'Pia', lastName, gender });
    const [zoe, adam, bert, carl, dora] = [
      await person('Zoe'),
      await person('Adam', 1),
      await person('Bert', 1),
      await person('Carl', 9),
      await person('Dora'),
    ];
    await insertScoreRow(server.pool, squadEvent, zoe, { squadName: 'wRot' });
    await insertScoreRow(server.pool, second, zoe, { squadName: 'wRot' });
    await insertScoreRow(server.pool, squadEvent, adam, { squadName: 'mBlau' });
    // Two competitions naming two squads: shown in both, as stored.
    await insertScoreRow(server.pool, squadEvent, bert, { squadName: 'mBlau' });
    await insertScoreRow(server.pool, second, bert, { squadName: 'gGrn' });
    await insertScoreRow(server.pool, squadEvent, carl, { squadName: '  ' });
    await insertScoreRow(server.pool, squadEvent, dora);
    // A squad on one row makes a participant assigned, whatever the other rows say.
    await insertScoreRow(server.pool, second, adam);
    const groupId = await insertRow(server.pool, 'gruppen', 'int_gruppenid', { int_veranstaltungenid: squadEvent.eventId, var_name: 'G' });
    await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: squadEvent.competitionId,
      int_gruppenid: groupId,
      int_statusid: 1,
      var_riege: 'GRP',
    });

    const { status, body } = await getJson(`${server.url}/api/events/${squadEvent.eventId}/squads`);
    expect(status).toBe(200);
    const entry = (id: number, lastName: string, gender: string) => ({
      id,
      firstName: 'Pia',
      lastName,
      clubName: 'TV Musterstadt',
      gender,
    });
    expect(body).toEqual({
      eventId: squadEvent.eventId,
      squads: [
        { name: 'gGrn', participants: [entry(bert, 'Bert', 'male')] },
        { name: 'mBlau', participants: [entry(adam, 'Adam', 'male'), entry(bert, 'Bert', 'male')] },
        { name: 'wRot', participants: [entry(zoe, 'Zoe', 'female')] },
      ],
      unassigned: [entry(carl, 'Carl', 'other'), entry(dora, 'Dora', 'female')],
    });
  });

  it('answers an event without score rows with no squads, and 404 for a missing event', async () => {
    expect(await getJson(`${server.url}/api/events/${emptyEventId}/squads`)).toEqual({
      status: 200,
      body: { eventId: emptyEventId, squads: [], unassigned: [] },
    });
    expect((await getJson(`${server.url}/api/events/${MISSING}/squads`)).status).toBe(404);
  });

  it('runs one statement however many participants and squads the event has', async () => {
    const big = await createCompetition(server.pool, 'Gross');
    for (let index = 0; index < 30; index++) {
      await insertScoreRow(server.pool, big, await insertParticipant(server.pool, big, { lastName: `P${index}` }), {
        squadName: `R${index % 7}`,
      });
    }
    // Only the request's own statements: the outbox relay polls the same pool meanwhile.
    const eventStatements = (statements: string[]) => statements.filter((text) => text.includes(t.veranstaltungen));
    for (const path of ['squads', 'competitions', 'groups', 'teams']) {
      const small = await captureStatements(server.pool, () => getJson(`${server.url}/api/events/${emptyEventId}/${path}`));
      const large = await captureStatements(server.pool, () => getJson(`${server.url}/api/events/${big.eventId}/${path}`));
      expect(large.result.status).toBe(200);
      expect(eventStatements(small.statements)).toHaveLength(1);
      expect(eventStatements(large.statements)).toHaveLength(1);
    }
  });
});

describe('GET /api/session', () => {
  it('tells the subject, role and expiry of a valid token', async () => {
    for (const [token, sub, role] of [
      [adminToken, 'anna', 'admin'],
      [juryToken, 'judge-1', 'jury'],
    ] as const) {
      const response = await fetch(`${server.url}/api/session`, { headers: bearer(token) });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { sub: string; role: string; expiresAt: string };
      expect(body).toMatchObject({ sub, role });
      const expiresIn = Date.parse(body.expiresAt) - Date.now();
      expect(expiresIn).toBeGreaterThan(50 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);
    }
  });

  it('refuses a missing or foreign token with 401', async () => {
    expect((await getJson(`${server.url}/api/session`)).status).toBe(401);
    const foreign = await fetch(`${server.url}/api/session`, { headers: bearer(foreignToken) });
    expect(foreign.status).toBe(401);
    expect(await foreign.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('the office page', () => {
  it('is served at /office/ with its own bundle', async () => {
    const response = await fetch(`${server.url}/office/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>Competition office</title>');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${server.url}/office/${script}`);
    expect(asset.status).toBe(200);
    // Read to the end, or the open response keeps the connection (and the server's close) waiting.
    await asset.arrayBuffer();
    // No inline script or style: the page works under a strict Content-Security-Policy.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });
});
