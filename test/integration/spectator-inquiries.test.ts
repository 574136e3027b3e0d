/**
 * A coach's inquiry on the spectator page: the snapshot marks a value under an open inquiry (`q`)
 * and `join-live` tells spectators when one opens and when it is decided, under the event's privacy
 * settings, without names or the coach; the marks cost one statement for the whole event, and an
 * inquiry that lapses unconfirmed loses its mark without any event. Real HTTP, Socket.IO and
 * PostgreSQL.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { postJson, sendJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken } from '../support/tokens.js';
import { t } from '../support/tables.js';

let server: TestServer;
let competition: Competition;
let floor: Discipline;
let vault: Discipline;
const people: Record<string, { participantId: number; scoreId: number }> = {};
const sockets: Socket[] = [];
const updates: any[] = [];

const snapshotUrl = () => `${server.url}/api/public/events/${competition.eventId}/live`;

async function snapshot(headers: Record<string, string> = {}) {
  const response = await fetch(snapshotUrl(), { headers });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), text, body: text === '' ? null : JSON.parse(text) };
}

const putSettings = (body: unknown) =>
  sendJson('PUT', `${server.url}/api/events/${competition.eventId}/spectator-settings`, body, bearer(adminToken));

/** The gymnast's entry in the snapshot's only competition, found by participant id (a hidden one has no name). */
function entryOf(body: any, name: string): any {
  return body.competitions[0].gymnasts.find((entry: any) => entry.id === people[name]!.participantId);
}

/** The gymnast's floor value in the snapshot (the list's apparatus are those with values). */
function floorOf(body: any, name: string): any {
  const position = body.competitions[0].apparatus.findIndex((apparatus: any) => apparatus.id === floor.id);
  return position < 0 ? undefined : entryOf(body, name).s[position];
}

/** The gymnast's floor routine scored through the portal's capture (D, E, deduction): shown, so it can be inquired. */
async function scoreFloor(name: string, d: number): Promise<void> {
  const { A, B, C } = floor.fields;
  const saved = await postJson(
    `${server.url}/api/scores/capture`,
    {
      wertungenId: people[name]!.scoreId,
      fieldValues: [
        { fieldId: A, value: d },
        { fieldId: B, value: 8 },
        { fieldId: C, value: 0.3 },
      ],
    },
    bearer(headToken),
  );
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

async function fileOnFloor(name: string): Promise<number> {
  const filed = await postJson(`${server.url}/api/events/${competition.eventId}/inquiries`, {
    scoreId: people[name]!.scoreId,
    disciplineId: floor.id,
    coach: 'Trainerin Kim',
  });
  expect(filed.status, JSON.stringify(filed.body)).toBe(201);
  return filed.body.id as number;
}

/** The snapshot once it has moved past `etag` (a new build after an event). */
const changedSnapshot = (etag: string | null) =>
  waitFor(async () => {
    const next = await snapshot(etag ? { 'if-none-match': etag } : {});
    return next.status === 200 ? next : null;
  });

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Anfrage-Cup', '2026-11-28');
  vault = await insertDiscipline(server.pool, { name: 'Sprung' });
  floor = await insertDiscipline(server.pool, { name: 'Boden' });
  for (const lastName of ['Adler', 'Berg', 'Conrad', 'Dietz', 'Engel'])
    people[lastName] = await insertParticipantWithScoreRow(server.pool, competition, { lastName, squadName: 'R1' });
  // Adler has a vault value too, which no inquiry concerns.
  const vaulted = await sendJson(
    'POST',
    `${server.url}/api/scores/save-value`,
    { competitionId: competition.competitionId, participantId: people.Adler!.scoreId, disciplineId: vault.id, score: 13 },
    bearer(headToken),
  );
  expect(vaulted.status).toBe(200);
  // Every value shown, unreleased ones marked provisional; Berg's name is not to be published.
  expect((await putSettings({ publish: 'all', hiddenParticipantIds: [people.Berg!.participantId] })).status).toBe(200);
  const socket = await openSocket(server.url);
  sockets.push(socket);
  socket.on('live-update', (update) => updates.push(update));
  expect(await socket.timeout(10_000).emitWithAck('join-live', { eventId: competition.eventId })).toMatchObject({ ok: true });
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.stop();
});

const inquiryUpdates = (name: string) => updates.filter((update) => update.type === 'inquiry' && update.sid === people[name]!.scoreId);

