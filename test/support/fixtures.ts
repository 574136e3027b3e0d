/**
 * The legacy rows the tests score against, made with SQL (one module for every test; the words
 * are the domain's: event, competition, club, discipline and its fields, participant, score row,
 * detail row, jury result, group, team — docs/glossary.md). Every helper makes its own rows, so
 * tests in one file stay independent while sharing a database.
 *
 * Two starting points:
 * - `createCompetition`: an event with one competition and a club, for individual scoring
 *   (participants, score rows, disciplines with fields A, B, C and a final field);
 * - `createGroupTeamEvent`: an event with a group and a plain competition, a group and a team,
 *   four disciplines with fields D, E, Abz and a final field, and a second event with its own
 *   group, team and competition (for "belongs to another event" refusals).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/pool.js';
import type { TableName } from '../../src/db/tables.js';
import { postJson } from './http.js';
import { startTestServer, type TestServer } from './server.js';
import { t } from './tables.js';

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

/**
 * One field of a discipline (`disziplinen_felder`); `sortColumns` names the legacy sort columns
 * that carry `sort`; without `shortName` the field has no var_kurzname.
 */
export function insertField(
  pool: Queryable,
  disciplineId: number,
  field: { name: string; shortName?: string; sort: number; sortColumns: readonly SortColumn[]; extra?: Row },
): Promise<number> {
  return insertRow(pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
    int_disziplinenid: disciplineId,
    var_name: field.name,
    ...(field.shortName === undefined ? {} : { var_kurzname: field.shortName }),
    ...Object.fromEntries(field.sortColumns.map((column) => [column, field.sort])),
    ...field.extra,
  });
}

type SortColumn = 'int_sortierung' | 'int_reihenfolge';

// ---------------------------------------------------------------------------------------------
// Individual scoring: a competition, participants, score rows, detail rows, jury results
// ---------------------------------------------------------------------------------------------

/** The ids of an event with one competition and a club. */
export interface Competition {
  eventId: number;
  competitionId: number;
  clubId: number;
}

/** An event with one competition and a club; `startDate` is the event's dat_von. */
export async function createCompetition(pool: Queryable, name = 'Landesfinale', startDate: string | null = null): Promise<Competition> {
  const eventId = await insertRow(pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: name, dat_von: startDate });
  const competitionId = await insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: eventId,
    var_name: `${name} WK`,
  });
  const clubId = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'TV Musterstadt' });
  return { eventId, competitionId, clubId };
}

/** A participant of the competition's event (of its club unless `clubId` says otherwise). */
export async function insertParticipant(
  pool: Queryable,
  competition: Competition,
  values: {
    firstName?: string;
    lastName?: string;
    gender?: number | null;
    startNumber?: string;
    clubId?: number | null;
    birthDate?: string | null;
  } = {},
): Promise<number> {
  return insertRow(pool, 'teilnehmer', 'int_teilnehmerid', {
    var_vorname: values.firstName ?? 'Anna',
    var_nachname: values.lastName ?? 'Muster',
    var_startnummer: values.startNumber ?? '17',
    int_vereineid: values.clubId === undefined ? competition.clubId : values.clubId,
    int_eventid: competition.eventId,
    int_geschlecht: values.gender === undefined ? 2 : values.gender,
    dat_geburtstag: values.birthDate ?? null,
  });
}

export interface DisciplineFieldIds {
  A: number;
  B: number;
  C: number;
  /** Absent when the discipline was made without a final field. */
  final: number | null;
}

export interface Discipline {
  id: number;
  fields: DisciplineFieldIds;
}

/**
 * Fields A (sort 1), B (2), C "AbzugAusf." (3) and the final field (4), inserted in reverse so that
 * id order and sort order differ. `sortColumn` picks which legacy sort column carries the order.
 */
