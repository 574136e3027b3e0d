/**
 * Issue 4, "What must hold" 9 (and 1 and 8 through the real HTTP commands): the `score-updated`
 * events of POST /api/jury-results (event 1) and POST /api/scores/save-value (event 2) as a
 * Socket.IO client receives them: exactly the spec's fields plus `seq` and `source`, correct values,
 * one event per command, none for a command that fails.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompetition,
  insertDiscipline,
  insertParticipant,
  insertScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { openSocket, startTestServer, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  deliveredFieldsOf,
  EVENT_1_FIELDS,
  EVENT_2_FIELDS,
  joinCompetition,
  type ReceivedEvent,
} from '../support/realtime.js';

let server: TestServer;
let socket: Socket;
let events: ReceivedEvent[];
let competition: Competition;
let discipline: Discipline;
let participantId: number;
let scoreId: number;

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function eventsOfScoreSince(before: number, marker: string): Promise<ReceivedEvent[]> {
  await commitAndAwait(server.commands, events, competition.eventId, marker);
  return events.slice(before).filter((event) => event.scoreId === scoreId);
}

function expectIsoTimestamp(value: unknown): void {
  expect(typeof value).toBe('string');
  expect(new Date(value as string).toISOString()).toBe(value);
  expect(Math.abs(Date.now() - Date.parse(value as string))).toBeLessThan(60_000);
}

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Payload-Cup');
  discipline = await insertDiscipline(server.pool, { name: 'Schwebebalken', formula: '10 + A + B - C' });
  participantId = await insertParticipant(server.pool, competition, { firstName: 'Lea', lastName: 'Nowak', gender: 2 });
  scoreId = await insertScoreRow(server.pool, competition, participantId, { squadName: 'W1' });
  socket = await openSocket(server.url);
  events = collectEvents(socket);
  await joinCompetition(socket, competition.eventId);
});
afterAll(async () => {
  socket?.disconnect();
  await server?.stop();
});

describe('9. payloads of the service commands', () => {
  it('event 1 (POST /api/jury-results) carries exactly the spec fields, the score from the current jury results, seq and source', async () => {
    for (const [fieldId, performance] of [
      [discipline.fields.A, 2.5],
      [discipline.fields.B, 8],
    ] as const) {
      expect(
        (await post('/api/jury-results', { participantId: scoreId, disciplineFieldId: fieldId, performance, attempt: 1, type: 0 })).status,
      ).toBe(200);
    }
    await commitAndAwait(server.commands, events, competition.eventId, 'after-first-fields');
    const before = events.length;
    const saved = await post('/api/jury-results', {
      participantId: scoreId,
      disciplineFieldId: discipline.fields.C,
      performance: 0.5,
      attempt: 1,
      type: 0,
    });
    expect(saved.status).toBe(200);

    const received = await eventsOfScoreSince(before, 'after-jury-result');
    expect(received).toHaveLength(1);
    const event = received[0]!;
    expect(Object.keys(event).sort()).toEqual(deliveredFieldsOf(EVENT_1_FIELDS));
    expect(event).toMatchObject({
      source: 'api',
      seq: expect.any(Number),
      scoreId,
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      disciplineId: discipline.id,
      disciplineName: 'Schwebebalken',
      firstname: 'Lea',
      lastname: 'Nowak',
      gender: 'female',
      squadName: 'W1',
      formula: '10 + A + B - C',
      startValue: 10,
      finalScore: 20,
      score: 20,
      released: false,
    });
    expect(saved.body.finalScore).toBe(20);
    expectIsoTimestamp(event.timestamp);
  });

  it('event 2 (POST /api/scores/save-value) carries exactly the spec fields with the participant id, and is the only event of the write', async () => {
    const before = events.length;
    const saved = await post('/api/scores/save-value', {
      competitionId: competition.competitionId,
      participantId: scoreId,
      disciplineId: discipline.id,
      score: 19.5,
    });
    expect(saved.status).toBe(200);

    // save-value writes the jury final and the detail value; the legacy triggers must stay silent.
    const received = await eventsOfScoreSince(before, 'after-save-value');
    expect(received).toHaveLength(1);
    const event = received[0]!;
    expect(Object.keys(event).sort()).toEqual(deliveredFieldsOf(EVENT_2_FIELDS));
    expect(event).toMatchObject({
      source: 'api',
      scoreId,
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      participantId,
      disciplineId: discipline.id,
      disciplineName: 'Schwebebalken',
      firstname: 'Lea',
      lastname: 'Nowak',
      score: 19.5,
      finalScore: 19.5,
      storedScore: 19.5,
      hasFormula: true,
      released: false,
    });
    expectIsoTimestamp(event.timestamp);
  });

  it('1. a command that fails emits nothing', async () => {
    const before = events.length;
    const refused = await post('/api/scores/save-value', {
      competitionId: competition.competitionId,
      participantId: scoreId,
      disciplineId: 999_999,
      score: 1,
    });
    expect(refused.status).toBe(404);
    expect(await eventsOfScoreSince(before, 'after-refused')).toEqual([]);
  });

  it('delivers the events of successive commands in seq order', async () => {
    const before = events.length;
    for (const score of [11, 12, 13]) {
      expect(
        (
          await post('/api/scores/save-value', {
            competitionId: competition.competitionId,
            participantId: scoreId,
            disciplineId: discipline.id,
            score,
          })
        ).status,
      ).toBe(200);
    }
    const received = await eventsOfScoreSince(before, 'after-three');
    expect(received.map((event) => event.score)).toEqual([11, 12, 13]);
    expect(received[0]!.seq).toBeLessThan(received[1]!.seq);
    expect(received[1]!.seq).toBeLessThan(received[2]!.seq);
  });
});
