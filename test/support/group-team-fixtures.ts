import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/pool.js';
import type { TableName } from '../../src/db/tables.js';
import { t } from './tables.js';
import { startTestServer, type TestServer } from './server.js';

type Row = Record<string, unknown>;

/** Inserts one legacy row and returns its generated id (the column named `idColumn`). */
export async function insertRow(pool: Queryable, table: TableName, idColumn: string, values: Row): Promise<number> {
  const columns = Object.keys(values);
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO ${pool.tables[table]} (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING ${idColumn} AS id`,
    Object.values(values),
  );
  return rows[0]!.id;
}

export interface FieldIds {
  D: number;
  E: number;
  Abz: number;
  final: number;
}

export interface ScoringWorld {
  eventId: number;
  otherEventId: number;
  clubId: number;
  groupCompetitionId: number;
  /** bol_gruppe false: team scoring only. */
  plainCompetitionId: number;
  otherEventCompetitionId: number;
  groupId: number;
  otherEventGroupId: number;
  teamId: number;
  otherEventTeamId: number;
  /** Formula `D + E - Abz` on the discipline itself (var_formel). */
  disciplineId: number;
  fields: FieldIds;
  /** Formula record `D * 2` that wins over the discipline's own `D + E - Abz`. */
  recordDisciplineId: number;
  recordFields: FieldIds;
  /** No formula at all. */
  plainDisciplineId: number;
  plainFields: FieldIds;
  /** Fields, but none flagged final. */
  noFinalDisciplineId: number;
  noFinalFieldId: number;
}

/** Four fields; sort orders deliberately differ from id order so ordering rules are observable. */
async function insertFields(pool: Queryable, disciplineId: number): Promise<FieldIds> {
  const field = (name: string, shortName: string, sort: number, isFinal = false) =>
    insertRow(pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
      int_disziplinenid: disciplineId,
      var_name: name,
      var_kurzname: shortName,
      int_sortierung: sort,
      int_reihenfolge: sort,
      bol_endwert: isFinal,
    });
  const final = await field('Endwert', 'End', 4, true);
  const Abz = await field('Abzug', 'Abz', 3);
  const E = await field('Ausführung', 'E', 2);
  const D = await field('Schwierigkeit', 'D', 1);
  return { D, E, Abz, final };
}

export async function createScoringWorld(pool: Queryable): Promise<ScoringWorld> {
  const eventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Landesfinale' });
  const otherEventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Herbstpokal' });
  const clubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'TV Musterstadt' });
  const competition = (event: number, isGroup: boolean) =>
    insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: event,
      var_name: 'WK',
      bol_gruppe: isGroup,
      int_versuche: 2,
    });
  const groupCompetitionId = await competition(eventId, true);
  const plainCompetitionId = await competition(eventId, false);
  const otherEventCompetitionId = await competition(otherEventId, true);
  const unit = (table: 'gruppen' | 'mannschaften', idColumn: string, event: number, name: string) =>
    insertRow(pool, table, idColumn, {
      int_veranstaltungenid: event,
      var_name: name,
      int_startnummer: 17,
      int_vereineid: clubId,
      var_riege: 'R1',
    });
  const groupId = await unit('gruppen', 'int_gruppenid', eventId, 'Gruppe Sonne');
  const otherEventGroupId = await unit('gruppen', 'int_gruppenid', otherEventId, 'Gruppe Mond');
  const teamId = await unit('mannschaften', 'int_mannschaftenid', eventId, 'Team Nord');
  const otherEventTeamId = await unit('mannschaften', 'int_mannschaftenid', otherEventId, 'Team Süd');

  const discipline = (name: string, values: Row = {}) => insertRow(pool, 'disziplinen', 'int_disziplinenid', { var_name: name, ...values });
  const disciplineId = await discipline('Boden', { var_formel: 'D + E - Abz' });
  const formulaId = await insertRow(pool, 'formeln', 'int_formelid', { var_name: 'Doppelt', var_formel: 'D * 2', var_typ: 'Endwert' });
  const recordDisciplineId = await discipline('Sprung', { var_formel: 'D + E - Abz', int_formelid: formulaId });
  const plainDisciplineId = await discipline('Tanz');
  const noFinalDisciplineId = await discipline('Band', { var_formel: 'D' });
  const noFinalFieldId = await insertRow(pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
    int_disziplinenid: noFinalDisciplineId,
    var_name: 'Schwierigkeit',
    var_kurzname: 'D',
    int_sortierung: 1,
  });
  return {
    eventId,
    otherEventId,
    clubId,
    groupCompetitionId,
    plainCompetitionId,
    otherEventCompetitionId,
    groupId,
    otherEventGroupId,
    teamId,
    otherEventTeamId,
    disciplineId,
    fields: await insertFields(pool, disciplineId),
    recordDisciplineId,
    recordFields: await insertFields(pool, recordDisciplineId),
    plainDisciplineId,
    plainFields: await insertFields(pool, plainDisciplineId),
    noFinalDisciplineId,
    noFinalFieldId,
  };
}

/** A server over a fresh database holding a `createScoringWorld`. */
export async function startScoringServer(): Promise<{ server: TestServer; world: ScoringWorld }> {
  const server = await startTestServer();
  return { server, world: await createScoringWorld(server.pool) };
}

/** Registers the file's server and world hooks; the fields are set once `beforeAll` has run. */
export function useScoringServer(): { server: TestServer; world: ScoringWorld } {
  const context = {} as { server: TestServer; world: ScoringWorld };
  beforeAll(async () => {
    Object.assign(context, await startScoringServer());
  });
  afterAll(async () => {
    await context.server?.stop();
  });
  return context;
}

/** A further group or team of the world's event, so a test does not share score rows with others. */
export function newUnit(pool: Queryable, world: ScoringWorld, kind: 'group' | 'team', name: string, squadName: string): Promise<number> {
  const [table, idColumn] = kind === 'group' ? (['gruppen', 'int_gruppenid'] as const) : (['mannschaften', 'int_mannschaftenid'] as const);
  return insertRow(pool, table, idColumn, {
    int_veranstaltungenid: world.eventId,
    var_name: name,
    int_startnummer: kind === 'group' ? 42 : 7,
    int_vereineid: world.clubId,
    var_riege: squadName,
  });
}

export interface DetailRow {
  id: number;
  disciplineId: number;
  attempt: number;
  kp: number;
  value: number;
}

export async function detailRowsOf(pool: Queryable, scoreId: number): Promise<DetailRow[]> {
  const { rows } = await pool.query<DetailRow>(
    `SELECT int_wertungen_detailsid AS id, int_disziplinenid AS "disciplineId", int_versuch AS attempt, int_kp AS kp, rel_leistung AS value
       FROM ${t.wertungen_details} WHERE int_wertungenid = $1 ORDER BY int_disziplinenid, int_versuch, int_kp`,
    [scoreId],
  );
  return rows;
}

export interface RowCounts {
  scores: number;
  details: number;
  outbox: number;
}

/** What a refused request must leave unchanged. */
export async function countRows(pool: Queryable): Promise<RowCounts> {
  const { rows } = await pool.query<RowCounts>(
    `SELECT (SELECT count(*) FROM ${t.wertungen})::int AS scores,
            (SELECT count(*) FROM ${t.wertungen_details})::int AS details,
            (SELECT count(*) FROM ${t.svc_outbox})::int AS outbox`,
  );
  return rows[0]!;
}

/**
 * Every SQL text the service's pool sends while `work` runs (the server runs in the test process).
 * Each client the pool hands out meanwhile (`pool.query` included) gets a recording `query` of its
 * own, removed afterwards: nothing global is patched, and the relay's and LISTEN connections,
 * which are not pool clients, are not counted.
 */
export async function captureStatements<T>(pool: pg.Pool, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const recording = new Set<pg.PoolClient>();
  const onAcquire = (client: pg.PoolClient) => {
    if (recording.has(client)) return;
    recording.add(client);
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      if (typeof text === 'string') statements.push(text);
      return original(...args);
    };
  };
  pool.on('acquire', onAcquire);
  try {
    return { result: await work(), statements };
  } finally {
    pool.off('acquire', onAcquire);
    // The own property goes; the client's query is pg's again.
    for (const client of recording) delete (client as unknown as { query?: unknown }).query;
  }
}

/** A change that makes a valid group or team save fail, with the expected status and message. */
export type Refusal = [name: string, change: (world: ScoringWorld) => Record<string, unknown>, status: number, message: RegExp];

/** The refusals both save routes share; `attemptKey` is the body's name for the attempt. */
export function sharedRefusals(attemptKey: 'attempt' | 'attemptNumber'): Refusal[] {
  return [
    ['unknown competition', () => ({ competitionId: 999_999 }), 404, /competition 999999 not found/],
    ['unknown discipline', () => ({ disciplineId: 999_999 }), 404, /discipline 999999 not found/],
    [
      'a field of another discipline',
      (world) => ({ components: [{ fieldId: world.plainFields.D, value: 1 }] }),
      400,
      /not a field of discipline/,
    ],
    [
      'the same field twice',
      (world) => ({
        components: [
          { fieldId: world.fields.D, value: 1 },
          { fieldId: world.fields.D, value: 2 },
        ],
      }),
      400,
      /more than once/,
    ],
    ['a squad name over 5 characters', () => ({ squadName: 'Gruen1' }), 400, /squadName/],
    ['attempt 0', () => ({ [attemptKey]: 0 }), 400, new RegExp(`body\\.${attemptKey}`)],
    ['an attempt beyond int_versuche', () => ({ [attemptKey]: 3 }), 400, /attempt: 3 exceeds the 2 attempt/],
    ['an unknown status', () => ({ statusId: 5 }), 400, /status 5 does not exist/],
    [
      'a final field contradicting finalScore',
      (world) => ({ components: [{ fieldId: world.fields.final, value: 9 }] }),
      400,
      /contradicts finalScore/,
    ],
    [
      'a discipline without a final field',
      (world) => ({ disciplineId: world.noFinalDisciplineId, components: [{ fieldId: world.noFinalFieldId, value: 1 }] }),
      400,
      /no final field/,
    ],
    ['a string score', () => ({ finalScore: '10' }), 400, /finalScore/],
    [
      'a formula with a field the components lack',
      (world) => ({
        finalScore: undefined,
        components: [
          { fieldId: world.fields.D, value: 4 },
          { fieldId: world.fields.Abz, value: 0.1 },
        ],
      }),
      400,
      /lack a value for field E \(formula D \+ E - Abz\)/,
    ],
    [
      'no formula and no finalScore',
      (world) => ({ disciplineId: world.plainDisciplineId, components: [], finalScore: null }),
      400,
      /finalScore is required/,
    ],
  ];
}

/**
 * One test per refusal: `valid` changed by the refusal is posted to `path`, must be refused with
 * its status and message, and must leave the row counts as they were.
 */
export function itRefusesWithoutWrites(
  scoring: { server: TestServer; world: ScoringWorld },
  path: string,
  valid: (world: ScoringWorld) => Record<string, unknown>,
  refusals: readonly Refusal[],
): void {
  it.each(refusals)('refuses %s', async (_name, change, status, message) => {
    const { server, world } = scoring;
    const before = await countRows(server.pool);
    const response = await postJson(`${server.url}${path}`, { ...valid(world), ...change(world) });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ statusCode: status, code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED' });
    expect(response.body.message).toMatch(message);
    expect(await countRows(server.pool)).toEqual(before);
  });
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}
