/**
 * Result lists: GET /api/results (all-around, per age class), GET /api/results/teams and their
 * CSV exports, over rows written as the desktop program writes them.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { parseCsv } from '../../src/domain/csv.js';
import {
  insertRow,
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertScoreRow,
  storeAppSetting,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let competition: Competition;
let devices: Discipline[];
const ids: Record<string, number> = {};

/** A participant of `competitionId` with one final value per device (null: start list row without a value, undefined: no row). */
async function athlete(
  competitionId: number,
  lastName: string,
  values: Array<number | null | undefined>,
  extra: { birthDate?: string | null; outOfCompetition?: boolean; didNotStart?: boolean } = {},
): Promise<number> {
  const participantId = await insertParticipant(server.pool, competition, {
    lastName,
    firstName: 'Vera',
    startNumber: String(100 + Object.keys(ids).length),
    birthDate: extra.birthDate ?? null,
  });
  const scoreId = await insertScoreRow(server.pool, { ...competition, competitionId }, participantId);
  await server.pool.query(`UPDATE ${t.wertungen} SET bol_ak = $2, bol_startet_nicht = $3 WHERE int_wertungenid = $1`, [
    scoreId,
    extra.outOfCompetition ?? false,
    extra.didNotStart ?? false,
  ]);
  for (const [index, value] of values.entries())
    if (value !== undefined) await insertDetailRow(server.pool, scoreId, devices[index]!.id, value);
  ids[lastName] = participantId;
  return scoreId;
}

const results = (query: string) => getJson(`${server.url}/api/results?${query}`);
const ranking = (body: any, classIndex = 0) =>
  body.classes[classIndex].results.map((row: any) => [row.rank, row.lastName, row.total, row.complete]);

let allAround: number;
let ageClasses: number;
let teams: number;
let big: number;

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Gaumeisterschaft', '2024-05-17');
  devices = [
    await insertDiscipline(server.pool, { name: 'Sprung' }),
    await insertDiscipline(server.pool, { name: 'Boden' }),
    await insertDiscipline(server.pool, { name: 'Balken' }),
  ];
  await server.pool.query(`UPDATE ${t.disziplinen} SET var_kurzname = left(var_name, 2) WHERE int_disziplinenid = ANY($1)`, [
    devices.map((device) => device.id),
  ]);
  allAround = competition.competitionId;
  const namedCompetition = (name: string) =>
    insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', { int_veranstaltungenid: competition.eventId, var_name: name });
  ageClasses = await namedCompetition('Jahrgänge');
  teams = await namedCompetition('Mannschaft');
  big = await namedCompetition('Groß');

  // Totals 27 three times: best single scores 9 / 10 / 9.5.
  await athlete(allAround, 'Adler', [9, 9, 9]);
  await athlete(allAround, 'Berg', [10, 9, 8]);
  await athlete(allAround, 'Christ', [9.5, 9.5, 8]);
  await athlete(allAround, 'Dorn', [8, 8, 8]);
  // Best attempt: 7 then 9.5 on the first device; Balken on the start list without a value.
  const eck = await athlete(allAround, 'Eck', [7, 9, null]);
  await insertRow(server.pool, 'wertungen_details', 'int_wertungen_detailsid', {
    int_wertungenid: eck,
    int_disziplinenid: devices[0]!.id,
    int_versuch: 2,
    int_kp: 0,
    rel_leistung: 9.5,
  });
  // No Balken row at all.
  await athlete(allAround, 'Fuchs', [9, 9, undefined]);
  await athlete(allAround, 'Ausser', [10, 10, 10], { outOfCompetition: true });
  await athlete(allAround, 'Fehlt', [10, 10, 10], { didNotStart: true });
  await athlete(allAround, 'Leer', [null, null, null]);

  await athlete(ageClasses, 'Januar', [9, 9, 9], { birthDate: '2014-01-01' });
  await athlete(ageClasses, 'Dezember', [8, 8, 8], { birthDate: '2014-12-31' });
  await athlete(ageClasses, 'Alt', [7, 7, 7], { birthDate: '2000-06-01' });
  await athlete(ageClasses, 'Unbekannt', [6, 6, 6], { birthDate: null });

  for (let n = 0; n < 30; n++) await athlete(big, `Viele${String(n).padStart(2, '0')}`, [n % 10, 5, n % 7]);
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await server.pool.query(`DELETE FROM ${t.svc_settings} WHERE key IN ('results', 'ageRule')`);
});

