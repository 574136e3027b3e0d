/**
 * Issue 45, item 5: participants in the office. A registrations file (CSV or XLSX) is previewed
 * with each row's problems and nothing written; the import enters the rows without problems into
 * the legacy tables (participant, score row, empty detail rows per planned apparatus) and a second
 * import of the same file changes nothing. Late entries take the same way; did-not-start and
 * out-of-competition land in bol_startet_nicht and bol_ak, audited, and boards are told.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipant,
  insertRow,
  insertScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let freeCompetitionId: number;
let floor: number;
let vault: number;
let existing: { participantId: number; scoreId: number };
const admin = bearer(adminToken);

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Kreisturnfest');
  freeCompetitionId = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: competition.eventId,
    var_name: 'Kür frei',
  });
  floor = (await insertDiscipline(server.pool, { name: 'Boden' })).id;
  vault = (await insertDiscipline(server.pool, { name: 'Sprung' })).id;
  // Entered by the desktop program before: Lena Adler of TV Musterstadt, planned on floor and vault.
  const participantId = await insertParticipant(server.pool, competition, {
    firstName: 'Lena',
    lastName: 'Adler',
    birthDate: '2012-03-04',
    startNumber: '7',
  });
  const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: 'R1' });
  for (const device of [floor, vault]) await insertDetailRow(server.pool, scoreId, device, null);
  existing = { participantId, scoreId };
});
afterAll(async () => {
  await server?.stop();
});

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const url = (path: string, eventId = competition.eventId) => `${server.url}/api/events/${eventId}/${path}`;

/** Everything the import may write. */
async function tableCounts() {
  const { rows } = await server.pool.query(
    `SELECT (SELECT count(*) FROM ${t.teilnehmer})::int AS participants, (SELECT count(*) FROM ${t.wertungen})::int AS scores,
            (SELECT count(*) FROM ${t.wertungen_details})::int AS details, (SELECT count(*) FROM ${t.vereine})::int AS clubs,
            (SELECT count(*) FROM ${t.svc_participant_audit})::int AS audit, (SELECT count(*) FROM ${t.svc_outbox})::int AS outbox`,
  );
  return rows[0] as Record<string, number>;
}

const CSV = [
  'Vorname;Nachname;Geburtsdatum;Geschlecht;Verein;Wettkampf;Riege',
  'Lena;Adler;04.03.2012;w;TV Musterstadt;Kreisturnfest WK;R1',
  'Mia;Berg;2013-05-06;w;SV Nord;Kreisturnfest WK;R2',
  'Mia;Berg;06.05.2013;w;SV Nord;Kür frei;',
  'Nora;;01.01.2012;w;SV Nord;Kreisturnfest WK;',
  'Ola;Dorn;31.02.2012;w;SV Nord;Kreisturnfest WK;',
  'Pia;Eck;01.02.2011;w;SV Nord;Landesliga;',
  'mia; berg ;6.5.2013;w;sv nord;Kreisturnfest WK;R2',
  '=HYPERLINK("http://x");Fuchs;01.02.2011;w;SV Nord;Kreisturnfest WK;',
  '',
].join('\r\n');

