/**
 * Issue 46, items 2 to 4: read-only public instances on a logical replica of the hall's database.
 * Two PostgreSQL clusters of the suite's own version: the hall's (publisher, with the hall's
 * service) and the public side's (subscriber, with public instances). What the hall saves reaches
 * spectators' sockets on the public instances, also after the subscription was stopped for 500
 * saves and a public instance restarted; the public instances refuse every write. A coach's inquiry
 * filed in the hall marks the value on the public side until the head judge decides it.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { getJson, postJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { joinCompetition, waitUntilDelivered } from '../support/realtime.js';
import { DEFAULT_SUBSCRIPTION_NAME, unsubscribeFromHall } from '../../src/db/replication.js';
import { startReplicationRig, type ReplicationRig } from '../support/replication.js';
import { openSocket, waitFor, waitForNumbered, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';
import { bearer, headToken } from '../support/tokens.js';

let rig: ReplicationRig;
let publicA: TestServer;
let publicB: TestServer;
let competition: Competition;
let discipline: Discipline;
let scoreIds: number[];
/** The replica read directly, as the public instances read it. */
let replica: pg.Pool;
const sockets: Socket[] = [];

/** A spectator's score update as the phone gets it (src/realtime/spectators.ts). */
interface LiveScore {
  seq: number;
  type: 'score';
  sid: number;
  v: number | null;
  p?: true;
  source?: never;
}

/** A spectator's phone on a public instance, joined with `join-live`: its score updates, in arrival order. */
async function spectator(server: TestServer, since?: number): Promise<LiveScore[]> {
  const socket = await openSocket(server.url);
  sockets.push(socket);
  const updates: LiveScore[] = [];
  socket.on('live-update', (update: { type: string }) => {
    if (update.type === 'score') updates.push(update as LiveScore);
  });
  const join = { eventId: competition.eventId, ...(since === undefined ? {} : { since }) };
  expect(await socket.timeout(10_000).emitWithAck('join-live', join)).toMatchObject({ ok: true });
  return updates;
}

/** The spectator page's snapshot on an instance: its seq and the competition's gymnasts. */
async function snapshot(server: TestServer) {
  const { status, body } = await getJson(`${server.url}/api/public/events/${competition.eventId}/live`);
  expect(status).toBe(200);
  return body as {
    seq: number;
    publish: string;
    competitions: Array<{ id: number; gymnasts: Array<{ name: string; s: Array<{ v: number; q?: true } | null> }> }>;
  };
}

function save(scoreId: number, score: number) {
  return postJson(`${rig.hall.url}/api/scores/save-value`, {
    competitionId: competition.competitionId,
    participantId: scoreId,
    disciplineId: discipline.id,
    score,
  });
}

/** The hall's score-updated events of the competition, in seq order: what every spectator must get once. */
async function hallEvents(): Promise<Array<{ seq: number; scoreId: number; score: number }>> {
  const { rows } = await rig.hall.pool.query<{ seq: number; scoreId: number; score: number }>(
    `SELECT seq, (payload->>'scoreId')::int AS "scoreId", (payload->>'score')::float8 AS score FROM ${t.svc_outbox}
      WHERE event_id = $1 AND topic = 'score-updated' AND seq IS NOT NULL ORDER BY seq`,
    [competition.eventId],
  );
  return rows;
}

/** The hall's last seq once everything committed is numbered (0 before the first event). */
async function lastHallSeq(): Promise<number> {
  await waitForNumbered(rig.hall.pool);
  return (await hallEvents()).at(-1)?.seq ?? 0;
}

const received = (updates: readonly LiveScore[]) => updates.map((update) => ({ seq: update.seq, scoreId: update.sid, score: update.v }));