describe('GET /api/results', () => {
  it('sums the best attempt per discipline, shares ranks (1, 1, 1, 4) and lists the rest after the ranked', async () => {
    const { status, body } = await results(`eventId=${competition.eventId}&competitionId=${allAround}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      eventId: competition.eventId,
      eventName: 'Gaumeisterschaft',
      dateFrom: '2024-05-17',
      competitionId: allAround,
      competitionName: 'Gaumeisterschaft WK',
      ageRule: 'birth-year',
      tieBreak: 'none',
      groupBy: null,
      seq: expect.any(Number),
      disciplines: [
        { disciplineId: devices[0]!.id, name: 'Sprung', shortName: 'Sp' },
        { disciplineId: devices[1]!.id, name: 'Boden', shortName: 'Bo' },
        { disciplineId: devices[2]!.id, name: 'Balken', shortName: 'Ba' },
      ],
    });
    expect(body.classes).toHaveLength(1);
    expect(body.classes[0].ageClass).toBeNull();
    expect(ranking(body)).toEqual([
      [1, 'Adler', 27, true],
      [1, 'Berg', 27, true],
      [1, 'Christ', 27, true],
      [4, 'Dorn', 24, true],
      [5, 'Eck', 18.5, false],
      [6, 'Fuchs', 18, false],
      [null, 'Ausser', 30, true],
      [null, 'Leer', 0, false],
    ]);
  });

  it('reports each discipline with its best attempt and its own shared rank; complete is false for a missing device', async () => {
    const { body } = await results(`eventId=${competition.eventId}&competitionId=${allAround}`);
    const row = (name: string) => body.classes[0].results.find((result: any) => result.lastName === name);
    expect(row('Eck')).toMatchObject({
      participantId: ids.Eck,
      scoreId: expect.any(Number),
      firstName: 'Vera',
      clubName: 'TV Musterstadt',
      birthYear: null,
      outOfCompetition: false,
      disciplines: [
        { disciplineId: devices[0]!.id, score: 9.5, rank: 2, tieBreak: null },
        { disciplineId: devices[1]!.id, score: 9, rank: 2, tieBreak: null },
        { disciplineId: devices[2]!.id, score: null, rank: null, tieBreak: null },
      ],
    });
    expect(row('Fuchs').complete).toBe(false);
    expect(row('Fuchs').disciplines[2]).toEqual({ disciplineId: devices[2]!.id, score: null, rank: null, tieBreak: null });
    expect(row('Berg').disciplines.map((discipline: any) => discipline.rank)).toEqual([1, 2, 2]);
    expect(body.classes[0].results.some((result: any) => result.lastName === 'Fehlt')).toBe(false);
  });

  it('tie-break best-device-scores (FIG): the higher best single score, then the next best', async () => {
    await storeAppSetting(server.pool, 'results', { tieBreak: 'best-device-scores' });
    const { body } = await results(`eventId=${competition.eventId}&competitionId=${allAround}`);
    expect(body.tieBreak).toBe('best-device-scores');
    expect(ranking(body).slice(0, 4)).toEqual([
      [1, 'Berg', 27, true],
      [2, 'Christ', 27, true],
      [3, 'Adler', 27, true],
      [4, 'Dorn', 24, true],
    ]);
  });

  it('tie-break per competition: a competition entry overrides the general rule, none keeps shared ranks', async () => {
    await storeAppSetting(server.pool, 'results', { tieBreak: 'best-device-scores', competitions: { [allAround]: { tieBreak: 'none' } } });
    const { body } = await results(`eventId=${competition.eventId}&competitionId=${allAround}`);
    expect(body.tieBreak).toBe('none');
    expect(
      ranking(body)
        .slice(0, 3)
        .map((row: any[]) => row[0]),
    ).toEqual([1, 1, 1]);
    await storeAppSetting(server.pool, 'results', { competitions: { [allAround]: { tieBreak: 'best-device-scores' } } });
    expect((await results(`eventId=${competition.eventId}&competitionId=${allAround}`)).body.tieBreak).toBe('best-device-scores');
  });

  it('counts a stored rule it does not know as none', async () => {
    await storeAppSetting(server.pool, 'results', { tieBreak: 'coin-toss' });
    const { body } = await results(`eventId=${competition.eventId}&competitionId=${allAround}`);
    expect(body.tieBreak).toBe('none');
  });

  describe('groupBy=ageClass', () => {
    const classes = async () => {
      const { status, body } = await results(`eventId=${competition.eventId}&competitionId=${ageClasses}&groupBy=ageClass`);
      expect(status).toBe(200);
      return body.classes.map((group: any) => [group.ageClass, group.results.map((row: any) => [row.rank, row.lastName, row.birthYear])]);
    };
    const yearClasses = () => ({ competitions: { [ageClasses]: { ageClassRanges: '9-9, 10-10' } } });

    it('birth-year (default): born 1 January and 31 December of one year are one class; other and unknown last', async () => {
      await storeAppSetting(server.pool, 'results', yearClasses());
      expect(await classes()).toEqual([
        [
          '10-10',
          [
            [1, 'Januar', 2014],
            [2, 'Dezember', 2014],
          ],
        ],
        ['other', [[1, 'Alt', 2000]]],
        ['unknown', [[1, 'Unbekannt', null]]],
      ]);
    });

    it('exact: completed years on the start date put them in different classes, each ranked on its own', async () => {
      await storeAppSetting(server.pool, 'results', yearClasses());
      await storeAppSetting(server.pool, 'ageRule', { rule: 'exact' });
      const { body } = await results(`eventId=${competition.eventId}&competitionId=${ageClasses}&groupBy=ageClass`);
      expect(body.ageRule).toBe('exact');
      expect(await classes()).toEqual([
        ['9-9', [[1, 'Dezember', 2014]]],
        ['10-10', [[1, 'Januar', 2014]]],
        ['other', [[1, 'Alt', 2000]]],
        ['unknown', [[1, 'Unbekannt', null]]],
      ]);
    });

    it('uses the general age classes (squad range format) without a competition entry', async () => {
      // Default ranges 6-8,9-10,11-12,13-14,15-18: both 2014 births are 10 in 2024.
      expect((await classes())[0]).toEqual([
        '9-10',
        [
          [1, 'Januar', 2014],
          [2, 'Dezember', 2014],
        ],
      ]);
    });
  });

  it('runs the same number of statements for 30 entries as for 4', async () => {
    const count = async (competitionId: number) => {
      const { statements, result } = await captureStatements(server.pool, () =>
        results(`eventId=${competition.eventId}&competitionId=${competitionId}&groupBy=ageClass`),
      );
      expect(result.status).toBe(200);
      return statements.filter((text) => text.includes(t.wertungen) || text.includes(t.svc_settings) || text.includes(t.veranstaltungen))
        .length;
    };
    // The installation's first read of a setting stores its defaults: one statement more, once.
    const first = await count(ageClasses);
    const small = await count(ageClasses);
    expect(first).toBe(small + 2);
    expect(small).toBeLessThanOrEqual(5);
    expect(await count(big)).toBe(small);
  });

  it.each([
    ['eventId missing', `competitionId=1`, 400, /querystring\.eventId is required/],
    ['competitionId missing', () => `eventId=${competition.eventId}`, 400, /competitionId is required/],
    ['eventId 0', `eventId=0&competitionId=1`, 400, /eventId must be >= 1/],
    ['groupBy unknown', () => `eventId=${competition.eventId}&competitionId=${allAround}&groupBy=club`, 400, /groupBy/],
    ['unknown event', `eventId=999999&competitionId=1`, 404, /No event 999999/],
    ['competition of another event', () => `eventId=${competition.eventId}&competitionId=999999`, 404, /No competition 999999/],
  ])('%s → %d with the contract body', async (_name, query, status, message) => {
    const { status: actual, body } = await results(typeof query === 'function' ? query() : query);
    expect(actual).toBe(status);
    expect(body).toMatchObject({ statusCode: status, code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED' });
    expect(body.message).toMatch(message);
  });
});

describe('GET /api/results/teams', () => {
  let teamDevices: Discipline[];
  const team = async (name: string, finals: Array<Array<number | null>>) => {
    const teamId = await insertRow(server.pool, 'mannschaften', 'int_mannschaftenid', {
      int_veranstaltungenid: competition.eventId,
      var_name: name,
      int_startnummer: 300 + name.length,
      int_vereineid: competition.clubId,
    });
    const scoreId = await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: teams,
      int_mannschaftenid: teamId,
      int_statusid: 1,
    });
    for (const [index, attempts] of finals.entries()) {
      const discipline = teamDevices[index]!;
      for (const [attemptIndex, value] of attempts.entries()) {
        // A component row under field A (not the final) must not count.
        await insertRow(server.pool, 'wertungen_details', 'int_wertungen_detailsid', {
          int_wertungenid: scoreId,
          int_disziplinenid: discipline.id,
          int_versuch: attemptIndex + 1,
          int_kp: discipline.fields.A,
          rel_leistung: 99,
        });
        await insertRow(server.pool, 'wertungen_details', 'int_wertungen_detailsid', {
          int_wertungenid: scoreId,
          int_disziplinenid: discipline.id,
          int_versuch: attemptIndex + 1,
          int_kp: discipline.fields.final,
          rel_leistung: value,
        });
      }
    }
    return teamId;
  };

  beforeAll(async () => {
    teamDevices = [
      await insertDiscipline(server.pool, { name: 'TeamGym Boden' }),
      await insertDiscipline(server.pool, { name: 'TeamGym Trampolin' }),
    ];
    await team('Alpha', [[14, 15.5], [16]]);
    await team('Beta', [[15.5], [15, 16]]);
    await team('Gamma', [[14], [null]]);
  });

  it('ranks the team score rows by their total of best attempts, with the per-discipline scores', async () => {
    const { status, body } = await getJson(`${server.url}/api/results/teams?eventId=${competition.eventId}&competitionId=${teams}`);
    expect(status).toBe(200);
    expect(body.disciplines.map((discipline: any) => discipline.name)).toEqual(['TeamGym Boden', 'TeamGym Trampolin']);
    expect(
      body.results.map((row: any) => [
        row.rank,
        row.name,
        row.total,
        row.complete,
        row.disciplines.map((discipline: any) => discipline.score),
      ]),
    ).toEqual([
      [1, 'Alpha', 31.5, true, [15.5, 16]],
      [1, 'Beta', 31.5, true, [15.5, 16]],
      [3, 'Gamma', 14, false, [14, null]],
    ]);
    expect(body.results[0]).toMatchObject({
      teamId: expect.any(Number),
      scoreId: expect.any(Number),
      clubName: 'TV Musterstadt',
      startNumber: 305,
      outOfCompetition: false,
    });
  });

  it('answers 404 for a competition outside the event', async () => {
    const { status, body } = await getJson(`${server.url}/api/results/teams?eventId=${competition.eventId}&competitionId=999999`);
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });
});

describe('CSV exports', () => {
  const fetchCsv = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  };
  const number = (text: string, decimalMark: string) => (text === '' ? null : Number(text.replace(decimalMark, '.')));

  it.each([
    [';', ',', ''],
    [',', '.', '&separator=,'],
    ['\t', ',', '&separator=tab'],
  ])('results.csv with %j parses back into the JSON (decimal mark %j)', async (separator, decimalMark, parameter) => {
    await storeAppSetting(server.pool, 'results', { competitions: { [ageClasses]: { ageClassRanges: '9-9, 10-10' } } });
    const query = `eventId=${competition.eventId}&competitionId=${ageClasses}&groupBy=ageClass`;
    const json = (await results(query)).body;
    const text = await fetchCsv(`/api/results.csv?${query}${parameter}`);
    const [header, ...rows] = parseCsv(text, separator === '\t' ? 'tab' : (separator as ';' | ','));
    expect(header).toEqual([
      'Age class',
      'Rank',
      'Start number',
      'Last name',
      'First name',
      'Club',
      'Birth year',
      'Sp',
      'Bo',
      'Ba',
      'Total',
      'Complete',
      'Out of competition',
      'Participant ID',
      'Sp rank',
      'Bo rank',
      'Ba rank',
    ]);
    const parsed = rows.map((cells) => ({
      ageClass: cells[0],
      rank: number(cells[1]!, decimalMark),
      startNumber: cells[2],
      lastName: cells[3],
      firstName: cells[4],
      clubName: cells[5],
      birthYear: number(cells[6]!, decimalMark),
      scores: cells.slice(7, 10).map((cell) => number(cell, decimalMark)),
      total: number(cells[10]!, decimalMark),
      complete: cells[11] === 'yes',
      outOfCompetition: cells[12] === 'yes',
      participantId: Number(cells[13]),
      disciplineRanks: cells.slice(14, 17).map((cell) => number(cell, decimalMark)),
    }));
    const expected = json.classes.flatMap((group: any) =>
      group.results.map((row: any) => ({
        ageClass: group.ageClass,
        rank: row.rank,
        startNumber: row.startNumber,
        lastName: row.lastName,
        firstName: row.firstName,
        clubName: row.clubName,
        birthYear: row.birthYear,
        scores: row.disciplines.map((discipline: any) => discipline.score),
        total: row.total,
        complete: row.complete,
        outOfCompetition: row.outOfCompetition,
        participantId: row.participantId,
        disciplineRanks: row.disciplines.map((discipline: any) => discipline.rank),
      })),
    );
    expect(parsed).toEqual(expected);
  });

  it('results.csv without groupBy, with fractional scores and incomplete rows, parses back into the JSON', async () => {
    const query = `eventId=${competition.eventId}&competitionId=${allAround}`;
    const json = (await results(query)).body;
    const [header, ...rows] = parseCsv(await fetchCsv(`/api/results.csv?${query}`));
    expect(header![0]).toBe('Rank');
    expect(rows.map((cells) => [number(cells[0]!, ','), cells[2], cells.slice(6, 10).map((cell) => number(cell, ','))])).toEqual(
      json.classes[0].results.map((row: any) => [
        row.rank,
        row.lastName,
        [...row.disciplines.map((discipline: any) => discipline.score), row.total],
      ]),
    );
    expect(rows.find((cells) => cells[2] === 'Eck')!.slice(6, 10)).toEqual(['9,5', '9', '', '18,5']);
  });

  it('teams.csv parses back into the JSON', async () => {
    const query = `eventId=${competition.eventId}&competitionId=${teams}`;
    const json = (await getJson(`${server.url}/api/results/teams?${query}`)).body;
    const [header, ...rows] = parseCsv(await fetchCsv(`/api/results/teams.csv?${query}`));
    expect(header).toEqual([
      'Rank',
      'Start number',
      'Team',
      'Club',
      'TeamGym Boden',
      'TeamGym Trampolin',
      'Total',
      'Complete',
      'Out of competition',
      'Team ID',
      'TeamGym Boden rank',
      'TeamGym Trampolin rank',
    ]);
    expect(
      rows.map((cells) => [
        number(cells[0]!, ','),
        Number(cells[1]),
        cells[2],
        cells[3],
        cells.slice(4, 6).map((cell) => number(cell, ',')),
        number(cells[6]!, ','),
        cells[7] === 'yes',
        Number(cells[9]),
        cells.slice(10, 12).map((cell) => number(cell, ',')),
      ]),
    ).toEqual(
      json.results.map((row: any) => [
        row.rank,
        row.startNumber,
        row.name,
        row.clubName,
        row.disciplines.map((discipline: any) => discipline.score),
        row.total,
        row.complete,
        row.teamId,
        row.disciplines.map((discipline: any) => discipline.rank),
      ]),
    );
  });

  it('refuses a bad separator with the contract body', async () => {
    const response = await fetch(`${server.url}/api/results.csv?eventId=${competition.eventId}&competitionId=${allAround}&separator=|`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