describe('import of registrations', () => {
  it('previews with a guessed mapping and each row’s problems, and writes nothing', async () => {
    const before = await tableCounts();
    const preview = await sendJson('POST', url('registrations/preview'), { content: base64(CSV) }, admin);
    expect(preview.status).toBe(200);
    expect(preview.body.headers).toEqual(['Vorname', 'Nachname', 'Geburtsdatum', 'Geschlecht', 'Verein', 'Wettkampf', 'Riege']);
    expect(preview.body.guessedMapping).toEqual({
      firstName: 0,
      lastName: 1,
      birthDate: 2,
      gender: 3,
      club: 4,
      competition: 5,
      squad: 6,
    });
    const rows = preview.body.rows.map((row: any) => [row.line, row.status, row.problems]);
    expect(rows).toEqual([
      [2, 'unchanged', []],
      [3, 'new', []],
      [4, 'new', []],
      [5, 'skipped', ['missing-name']],
      [6, 'skipped', ['bad-birth-date']],
      [7, 'skipped', ['unknown-competition']],
      [8, 'skipped', ['duplicate']],
      [9, 'skipped', ['formula']],
    ]);
    expect(preview.body.rows[1]).toMatchObject({ firstName: 'Mia', lastName: 'Berg', birthDate: '2013-05-06', gender: 2, squadName: 'R2' });
    expect(preview.body.counts).toEqual({ new: 2, newEntry: 0, unchanged: 1, skipped: 5 });
    expect(await tableCounts()).toEqual(before);
  });

  it('imports the rows without problems into the legacy tables, and a second import of the file changes nothing', async () => {
    const before = await tableCounts();
    const first = await sendJson('POST', url('registrations/import'), { content: base64(CSV) }, admin);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      eventId: competition.eventId,
      clubsCreated: 1,
      participantsCreated: 1,
      entriesCreated: 2,
      unchanged: 1,
      skipped: 5,
    });
    const { rows: people } = await server.pool.query(
      `SELECT p.var_vorname, p.var_nachname, to_char(p.dat_geburtstag, 'YYYY-MM-DD') AS born, p.int_geschlecht, p.var_startnummer,
              v.var_name AS club, w.int_wettkaempfeid, w.int_statusid, w.var_riege, w.int_startnummer, w.bol_ak, w.bol_startet_nicht,
              ARRAY(SELECT d.int_disziplinenid FROM ${t.wertungen_details} d WHERE d.int_wertungenid = w.int_wertungenid
                     ORDER BY d.int_disziplinenid) AS devices
         FROM ${t.teilnehmer} p JOIN ${t.vereine} v ON v.int_vereineid = p.int_vereineid
         JOIN ${t.wertungen} w ON w.int_teilnehmerid = p.int_teilnehmerid
        WHERE p.var_nachname = 'Berg' ORDER BY w.int_wettkaempfeid`,
    );
    // One person, entered in two competitions; the next start number after Lena's 7; planned on the
    // competition's apparatus (the free competition has none yet: the event's).
    const mia = { var_vorname: 'Mia', var_nachname: 'Berg', born: '2013-05-06', int_geschlecht: 2, var_startnummer: '8', club: 'SV Nord' };
    const entry = { int_statusid: 1, int_startnummer: 8, bol_ak: false, bol_startet_nicht: false, devices: [floor, vault] };
    expect(people).toEqual([
      { ...mia, ...entry, int_wettkaempfeid: competition.competitionId, var_riege: 'R2' },
      { ...mia, ...entry, int_wettkaempfeid: freeCompetitionId, var_riege: null },
    ]);
    const after = await tableCounts();
    expect(after).toEqual({
      ...before,
      participants: before.participants! + 1,
      scores: before.scores! + 2,
      details: before.details! + 4,
      clubs: before.clubs! + 1,
      audit: before.audit! + 1,
      outbox: before.outbox! + 1,
    });
    const { rows: events } = await server.pool.query(`SELECT topic, payload FROM ${t.svc_outbox} ORDER BY id DESC LIMIT 1`);
    expect(events[0]).toMatchObject({
      topic: 'participants-changed',
      payload: { eventId: competition.eventId, change: 'entries', by: 'anna' },
    });
    expect(events[0].payload.scoreIds).toHaveLength(2);

    const second = await sendJson('POST', url('registrations/import'), { content: base64(CSV) }, admin);
    expect(second.body).toMatchObject({ clubsCreated: 0, participantsCreated: 0, entriesCreated: 0, unchanged: 3, skipped: 5 });
    expect(await tableCounts()).toEqual(after);
    const preview = await sendJson('POST', url('registrations/preview'), { content: base64(CSV) }, admin);
    expect(preview.body.counts).toEqual({ new: 0, newEntry: 0, unchanged: 3, skipped: 5 });
  });

  it('reads an XLSX file with the office’s mapping; date cells are dates, a formula cell is refused, not evaluated', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Meldungen');
    sheet.addRow(['Club', 'Surname', 'Given', 'Born', 'Class']);
    sheet.addRow(['TSV Süd', 'Graf', 'Ida', new Date(Date.UTC(2014, 6, 8)), 'Kür frei']);
    sheet.addRow(['TSV Süd', { formula: '"Hu"&"ber"', result: 'Huber' }, 'Jan', new Date(Date.UTC(2014, 1, 2)), 'Kür frei']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const mapping = { club: 0, lastName: 1, firstName: 2, birthDate: 3, competition: 4 };
    const before = await tableCounts();
    const preview = await sendJson('POST', url('registrations/preview'), { content, mapping }, admin);
    expect(preview.status).toBe(200);
    expect(preview.body.rows.map((row: any) => [row.firstName, row.lastName, row.birthDate, row.status, row.problems])).toEqual([
      ['Ida', 'Graf', '2014-07-08', 'new', []],
      ['Jan', '="Hu"&"ber"', '2014-02-02', 'skipped', ['formula']],
    ]);
    expect(await tableCounts()).toEqual(before);
    const imported = await sendJson('POST', url('registrations/import'), { content, mapping }, admin);
    expect(imported.body).toMatchObject({ participantsCreated: 1, entriesCreated: 1, skipped: 1 });
    const { rows } = await server.pool.query(`SELECT count(*)::int AS n FROM ${t.teilnehmer} WHERE var_nachname LIKE '%Hu%'`);
    expect(rows[0].n).toBe(0);
  });

  it('runs as many statements for twenty rows as for two', async () => {
    const file = (count: number) =>
      base64(
        [
          'Vorname;Nachname;Geburtsdatum;Verein;Wettkampf',
          ...Array.from({ length: count }, (_, i) => `Kim${count};Zahl${i};01.01.2010;TV Zahl${count}-${i};Kür frei`),
        ].join('\n'),
      );
    const statements = async (count: number) =>
      (await captureStatements(server.pool, () => sendJson('POST', url('registrations/import'), { content: file(count) }, admin)))
        .statements.length;
    expect(await statements(20)).toBe(await statements(2));
  });

  it('refuses a bad request with the contract’s body and without writing', async () => {
    const before = await tableCounts();
    const refusals = [
      await sendJson('POST', url('registrations/preview'), { content: base64(CSV), mapping: { firstName: 'A' } }, admin),
      await sendJson('POST', url('registrations/import'), { content: base64(CSV), defaultCompetitionId: 999_999 }, admin),
      await sendJson('POST', url('registrations/import'), { content: Buffer.from('PK\u0003\u0004broken').toString('base64') }, admin),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await sendJson('POST', url('registrations/import', 999_999), { content: base64(CSV) }, admin)).status).toBe(404);
    expect((await sendJson('POST', url('registrations/import'), { content: base64(CSV) })).status).toBe(401);
    expect((await sendJson('POST', url('registrations/import'), { content: base64(CSV) }, bearer(headToken))).status).toBe(403);
    expect(await tableCounts()).toEqual(before);
  });
});

