/**
 * Issue 10 item 8: formulas, input masks and decimal counts stored by the legacy program are
 * untrusted. Rows are written with SQL, as the desktop program would, into columns widened to
 * `text` (installations differ: the reference layout has varchar(255), some have text), and read
 * back through HTTP: every read stays 200 and fast, a formula that does not parse counts as none,
 * one that parses but cannot be evaluated calculates nothing, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { MAX_FORMULA_LENGTH, MAX_NESTING_DEPTH } from '../../src/domain/formula.js';
import {
  createGroupTeamEvent,
  insertRow,
  type GroupTeamEvent,
  createCompetition,
  detailRows,
  insertDetailRow,
  insertDiscipline,
  insertJuryResults,
  insertParticipantWithScoreRow,
  juryResultRows,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { expectContractError, send } from '../support/security.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Deeper than the nesting limit but within the length limit, so the parser refuses them by their
 * nesting, not their length: derived from the limits, so they stay that way if a limit changes.
 */
const NESTED_WITHIN_LENGTH = `${'('.repeat(MAX_NESTING_DEPTH + 1)}A${')'.repeat(MAX_NESTING_DEPTH + 1)}`;
const UNARY_WITHIN_LENGTH = `${'-'.repeat(MAX_FORMULA_LENGTH - 1)}A`;

/** Refused by the parser: the formula counts as none. */
const UNPARSEABLE: Array<[string, string]> = [
  ['__proto__', '__proto__'],
  ['process.exit()', 'process.exit()'],
  ['a require call', 'require("child_process").execSync("id")'],
  ['a template literal', '${process.exit(1)}'],
  ['a second statement', 'A + B; process.exit(1)'],
  ['an assignment', 'A = 99'],
  ['10,000 nested parentheses', `${'('.repeat(10_000)}A${')'.repeat(10_000)}`],
  ['parentheses nested one level deeper than allowed, within the length limit', NESTED_WITHIN_LENGTH],
  ['10,000 unary minus signs', `${'-'.repeat(10_000)}A`],
  ['unary minus signs up to the length limit', UNARY_WITHIN_LENGTH],
  ['a 100 KB sum', `${'A + '.repeat(25_000)}A`],
  ['100 KB of letters', 'x'.repeat(100_000)],
];

/** Parsed, but no letter binds or the result is not finite: nothing is calculated. */
const UNEVALUABLE: Array<[string, string]> = [
  ['constructor', 'constructor'],
  ['toString + valueOf', 'toString + valueOf'],
  ['A.constructor', 'A.constructor'],
  ['a division by zero', 'A / 0'],
  ['an overflow', '1e308 * 10 + A'],
];

let server: TestServer;
let competition: Competition;

beforeAll(async () => {
  server = await startTestServer();
  await server.pool.query(
    `ALTER TABLE ${t.disziplinen} ALTER COLUMN var_formel TYPE text, ALTER COLUMN var_eingabemaske TYPE text;
     ALTER TABLE ${t.formeln} ALTER COLUMN var_formel TYPE text`,
  );
  competition = await createCompetition(server.pool, 'Hostile Meet');
});

afterAll(async () => {
  await server?.stop();
});

interface Scored {
  discipline: Discipline;
  scoreId: number;
}

/** A score due for the auto-calculation on read: A and B saved, no final value, detail empty. */
async function scoreDueForCalculation(formula: string, options: { asRecord?: boolean } = {}): Promise<Scored> {
  const discipline = await insertDiscipline(server.pool, options.asRecord ? { formula: 'A + B', recordFormula: formula } : { formula });
  const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
  await insertDetailRow(server.pool, scoreId, discipline.id, null);
  await insertJuryResults(server.pool, scoreId, [
    [discipline.fields.A, 9],
    [discipline.fields.B, 1.5],
  ]);
  return { discipline, scoreId };
}

async function readScores(): Promise<
  Array<{ id: number; disciplineId: number; formula: string | null; startValue: number; score: number | null }>
