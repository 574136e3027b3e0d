/**
 * The spectator page's reads (issue 46, item 1): the public snapshot with its HTTP caching, the
 * privacy settings (released only, all with the provisional mark, names not to be published, no
 * birth dates), and the `join-live` channel with replay from `since`, over real HTTP, Socket.IO and
 * PostgreSQL.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertParticipant,
  insertRow,
  insertScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { startTestApp } from '../support/app.js';
import { sendJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';
import { t } from '../support/tables.js';

let server: TestServer;
let competition: Competition;
let vault: Discipline;
let floor: Discipline;
const people: Record<string, { participantId: number; scoreId: number }> = {};

const snapshotUrl = () => `${server.url}/api/public/events/${competition.eventId}/live`;
const settingsUrl = () => `${server.url}/api/events/${competition.eventId}/spectator-settings`;

async function snapshot(headers: Record<string, string> = {}) {
  const response = await fetch(snapshotUrl(), { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === '' ? null : JSON.parse(text) };
}

const save = (name: string, discipline: Discipline, score: number) =>
  sendJson(
    'POST',
    `${server.url}/api/scores/save-value`,
    { competitionId: competition.competitionId, participantId: people[name]!.scoreId, disciplineId: discipline.id, score },
    // A head judge's token: vault is released, and only the head judge writes into a released device.
    bearer(headToken),
  );

const putSettings = (body: unknown, headers = bearer(adminToken)) => sendJson('PUT', settingsUrl(), body, headers);

/** name → [rank, total, per apparatus value or null] from the snapshot's only competition. */
function ranking(body: any): Array<[string | null, number | null, number, Array<number | null>]> {
  return body.competitions[0].gymnasts.map((entry: any) => [
    entry.name,
    entry.rank,
    entry.total,
    entry.s.map((score: any) => score?.v ?? null),
  ]);
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Bezirksfinale', '2026-11-28');
  vault = await insertDiscipline(server.pool, { name: 'Sprung' });
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  const otherClub = await insertRow(server.pool, 'vereine', 'int_vereineid', { var_name: 'SV Nordheim' });
  const people_ = [
    ['Anna', 'Adler', null],
    ['Berta', 'Brandt', null],
    ['Clara', 'Conrad', otherClub],
  ] as const;
  for (const [firstName, lastName, clubId] of people_) {
    const participantId = await insertParticipant(server.pool, competition, {
      firstName,
      lastName,
      startNumber: `${firstName.length}0${lastName.length}`,
      birthDate: '2013-04-17',
      ...(clubId === null ? {} : { clubId }),
    });
    const scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: 'R1' });
    // The start list: a detail row per apparatus without a value, as the desktop program writes it.
    for (const discipline of [vault, floor])
      await server.pool.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, NULL)`,
        [scoreId, discipline.id],
      );
    people[firstName] = { participantId, scoreId };
  }
  for (const [name, discipline, score] of [
    ['Anna', vault, 13.5],
    ['Berta', vault, 14],
    ['Clara', vault, 12],
    ['Anna', floor, 12],
  ] as const)
    expect((await save(name, discipline, score)).status).toBe(200);
  const released = await sendJson(
    'POST',
    `${server.url}/api/releases`,
    { competitionId: competition.competitionId, disciplineId: vault.id },
    bearer(headToken),
  );
  expect(released.status).toBe(200);
  // Berta's family asked for her name not to be published.
  expect((await putSettings({ publish: 'released', hiddenParticipantIds: [people.Berta!.participantId] })).status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
});

describe('the snapshot', () => {
  it('publishes released scores only by default, ranked without the unreleased ones, and hides the flagged name', async () => {
    const { status, body, text } = await snapshot();
    expect(status).toBe(200);
    expect(body.publish).toBe('released');
    expect(body.competitions[0].apparatus.map((apparatus: any) => apparatus.name)).toEqual(['Sprung', 'Boden']);
    // Anna's 12 on the unreleased floor is not there, neither in her total nor in her floor rank.
    expect(ranking(body)).toEqual([
      [null, 1, 14, [14, null]],
      ['Anna Adler', 2, 13.5, [13.5, null]],
      ['Clara Conrad', 3, 12, [12, null]],
    ]);
    expect(body.competitions[0].gymnasts[0]).toMatchObject({ id: people.Berta!.participantId, no: null, club: 'TV Musterstadt' });
    expect(body.competitions[0].gymnasts[1].s[0]).toEqual({ v: 13.5, r: 2 });
    expect(text).not.toContain('Brandt');
    expect(text).not.toMatch(/2013|birth/i);
  });

  it('publishes every score with the provisional mark when the office chooses all', async () => {
    expect((await putSettings({ publish: 'all', hiddenParticipantIds: [people.Berta!.participantId] })).status).toBe(200);
    const { body, text } = await snapshot();
    expect(body.publish).toBe('all');
    expect(ranking(body)).toEqual([
      ['Anna Adler', 1, 25.5, [13.5, 12]],
      [null, 2, 14, [14, null]],
      ['Clara Conrad', 3, 12, [12, null]],
    ]);
    const anna = body.competitions[0].gymnasts[0];
    expect(anna.s).toEqual([
      { v: 13.5, r: 2 },
      { v: 12, r: 1, p: true },
    ]);
    expect(anna.p).toBe(true);
    expect(text).not.toMatch(/2013|birth|Brandt/i);
    await putSettings({ publish: 'released', hiddenParticipantIds: [people.Berta!.participantId] });
  });

  it('carries an ETag and Cache-Control, answers 304 to If-None-Match, and changes with a save', async () => {
    const first = await snapshot();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=2');
    const again = await snapshot({ 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    const seq = first.body.seq;
    expect((await save('Clara', vault, 12.5)).status).toBe(200);
    const after = await waitFor(async () => {
      const next = await snapshot({ 'if-none-match': etag });
      return next.status === 200 ? next : null;
    });
    expect(after.body.seq).toBeGreaterThan(seq);
    expect(ranking(after.body)[2]).toEqual(['Clara Conrad', 3, 12.5, [12.5, null]]);
  });

  it('is sent gzipped to a client that accepts it, the same JSON as plain', async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(snapshotUrl(), { headers: { 'accept-encoding': encoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const [plain, gzipped] = [await raw('identity'), await raw('gzip, deflate, br')];
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('accept-encoding');
    expect(gzipped.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(gzipped.body).toString()).toBe(plain.body.toString());
  });

  it('is built once for many phones at the same seq: the repeated loads run no statement', async () => {
    await snapshot();
    const { statements, result } = await captureStatements(server.pool, () => Promise.all(Array.from({ length: 50 }, () => snapshot())));
    expect(result.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(result.map((answer) => answer.headers.get('etag'))).size).toBe(1);
    // Only the privacy settings may be read again (at most once, when older than their refresh time).
    expect(statements.filter((text) => text.includes(t.wertungen_details))).toEqual([]);
  });

  it('answers 404 for an unknown event and 400 for a bad id', async () => {
    expect((await sendJson('GET', `${server.url}/api/public/events/999999/live`, undefined)).status).toBe(404);
    expect((await sendJson('GET', `${server.url}/api/public/events/abc/live`, undefined)).status).toBe(400);
  });
});

describe('the privacy settings', () => {
  it('are the office’s: no token 401, a jury token 403', async () => {
    expect((await sendJson('GET', settingsUrl(), undefined)).status).toBe(401);
    expect((await putSettings({ publish: 'all', hiddenParticipantIds: [] }, bearer(juryToken))).status).toBe(403);
  });

  it('list the event’s participants with their flag', async () => {
    const { status, body } = await sendJson('GET', settingsUrl(), undefined, bearer(adminToken));
    expect(status).toBe(200);
    expect(body.publish).toBe('released');
    expect(body.hiddenParticipantIds).toEqual([people.Berta!.participantId]);
    expect(body.participants.map((participant: any) => [participant.lastName, participant.hidden])).toEqual([
      ['Adler', false],
      ['Brandt', true],
      ['Conrad', false],
    ]);
  });

  it('refuse a bad mode or a participant of another event and change nothing', async () => {
    const stranger = await insertParticipant(server.pool, competition, { lastName: 'Fremd' });
    for (const body of [
      { publish: 'everything', hiddenParticipantIds: [] },
      { publish: 'all', hiddenParticipantIds: [stranger] },
      { publish: 'all', hiddenParticipantIds: [0] },
      { publish: 'all' },
    ]) {
      const answer = await putSettings(body);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBeTypeOf('string');
    }
    const { body } = await sendJson('GET', settingsUrl(), undefined, bearer(adminToken));
    expect([body.publish, body.hiddenParticipantIds]).toEqual(['released', [people.Berta!.participantId]]);
  });
});

describe('join-live', () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((socket) => socket.close()));

  async function spectator(since?: number) {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    const updates: any[] = [];
    socket.on('live-update', (update) => updates.push(update));
    const ack = await socket
      .timeout(10_000)
      .emitWithAck('join-live', { eventId: competition.eventId, ...(since === undefined ? {} : { since }) });
    return { socket, updates, ack };
  }

  it('delivers a released save with its seq and no name, and withholds an unreleased one', async () => {
    const { body } = await snapshot();
    const { updates, ack } = await spectator(body.seq);
    expect(ack).toMatchObject({ ok: true, room: `live:${competition.eventId}` });
    expect(ack.seq).toBeGreaterThanOrEqual(body.seq);

    expect((await save('Clara', floor, 11.25)).status).toBe(200); // floor is not released
    expect((await save('Berta', vault, 14.25)).status).toBe(200); // vault is
    await waitFor(() => updates.length >= 1);
    const seqs = (await server.pool.query(`SELECT seq FROM ${t.svc_outbox} WHERE seq > $1 ORDER BY seq`, [body.seq])).rows.map(
      (row) => row.seq,
    );
    // The floor save's event is numbered first, yet nothing of it reaches the spectator: only the vault save does.
    await waitFor(() => server.relay.status().cursor >= seqs.at(-1));
    expect(updates).toEqual([
      {
        seq: seqs.at(-1),
        type: 'score',
        c: competition.competitionId,
        d: vault.id,
        sid: people.Berta!.scoreId,
        pid: people.Berta!.participantId,
        v: 14.25,
      },
    ]);
    expect(JSON.stringify(updates)).not.toMatch(/Brandt|Berta|2013/);
  });

  it('replays what a spectator missed from since, through the same filter', async () => {
    const { body } = await snapshot();
    expect((await save('Anna', vault, 13.75)).status).toBe(200);
    expect((await save('Anna', floor, 12.5)).status).toBe(200);
    await waitFor(async () => (await snapshot()).body.seq > body.seq);
    const { updates, ack } = await spectator(body.seq);
    expect(ack.ok).toBe(true);
    // Both events were read from the outbox; the floor one (unreleased) did not pass the filter.
    expect(ack.replayed).toBe(2);
    expect(updates.map((update) => [update.d, update.v])).toEqual([[vault.id, 13.75]]);
  });

  it('marks an unreleased save provisional when the event publishes all, and tells spectators when the settings change', async () => {
    const { updates } = await spectator();
    expect((await putSettings({ publish: 'all', hiddenParticipantIds: [people.Berta!.participantId] })).status).toBe(200);
    await waitFor(() => updates.some((update) => update.type === 'reload'));
    expect((await save('Clara', floor, 11.5)).status).toBe(200);
    const update = await waitFor(() => updates.find((candidate) => candidate.type === 'score'));
    expect(update).toMatchObject({ d: floor.id, v: 11.5, p: true, pid: people.Clara!.participantId });
  });

  it('refuses a bad event id and an unknown event', async () => {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    expect(await socket.timeout(10_000).emitWithAck('join-live', { eventId: 'x' })).toMatchObject({ ok: false });
    expect(await socket.timeout(10_000).emitWithAck('join-live', { eventId: 999_999 })).toMatchObject({
      ok: false,
      error: 'No event 999999',
    });
  });
});

describe('public routes', () => {
  it('mark the spectator page and its snapshot, and nothing of the office, as public reads', async () => {
    const marked = new Map<string, unknown>();
    const app = await startTestApp({
      routes: (instance) =>
        instance.addHook('onRequest', async (request) => void marked.set(request.url, request.routeOptions.config.publicRead ?? false)),
    });
    try {
      const urls = ['/api/public/events/1/live', '/live/', '/live/index.html', '/api/events/1/spectator-settings', '/board/', '/office/'];
      for (const url of urls) await fetch(app.url + url);
      expect(Object.fromEntries(marked)).toEqual({
        '/api/public/events/1/live': true,
        '/live/': true,
        '/live/index.html': true,
        '/api/events/1/spectator-settings': false,
        '/board/': false,
        '/office/': false,
      });
    } finally {
      await app.stop();
    }
  });
});