export async function insertDiscipline(
  pool: Queryable,
  options: {
    name?: string;
    formula?: string | null;
    recordFormula?: string;
    withFinal?: boolean;
    sortColumn?: SortColumn;
  } = {},
): Promise<Discipline> {
  const formulaId =
    options.recordFormula === undefined
      ? null
      : await insertRow(pool, 'formeln', 'int_formelid', { var_name: 'Formel', var_formel: options.recordFormula, var_typ: 'Endwert' });
  const id = await insertRow(pool, 'disziplinen', 'int_disziplinenid', {
    var_name: options.name ?? 'Boden',
    var_formel: options.formula === undefined ? 'A + B - C' : options.formula,
    int_formelid: formulaId,
  });
  const sortColumns = [options.sortColumn ?? 'int_sortierung'] as const;
  const field = (name: string, shortName: string, sort: number, extra: Row = {}) =>
    insertField(pool, id, { name, shortName, sort, sortColumns, extra });
  const final = options.withFinal === false ? null : await field('Endwert', 'End', 4, { bol_endwert: true });
  const C = await field('AbzugAusf.', 'Abz', 3);
  const B = await field('Ausführung', 'E', 2);
  const A = await field('Ausgangswert', 'D', 1, { bol_ausgangswert: true, int_gruppe: 1 });
  return { id, fields: { A, B, C, final } };
}

/** A score row (`wertungen`) of the participant in the competition. */
export async function insertScoreRow(
  pool: Queryable,
  competition: Competition,
  participantId: number,
  values: { squadName?: string } = {},
): Promise<number> {
  return insertRow(pool, 'wertungen', 'int_wertungenid', {
    int_wettkaempfeid: competition.competitionId,
    int_teilnehmerid: participantId,
    int_statusid: 1,
    var_riege: values.squadName ?? null,
  });
}

/** A participant with a score row in the competition. */
export async function insertParticipantWithScoreRow(
  pool: Queryable,
  competition: Competition,
  values: { squadName?: string; lastName?: string } = {},
): Promise<{ participantId: number; scoreId: number }> {
  const participantId = await insertParticipant(pool, competition, { lastName: values.lastName });
  return { participantId, scoreId: await insertScoreRow(pool, competition, participantId, values) };
}

/** `count` participants with a score row each in the competition, set-wise; returns the score ids. */
export async function insertParticipantsWithScoreRows(
  pool: Queryable,
  competition: Competition,
  count: number,
  squadName: string,
): Promise<number[]> {
  const { rows } = await pool.query<{ score_id: number }>(
    `WITH people AS (
       INSERT INTO ${t.teilnehmer} (var_vorname, var_nachname, var_startnummer, int_vereineid, int_eventid, int_geschlecht)
       SELECT 'Bulk', 'Turner ' || n, n::text, $2, $1, 1 + n % 2 FROM generate_series(1, $3::int) AS n
       RETURNING int_teilnehmerid
     )
     INSERT INTO ${t.wertungen} (int_wettkaempfeid, int_teilnehmerid, int_statusid, var_riege)
     SELECT $4, int_teilnehmerid, 1, $5 FROM people
     RETURNING int_wertungenid AS score_id`,
    [competition.eventId, competition.clubId, count, competition.competitionId, squadName],
  );
  return rows.map((row) => row.score_id).sort((a, b) => a - b);
}

/** The final-score detail row (attempt 1, kp 0) of a score row in a discipline. */
export async function insertDetailRow(pool: Queryable, scoreId: number, disciplineId: number, value: number | null): Promise<number> {
  return insertRow(pool, 'wertungen_details', 'int_wertungen_detailsid', {
    int_wertungenid: scoreId,
    int_disziplinenid: disciplineId,
    int_versuch: 1,
    int_kp: 0,
    rel_leistung: value,
  });
}

export async function insertJuryResults(
  pool: Queryable,
  scoreId: number,
  values: ReadonlyArray<readonly [fieldId: number, value: number]>,
): Promise<void> {
  for (const [fieldId, value] of values) {
    await insertRow(pool, 'jury_results', 'int_juryresultsid', {
      int_wertungenid: scoreId,
      int_disziplinen_felderid: fieldId,
      rel_leistung: value,
      int_versuch: 1,
      int_kp: 0,
    });
  }
}

/**
 * `count` participants with a score row each, a detail row (value 0) in the discipline and jury
 * results A=9, B=8, C=1 but no final: every row is due for the auto-calculation on read. Set-wise,
 * so a thousand rows cost three statements.
 */