> {
  const answer = await send(`${server.url}/api/scores?eventId=${competition.eventId}&limit=1000`, { timeoutMs: 15_000 });
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return (
    JSON.parse(answer.text) as {
      results: Array<{ id: number; disciplineId: number; formula: string | null; startValue: number; score: number | null }>;
    }
  ).results;
}

async function expectNothingCalculated(scored: Scored): Promise<void> {
  expect((await juryResultRows(server.pool, scored.scoreId)).map((row) => row.fieldId)).not.toContain(scored.discipline.fields.final);
  expect(await detailRows(server.pool, scored.scoreId)).toMatchObject([{ disciplineId: scored.discipline.id, value: null }]);
}

describe('hostile formulas stored by the legacy program', () => {
  it('calculates a well-formed formula on read (the control for the cases below)', async () => {
    const scored = await scoreDueForCalculation('A + B');
    const entry = (await readScores()).find((result) => result.id === scored.scoreId);
    expect(entry).toMatchObject({ formula: 'A + B', score: 10.5 });
  });

  it.each(UNPARSEABLE)('treats %s as no formula: GET /api/scores is 200, formula null, nothing written', async (_case, formula) => {
    const scored = await scoreDueForCalculation(formula);
    // A parser that hangs fails on readScores' deadline; how fast the read is depends on the machine.
    const entry = (await readScores()).find((result) => result.id === scored.scoreId);
    expect(entry).toMatchObject({ formula: null, startValue: 10, score: null });
    await expectNothingCalculated(scored);
  });

  it.each(UNEVALUABLE)('calculates nothing from %s: GET /api/scores is 200 and nothing is written', async (_case, formula) => {
    const scored = await scoreDueForCalculation(formula);
    const entry = (await readScores()).find((result) => result.id === scored.scoreId);
    expect(entry?.score).toBeNull();
    expect(Number.isFinite(entry?.startValue)).toBe(true);
    await expectNothingCalculated(scored);
  });

  it('treats a hostile formula record as no formula, although the discipline has a usable one of its own (rule 1: the record wins)', async () => {
    const scored = await scoreDueForCalculation(`${'('.repeat(10_000)}A${')'.repeat(10_000)}`, { asRecord: true });
    const entry = (await readScores()).find((result) => result.id === scored.scoreId);
    expect(entry).toMatchObject({ formula: null, score: null });
    await expectNothingCalculated(scored);
  });

  it('lists disciplines with hostile formulas as having none (GET /api/disciplines)', async () => {
    const unparseable = await insertDiscipline(server.pool, { name: 'Unparseable', formula: 'x'.repeat(100_000) });
    const answer = await send(`${server.url}/api/disciplines`);
    expect(answer.status).toBe(200);
    const listed = (JSON.parse(answer.text) as Array<{ id: number; formula: string | null; startValue: number }>).find(
      (discipline) => discipline.id === unparseable.id,
    );
    expect(listed).toMatchObject({ formula: null, startValue: 10 });
  });

  it('stores captured values without a final score when the formula is hostile (POST /api/scores/capture, POST /api/jury-results)', async () => {
    for (const formula of ['process.exit()', 'constructor', `${'('.repeat(10_000)}A${')'.repeat(10_000)}`]) {
      const scored = await scoreDueForCalculation(formula);
      const capture = await send(`${server.url}/api/scores/capture`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wertungenId: scored.scoreId, fieldValues: [{ fieldId: scored.discipline.fields.C, value: 0.5 }] }),
      });
      expect(capture.status, capture.text.slice(0, 300)).toBe(200);
      expect(JSON.parse(capture.text)).toMatchObject({ success: true, finalScore: null, calculated: false });

      const juryResult = await send(`${server.url}/api/jury-results`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ participantId: scored.scoreId, disciplineFieldId: scored.discipline.fields.A, performance: 8 }),
      });
      expect(juryResult.status, juryResult.text.slice(0, 300)).toBe(200);
      expect(JSON.parse(juryResult.text)).toMatchObject({ success: true, finalScore: null });
      await expectNothingCalculated(scored);
    }
  });
});

