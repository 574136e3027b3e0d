/**
 * Issue 15 item 4: a score write whose participant, competition and group/team are not of one
 * event is refused with 400 VALIDATION_FAILED naming the field, and nothing is written. Before,
 * save-value with a participant of event 100 and a competition of event 1 created a score row in
 * event 1. (Disciplines are not tied to an event in the legacy layout: any discipline fits.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { createCompetition, insertDiscipline, insertParticipant, insertParticipantWithScoreRow } from '../support/fixtures.js';
import { postJson } from '../support/http.js';
import { changedTables, fingerprint } from '../support/security.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

it('refuses save-value for a participant of another event, writing nothing', async () => {
  const home = await createCompetition(server.pool, 'Heimfest');
  const other = await createCompetition(server.pool, 'Fremdfest');
  const discipline = await insertDiscipline(server.pool);
  const stranger = await insertParticipant(server.pool, other);
  const before = await fingerprint(server.pool);
  const answer = await postJson(`${server.url}/api/scores/save-value`, {
    competitionId: home.competitionId,
    participantId: stranger,
    disciplineId: discipline.id,
    score: 9.5,
  });
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^participantId /) });
  expect(changedTables(before, await fingerprint(server.pool))).toEqual([]);
  const { rows } = await server.pool.query(`SELECT 1 FROM ${t.wertungen} WHERE int_teilnehmerid = $1`, [stranger]);
  expect(rows).toEqual([]);
});

it('still saves for a participant of the competition’s own event, by participant id and by score id', async () => {
  const home = await createCompetition(server.pool, 'Heimfest 2');
  const discipline = await insertDiscipline(server.pool);
  const local = await insertParticipant(server.pool, home);
  const created = await postJson(`${server.url}/api/scores/save-value`, {
    competitionId: home.competitionId,
    participantId: local,
    disciplineId: discipline.id,
    score: 9.5,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const existing = await insertParticipantWithScoreRow(server.pool, home);
  const saved = await postJson(`${server.url}/api/scores/save-value`, {
    competitionId: home.competitionId,
    participantId: existing.scoreId,
    disciplineId: discipline.id,
    score: 8,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});