beforeAll(async () => {
  rig = await startReplicationRig();
  competition = await createCompetition(rig.hall.pool, 'Replica-Cup');
  discipline = await insertDiscipline(rig.hall.pool, { name: 'Boden', formula: 'A + B - C' });
  scoreIds = [];
  for (const lastName of ['Adler', 'Berger', 'Conrad', 'Dietz'])
    scoreIds.push((await insertParticipantWithScoreRow(rig.hall.pool, competition, { lastName, squadName: 'R1' })).scoreId);
  // The office publishes every score of the event, released or not, marked provisional.
  await rig.hall.pool.query(`INSERT INTO ${t.svc_spectator_settings} (event_id, publish) VALUES ($1, 'all')`, [competition.eventId]);
  replica = new pg.Pool({ connectionString: rig.replicaUrl, max: 2 });
  [publicA, publicB] = await Promise.all([rig.startPublic(), rig.startPublic()]);
  // The fixtures have reached the replica once the public side knows the event.
  await waitFor(
    async () => (await getJson(`${publicA.url}/api/events`)).body.some?.((event: { id: number }) => event.id === competition.eventId),
    {
      timeoutMs: 15_000,
      message: 'fixtures replicated',
    },
  );
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await replica?.end();
  await rig?.dispose();
}, 60_000);