describe('hostile formulas in group scoring (field short names as variables)', () => {
  let event: GroupTeamEvent;

  beforeAll(async () => {
    event = await createGroupTeamEvent(server.pool);
  });

  const save = (body: Record<string, unknown>) =>
    send(`${server.url}/api/scores/group`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it.each([...UNPARSEABLE, ...UNEVALUABLE])(
    'refuses to calculate from %s (400, nothing written) but stores a given final score',
    async (_case, formula) => {
      await server.pool.query(`UPDATE ${t.disziplinen} SET var_formel = $1 WHERE int_disziplinenid = $2`, [formula, event.disciplineId]);
      const groupId = await insertRow(server.pool, 'gruppen', 'int_gruppenid', {
        int_veranstaltungenid: event.eventId,
        var_name: 'Gruppe Sturm',
        int_startnummer: 3,
      });
      const components = [
        { fieldId: event.fields.D, value: 4 },
        { fieldId: event.fields.E, value: 8 },
        { fieldId: event.fields.Abz, value: 0.5 },
      ];
      const base = { groupId, competitionId: event.groupCompetitionId, disciplineId: event.disciplineId, components };
      const { rows: before } = await server.pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${t.wertungen} WHERE int_gruppenid = $1`,
        [groupId],
      );

      const body = expectContractError(await save(base), 400, 'VALIDATION_FAILED');
      expect(String(body.message)).toContain('finalScore');
      const { rows: after } = await server.pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${t.wertungen} WHERE int_gruppenid = $1`,
        [groupId],
      );
      expect(after).toEqual(before);

      const given = await save({ ...base, finalScore: 11.5 });
      expect(given.status, given.text.slice(0, 300)).toBe(200);
    },
  );
});

describe('hostile input masks and decimal counts', () => {
  const disciplineWith = (name: string, mask: string | null, decimals: number | null) =>
    insertRow(server.pool, 'disziplinen', 'int_disziplinenid', { var_name: name, var_eingabemaske: mask, int_berechnung: decimals });

  async function listed(id: number): Promise<{ inputMask: string | null; decimals: number | null }> {
    const answer = await send(`${server.url}/api/disciplines`, { timeoutMs: 15_000 });
    expect(answer.status).toBe(200);
    return (JSON.parse(answer.text) as Array<{ id: number; inputMask: string | null; decimals: number | null }>).find(
      (discipline) => discipline.id === id,
    )!;
  }

  it.each(['00.00', '0,00', '0:00.00', 'hh:mm:ss.ss', '00.000', ' 0,00 '])('passes the mask %j on to clients', async (mask) => {
    expect((await listed(await disciplineWith(`Mask ${mask}`, mask, 2))).inputMask).toBe(mask.trim());
  });

  it.each([
    ['100 KB of zeros', '0'.repeat(100_000)],
    ['5,000 decimal places', `0.${'0'.repeat(5_000)}`],
    ['markup', '<img src=x onerror=alert(1)>'],
    ['__proto__', '__proto__'],
    ['four time units', '0:0:0:0'],
    ['two fraction separators', '0.0,0'],
    ['a control character', '0.0\u0007'],
    ['blank', '   '],
  ])('lists a discipline whose stored mask is %s without a mask', async (_case, mask) => {
    expect((await listed(await disciplineWith('Bad mask', mask, 2))).inputMask).toBeNull();
  });

  it.each([
    [-1, null],
    [11, null],
    [2_147_483_647, null],
    [0, 0],
    [3, 3],
  ])('lists the decimal count %d as %j', async (decimals, expected) => {
    expect((await listed(await disciplineWith('Decimals', null, decimals))).decimals).toBe(expected);
  });
});

it('keeps two of the cases above within the length limit, so they exercise the nesting limit', () => {
  expect(NESTED_WITHIN_LENGTH.length).toBeLessThanOrEqual(MAX_FORMULA_LENGTH);
  expect(UNARY_WITHIN_LENGTH.length).toBeLessThanOrEqual(MAX_FORMULA_LENGTH);
  expect(UNPARSEABLE.map(([, formula]) => formula)).toEqual(expect.arrayContaining([NESTED_WITHIN_LENGTH, UNARY_WITHIN_LENGTH]));
});