describe('late entries and flags', () => {
  it('enters a gymnast late once, and refuses a bad birth date or another event’s competition without writing', async () => {
    const body = {
      competitionId: competition.competitionId,
      firstName: 'Rosa',
      lastName: 'Roth',
      birthDate: '09.09.2013',
      gender: 'w',
      clubName: 'SV Nord',
      squadName: 'R2',
    };
    const entered = await sendJson('POST', url('participants'), body, admin);
    expect(entered.status).toBe(200);
    expect(entered.body).toMatchObject({ eventId: competition.eventId, created: true });
    const again = await sendJson('POST', url('participants'), body, admin);
    expect(again.body).toEqual({ ...entered.body, created: false });
    const list = await sendJson('GET', url('participants'), undefined, admin);
    expect(list.body.entries.find((entry: any) => entry.scoreId === entered.body.scoreId)).toMatchObject({
      firstName: 'Rosa',
      lastName: 'Roth',
      birthDate: '2013-09-09',
      clubName: 'SV Nord',
      squadName: 'R2',
      competitionName: 'Kreisturnfest WK',
      didNotStart: false,
      outOfCompetition: false,
    });

    const before = await tableCounts();
    const other = await createCompetition(server.pool, 'Anderes Fest');
    const badDate = await sendJson('POST', url('participants'), { ...body, firstName: 'Sara', birthDate: '31.02.2013' }, admin);
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'body: bad-birth-date' });
    const foreign = await sendJson('POST', url('participants'), { ...body, firstName: 'Sara', competitionId: other.competitionId }, admin);
    expect(foreign.status).toBe(400);
    expect(await tableCounts()).toMatchObject({ participants: before.participants, scores: before.scores, audit: before.audit });
  });

  it('sets did-not-start and out-of-competition in the legacy columns, audited, and tells the boards', async () => {
    const flagsUrl = url(`entries/${existing.scoreId}`);
    const stored = async () =>
      (await server.pool.query(`SELECT bol_startet_nicht, bol_ak FROM ${t.wertungen} WHERE int_wertungenid = $1`, [existing.scoreId]))
        .rows[0];
    const dns = await sendJson('PATCH', flagsUrl, { didNotStart: true }, admin);
    expect(dns.body).toEqual({
      scoreId: existing.scoreId,
      participantId: existing.participantId,
      didNotStart: true,
      outOfCompetition: false,
      changed: true,
    });
    expect(await stored()).toEqual({ bol_startet_nicht: true, bol_ak: false });
    const ak = await sendJson('PATCH', flagsUrl, { didNotStart: false, outOfCompetition: true }, admin);
    expect(ak.body).toMatchObject({ didNotStart: false, outOfCompetition: true, changed: true });
    expect(await stored()).toEqual({ bol_startet_nicht: false, bol_ak: true });
    const { rows: audit } = await server.pool.query(
      `SELECT action, actor, details FROM ${t.svc_participant_audit} WHERE $1 = ANY(score_ids) ORDER BY id`,
      [existing.scoreId],
    );
    expect(audit).toEqual([
      { action: 'did-not-start', actor: 'anna', details: { value: true } },
      { action: 'did-not-start', actor: 'anna', details: { value: false } },
      { action: 'out-of-competition', actor: 'anna', details: { value: true } },
    ]);
    await waitFor(async () => {
      const { rows } = await server.pool.query(
        `SELECT count(*)::int AS n FROM ${t.svc_outbox} WHERE topic = 'participants-changed' AND payload->>'change' = 'flags' AND seq IS NOT NULL`,
      );
      return rows[0].n === 2;
    });

    const before = await tableCounts();
    const same = await sendJson('PATCH', flagsUrl, { outOfCompetition: true }, admin);
    expect(same.body).toMatchObject({ changed: false });
    expect((await sendJson('PATCH', flagsUrl, {}, admin)).status).toBe(400);
    expect((await sendJson('PATCH', url('entries/999999'), { didNotStart: true }, admin)).status).toBe(404);
    expect((await sendJson('PATCH', flagsUrl, { didNotStart: true })).status).toBe(401);
    expect(await tableCounts()).toEqual(before);
  });
});
