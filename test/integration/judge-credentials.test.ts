/**
 * Issue 45, item 3: judge credentials. A credential's token writes scores of its apparatus (and,
 * for an E-judge, its field) of its event only (403 elsewhere), is refused at once when revoked or
 * expired (401), gives a judge write access with AUTH_MODE=strict and names the judge in the audit
 * with lan.
 */
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  createGroupTeamEvent,
  detailRows,
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer } from '../support/tokens.js';

let strict: TestServer;
let competition: Competition;
let other: Competition;
let floor: Discipline;
let vault: Discipline;
let scoreId: number;
let otherScoreId: number;

beforeAll(async () => {
  strict = await startTestServer({ env: { AUTH_MODE: 'strict' } });
  competition = await createCompetition(strict.pool, 'Bezirksfinale');
  other = await createCompetition(strict.pool, 'Nachbarcup');
  floor = await insertDiscipline(strict.pool, { name: 'Boden' });
  vault = await insertDiscipline(strict.pool, { name: 'Sprung', formula: null });
  ({ scoreId } = await insertParticipantWithScoreRow(strict.pool, competition, { squadName: 'R1' }));
  ({ scoreId: otherScoreId } = await insertParticipantWithScoreRow(strict.pool, other, { squadName: 'R1' }));
  for (const id of [scoreId, otherScoreId])
    for (const apparatus of [floor, vault]) await insertDetailRow(strict.pool, id, apparatus.id, null);
});
afterAll(async () => {
  await strict?.stop();
});

const admin = bearer(adminToken);
const credentialsUrl = (server: TestServer, eventId = competition.eventId) => `${server.url}/api/events/${eventId}/judge-credentials`;

async function issue(
  server: TestServer,
  body: Record<string, unknown>,
): Promise<{ id: number; token: string; portalUrl: string; credential: any }> {
  const issued = await sendJson('POST', credentialsUrl(server), body, admin);
  expect(issued.status).toBe(201);
  return { id: issued.body.credential.id, ...issued.body };
}

const saveValue = (server: TestServer, token: string | null, disciplineId: number, score: number, target = { competition, scoreId }) =>
  sendJson(
    'POST',
    `${server.url}/api/scores/save-value`,
    { competitionId: target.competition.competitionId, participantId: target.scoreId, disciplineId, score },
    token === null ? {} : bearer(token),
  );
const saveField = (server: TestServer, token: string, fieldId: number, performance: number) =>
  sendJson('POST', `${server.url}/api/jury-results`, { participantId: scoreId, disciplineFieldId: fieldId, performance }, bearer(token));
const finalOn = async (server: TestServer, disciplineId: number, id = scoreId) =>
  (await detailRows(server.pool, id)).find((row) => row.disciplineId === disciplineId && row.kp === 0)?.value ?? null;

