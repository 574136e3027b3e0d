/**
 * Issue 4, "What must hold" 8: rows written straight into the legacy tables by another program
 * become `score-updated` events with source "legacy" (event 2 shape); the service's own commands
 * produce exactly one event, never a second one from the triggers. How fast a legacy write arrives
 * (the "within a second" of the promise) depends on the machine and is not asserted here: every
 * wait has a generous deadline, and each count is taken after a later barrier event has arrived.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendOutboxEvent } from '../../outbox/append.js';
import { t } from '../support/tables.js';
import {
  insertRow,
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { createTestDatabase } from '../support/database.js';
import { openSocket, startTestServer, type TestServer } from '../support/server.js';
import {
  collectEvents,
  commitAndAwait,
  deliveredFieldsOf,
  EVENT_2_FIELDS,
  joinCompetition,
  withMarker,
  markerEvent,
  waitForEvent,
  type ReceivedEvent,
} from '../support/realtime.js';

let server: TestServer;
let socket: Socket;
let events: ReceivedEvent[];
let competition: Competition;
let discipline: Discipline;

beforeAll(async () => {
  server = await startTestServer();
  competition = await createCompetition(server.pool, 'Legacy-Pokal');
  discipline = await insertDiscipline(server.pool, { name: 'Sprung', formula: 'A + B - C' });
  socket = await openSocket(server.url);
  events = collectEvents(socket);
  await joinCompetition(socket, competition.eventId);
});
afterAll(async () => {
  socket?.disconnect();
  await server?.stop();
});

let barriers = 0;

/**
 * Runs `sql` as the desktop program would (no origin marker), then commits a barrier event: the
 * relay delivers in seq order and the legacy triggers append in the writing transaction, so once
 * the barrier is here every event of the write has arrived and none can still come.
 */
