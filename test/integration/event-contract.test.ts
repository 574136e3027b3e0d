/**
 * The event contract has two authors: the builders of `outbox/events.ts` and the legacy-write
 * triggers of `migrations/0003…`, which build event 2 in SQL. A write by another program must give
 * clients exactly the message a service command would: the same keys with the same JSON types
 * (and, for the same stored rows, the same values).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreValueUpdated } from '../../outbox/events.js';
import { t } from '../support/tables.js';
import { calculatedScoreOf, loadDisciplineState } from '../../src/model/scoring-context.js';
import {
  createCompetition,
  insertDiscipline,
  insertJuryResults,
  insertParticipantWithScoreRow,
  type Competition,
} from '../support/fixtures.js';
import { startTestServer, waitForNumbered, type TestServer } from '../support/server.js';

let server: TestServer;
let competition: Competition;
const silent = { warn: () => undefined };

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Vertragspokal');
});
afterAll(async () => {
  await server?.stop();
});

type JsonType = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';
const jsonTypeOf = (value: unknown): JsonType => (value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType));
/** Key → JSON type, as a client receives the payload (after a JSON round trip). */
const shapeOf = (payload: object) =>
  Object.fromEntries(Object.entries(JSON.parse(JSON.stringify(payload)) as object).map(([key, value]) => [key, jsonTypeOf(value)]));

async function legacyPayloads(scoreId: number): Promise<Array<Record<string, unknown>>> {
  await waitForNumbered(server.pool);
  const { rows } = await server.pool.query<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM ${t.svc_outbox} WHERE source = 'legacy' AND (payload->>'scoreId')::int = $1 ORDER BY id`,
    [scoreId],
  );
  return rows.map((row) => row.payload);
}

/** The payload `scoreValueUpdated` builds for the score as it is stored now. */
async function builderPayload(scoreId: number, disciplineId: number): Promise<Record<string, unknown>> {
  const state = (await loadDisciplineState(server.pool, scoreId, disciplineId, silent))!;
  const event = scoreValueUpdated(state, calculatedScoreOf(state));
  expect(event.topic).toBe('score-updated');
  // The outbox's insert trigger (migration 0008) adds `released` to every score-updated row, commands' and legacy alike; nothing is released here.
  return { ...(JSON.parse(JSON.stringify(event.payload)) as Record<string, unknown>), released: false };
}

function expectSameMessage(legacy: Record<string, unknown>, built: Record<string, unknown>): void {
  expect(shapeOf(legacy)).toEqual(shapeOf(built));
  const { timestamp: legacyTime, ...legacyRest } = legacy;
  const { timestamp: builtTime, ...builtRest } = built;
  expect(legacyRest).toEqual(builtRest);
  for (const time of [legacyTime, builtTime]) expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
}

describe('the legacy triggers and the TypeScript builder', () => {
  it('give a stored final score the same keys, JSON types and values', async () => {
    const discipline = await insertDiscipline(server.pool, { name: 'Reck', formula: 'A + B - C' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Altprogramm', squadName: 'R2' });
    await server.pool.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 12.5)`,
      [scoreId, discipline.id],
    );
    const [legacy] = await legacyPayloads(scoreId);
    expect(legacy).toBeDefined();
    expect(legacy).toMatchObject({ score: 12.5, storedScore: 12.5, hasFormula: true });
    expectSameMessage(legacy!, await builderPayload(scoreId, discipline.id));
  });

  it('give a score without a stored value and without a formula the same keys, JSON types and values', async () => {
    const discipline = await insertDiscipline(server.pool, { name: 'Barren', formula: null });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Ohneformel' });
    // A jury result alone, as the desktop program may write it: the event carries no score yet.
    await insertJuryResults(server.pool, scoreId, [[discipline.fields.A, 4]]);
    const [legacy] = await legacyPayloads(scoreId);
    expect(legacy).toBeDefined();
    expect(legacy).toMatchObject({ score: null, storedScore: null, hasFormula: false });
    expectSameMessage(legacy!, await builderPayload(scoreId, discipline.id));
  });
});