describe('an inquiry on the spectator page', () => {
  it('marks the value from the filing to the decision, live and in the snapshot, whose ETag follows both', async () => {
    await scoreFloor('Adler', 5);
    const before = await snapshot();
    expect(floorOf(before.body, 'Adler')).toEqual({ v: 12.7, r: 1, p: true });

    const inquiryId = await fileOnFloor('Adler');
    const opened = await waitFor(() => inquiryUpdates('Adler')[0]);
    expect(opened).toEqual({
      seq: expect.any(Number),
      type: 'inquiry',
      c: competition.competitionId,
      d: floor.id,
      sid: people.Adler!.scoreId,
      pid: people.Adler!.participantId,
      open: true,
    });
    const marked = await changedSnapshot(before.etag);
    expect(marked.etag).not.toBe(before.etag);
    // The floor value only: the vault has none, and the mark names no coach.
    expect(floorOf(marked.body, 'Adler')).toEqual({ v: 12.7, r: 1, p: true, q: true });
    expect(entryOf(marked.body, 'Adler').s.filter((score: any) => score?.q)).toHaveLength(1);
    expect(marked.text).not.toMatch(/Kim|Trainer/);

    expect((await postJson(`${server.url}/api/inquiries/${inquiryId}/confirmation`, {})).status).toBe(200);
    const decided = await postJson(
      `${server.url}/api/inquiries/${inquiryId}/decision`,
      { decision: 'upheld', newD: 5.5, note: 'Verbindung anerkannt' },
      bearer(headToken),
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    await waitFor(() => inquiryUpdates('Adler').some((update) => !update.open), { message: 'the decision live' });
    expect(inquiryUpdates('Adler').map((update) => update.open)).toEqual([true, true, false]);
    // The upheld value arrives as a score update, as any corrected score does.
    expect(updates.find((update) => update.type === 'score' && update.sid === people.Adler!.scoreId && update.v === 13.2)).toBeTruthy();
    const after = await changedSnapshot(marked.etag);
    expect(floorOf(after.body, 'Adler')).toEqual({ v: 13.2, r: 1, p: true });
    expect(after.text).not.toMatch(/Verbindung|Kim/);
  });

  it('marks a participant not to be published without a name, and reads the marks of all inquiries with one statement', async () => {
    await scoreFloor('Berg', 4.5);
    await fileOnFloor('Berg');
    await waitFor(() => inquiryUpdates('Berg')[0], { message: 'the filing live' });
    const one = await snapshot();
    const berg = entryOf(one.body, 'Berg');
    expect(berg).toMatchObject({ name: null, no: null });
    expect(floorOf(one.body, 'Berg')).toMatchObject({ q: true });
    expect(one.text).not.toContain('Berg');
    expect(inquiryUpdates('Berg')).toEqual([expect.objectContaining({ pid: people.Berg!.participantId, open: true })]);

    const build = async (d: number) => {
      const seq = server.relay.status().cursor;
      // A save moves the cursor: the next load builds the snapshot anew.
      await scoreFloor('Engel', d);
      await waitFor(() => server.relay.status().cursor > seq);
      return captureStatements(server.pool, () => snapshot());
    };
    const withOne = await build(4);
    await scoreFloor('Conrad', 4.8);
    await fileOnFloor('Conrad');
    const withTwo = await build(4.1);
    expect(floorOf(withTwo.result.body, 'Conrad')).toMatchObject({ q: true });
    expect(floorOf(withTwo.result.body, 'Berg')).toMatchObject({ q: true });
    const inquiryReads = (statements: string[]) => statements.filter((text) => text.includes(t.svc_inquiries));
    expect(inquiryReads(withOne.statements)).toHaveLength(1);
    expect(inquiryReads(withTwo.statements)).toHaveLength(1);
    // The privacy settings are read again when older than their refresh time, whatever the inquiries.
    const builds = (statements: string[]) => statements.filter((text) => !text.includes(t.svc_spectator_settings)).length;
    expect(builds(withTwo.statements)).toBe(builds(withOne.statements));
  });

  it('shows neither the mark nor its update while the event publishes released scores only and the value is unreleased', async () => {
    expect((await putSettings({ publish: 'released', hiddenParticipantIds: [people.Berg!.participantId] })).status).toBe(200);
    const hidden = await changedSnapshot(null);
    expect(hidden.body.competitions[0].gymnasts.flatMap((entry: any) => entry.s.filter(Boolean))).toEqual([]);
    await scoreFloor('Dietz', 4.2);
    await fileOnFloor('Dietz');
    // The release is the next update to pass the filter: the filing before it did not.
    const released = await sendJson(
      'POST',
      `${server.url}/api/releases`,
      { competitionId: competition.competitionId, disciplineId: floor.id },
      bearer(headToken),
    );
    expect(released.status).toBe(200);
    await waitFor(() => updates.some((update) => update.type === 'release' && update.d === floor.id));
    expect(inquiryUpdates('Dietz')).toEqual([]);
    // Released, the value shows with its mark.
    const shown = await changedSnapshot(hidden.etag);
    expect(floorOf(shown.body, 'Dietz')).toEqual({ v: 11.9, r: expect.any(Number), q: true });
  });

  it('drops the mark of an inquiry that lapses unconfirmed, which no event announces', async () => {
    const { body } = await snapshot();
    expect(floorOf(body, 'Conrad')).toMatchObject({ q: true });
    // Past the written deadline, as if four minutes had gone by without the written confirmation.
    await server.pool.query(`UPDATE ${t.svc_inquiries} SET written_deadline = now() - interval '1 second' WHERE score_id = $1`, [
      people.Conrad!.scoreId,
    ]);
    await waitFor(async () => !floorOf((await snapshot()).body, 'Conrad')?.q, { timeoutMs: 15_000, message: 'the lapsed mark gone' });
    const list = await sendJson('GET', `${server.url}/api/events/${competition.eventId}/inquiries`, undefined, bearer(adminToken));
    expect(list.body.inquiries.find((inquiry: any) => inquiry.scoreId === people.Conrad!.scoreId).state).toBe('lapsed');
  });
});
