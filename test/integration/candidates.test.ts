import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { insertRow } from '../support/fixtures.js';
import { getJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';

let server: TestServer;
let eventId: number;
let ownClubId: number;
let otherClubId: number;
let emptyClubId: number;
let groupId: number;
const ids: Record<string, number> = {};

/**
 * Four Gruppe participants of the event, one per (club, planned) combination, so every filter
 * combination answers differently; plus rows that the base set must never contain.
 */
beforeAll(async () => {
  server = await startTestServer();
  const pool = server.pool;
  eventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Gruppenfest' });
  const otherEventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Anderes Fest' });
  ownClubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'TSV Eigen' });
  otherClubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'SC Fremd' });
  emptyClubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'Leer e.V.' });
  groupId = await insertRow(pool, 'gruppen', 'int_gruppenid', {
    int_veranstaltungenid: eventId,
    var_name: 'Gruppe 1',
    int_vereineid: ownClubId,
  });
  const competitionId = await insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', { int_veranstaltungenid: otherEventId, var_name: 'WK' });

  const participant = (key: string, values: Record<string, unknown>) =>
    insertRow(pool, 'teilnehmer', 'int_teilnehmerid', { int_eventid: eventId, var_typ: 'Gruppe', ...values }).then((id) => (ids[key] = id));
  await participant('ownFree', {
    var_vorname: 'Anna',
    var_nachname: 'Zeller',
    int_vereineid: ownClubId,
    int_geschlecht: 2,
    dat_geburtstag: '2012-03-04',
    var_startnummer: '101',
  });
  await participant('ownPlanned', { var_vorname: 'Ben', var_nachname: 'Adler', int_vereineid: ownClubId, int_geschlecht: 1 });
  await participant('otherFree', { var_vorname: 'Carla', var_nachname: 'Adler', int_vereineid: otherClubId, int_geschlecht: 9 });
  await participant('otherPlanned', { var_vorname: 'Anton', var_nachname: 'Zeller', int_vereineid: otherClubId });
  await participant('notGroupType', { var_vorname: 'Eva', var_nachname: 'Berg', int_vereineid: ownClubId, var_typ: 'Einzel' });
  await participant('otherEvent', { var_vorname: 'Finn', var_nachname: 'Berg', int_vereineid: ownClubId, int_eventid: otherEventId });

  // A score row anywhere makes a participant planned, even in another event's competition.
  for (const key of ['ownPlanned', 'otherPlanned']) {
    await insertRow(pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: competitionId,
      int_teilnehmerid: ids[key],
      int_statusid: 1,
    });
  }
});
afterAll(async () => {
  await server?.stop();
});

async function candidates(query: Record<string, unknown>) {
  const search = new URLSearchParams(
    Object.entries({ eventId, clubId: ownClubId, groupId, ...query }).map(([key, value]) => [key, String(value)]),
  );
  return getJson(`${server.url}/api/groups/available-participants?${search}`);
}

async function candidateIds(query: Record<string, unknown>): Promise<number[]> {
  const { status, body } = await candidates(query);
  expect(status).toBe(200);
  expect(body.total).toBe(body.results.length);
  return body.results.map((candidate: { id: number }) => candidate.id);
}

describe('GET /api/groups/available-participants', () => {
  it('gives each of the four filter combinations its own answer, ordered by last name then first name', async () => {
    expect(await candidateIds({})).toEqual([ids.ownPlanned, ids.otherFree, ids.ownFree, ids.otherPlanned]);
    expect(await candidateIds({ hidePlanned: false, hideOtherClubs: false })).toEqual([
      ids.ownPlanned,
      ids.otherFree,
      ids.ownFree,
      ids.otherPlanned,
    ]);
    expect(await candidateIds({ hideOtherClubs: true })).toEqual([ids.ownPlanned, ids.ownFree]);
    expect(await candidateIds({ hidePlanned: true })).toEqual([ids.otherFree, ids.ownFree]);
    expect(await candidateIds({ hidePlanned: true, hideOtherClubs: true })).toEqual([ids.ownFree]);
  });

  it('answers with the contract shape', async () => {
    const { body } = await candidates({ hidePlanned: true, hideOtherClubs: true });
    expect(body).toEqual({
      results: [
        {
          id: ids.ownFree,
          firstName: 'Anna',
          lastName: 'Zeller',
          startNumber: '101',
          clubId: ownClubId,
          clubName: 'TSV Eigen',
          gender: 'female',
          birthDate: '2012-03-04',
        },
      ],
      total: 1,
    });
    const all = await candidates({});
    const genders = Object.fromEntries(
      all.body.results.map((candidate: { id: number; gender: string }) => [candidate.id, candidate.gender]),
    );
    expect(genders).toEqual({
      [ids.ownFree!]: 'female',
      [ids.ownPlanned!]: 'male',
      [ids.otherFree!]: 'other',
      [ids.otherPlanned!]: 'other',
    });
  });

  it('returns an empty result when nothing matches', async () => {
    expect(await candidates({ clubId: emptyClubId, hideOtherClubs: true })).toEqual({ status: 200, body: { results: [], total: 0 } });
    expect(await candidates({ eventId: 999_999 })).toEqual({ status: 200, body: { results: [], total: 0 } });
  });

  it('runs one statement, with the planned check only when hidePlanned is set', async () => {
    const participantStatements = (statements: string[]) => statements.filter((text) => text.includes(t.teilnehmer));
    const without = await captureStatements(server.pool, () => candidates({ hideOtherClubs: true }));
    expect(participantStatements(without.statements)).toHaveLength(1);
    expect(participantStatements(without.statements)[0]).not.toMatch(/NOT EXISTS/);
    const withCheck = await captureStatements(server.pool, () => candidates({ hidePlanned: true }));
    expect(participantStatements(withCheck.statements)).toHaveLength(1);
    expect(participantStatements(withCheck.statements)[0]).toMatch(new RegExp(`NOT EXISTS \\(SELECT 1 FROM ${t.wertungen} `));
  });

  it('refuses requests without the required parameters or with non-boolean flags', async () => {
    const missing = await getJson(`${server.url}/api/groups/available-participants?eventId=${eventId}&clubId=${ownClubId}`);
    expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(missing.body.message).toMatch(/groupId/);
    expect((await candidates({ hidePlanned: 'maybe' })).status).toBe(400);
  });
});
