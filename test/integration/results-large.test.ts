/**
 * The result list of a large competition read right after its start list was entered, before
 * autovacuum has analyzed the tables again: the statistics still describe the tables as they were
 * (here: one small competition), so the planner expects about one score row for the new one. With
 * the entries and their scores aggregated apart and then joined, it chose a nested loop that
 * aggregated every entry's scores again for each entry; a 20,000-participant list ran into the
 * statement timeout (503). Autovacuum is off for these tables in this file's database, so the
 * statistics stay as stale as they were at that moment for as long as the test runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/domain/csv.js';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantsWithScoreRows,
  insertRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';

// Large enough that the quadratic plan runs into the 15 s statement timeout, small enough to seed in a second.
const PARTICIPANTS = 8_000;
const DEVICES = 6;

let server: TestServer;
let competition: Competition;
let devices: Discipline[];
let large: number;

/** Final values for every score row of the list, one per device: 10 + (score id mod 500) / 100 + device index. */
async function insertFinals(scoreIds: readonly number[]): Promise<void> {
  await server.pool.query(
    `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT s.id, d.id, 1, 0, 10 + (s.id % 500) / 100.0 + d.n - 1
       FROM unnest($1::int[]) AS s(id) CROSS JOIN unnest($2::int[]) WITH ORDINALITY AS d(id, n)`,
    [scoreIds, devices.map((device) => device.id)],
  );
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Landesturnfest', '2024-06-01');
  devices = [];
  for (let index = 0; index < DEVICES; index++) devices.push(await insertDiscipline(server.pool, { name: `Gerät ${index + 1}` }));
  // What the statistics know: a small competition of earlier.
  await insertFinals(await insertParticipantsWithScoreRows(server.pool, competition, 50, 'R1'));
  for (const table of [t.teilnehmer, t.wertungen, t.wertungen_details]) {
    await server.pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    await server.pool.query(`ANALYZE ${table}`);
  }
  large = await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: competition.eventId,
    var_name: 'Wahlwettkampf',
  });
  await insertFinals(await insertParticipantsWithScoreRows(server.pool, { ...competition, competitionId: large }, PARTICIPANTS, 'R2'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('the result list of a large competition before the statistics know it', () => {
  it('answers results.csv with every participant and the same values as the JSON', { timeout: 90_000 }, async () => {
    const query = `eventId=${competition.eventId}&competitionId=${large}`;
    const csv = await fetch(`${server.url}/api/results.csv?${query}`);
    const text = await csv.text();
    expect(csv.status, text.slice(0, 300)).toBe(200);
    const [header, ...rows] = parseCsv(text);
    expect(rows).toHaveLength(PARTICIPANTS);
    const column = (name: string) => header!.indexOf(name);
    const ids = new Set(rows.map((row) => row[column('Participant ID')]));
    expect(ids.size).toBe(PARTICIPANTS);

    const json = await getJson(`${server.url}/api/results?${query}`);
    expect(json.status).toBe(200);
    const results = json.body.classes[0].results as Array<{ participantId: number; total: number; rank: number | null }>;
    expect(results).toHaveLength(PARTICIPANTS);
    // Row by row the CSV says what the JSON says (same order, rank and total with the decimal comma).
    expect(rows.map((row) => [Number(row[column('Participant ID')]), row[column('Rank')], row[column('Total')]])).toEqual(
      results.map((result) => [result.participantId, String(result.rank), String(result.total).replace('.', ',')]),
    );
    // Every device's best value is there: the best entry scored 14.99 + 0 + 1 + ... + 5.
    expect(results[0]!.total).toBeCloseTo(6 * 14.99 + 15, 3);
  });
});