describe('a public instance on the replica', () => {
  it('delivers a save in the hall to a spectator socket, numbered by the hall, with no sequencer of its own', async () => {
    const updates = await spectator(publicA);
    expect((await save(scoreIds[0]!, 13.25)).status).toBe(200);
    const update = await waitFor(() => updates.find((candidate) => candidate.sid === scoreIds[0]), { timeoutMs: 15_000 });
    await waitUntilDelivered(rig.hall.pool, rig.hall.relay);
    const hall = (await hallEvents()).at(-1);
    // Unreleased: shown, as the office chose, marked provisional.
    expect(update).toMatchObject({ seq: hall!.seq, v: 13.25, p: true });
    const health = await getJson(`${publicA.url}/api/system/health`);
    expect(health.body).toMatchObject({ mode: 'public', sequencer: false });
    expect((await getJson(`${rig.hall.url}/api/system/health`)).body).toMatchObject({ mode: 'hall', sequencer: true });
  });

  it('is woken by the replicated numbering itself: the apply worker notifies the outbox channel', async () => {
    const listener = new pg.Client({ connectionString: rig.replicaUrl });
    await listener.connect();
    try {
      const notified: string[] = [];
      listener.on('notification', (message) => notified.push(message.channel));
      await listener.query(`LISTEN ${t.outboxChannel}`);
      expect((await save(scoreIds[1]!, 12.5)).status).toBe(200);
      await waitFor(() => notified.includes(t.outboxChannel), { timeoutMs: 15_000, message: 'notification from the apply worker' });
    } finally {
      await listener.end();
    }
  });

  it('refuses writes and the office and jury pages with 403, and serves the public reads', async () => {
    const stored = async () =>
      (await replica.query(`SELECT rel_leistung FROM ${t.wertungen_details} WHERE int_wertungenid = $1`, [scoreIds[0]])).rows.map((row) =>
        Number(row.rel_leistung),
      );
    const before = await stored();
    const write = await postJson(`${publicA.url}/api/scores/save-value`, {
      competitionId: competition.competitionId,
      participantId: scoreIds[0],
      disciplineId: discipline.id,
      score: 1,
    });
    expect(write).toMatchObject({ status: 403, body: { statusCode: 403, code: 'FORBIDDEN' } });
    for (const page of ['/office/', '/jury/', '/api/session']) expect((await fetch(`${publicA.url}${page}`)).status, page).toBe(403);
    expect((await fetch(`${publicA.url}/live/`)).status).toBe(200);
    // The bare address a poster shows leads spectators to their page.
    const bare = await fetch(`${publicA.url}/`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([302, '/live/']);
    // Long polling would need sticky sessions behind a load balancer: websocket only.
    expect((await fetch(`${publicA.url}/socket.io/?EIO=4&transport=polling`)).status).toBe(400);
    expect((await fetch(`${rig.hall.url}/socket.io/?EIO=4&transport=polling`)).status).toBe(200);
    // The scoreboards' channel carries names and unreleased scores: a public instance has only the spectators'.
    const board = await openSocket(publicA.url);
    sockets.push(board);
    expect(await joinCompetition(board, competition.eventId)).toMatchObject({ ok: false });
    // The lists outside the spectators' privacy settings (names, birth years, unreleased values) are not public.
    for (const read of [
      `/api/live-results?eventId=${competition.eventId}&disciplineId=${discipline.id}`,
      `/api/results?eventId=${competition.eventId}&competitionId=${competition.competitionId}`,
    ])
      expect((await fetch(`${publicA.url}${read}`)).status, read).toBe(403);
    // The snapshot reads the result settings the hall may never have stored: a read-only session reads the defaults.
    expect((await snapshot(publicA)).competitions).toMatchObject([{ id: competition.competitionId }]);
    expect(await stored()).toEqual(before);
    const competitions = await getJson(`${publicA.url}/api/events/${competition.eventId}/competitions`);
    expect(competitions).toMatchObject({ status: 200, body: [{ id: competition.competitionId }] });
    expect((await fetch(`${publicA.url}/api/events/${competition.eventId}/squads`)).status).toBe(403);
  });

  it('reads settings the hall has not stored as their defaults, never sending the insert its sessions refuse', async () => {
    await rig.hall.pool.query(`DELETE FROM ${t.svc_settings}`);
    await waitFor(async () => (await replica.query(`SELECT 1 FROM ${t.svc_settings}`)).rowCount === 0, { timeoutMs: 15_000 });
    // A new event makes the next snapshot a new build.
    const updates = await spectator(publicA);
    expect((await save(scoreIds[0]!, 13.5)).status).toBe(200);
    await waitFor(() => updates.find((update) => update.v === 13.5), { timeoutMs: 15_000 });
    const { statements, result } = await captureStatements(publicA.pool, () => snapshot(publicA));
    expect(result.competitions).toMatchObject([{ id: competition.competitionId }]);
    const settings = statements.filter((text) => text.includes(t.svc_settings));
    expect(settings.length).toBeGreaterThan(0);
    expect(settings.filter((text) => /INSERT/i.test(text))).toEqual([]);
  });

  it('after the subscription was stopped for 500 saves, every event reaches spectators of two instances once, in order', async () => {
    const before = await lastHallSeq();
    const [onA, onB] = await Promise.all([spectator(publicA, before), spectator(publicB, before)]);
    await rig.setSubscriptionEnabled(false);
    for (let n = 0; n < 500; n++) expect((await save(scoreIds[n % scoreIds.length]!, 5 + n / 100)).status).toBe(200);
    await rig.setSubscriptionEnabled(true);
    await waitUntilDelivered(rig.hall.pool, rig.hall.relay);
    const expected = (await hallEvents()).filter((event) => event.seq > before);
    expect(expected).toHaveLength(500);
    for (const events of [onA, onB]) {
      await waitFor(() => events.length >= 500, { timeoutMs: 30_000, message: 'the 500 events on the public side' });
      expect(received(events)).toEqual(expected);
    }
  });

  it('restarted, a public instance answers with the current state at once and replays what a spectator missed', async () => {
    const port = Number(new URL(publicB.url).port);
    await publicB.stop();
    const last = await lastHallSeq();
    expect((await save(scoreIds[2]!, 14.75)).status).toBe(200);
    const hallSeq = await waitUntilDelivered(rig.hall.pool, rig.hall.relay);
    const [latest] = (await hallEvents()).slice(-1);
    // The replica has the save once the subscription applied it; the instance starts afterwards.
    await waitFor(async () => (await replica.query(`SELECT 1 FROM ${t.svc_outbox} WHERE seq = $1`, [hallSeq])).rowCount === 1, {
      timeoutMs: 15_000,
      message: 'save replicated',
    });
    publicB = await rig.startPublic(port);
    const page = await snapshot(publicB);
    expect(page.seq).toBe(hallSeq);
    const conrad = page.competitions[0]!.gymnasts.find((gymnast) => gymnast.name.includes('Conrad'));
    expect(conrad?.s[0]).toMatchObject({ v: 14.75 });
    const events = await spectator(publicB, last);
    expect(received(events)).toEqual([latest]);
  });

  it('delivers a desktop program’s direct write in the hall to spectators', async () => {
    const updates = await spectator(publicA);
    // The desktop program changes a score the portal saved.
    expect((await save(scoreIds[3]!, 9.5)).status).toBe(200);
    await waitFor(() => updates.find((candidate) => candidate.sid === scoreIds[3] && candidate.v === 9.5), { timeoutMs: 15_000 });
    await rig.hall.pool.query(
      `UPDATE ${t.wertungen_details} SET rel_leistung = 11.5 WHERE int_wertungenid = $1 AND int_disziplinenid = $2`,
      [scoreIds[3], discipline.id],
    );
    await waitFor(() => updates.find((candidate) => candidate.sid === scoreIds[3] && candidate.v === 11.5), {
      timeoutMs: 15_000,
      message: "the desktop program's write on the phone",
    });
  });

  it('marks a value under a coach’s inquiry filed in the hall, live and in the snapshot, until the decision', async () => {
    const socket = await openSocket(publicA.url);
    sockets.push(socket);
    const inquiries: Array<{ type: string; sid: number; open: boolean }> = [];
    socket.on('live-update', (update: { type: string; sid: number; open: boolean }) => {
      if (update.type === 'inquiry') inquiries.push(update);
    });
    expect(await socket.timeout(10_000).emitWithAck('join-live', { eventId: competition.eventId })).toMatchObject({ ok: true });
    // Dietz's value, shown last on the apparatus: the coach is in time.
    expect((await save(scoreIds[3]!, 12.25)).status).toBe(200);
    const filed = await postJson(`${rig.hall.url}/api/events/${competition.eventId}/inquiries`, {
      scoreId: scoreIds[3],
      disciplineId: discipline.id,
      coach: 'Trainer Lutz',
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    await waitFor(() => inquiries.find((update) => update.sid === scoreIds[3] && update.open), { timeoutMs: 15_000 });
    const dietz = async () => (await snapshot(publicA)).competitions[0]!.gymnasts.find((gymnast) => gymnast.name.includes('Dietz'))!.s[0];
    expect(await dietz()).toMatchObject({ v: 12.25, q: true });

    expect((await postJson(`${rig.hall.url}/api/inquiries/${filed.body.id}/confirmation`, {})).status).toBe(200);
    const decided = await postJson(`${rig.hall.url}/api/inquiries/${filed.body.id}/decision`, { decision: 'rejected' }, bearer(headToken));
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    await waitFor(() => inquiries.find((update) => update.sid === scoreIds[3] && !update.open), {
      timeoutMs: 15_000,
      message: 'the decision on the public side',
    });
    expect(await dietz()).toEqual({ v: 12.25, r: expect.any(Number), p: true });
  });

  // Last: it ends the subscription the tests above read through.
  it('unsubscribes the replica also when the hall has given up its slot', async () => {
    await rig.setSubscriptionEnabled(false);
    await waitFor(
      async () =>
        (await rig.hall.pool.query(`SELECT 1 FROM pg_replication_slots WHERE slot_name = $1 AND NOT active`, [DEFAULT_SUBSCRIPTION_NAME]))
          .rowCount === 1,
      { timeoutMs: 15_000, message: 'the slot released by the stopped subscription' },
    );
    await rig.hall.pool.query('SELECT pg_drop_replication_slot($1)', [DEFAULT_SUBSCRIPTION_NAME]);
    const admin = new pg.Client({ connectionString: rig.replicaUrl });
    await admin.connect();
    try {
      expect(await unsubscribeFromHall(admin)).toBe('detached');
      expect((await admin.query('SELECT 1 FROM pg_subscription')).rowCount).toBe(0);
    } finally {
      await admin.end();
    }
  });
});
