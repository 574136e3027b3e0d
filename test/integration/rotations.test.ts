/**
 * Issue 45, items 1 and 2: an event's rotation plan refused as a whole when it breaks a rule,
 * stored and read back, generated without being stored, and the day following it: a start sends
 * one `rotation-changed` event to the event's room, replayed with `since`, and the current
 * rotation shows each apparatus' progress and the delay.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDetailRow,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { joinCompetition, type ReceivedEvent } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let competition: Competition;
let floor: Discipline;
let vault: Discipline;
let bars: Discipline;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Gaufinale');
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  vault = await insertDiscipline(server.pool, { name: 'Sprung' });
  bars = await insertDiscipline(server.pool, { name: 'Barren' });
  // Squads 1 and 2 with two gymnasts each; the detail rows plan the three apparatus for the event.
  for (const squadName of ['1', '1', '2', '2']) {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { squadName });
    for (const apparatus of [floor, vault, bars]) await insertDetailRow(server.pool, scoreId, apparatus.id, null);
  }
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
});

const planUrl = () => `${server.url}/api/events/${competition.eventId}/rotation-plan`;
const currentUrl = () => `${server.url}/api/events/${competition.eventId}/rotations/current`;
const admin = bearer(adminToken);
const slot = (disciplineId: number, squadName: string, judges: string[] = []) => ({ disciplineId, squadName, judges });
const validPlan = () => ({
  rotations: [
    { rotation: 1, plannedStart: '2026-05-02T08:00:00.000Z', slots: [slot(floor.id, '1', ['Ute Kampf']), slot(vault.id, '2')] },
    { rotation: 2, plannedStart: '2026-05-02T08:30:00.000Z', slots: [slot(vault.id, '1'), slot(bars.id, '2')] },
  ],
});

async function storedRows(): Promise<{ rotations: number; slots: number }> {
  const { rows } = await server.pool.query(
    `SELECT (SELECT count(*) FROM ${t.svc_rotations} WHERE event_id = $1)::int AS rotations,
            (SELECT count(*) FROM ${t.svc_rotation_slots} WHERE event_id = $1)::int AS slots`,
    [competition.eventId],
  );
  return rows[0];
}

describe('rotation plan', () => {
  it('stores a plan and reads it back as stored, judges included', async () => {
    const put = await sendJson('PUT', planUrl(), validPlan(), admin);
    expect(put.status).toBe(200);
    const read = await sendJson('GET', planUrl(), undefined);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ eventId: competition.eventId, currentRotation: null, updatedBy: 'anna' });
    expect(read.body.rotations).toEqual(
      validPlan().rotations.map((rotation) => ({
        ...rotation,
        slots: [...rotation.slots].sort((a, b) => a.disciplineId - b.disciplineId),
      })),
    );
  });

  it.each([
    [
      'a squad on two apparatus in one rotation',
      () => [slot(floor.id, '1'), slot(vault.id, '1')],
      /squad "1" is on two apparatus in rotation 1/,
    ],
    ['an apparatus with two squads', () => [slot(floor.id, '1'), slot(floor.id, '2')], /apparatus \d+ has two squads in rotation 1/],
    ['a squad the event does not have', () => [slot(floor.id, 'X')], /squad "X" is not one of the event/],
    ['an apparatus the event does not have', () => [slot(2_000_000, '1')], /apparatus 2000000 is not one of the event/],
  ])('refuses %s with 400 and keeps the stored plan', async (_name, slots, message) => {
    const before = await sendJson('GET', planUrl(), undefined);
    const refused = await sendJson(
      'PUT',
      planUrl(),
      { rotations: [{ rotation: 1, plannedStart: '2026-05-02T09:00:00.000Z', slots: slots() }] },
      admin,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED' });
    expect(refused.body.message).toMatch(message);
    expect(await sendJson('GET', planUrl(), undefined)).toEqual(before);
    expect(await storedRows()).toEqual({ rotations: 2, slots: 4 });
  });

  it('needs an admin token to store a plan and answers 404 for an unknown event', async () => {
    expect((await sendJson('PUT', planUrl(), validPlan(), bearer(headToken))).status).toBe(403);
    expect((await sendJson('PUT', planUrl(), validPlan())).status).toBe(401);
    const unknown = await sendJson('GET', `${server.url}/api/events/2000000/rotation-plan`, undefined);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });

  it('generates a proposal from the event’s squads and apparatus without storing it', async () => {
    const before = await storedRows();
    const generated = await sendJson(
      'POST',
      `${planUrl()}/generate`,
      { start: '2026-05-02T08:00:00Z', minutesPerApparatus: 20, breaks: [{ afterRotation: 2, minutes: 15 }] },
      admin,
    );
    expect(generated.status).toBe(200);
    expect(generated.body.rotations).toEqual([
      { rotation: 1, plannedStart: '2026-05-02T08:00:00.000Z', slots: [slot(floor.id, '1'), slot(vault.id, '2')] },
      { rotation: 2, plannedStart: '2026-05-02T08:20:00.000Z', slots: [slot(vault.id, '1'), slot(bars.id, '2')] },
      { rotation: 3, plannedStart: '2026-05-02T08:55:00.000Z', slots: [slot(bars.id, '1'), slot(floor.id, '2')] },
    ]);
    expect(await storedRows()).toEqual(before);
    // The proposal is a plan the PUT takes as it is.
    expect((await sendJson('PUT', planUrl(), { rotations: generated.body.rotations }, admin)).status).toBe(200);
    expect(await storedRows()).toEqual({ rotations: 3, slots: 6 });
    expect((await sendJson('PUT', planUrl(), validPlan(), admin)).status).toBe(200);
  });

  it('refuses to generate for a squad or apparatus the event does not have', async () => {
    const refused = await sendJson(
      'POST',
      `${planUrl()}/generate`,
      { start: '2026-05-02T08:00:00Z', minutesPerApparatus: 20, squadNames: ['1', 'Q'], disciplineIds: [floor.id, 2_000_000] },
      admin,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('body.disciplineIds: 2000000 is not one of the event; body.squadNames: Q is not one of the event');
  });
});

describe('the current rotation', () => {
  async function listen(since?: number): Promise<ReceivedEvent[]> {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    const events: ReceivedEvent[] = [];
    socket.on('rotation-changed', (event: ReceivedEvent) => events.push(event));
    expect((await joinCompetition(socket, competition.eventId, since)).ok).toBe(true);
    return events;
  }
  const start = (rotation: number, headers = bearer(headToken)) => sendJson('POST', currentUrl(), { rotation }, headers);

  it('sends rotation-changed exactly once per start to the event’s room, and replays it with since', async () => {
    const live = await listen();
    expect((await sendJson('GET', currentUrl(), undefined)).body).toMatchObject({
      current: null,
      upcoming: [{ rotation: 1 }, { rotation: 2 }],
    });

    const first = await start(1);
    expect(first).toEqual({ status: 200, body: { eventId: competition.eventId, rotation: 1, changed: true } });
    // Starting the current rotation again is no new start: no event.
    expect((await start(1)).body.changed).toBe(false);
    expect((await start(2, admin)).body.changed).toBe(true);
    await waitFor(() => live.length >= 2, { message: 'two rotation-changed events' });

    expect(live.map(({ rotation, previousRotation, by, source }) => ({ rotation, previousRotation, by, source }))).toEqual([
      { rotation: 1, previousRotation: null, by: 'oberkampfrichter', source: 'api' },
      { rotation: 2, previousRotation: 1, by: 'anna', source: 'api' },
    ]);
    expect(live[0]).toMatchObject({
      eventId: competition.eventId,
      plannedStart: '2026-05-02T08:00:00.000Z',
      apparatus: [
        { disciplineId: floor.id, squadName: '1' },
        { disciplineId: vault.id, squadName: '2' },
      ],
    });
    expect(live[1]!.seq).toBeGreaterThan(live[0]!.seq);
    const { rows } = await server.pool.query(
      `SELECT count(*)::int AS n FROM ${t.svc_outbox} WHERE topic = 'rotation-changed' AND event_id = $1`,
      [competition.eventId],
    );
    expect(rows[0].n).toBe(2);

    // A page that saw the first start catches up with the second, once, through `since`.
    const late = await listen(live[0]!.seq);
    await waitFor(() => late.length >= 1, { message: 'replayed rotation-changed' });
    expect(late.map(({ seq, rotation }) => ({ seq, rotation }))).toEqual([{ seq: live[1]!.seq, rotation: 2 }]);
    // Back to rotation 1 is a start too.
    expect((await start(1)).body.changed).toBe(true);
    await waitFor(() => live.length >= 3 && late.length >= 2, { message: 'third start delivered live' });
    expect(live).toHaveLength(3);
    expect(late).toHaveLength(2);
  });

  it('shows per apparatus scored/expected and the delay against the planned time', async () => {
    expect((await start(1)).body.changed).toBe(false);
    const { rows } = await server.pool.query(
      `SELECT w.int_wertungenid AS id FROM ${t.wertungen} w WHERE w.int_wettkaempfeid = $1 AND w.var_riege = '1' ORDER BY 1`,
      [competition.competitionId],
    );
    await server.pool.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 12.5 WHERE int_wertungenid = $1 AND int_disziplinenid = $2`, [
      rows[0].id,
      floor.id,
    ]);
    const current = await sendJson('GET', currentUrl(), undefined);
    expect(current.status).toBe(200);
    const { startedAt, plannedStart, delayMinutes } = current.body.current;
    expect(plannedStart).toBe('2026-05-02T08:00:00.000Z');
    expect(delayMinutes).toBe(Math.round((Date.parse(startedAt) - Date.parse(plannedStart)) / 60_000));
    expect(current.body.current.apparatus).toEqual([
      { disciplineId: floor.id, disciplineName: 'Boden', squadName: '1', judges: ['Ute Kampf'], expected: 2, scored: 1 },
      { disciplineId: vault.id, disciplineName: 'Sprung', squadName: '2', judges: [], expected: 2, scored: 0 },
    ]);
    expect(current.body.upcoming).toEqual([
      {
        rotation: 2,
        plannedStart: '2026-05-02T08:30:00.000Z',
        expectedStart: new Date(Date.parse('2026-05-02T08:30:00.000Z') + delayMinutes * 60_000).toISOString(),
      },
    ]);
  });

  it('refuses a rotation the plan does not have (400), a jury token (403) and no token (401)', async () => {
    const unknown = await start(7);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/plans no rotation 7/) });
    expect((await start(2, bearer(juryToken))).status).toBe(403);
    expect((await sendJson('POST', currentUrl(), { rotation: 2 })).status).toBe(401);
    const noPlan = await createCompetition(server.pool, 'Ohne Plan');
    const refused = await sendJson('POST', `${server.url}/api/events/${noPlan.eventId}/rotations/current`, { rotation: 1 }, admin);
    expect(refused.status).toBe(404);
  });
});