async function legacyWrite(
  sql: string,
  values: unknown[],
  scoreId: number,
  barrier = `after-${++barriers}`,
): Promise<{ received: ReceivedEvent[] }> {
  const before = events.length;
  await server.pool.query(sql, values);
  await commitAndAwait(server.commands, events, competition.eventId, barrier, 15_000);
  return { received: events.slice(before).filter((event) => event.scoreId === scoreId) };
}
describe('8. legacy writes', () => {
  it('turns a detail insert into an event 2 with source legacy', async () => {
    const { participantId, scoreId } = await insertParticipantWithScoreRow(server.pool, competition, {
      lastName: 'Altprogramm',
      squadName: 'R1',
    });
    const { received } = await legacyWrite(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.55)`,
      [scoreId, discipline.id],
      scoreId,
    );
    expect(received).toHaveLength(1);
    const event = received[0]!;
    expect(Object.keys(event).sort()).toEqual(deliveredFieldsOf(EVENT_2_FIELDS));
    expect(event).toMatchObject({
      source: 'legacy',
      scoreId,
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      participantId,
      disciplineId: discipline.id,
      disciplineName: 'Sprung',
      firstname: 'Anna',
      lastname: 'Altprogramm',
      score: 8.55,
      finalScore: 8.55,
      storedScore: 8.55,
      hasFormula: true,
      released: false,
    });
    expect(new Date(event.timestamp as string).toISOString()).toBe(event.timestamp);
    expect(Date.now() - Date.parse(event.timestamp as string)).toBeLessThan(60_000);
  });

  it('turns an update of rel_leistung into an event, and an update that changes nothing into none', async () => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    await legacyWrite(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 7)`,
      [scoreId, discipline.id],
      scoreId,
    );
    const { received } = await legacyWrite(
      `UPDATE ${t.wertungen_details} SET rel_leistung = 9.25 WHERE int_wertungenid = $1`,
      [scoreId],
      scoreId,
    );
    expect(received.map((event) => [event.source, event.score, event.storedScore])).toEqual([['legacy', 9.25, 9.25]]);

    const before = events.length;
    await server.pool.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.25, int_versuch = 1 WHERE int_wertungenid = $1`, [scoreId]);
    await commitAndAwait(server.commands, events, competition.eventId, 'after-no-op-update');
    expect(events.slice(before).filter((event) => event.scoreId === scoreId)).toEqual([]);
  });

  it('turns a jury result insert and update into an event carrying the stored final score', async () => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    await legacyWrite(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 6.5)`,
      [scoreId, discipline.id],
      scoreId,
    );

    const inserted = await legacyWrite(
      `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 4.5, 1, 0), ($1, $3, 3, 1, 0)`,
      [scoreId, discipline.fields.A, discipline.fields.B],
      scoreId,
    );
    // Two fields of one score in one statement are one change of that score's discipline.
    expect(inserted.received).toHaveLength(1);
    expect(inserted.received[0]).toMatchObject({ source: 'legacy', scoreId, disciplineId: discipline.id, score: 6.5, finalScore: 6.5 });

    const updated = await legacyWrite(
      `UPDATE ${t.jury_results} SET rel_leistung = 5 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`,
      [scoreId, discipline.fields.A],
      scoreId,
    );
    expect(updated.received.map((event) => [event.source, event.score])).toEqual([['legacy', 6.5]]);

    const bulkUpdated = await legacyWrite(
      `UPDATE ${t.jury_results} SET rel_leistung = rel_leistung + 1 WHERE int_wertungenid = $1`,
      [scoreId],
      scoreId,
    );
    // An UPDATE of both fields is one change of the discipline too.
    expect(bulkUpdated.received.map((event) => [event.source, event.score])).toEqual([['legacy', 6.5]]);
  });

  it('sends a jury result with no detail row yet as an event with score null', async () => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    const { received } = await legacyWrite(
      `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 4.5, 1, 0)`,
      [scoreId, discipline.fields.A],
      scoreId,
    );
    expect(received[0]).toMatchObject({ source: 'legacy', scoreId, score: null, storedScore: null });
  });

  it('gives every row of a bulk statement its event, but none to group or team component rows', async () => {
    const scores = await Promise.all([1, 2, 3].map(() => insertParticipantWithScoreRow(server.pool, competition)));
    const scoreIds = scores.map((score) => score.scoreId);
    const before = events.length;
    await server.pool.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
       SELECT id, $2, 1, 0, 5 FROM unnest($1::int[]) AS id`,
      [scoreIds, discipline.id],
    );
    // int_kp naming a non-final field is a group/team component, the final field's row is the score.
    await server.pool.query(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, $3, 3), ($1, $2, 1, $4, 12)`,
      [scoreIds[0], discipline.id, discipline.fields.A, discipline.fields.final],
    );
    await commitAndAwait(server.commands, events, competition.eventId, 'after-bulk');
    const fresh = events.slice(before).filter((event) => event.source === 'legacy');
    expect(fresh.map((event) => [event.scoreId, event.score])).toEqual([...scoreIds.map((id) => [id, 5]), [scoreIds[0], 12]]);
  });

  it('produces exactly one event, source api, for a service command writing the same tables', async () => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition);
    const before = events.length;
    await server.commands.run(async (tx) => {
      await tx.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 9.9)`,
        [scoreId, discipline.id],
      );
      await tx.query(
        `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 9.9, 1, 0)`,
        [scoreId, discipline.fields.final],
      );
      await tx.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.95 WHERE int_wertungenid = $1`, [scoreId]);
      await appendOutboxEvent(tx, markerEvent(competition.eventId, 'command', { scoreId }));
    });
    await commitAndAwait(server.commands, events, competition.eventId, 'after-command');
    const forScore = events.slice(before).filter((event) => event.scoreId === scoreId);
    expect(forScore.map((event) => [event.source, event.marker])).toEqual([['api', 'command']]);
    expect(withMarker(events, 'command')).toHaveLength(1);
  });

  it('names a group score by the group in the lastname of its legacy event', async () => {
    const groupId = await insertRow(server.pool, 'gruppen', 'int_gruppenid', {
      int_veranstaltungenid: competition.eventId,
      var_name: 'Showgruppe Nord',
    });
    const scoreId = await insertRow(server.pool, 'wertungen', 'int_wertungenid', {
      int_wettkaempfeid: competition.competitionId,
      int_gruppenid: groupId,
      int_statusid: 1,
    });
    const { received } = await legacyWrite(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, $3, 17.5)`,
      [scoreId, discipline.id, discipline.fields.final],
      scoreId,
    );
    expect(received[0]).toMatchObject({
      source: 'legacy',
      scoreId,
      participantId: null,
      firstname: null,
      lastname: 'Showgruppe Nord',
      score: 17.5,
    });
  });

  // Last in the file: it changes the tables' shape for good.
  it("leaves the legacy columns its events read free to change type, as the desktop program's schema updates do", async () => {
    // PostgreSQL refuses ALTER COLUMN ... TYPE on a column a view (or a BEGIN ATOMIC function) reads.
    await server.pool.query(
      `ALTER TABLE ${t.teilnehmer} ALTER COLUMN var_vorname TYPE varchar(150), ALTER COLUMN var_nachname TYPE varchar(150);
       ALTER TABLE ${t.gruppen} ALTER COLUMN var_name TYPE varchar(150);
       ALTER TABLE ${t.mannschaften} ALTER COLUMN var_name TYPE varchar(150);
       ALTER TABLE ${t.disziplinen} ALTER COLUMN var_name TYPE varchar(150);
       ALTER TABLE ${t.wertungen} ALTER COLUMN var_riege TYPE varchar(10)`,
    );
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: 'Breit' });
    const detail = await legacyWrite(
      `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.5)`,
      [scoreId, discipline.id],
      scoreId,
    );
    expect(detail.received).toEqual([expect.objectContaining({ source: 'legacy', lastname: 'Breit', score: 8.5 })]);
    const jury = await legacyWrite(
      `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 4, 1, 0)`,
      [scoreId, discipline.fields.A],
      scoreId,
    );
    expect(jury.received).toEqual([expect.objectContaining({ source: 'legacy', lastname: 'Breit', score: 8.5 })]);
  });
});

describe('8b. legacy writes while no service runs', () => {
  it('waits in the outbox as a capture, then becomes one event and one audit record at the next start', async () => {
    const database = await createTestDatabase();
    let restarted: TestServer | undefined;
    const desktop = new pg.Client({ connectionString: database.url, application_name: 'TurnerDesk 4.2' });
    try {
      const first = await startTestServer({ database });
      const offline = await createCompetition(first.pool, 'Offline-Pokal');
      const device = await insertDiscipline(first.pool, { name: 'Boden' });
      const { scoreId } = await insertParticipantWithScoreRow(first.pool, offline, { lastName: 'Nachtrag', squadName: 'R1' });
      await first.stop();

      await desktop.connect();
      await desktop.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 8.25)`,
        [scoreId, device.id],
      );
      const pending = await desktop.query(`SELECT topic, seq FROM ${t.svc_outbox} WHERE payload->>'score' = $1`, [String(scoreId)]);
      expect(pending.rows).toEqual([{ topic: 'legacy-score', seq: null }]);
      expect((await desktop.query(`SELECT 1 FROM ${t.svc_score_audit} WHERE score_id = $1`, [scoreId])).rowCount).toBe(0);

      restarted = await startTestServer({ database });
      const board = await openSocket(restarted.url);
      try {
        const replayed = collectEvents(board);
        await joinCompetition(board, offline.eventId, 0);
        const event = await waitForEvent(replayed, (received) => received.scoreId === scoreId, 15_000);
        expect(event).toMatchObject({ source: 'legacy', lastname: 'Nachtrag', score: 8.25, disciplineName: 'Boden' });
      } finally {
        board.disconnect();
      }
      const audit = await restarted.pool.query(
        `SELECT old_value AS "from", new_value AS "to", source, actor FROM ${t.svc_score_audit} WHERE score_id = $1`,
        [scoreId],
      );
      expect(audit.rows).toEqual([{ from: null, to: 8.25, source: 'legacy', actor: 'TurnerDesk 4.2' }]);
    } finally {
      await desktop.end().catch(() => undefined);
      await restarted?.stop();
      await database.drop();
    }
  });
});