export async function insertScoresDueForCalculation(
  pool: Queryable,
  competition: Competition,
  discipline: Discipline,
  count: number,
  squadName: string,
): Promise<void> {
  const scoreIds = await insertParticipantsWithScoreRows(pool, competition, count, squadName);
  await pool.query(
    `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT id, $2, 1, 0, 0 FROM unnest($1::int[]) AS id`,
    [scoreIds, discipline.id],
  );
  await pool.query(
    `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
     SELECT id, f.field_id, f.value, 1, 0 FROM unnest($1::int[]) AS id
     CROSS JOIN (VALUES ($2::int, 9::real), ($3::int, 8::real), ($4::int, 1::real)) AS f(field_id, value)`,
    [scoreIds, discipline.fields.A, discipline.fields.B, discipline.fields.C],
  );
}

/** Stores an app setting as an operator would (the service has no write endpoint for these). */
export async function storeAppSetting(pool: Queryable, key: string, value: unknown): Promise<void> {
  await pool.query(
    `INSERT INTO ${t.svc_settings} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}

/**
 * An E-panel discipline (issue 21): D (sort 1), judges E1…En (sorts 2…n+1), the aggregate field E
 * (n+2) and the final (n+3), with the formula `A + B` (D + E once the judges' fields are left out
 * of the letters).
 */
export interface PanelDiscipline {
  id: number;
  difficulty: number;
  judges: number[];
  aggregate: number;
  final: number;
  /** Reference judges' fields (R1, R2…), after the final; empty unless asked for. */
  references: number[];
}

export async function insertPanelDiscipline(
  pool: Queryable,
  options: {
    name?: string;
    judges?: number;
    references?: number;
    inputMask?: string | null;
    decimals?: number | null;
    formula?: string;
  } = {},
): Promise<PanelDiscipline> {
  const id = await insertRow(pool, 'disziplinen', 'int_disziplinenid', {
    var_name: options.name ?? 'Sprung',
    var_formel: options.formula ?? 'A + B',
    var_eingabemaske: options.inputMask === undefined ? '00.000' : options.inputMask,
    int_berechnung: options.decimals === undefined ? 3 : options.decimals,
  });
  const field = (name: string, sort: number, extra: Row = {}) =>
    insertField(pool, id, { name, shortName: name.slice(0, 10), sort, sortColumns: ['int_sortierung'], extra });
  const count = options.judges ?? 5;
  const difficulty = await field('D-Note', 1, { bol_ausgangswert: true });
  const judges: number[] = [];
  for (let index = 1; index <= count; index += 1) judges.push(await field(`E${index}`, 1 + index));
  const aggregate = await field('E-Note', count + 2);
  const final = await field('Endwert', count + 3, { bol_endwert: true });
  const references: number[] = [];
  for (let index = 1; index <= (options.references ?? 0); index += 1) references.push(await field(`R${index}`, count + 3 + index));
  return { id, difficulty, judges, aggregate, final, references };
}

// ---------------------------------------------------------------------------------------------
// Reading back what a command stored
// ---------------------------------------------------------------------------------------------

export interface JuryResultRow {
  id: number;
  fieldId: number;
  value: number | null;
  attempt: number;
  kind: number;
}

export async function juryResultRows(pool: Queryable, scoreId: number): Promise<JuryResultRow[]> {
  const { rows } = await pool.query<JuryResultRow>(
    `SELECT int_juryresultsid AS id, int_disziplinen_felderid AS "fieldId", rel_leistung AS value, int_versuch AS attempt, int_kp AS kind
       FROM ${t.jury_results} WHERE int_wertungenid = $1 ORDER BY int_disziplinen_felderid`,
    [scoreId],
  );
  return rows;
}

export interface DetailRow {
  id: number;
  disciplineId: number;
  attempt: number;
  /** 0 on an individual final-score row; the field id on a group or team component row. */
  kp: number;
  value: number | null;
}

/** The detail rows of a score row, by discipline, attempt and kp. */
export async function detailRows(pool: Queryable, scoreId: number): Promise<DetailRow[]> {
  const { rows } = await pool.query<DetailRow>(
    `SELECT int_wertungen_detailsid AS id, int_disziplinenid AS "disciplineId", int_versuch AS attempt, int_kp AS kp, rel_leistung AS value
       FROM ${t.wertungen_details} WHERE int_wertungenid = $1 ORDER BY int_disziplinenid, int_versuch, int_kp, int_wertungen_detailsid`,
    [scoreId],
  );
  return rows;
}

/** Payloads of the `score-updated` outbox rows the service's own commands appended for one score row, oldest first. */
export async function apiScoreOutboxRows(
  pool: Queryable,
  scoreId: number,
): Promise<Array<{ eventId: number; payload: Record<string, unknown> }>> {
  const { rows } = await pool.query<{ eventId: number; payload: Record<string, unknown> }>(
    `SELECT event_id AS "eventId", payload FROM ${t.svc_outbox}
      WHERE source = 'api' AND topic = 'score-updated' AND (payload->>'scoreId')::int = $1 ORDER BY id`,
    [scoreId],
  );
  return rows;
}

export interface RowCounts {
  scores: number;
  details: number;
  jury: number;
  outbox: number;
}

/** Everything a refused command must leave as it was. */
export async function rowCounts(pool: Queryable): Promise<RowCounts> {
  const { rows } = await pool.query<RowCounts>(
    `SELECT (SELECT count(*) FROM ${t.wertungen})::int AS scores, (SELECT count(*) FROM ${t.wertungen_details})::int AS details,
            (SELECT count(*) FROM ${t.jury_results})::int AS jury, (SELECT count(*) FROM ${t.svc_outbox})::int AS outbox`,
  );
  return rows[0]!;
}

// ---------------------------------------------------------------------------------------------
// Group and team scoring
// ---------------------------------------------------------------------------------------------

export interface GroupTeamFieldIds {
  D: number;
  E: number;
  Abz: number;
  final: number;
}

export interface GroupTeamEvent {
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
  fields: GroupTeamFieldIds;
  /** Formula record `D * 2` that wins over the discipline's own `D + E - Abz`. */
  recordDisciplineId: number;
  recordFields: GroupTeamFieldIds;
  /** No formula at all. */
  plainDisciplineId: number;
  plainFields: GroupTeamFieldIds;
  /** Fields, but none flagged final. */
  noFinalDisciplineId: number;
  noFinalFieldId: number;
}

/** Four fields D, E, Abz and final; sort orders deliberately differ from id order so ordering rules are observable. */
async function insertGroupTeamFields(pool: Queryable, disciplineId: number): Promise<GroupTeamFieldIds> {
  const sortColumns = ['int_sortierung', 'int_reihenfolge'] as const;
  const field = (name: string, shortName: string, sort: number, isFinal = false) =>
    insertField(pool, disciplineId, { name, shortName, sort, sortColumns, extra: { bol_endwert: isFinal } });
  const final = await field('Endwert', 'End', 4, true);
  const Abz = await field('Abzug', 'Abz', 3);
  const E = await field('Ausführung', 'E', 2);
  const D = await field('Schwierigkeit', 'D', 1);
  return { D, E, Abz, final };
}

export async function createGroupTeamEvent(pool: Queryable): Promise<GroupTeamEvent> {
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
  const groupOrTeam = (kind: 'group' | 'team', event: number, name: string) =>
    insertGroupOrTeam(pool, { eventId: event, clubId }, kind, name, 'R1', 17);
  const groupId = await groupOrTeam('group', eventId, 'Gruppe Sonne');
  const otherEventGroupId = await groupOrTeam('group', otherEventId, 'Gruppe Mond');
  const teamId = await groupOrTeam('team', eventId, 'Team Nord');
  const otherEventTeamId = await groupOrTeam('team', otherEventId, 'Team Süd');

  const discipline = (name: string, values: Row = {}) => insertRow(pool, 'disziplinen', 'int_disziplinenid', { var_name: name, ...values });
  const disciplineId = await discipline('Boden', { var_formel: 'D + E - Abz' });
  const formulaId = await insertRow(pool, 'formeln', 'int_formelid', { var_name: 'Doppelt', var_formel: 'D * 2', var_typ: 'Endwert' });
  const recordDisciplineId = await discipline('Sprung', { var_formel: 'D + E - Abz', int_formelid: formulaId });
  const plainDisciplineId = await discipline('Tanz');
  const noFinalDisciplineId = await discipline('Band', { var_formel: 'D' });
  const noFinalFieldId = await insertField(pool, noFinalDisciplineId, {
    name: 'Schwierigkeit',
    shortName: 'D',
    sort: 1,
    sortColumns: ['int_sortierung'],
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
    fields: await insertGroupTeamFields(pool, disciplineId),
    recordDisciplineId,
    recordFields: await insertGroupTeamFields(pool, recordDisciplineId),
    plainDisciplineId,
    plainFields: await insertGroupTeamFields(pool, plainDisciplineId),
    noFinalDisciplineId,
    noFinalFieldId,
  };
}

/**
 * A group (`gruppen`) or team (`mannschaften`) of the event, of its club, with a squad name;
 * start number 42 for a group and 7 for a team unless given.
 */
export function insertGroupOrTeam(
  pool: Queryable,
  event: { eventId: number; clubId: number },
  kind: 'group' | 'team',
  name: string,
  squadName: string,
  startNumber = kind === 'group' ? 42 : 7,
): Promise<number> {
  const [table, idColumn] = kind === 'group' ? (['gruppen', 'int_gruppenid'] as const) : (['mannschaften', 'int_mannschaftenid'] as const);
  return insertRow(pool, table, idColumn, {
    int_veranstaltungenid: event.eventId,
    var_name: name,
    int_startnummer: startNumber,
    int_vereineid: event.clubId,
    var_riege: squadName,
  });
}

/** A server over a fresh database holding a `createGroupTeamEvent`. */
export async function startGroupTeamServer(): Promise<{ server: TestServer; event: GroupTeamEvent }> {
  const server = await startTestServer();
  return { server, event: await createGroupTeamEvent(server.pool) };
}

/** Registers the file's server and event hooks; the fields are set once `beforeAll` has run. */
export function useGroupTeamServer(): { server: TestServer; event: GroupTeamEvent } {
  const context = {} as { server: TestServer; event: GroupTeamEvent };
  beforeAll(async () => {
    Object.assign(context, await startGroupTeamServer());
  });
  afterAll(async () => {
    await context.server?.stop();
  });
  return context;
}

/** A change that makes a valid group or team save fail, with the expected status and message. */
export type Refusal = [name: string, change: (event: GroupTeamEvent) => Record<string, unknown>, status: number, message: RegExp];

/** The refusals both save routes share; `attemptKey` is the body's name for the attempt. */
export function sharedRefusals(attemptKey: 'attempt' | 'attemptNumber'): Refusal[] {
  return [
    ['unknown competition', () => ({ competitionId: 999_999 }), 404, /competition 999999 not found/],
    ['unknown discipline', () => ({ disciplineId: 999_999 }), 404, /discipline 999999 not found/],
    [
      'a field of another discipline',
      (event) => ({ components: [{ fieldId: event.plainFields.D, value: 1 }] }),
      400,
      /not a field of discipline/,
    ],
    [
      'the same field twice',
      (event) => ({
        components: [
          { fieldId: event.fields.D, value: 1 },
          { fieldId: event.fields.D, value: 2 },
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
      (event) => ({ components: [{ fieldId: event.fields.final, value: 9 }] }),
      400,
      /contradicts finalScore/,
    ],
    [
      'a discipline without a final field',
      (event) => ({ disciplineId: event.noFinalDisciplineId, components: [{ fieldId: event.noFinalFieldId, value: 1 }] }),
      400,
      /no final field/,
    ],
    ['a string score', () => ({ finalScore: '10' }), 400, /finalScore/],
    [
      'a formula with a field the components lack',
      (event) => ({
        finalScore: undefined,
        components: [
          { fieldId: event.fields.D, value: 4 },
          { fieldId: event.fields.Abz, value: 0.1 },
        ],
      }),
      400,
      /lack a value for field E \(formula D \+ E - Abz\)/,
    ],
    [
      'no formula and no finalScore',
      (event) => ({ disciplineId: event.plainDisciplineId, components: [], finalScore: null }),
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
  scoring: { server: TestServer; event: GroupTeamEvent },
  path: string,
  valid: (event: GroupTeamEvent) => Record<string, unknown>,
  refusals: readonly Refusal[],
): void {
  it.each(refusals)('refuses %s', async (_name, change, status, message) => {
    const { server, event } = scoring;
    const before = await rowCounts(server.pool);
    const response = await postJson(`${server.url}${path}`, { ...valid(event), ...change(event) });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ statusCode: status, code: status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED' });
    expect(response.body.message).toMatch(message);
    expect(await rowCounts(server.pool)).toEqual(before);
  });
}
