/**
 * Issue 47 item 1, inquiries on a D value (FIG Technical Regulations Art. 8.5): filed in time,
 * confirmed and upheld through the score path (results, the board's read, the audit, events); a
 * late filing and a late confirmation refused with the times; judges' tokens refused; no
 * withdrawal; every time the server's. Lateness is made by moving stored times back in the test
 * database, never by waiting.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertGroupOrTeam,
  insertParticipantWithScoreRow,
  insertRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, postJson, sendJson } from '../support/http.js';
import { joinCompetition } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let discipline: Discipline;
let socket: Socket;
const inquiryEvents: Array<Record<string, any>> = [];
const scoreEvents: Array<Record<string, any>> = [];

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Gaufinale');
  discipline = await insertDiscipline(server.pool, { name: 'Barren' });
  socket = await openSocket(server.url);
  socket.on('inquiry-updated', (event: Record<string, any>) => inquiryEvents.push(event));
  socket.on('score-updated', (event: Record<string, any>) => scoreEvents.push(event));
  await joinCompetition(socket, competition.eventId);
});
afterAll(async () => {
  socket?.close();
  await server?.stop();
});

const url = (path: string) => `${server.url}${path}`;
const inquiriesUrl = () => url(`/api/events/${competition.eventId}/inquiries`);

/** A gymnast of `squad` with D, E and deduction saved through the portal's capture: the final (D + E - deduction) is shown. */
async function scoredGymnast(lastName: string, squadName: string, d: number): Promise<number> {
  const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName, squadName });
  const { A, B, C } = discipline.fields;
  const saved = await postJson(url('/api/scores/capture'), {
    wertungenId: scoreId,
    fieldValues: [
      { fieldId: A, value: d },
      { fieldId: B, value: 8 },
      { fieldId: C, value: 0.3 },
    ],
  });
  expect(saved.status).toBe(200);
  return scoreId;
}