describe('judge credentials with AUTH_MODE=strict', () => {
  it('issues a token with a portal address that opens preselected, the token in the fragment', async () => {
    await sendJson(
      'PUT',
      `${strict.url}/api/events/${competition.eventId}/rotation-plan`,
      {
        rotations: [
          { rotation: 1, plannedStart: '2026-05-02T08:00:00Z', slots: [{ disciplineId: vault.id, squadName: 'R1', judges: [] }] },
        ],
      },
      admin,
    );
    const { credential, token, portalUrl } = await issue(strict, { disciplineId: vault.id, judgeName: 'Vera Sprung' });
    expect(credential).toMatchObject({
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      disciplineId: vault.id,
      disciplineName: 'Sprung',
      fieldId: null,
      judgeName: 'Vera Sprung',
      issuedBy: 'anna',
      active: true,
      revokedAt: null,
      squadName: 'R1',
    });
    // Expires at the end of today (the event has no start date), the database's midnight.
    const { rows } = await strict.pool.query(`SELECT (current_date + 1)::timestamptz AS midnight`);
    expect(Date.parse(credential.expiresAt)).toBe(rows[0].midnight.getTime());
    const url = new URL(portalUrl);
    expect(url.origin).toBe(strict.url);
    expect(url.pathname).toBe('/jury/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      eventId: String(competition.eventId),
      competitionId: String(competition.competitionId),
      disciplineId: String(vault.id),
      squad: 'R1',
    });
    expect(new URLSearchParams(url.hash.slice(1)).get('token')).toBe(token);
  });

  it('writes scores of its apparatus (200) and not of another (403, nothing written)', async () => {
    const { token } = await issue(strict, { disciplineId: vault.id });
    expect((await saveValue(strict, token, vault.id, 13.2)).status).toBe(200);
    expect(await finalOn(strict, vault.id)).toBeCloseTo(13.2);

    const refused = await saveValue(strict, token, floor.id, 11);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN', message: expect.stringMatching(/apparatus/) });
    expect(await finalOn(strict, floor.id)).toBeNull();
    expect((await saveField(strict, token, floor.fields.B, 8)).status).toBe(403);
    // Another event's score, even on the same apparatus.
    expect((await saveValue(strict, token, vault.id, 12, { competition: other, scoreId: otherScoreId })).status).toBe(403);
    expect(await finalOn(strict, vault.id, otherScoreId)).toBeNull();
    // Without any token strict mode refuses the write.
    expect((await saveValue(strict, null, vault.id, 12)).status).toBe(401);
  });

  it('limits an E-judge credential to its field', async () => {
    const { credential, token } = await issue(strict, { disciplineId: floor.id, fieldId: floor.fields.B });
    expect(credential).toMatchObject({ fieldId: floor.fields.B, judgeName: 'Boden E' });
    expect((await saveField(strict, token, floor.fields.B, 8.4)).status).toBe(200);
    expect((await saveField(strict, token, floor.fields.C, 0.3)).status).toBe(403);
    expect((await saveValue(strict, token, floor.id, 11)).status).toBe(403);
    const { rows } = await strict.pool.query(
      `SELECT j.int_disziplinen_felderid AS field FROM ${t.jury_results} j
         JOIN ${t.disziplinen_felder} f ON f.int_disziplinen_felderid = j.int_disziplinen_felderid
        WHERE j.int_wertungenid = $1 AND f.int_disziplinenid = $2 ORDER BY 1`,
      [scoreId, floor.id],
    );
    expect(rows).toEqual([{ field: floor.fields.B }]);
  });

  it('keeps group scores to its apparatus too', async () => {
    const event = await createGroupTeamEvent(strict.pool);
    const issued = await sendJson('POST', credentialsUrl(strict, event.eventId), { disciplineId: event.disciplineId }, admin);
    expect(issued.status).toBe(201);
    const save = (disciplineId: number) =>
      sendJson(
        'POST',
        `${strict.url}/api/scores/group`,
        { groupId: event.groupId, competitionId: event.groupCompetitionId, disciplineId, finalScore: 9 },
        bearer(issued.body.token),
      );
    expect((await save(event.disciplineId)).status).toBe(200);
    expect((await save(event.plainDisciplineId)).status).toBe(403);
    const { rows } = await strict.pool.query(
      `SELECT d.int_disziplinenid AS discipline FROM ${t.wertungen_details} d JOIN ${t.wertungen} w ON w.int_wertungenid = d.int_wertungenid
        WHERE w.int_gruppenid = $1 AND d.rel_leistung IS NOT NULL`,
      [event.groupId],
    );
    expect(rows).toEqual([{ discipline: event.disciplineId }]);
  });

  it('refuses a revoked credential’s token at once (401) and lists it as revoked', async () => {
    const { id, token } = await issue(strict, { disciplineId: vault.id });
    expect((await saveValue(strict, token, vault.id, 13.4)).status).toBe(200);
    const revoked = await sendJson('DELETE', `${credentialsUrl(strict)}/${id}`, undefined, admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, active: false, revokedBy: 'anna' });
    const refused = await saveValue(strict, token, vault.id, 13.6);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/revoked or has expired/) });
    expect(await finalOn(strict, vault.id)).toBeCloseTo(13.4);
    const listed = await sendJson('GET', credentialsUrl(strict), undefined, admin);
    expect(listed.body.find((entry: any) => entry.id === id)).toMatchObject({ active: false, revokedAt: expect.any(String) });
    expect(listed.body.every((entry: any) => !('token' in entry))).toBe(true);
    expect((await sendJson('DELETE', `${credentialsUrl(strict)}/2000000`, undefined, admin)).status).toBe(404);
  });

  it('refuses an expired credential’s token (401): the stored expiry, and the token’s own', async () => {
    const { id, token } = await issue(strict, { disciplineId: vault.id });
    await strict.pool.query(`UPDATE ${t.svc_judge_credentials} SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect((await saveValue(strict, token, vault.id, 14)).status).toBe(401);

    const fresh = await issue(strict, { disciplineId: vault.id });
    const expiredToken = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })({
      sub: 'Sprung',
      role: 'jury',
      judge: { credentialId: fresh.id, eventId: competition.eventId, disciplineId: vault.id, fieldId: null },
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    expect((await saveValue(strict, expiredToken, vault.id, 14)).status).toBe(401);
    expect(await finalOn(strict, vault.id)).toBeCloseTo(13.4);
  });

  it('refuses to issue for an apparatus or field it cannot cover, or a day that has passed (400), and to non-admins', async () => {
    const post = (body: Record<string, unknown>, headers = admin) => sendJson('POST', credentialsUrl(strict), body, headers);
    const unknownApparatus = await post({ disciplineId: 2_000_000 });
    expect(unknownApparatus.status).toBe(400);
    expect(unknownApparatus.body.code).toBe('VALIDATION_FAILED');
    expect((await post({ disciplineId: vault.id, fieldId: floor.fields.B })).body.message).toMatch(/not a field of apparatus/);
    expect((await post({ disciplineId: vault.id, day: '2020-01-01' })).body.message).toMatch(/has passed/);
    expect((await post({ disciplineId: vault.id, competitionId: other.competitionId })).status).toBe(400);
    expect((await sendJson('POST', credentialsUrl(strict, 2_000_000), { disciplineId: vault.id }, admin)).status).toBe(404);
    const { token } = await issue(strict, { disciplineId: vault.id });
    expect((await post({ disciplineId: vault.id }, bearer(token))).status).toBe(403);
    expect((await post({ disciplineId: vault.id }, {})).status).toBe(401);
  });
});

describe('judge credentials with AUTH_MODE=lan', () => {
  let lan: TestServer;
  beforeAll(async () => {
    lan = await startTestServer({ database: strict.database });
  });
  afterAll(async () => {
    await lan?.close();
  });

  it('names the judge in the audit and still keeps the token to its apparatus', async () => {
    const { token } = await issue(lan, { disciplineId: floor.id, judgeName: 'Frieda Boden' });
    expect((await saveValue(lan, token, floor.id, 12.1)).status).toBe(200);
    expect((await saveValue(lan, token, vault.id, 15)).status).toBe(403);
    const { rows } = await lan.pool.query(
      `SELECT actor FROM ${t.svc_score_audit} WHERE score_id = $1 AND discipline_id = $2 ORDER BY id DESC LIMIT 1`,
      [scoreId, floor.id],
    );
    expect(rows).toEqual([{ actor: 'Frieda Boden' }]);
  });
});