const file = (scoreId: number, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  postJson(inquiriesUrl(), { scoreId, disciplineId: discipline.id, coach: 'Trainerin Kim', ...extra }, headers);
const confirm = (inquiryId: number, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  postJson(url(`/api/inquiries/${inquiryId}/confirmation`), body, headers);
const decide = (inquiryId: number, body: Record<string, unknown>, headers = bearer(headToken)) =>
  postJson(url(`/api/inquiries/${inquiryId}/decision`), body, headers);

async function databaseNow(): Promise<number> {
  const { rows } = await server.pool.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  return rows[0]!.now.getTime();
}

async function inquiryCount(): Promise<number> {
  const { rows } = await server.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${t.svc_inquiries}`);
  return rows[0]!.count;
}

/** Moves every score's "shown" time (the audit records) back, as if the scores had been shown that long ago, in the same order. */
async function shownSecondsAgo(seconds: number): Promise<void> {
  await server.pool.query(`UPDATE ${t.svc_score_audit} SET at = at - make_interval(secs => $1)`, [seconds]);
}

function expectRefusal(answer: { status: number; body: any }, status: number, code: string, message: RegExp): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toEqual({ statusCode: status, error: expect.any(String), code, message: expect.stringMatching(message) });
}

describe('an inquiry in time', () => {
  it('is filed by the coach, confirmed in writing, upheld with the new D, and the new score reaches the results and the board', async () => {
    const first = await scoredGymnast('Adler', 'R1', 5);
    await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Berg', squadName: 'R1' });

    const before = await databaseNow();
    const filed = await file(first);
    const afterFiling = await databaseNow();
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    expect(filed.body).toMatchObject({
      scoreId: first,
      disciplineId: discipline.id,
      disciplineName: 'Barren',
      fieldId: discipline.fields.A,
      lastName: 'Adler',
      coach: 'Trainerin Kim',
      recordedBy: null,
      state: 'filed',
      // Berg is still to come: the verbal inquiry is due before his score is shown, no fixed time.
      verbalDeadline: null,
      dBefore: 5,
      finalBefore: 12.7,
      confirmedAt: null,
      decidedAt: null,
    });
    const filedAt = Date.parse(filed.body.filedAt);
    expect(filedAt).toBeGreaterThanOrEqual(before - 1);
    expect(filedAt).toBeLessThanOrEqual(afterFiling + 1);
    expect(Date.parse(filed.body.writtenDeadline) - filedAt).toBe(240_000);
    expect(Date.parse(filed.body.shownAt)).toBeLessThanOrEqual(filedAt);

    const confirmed = await confirm(filed.body.id);
    expect(confirmed.body).toMatchObject({ state: 'confirmed', confirmedBy: 'Trainerin Kim', filedAt: filed.body.filedAt });
    expect(Date.parse(confirmed.body.confirmedAt)).toBeGreaterThanOrEqual(filedAt);

    const decided = await decide(filed.body.id, { decision: 'upheld', newD: 5.5, note: 'Element C anerkannt' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body).toMatchObject({
      state: 'upheld',
      decision: 'upheld',
      decidedBy: 'oberkampfrichter',
      dBefore: 5,
      dAfter: 5.5,
      finalBefore: 12.7,
      finalAfter: 13.2,
      note: 'Element C anerkannt',
    });

    // The results and the board's read carry the recalculated final.
    const results = await getJson(url(`/api/results?eventId=${competition.eventId}&competitionId=${competition.competitionId}`));
    const adler = results.body.classes[0].results.find((row: any) => row.lastName === 'Adler');
    expect(adler.disciplines).toEqual([expect.objectContaining({ disciplineId: discipline.id, score: 13.2 })]);
    const board = await getJson(url(`/api/live-results?eventId=${competition.eventId}&disciplineId=${discipline.id}`));
    expect(board.body.results.find((row: any) => row.scoreId === first)).toMatchObject({ score: 13.2 });

    // The audit names the head judge; the scoreboards heard the new score and every step.
    const history = await sendJson('GET', url(`/api/scores/${first}/history`), undefined, bearer(headToken));
    expect(history.body.changes.at(-1)).toMatchObject({ actor: 'oberkampfrichter', fieldId: null, from: 12.7, to: 13.2 });
    await waitFor(() => scoreEvents.find((event) => event.scoreId === first && event.finalScore === 13.2), {
      message: 'score-updated 13.2',
    });
    const steps = await waitFor(
      () => {
        const mine = inquiryEvents.filter((event) => event.id === filed.body.id);
        return mine.length === 3 ? mine : null;
      },
      { message: 'three inquiry-updated events' },
    );
    expect(steps.map((event) => event.state)).toEqual(['filed', 'confirmed', 'upheld']);
    expect(steps.map((event) => event.timestamp)).toEqual([filed.body.filedAt, confirmed.body.confirmedAt, decided.body.decidedAt]);
    expect(steps.every((event) => typeof event.seq === 'number' && event.source === 'api')).toBe(true);

    // The decision stands: neither a second decision nor another inquiry on the routine.
    expectRefusal(await decide(filed.body.id, { decision: 'rejected' }), 409, 'CONFLICT', /decided \(upheld\) at .*cannot be changed/);
    expectRefusal(await file(first), 409, 'CONFLICT', /already has an inquiry/);
  });

  it('can be recorded by the head judge for a coach and rejected, leaving the score as it was', async () => {
    const scoreId = await scoredGymnast('Christ', 'R3', 4.8);
    await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Dach', squadName: 'R3' });
    const filed = await file(scoreId, bearer(headToken), { coach: 'Trainer Ott' });
    expect(filed.body).toMatchObject({ coach: 'Trainer Ott', recordedBy: 'oberkampfrichter', state: 'filed' });
    expect((await confirm(filed.body.id, {}, bearer(headToken))).body).toMatchObject({ confirmedBy: 'oberkampfrichter' });
    expectRefusal(await decide(filed.body.id, { decision: 'rejected', newD: 5 }), 400, 'VALIDATION_FAILED', /newD/);
    const rejected = await decide(filed.body.id, { decision: 'rejected' });
    expect(rejected.body).toMatchObject({ state: 'rejected', dAfter: null, finalAfter: null });
    const board = await getJson(url(`/api/live-results?eventId=${competition.eventId}&disciplineId=${discipline.id}`));
    expect(board.body.results.find((row: any) => row.scoreId === scoreId)).toMatchObject({ score: 12.5 });
  });
});

describe('a late inquiry', () => {
  it('is refused once the next gymnast’s score on the apparatus was shown, with both times', async () => {
    const earlier = await scoredGymnast('Eder', 'R4', 5);
    await scoredGymnast('Falk', 'R4', 5.2);
    await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Gans', squadName: 'R4' });
    const count = await inquiryCount();
    expectRefusal(
      await file(earlier),
      409,
      'CONFLICT',
      /^Too late: the inquiry arrived at .*Z, after the next gymnast's score .* shown at .*Z/,
    );
    expect(await inquiryCount()).toBe(count);
  });

  it('of the last gymnast of a rotation is refused after the competition’s deadline; within it, it is accepted', async () => {
    const set = await sendJson(
      'PUT',
      url(`/api/events/${competition.eventId}/competitions/${competition.competitionId}/inquiry-deadlines`),
      { lastGymnastSeconds: 30, writtenSeconds: 120 },
      bearer(adminToken),
    );
    expect(set.body).toEqual({ competitionId: competition.competitionId, lastGymnastSeconds: 30, writtenSeconds: 120, stored: true });
    const inTime = await scoredGymnast('Haas', 'R5', 5);
    const filed = await file(inTime);
    expect(filed.status).toBe(201);
    expect(Date.parse(filed.body.verbalDeadline) - Date.parse(filed.body.shownAt)).toBe(30_000);
    expect(Date.parse(filed.body.writtenDeadline) - Date.parse(filed.body.filedAt)).toBe(120_000);

    const late = await scoredGymnast('Igel', 'R6', 5);
    await shownSecondsAgo(45);
    const count = await inquiryCount();
    expectRefusal(await file(late), 409, 'CONFLICT', /last gymnast of the rotation .*within 30 s of the score being shown at .*Z, by .*Z/);
    expect(await inquiryCount()).toBe(count);
  });

  it('confirmation after the written deadline is refused with the times, and the inquiry lapses', async () => {
    const scoreId = await scoredGymnast('Jung', 'R7', 5);
    const filed = await file(scoreId);
    // As if filed five minutes ago.
    await server.pool.query(
      `UPDATE ${t.svc_inquiries} SET filed_at = filed_at - interval '5 minutes', written_deadline = written_deadline - interval '5 minutes'
        WHERE id = $1`,
      [filed.body.id],
    );
    expectRefusal(
      await confirm(filed.body.id),
      409,
      'CONFLICT',
      /^Too late: the written confirmation arrived at .*Z; .* confirmed in writing by .*Z/,
    );
    expectRefusal(await decide(filed.body.id, { decision: 'upheld', newD: 6 }), 409, 'CONFLICT', /not confirmed in writing/);
    const listed = (await getJson(inquiriesUrl())).body.inquiries.find((entry: any) => entry.id === filed.body.id);
    expect(listed).toMatchObject({ state: 'lapsed', confirmedAt: null, decidedAt: null });
  });
});

describe('who may do what', () => {
  it('refuses a judge’s token with 403 and files nothing', async () => {
    const scoreId = await scoredGymnast('Kern', 'R8', 5);
    const count = await inquiryCount();
    expectRefusal(await file(scoreId, bearer(juryToken)), 403, 'FORBIDDEN', /head or admin/);
    expect(await inquiryCount()).toBe(count);
    const filed = await file(scoreId);
    expectRefusal(await confirm(filed.body.id, {}, bearer(juryToken)), 403, 'FORBIDDEN', /head or admin/);
    expectRefusal(await decide(filed.body.id, { decision: 'rejected' }, bearer(juryToken)), 403, 'FORBIDDEN', /head or admin/);
    expect((await decide(filed.body.id, { decision: 'rejected' }, {})).status).toBe(401);
  });

  it('refuses an inquiry on a group score: only a gymnast’s D score can be inquired', async () => {
    const groupId = await insertGroupOrTeam(server.pool, competition, 'group', 'Gruppe A', 'G1');
    const groupScore = await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: competition.competitionId,
      int_gruppenid: groupId,
      int_statusid: 1,
    });
    const count = await inquiryCount();
    expectRefusal(await file(groupScore), 409, 'CONFLICT', /group or team score/);
    expect(await inquiryCount()).toBe(count);
  });

  it('refuses a withdrawal, from the coach and from the head judge alike', async () => {
    const scoreId = await scoredGymnast('Lang', 'R9', 5);
    const filed = await file(scoreId);
    for (const headers of [{}, bearer(headToken)]) {
      expectRefusal(
        await sendJson('DELETE', url(`/api/inquiries/${filed.body.id}`), undefined, headers),
        409,
        'CONFLICT',
        /cannot be withdrawn/,
      );
    }
    expectRefusal(await sendJson('DELETE', url('/api/inquiries/999999'), undefined, {}), 404, 'NOT_FOUND', /No inquiry/);
    const listed = (await getJson(inquiriesUrl())).body.inquiries.find((entry: any) => entry.id === filed.body.id);
    expect(listed).toMatchObject({ state: 'filed' });
  });
});

describe('times', () => {
  it('come from the server only: a body carrying a time is refused and changes nothing', async () => {
    const scoreId = await scoredGymnast('Mohr', 'R10', 5);
    const count = await inquiryCount();
    expectRefusal(await file(scoreId, {}, { filedAt: '2020-01-01T00:00:00.000Z' }), 400, 'VALIDATION_FAILED', /filedAt|additional/);
    expect(await inquiryCount()).toBe(count);
    const filed = await file(scoreId);
    expectRefusal(
      await confirm(filed.body.id, { confirmedAt: '2020-01-01T00:00:00.000Z' }),
      400,
      'VALIDATION_FAILED',
      /confirmedAt|additional/,
    );
    expectRefusal(
      await decide(filed.body.id, { decision: 'rejected', decidedAt: '2020-01-01T00:00:00.000Z' }),
      400,
      'VALIDATION_FAILED',
      /decidedAt|additional/,
    );
    const { rows } = await server.pool.query(`SELECT confirmed_at, decided_at FROM ${t.svc_inquiries} WHERE id = $1`, [filed.body.id]);
    expect(rows[0]).toEqual({ confirmed_at: null, decided_at: null });
  });

  it('lists the inquiries of the event with the server’s now, and the shown scores a coach can pick from', async () => {
    const list = await getJson(inquiriesUrl());
    expect(list.status).toBe(200);
    expect(Math.abs(Date.parse(list.body.now) - (await databaseNow()))).toBeLessThan(60_000);
    expect(list.body.inquiries.length).toBe(await inquiryCount());
    const candidates = await getJson(url(`/api/events/${competition.eventId}/inquiry-candidates?disciplineId=${discipline.id}`));
    expect(candidates.body.scores[0]).toMatchObject({ lastName: 'Mohr', nextShownAt: null, inquiryId: expect.any(Number) });
    // Mohr is alone in his squad, so the last of the rotation: the verbal deadline is the competition's.
    const deadlines = await getJson(url(`/api/events/${competition.eventId}/competitions/${competition.competitionId}/inquiry-deadlines`));
    const [latest, earlier] = candidates.body.scores;
    expect(Date.parse(latest.verbalDeadline) - Date.parse(latest.shownAt)).toBe(deadlines.body.lastGymnastSeconds * 1000);
    expect(earlier.nextShownAt).toBe(latest.shownAt);
    const shown = candidates.body.scores.map((entry: any) => Date.parse(entry.shownAt));
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
  });
});
