/**
 * Issue 20: the audit record (one row per changed value, by every write path, with actor and
 * source), history across outbox retention, releases (409 for anonymous API writes, head writes
 * pass, legacy writes flagged), completeness, and `released` on events and live results.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { deleteExpiredOutboxRows } from '../../outbox/retention.js';
import {
  createGroupTeamEvent,
  insertGroupOrTeam,
  type GroupTeamEvent,
  createCompetition,
  insertDiscipline,
  insertParticipantWithScoreRow,
  rowCounts,
  type Competition,
  type Discipline,
} from '../support/fixtures.js';
import { startTestServer, waitForNumbered, type TestServer } from '../support/server.js';
import { adminToken, bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let event: GroupTeamEvent;
let competition: Competition;
let discipline: Discipline;

beforeAll(async () => {
  server = await startTestServer();
  event = await createGroupTeamEvent(server.pool);
  competition = await createCompetition(server.pool, 'Kreismeisterschaft');
  discipline = await insertDiscipline(server.pool, { name: 'Reck' });
});
afterAll(async () => {
  await server?.stop();
});

async function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => send('POST', path, body, headers);
const get = (path: string, headers: Record<string, string> = bearer(headToken)) => send('GET', path, undefined, headers);

interface AuditRow {
  scoreId: number;
  disciplineId: number;
  fieldId: number | null;
  attempt: number | null;
  from: number | null;
  to: number | null;
  source: string;
  actor: string;
  afterRelease: boolean;
}

/**
 * Audit rows of the given scores recorded after `afterId`, oldest first. A desktop write's are
 * recorded when the sequencer numbers its captures (migration 0016).
 */
async function auditRows(scoreIds: readonly number[], afterId = 0): Promise<AuditRow[]> {
  await waitForNumbered(server.pool);
  const { rows } = await server.pool.query<AuditRow>(
    `SELECT score_id AS "scoreId", discipline_id AS "disciplineId", field_id AS "fieldId", attempt, old_value AS "from", new_value AS "to",
            source, actor, after_release AS "afterRelease"
       FROM ${t.svc_score_audit} WHERE score_id = ANY($1::int[]) AND id > $2 ORDER BY id`,
    [scoreIds, afterId],
  );
  return rows;
}

async function lastAuditId(): Promise<number> {
  await waitForNumbered(server.pool);
  const { rows } = await server.pool.query<{ id: number }>(`SELECT COALESCE(max(id), 0)::int AS id FROM ${t.svc_score_audit}`);
  return rows[0]!.id;
}

/** A connection of "the desktop program": no service marker, its own application_name. */
async function desktop<T>(work: (client: pg.Client) => Promise<T>, applicationName: string | null = 'TurnerDesk 4.2'): Promise<T> {
  const client = new pg.Client({
    connectionString: server.database.url,
    ...(applicationName === null ? {} : { application_name: applicationName }),
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function newScore(squadName = 'R1', lastName = 'Muster'): Promise<{ participantId: number; scoreId: number }> {
  return insertParticipantWithScoreRow(server.pool, competition, { squadName, lastName });
}

describe('audit record: exactly one row per changed value, by every path', () => {
  it('jury-results: the token subject, the field, none for an unchanged value', async () => {
    const { scoreId } = await newScore();
    const save = (value: number) =>
      post(
        '/api/jury-results',
        { participantId: scoreId, disciplineFieldId: discipline.fields.A, performance: value, attempt: 1 },
        bearer(juryToken),
      );
    expect((await save(9)).status).toBe(200);
    expect((await save(9)).status).toBe(200);
    expect((await save(9.5)).status).toBe(200);
    expect(await auditRows([scoreId])).toEqual([
      {
        scoreId,
        disciplineId: discipline.id,
        fieldId: discipline.fields.A,
        attempt: 1,
        from: null,
        to: 9,
        source: 'api',
        actor: 'judge-1',
        afterRelease: false,
      },
      {
        scoreId,
        disciplineId: discipline.id,
        fieldId: discipline.fields.A,
        attempt: 1,
        from: 9,
        to: 9.5,
        source: 'api',
        actor: 'judge-1',
        afterRelease: false,
      },
    ]);
  });

  it('save-value: the judge name header, one row for the final although it is stored twice', async () => {
    const { scoreId } = await newScore();
    const headers = { 'x-judge-name': encodeURIComponent('Maria Hüber') };
    const save = (score: number) =>
      post(
        '/api/scores/save-value',
        { competitionId: competition.competitionId, participantId: scoreId, disciplineId: discipline.id, score },
        headers,
      );
    expect((await save(12.5)).status).toBe(200);
    expect((await save(12.5)).status).toBe(200);
    expect((await save(13)).status).toBe(200);
    const rows = await auditRows([scoreId]);
    expect(rows.map(({ fieldId, from, to, actor, source }) => ({ fieldId, from, to, actor, source }))).toEqual([
      { fieldId: null, from: null, to: 12.5, actor: 'Maria Hüber', source: 'api' },
      { fieldId: null, from: 12.5, to: 13, actor: 'Maria Hüber', source: 'api' },
    ]);
  });

  it("the portal's save (fields, the final field, the detail; one request each): one row per changed value, none unchanged", async () => {
    const { scoreId } = await newScore();
    const { fields } = discipline;
    const headers = { 'x-judge-name': 'Eva Kampf' };
    // The save order of the interface (rule 7): field values, the final into the final field, the final into the detail.
    const save = async (d: number, final: number) => {
      for (const [fieldId, value] of [
        [fields.A, d],
        [fields.B, 8],
        [fields.C, 0.3],
        [fields.final!, final],
      ] as const) {
        const saved = await post(
          '/api/jury-results',
          { participantId: scoreId, disciplineFieldId: fieldId, performance: value, attempt: 1 },
          headers,
        );
        expect(saved.status).toBe(200);
      }
      const detail = await post(
        '/api/scores/save-value',
        { competitionId: competition.competitionId, participantId: scoreId, disciplineId: discipline.id, score: final },
        headers,
      );
      expect(detail.status).toBe(200);
    };
    await save(4, 11.7);
    const first = await auditRows([scoreId]);
    expect(first.map(({ fieldId, from, to }) => ({ fieldId, from, to }))).toEqual([
      { fieldId: fields.A, from: null, to: 4 },
      { fieldId: fields.B, from: null, to: 8 },
      { fieldId: fields.C, from: null, to: expect.closeTo(0.3, 5) },
      { fieldId: null, from: null, to: expect.closeTo(11.7, 5) },
    ]);
    let mark = await lastAuditId();
    await save(4.5, 12.2);
    expect((await auditRows([scoreId], mark)).map(({ fieldId, from, to, actor }) => ({ fieldId, from, to, actor }))).toEqual([
      { fieldId: fields.A, from: 4, to: 4.5, actor: 'Eva Kampf' },
      { fieldId: null, from: expect.closeTo(11.7, 5), to: expect.closeTo(12.2, 5), actor: 'Eva Kampf' },
    ]);
    mark = await lastAuditId();
    await save(4.5, 12.2);
    expect(await auditRows([scoreId], mark)).toEqual([]);
  });

  it('capture: one row per field and one for the calculated final; without token or name the actor is anonymous', async () => {
    const { scoreId } = await newScore();
    const { fields } = discipline;
    const capture = (a: number) =>
      post('/api/scores/capture', {
        wertungenId: scoreId,
        fieldValues: [
          { fieldId: fields.A, value: a },
          { fieldId: fields.B, value: 8 },
          { fieldId: fields.C, value: 1 },
        ],
      });
    expect((await capture(9)).status).toBe(200);
    const first = await auditRows([scoreId]);
    expect(first.map(({ fieldId, from, to }) => ({ fieldId, from, to }))).toEqual(
      expect.arrayContaining([
        { fieldId: fields.A, from: null, to: 9 },
        { fieldId: fields.B, from: null, to: 8 },
        { fieldId: fields.C, from: null, to: 1 },
        { fieldId: null, from: null, to: 16 },
      ]),
    );
    expect(first).toHaveLength(4);
    expect(new Set(first.map((row) => row.actor))).toEqual(new Set(['anonymous']));
    const mark = await lastAuditId();
    expect((await capture(9)).status).toBe(200);
    expect(await auditRows([scoreId], mark)).toEqual([]);
    expect((await capture(9.5)).status).toBe(200);
    expect((await auditRows([scoreId], mark)).map(({ fieldId, from, to }) => ({ fieldId, from, to }))).toEqual([
      { fieldId: fields.A, from: 9, to: 9.5 },
      { fieldId: null, from: 16, to: 16.5 },
    ]);
  });

  it('group: components and the final (field null), none when saved again unchanged', async () => {
    const groupId = await insertGroupOrTeam(server.pool, event, 'group', 'Gruppe Audit', 'R1');
    const { fields } = event;
    const save = (d: number) =>
      post(
        '/api/scores/group',
        {
          groupId,
          competitionId: event.groupCompetitionId,
          disciplineId: event.disciplineId,
          attemptNumber: 1,
          components: [
            { fieldId: fields.D, value: d },
            { fieldId: fields.E, value: 8 },
            { fieldId: fields.Abz, value: 0 },
          ],
        },
        bearer(juryToken),
      );
    const saved = await save(4);
    expect(saved.status).toBe(200);
    const scoreId = saved.body.scoreId as number;
    expect((await auditRows([scoreId])).map(({ fieldId, from, to, actor }) => ({ fieldId, from, to, actor }))).toEqual(
      expect.arrayContaining([
        { fieldId: fields.D, from: null, to: 4, actor: 'judge-1' },
        { fieldId: fields.E, from: null, to: 8, actor: 'judge-1' },
        { fieldId: fields.Abz, from: null, to: 0, actor: 'judge-1' },
        { fieldId: null, from: null, to: 12, actor: 'judge-1' },
      ]),
    );
    expect(await auditRows([scoreId])).toHaveLength(4);
    const mark = await lastAuditId();
    expect((await save(4)).status).toBe(200);
    expect(await auditRows([scoreId], mark)).toEqual([]);
  });

  it('team: the replace (delete and insert) of unchanged rows records nothing; a changed component one row and the final one', async () => {
    const teamId = await insertGroupOrTeam(server.pool, event, 'team', 'Team Audit', 'R1');
    const { fields } = event;
    const save = (e: number) =>
      post('/api/scores/team', {
        teamId,
        competitionId: event.plainCompetitionId,
        disciplineId: event.disciplineId,
        attempt: 2,
        components: [
          { fieldId: fields.D, value: 4 },
          { fieldId: fields.E, value: e },
          { fieldId: fields.Abz, value: 0 },
        ],
      });
    const saved = await save(8);
    expect(saved.status).toBe(201);
    const scoreId = saved.body.id as number;
    expect(await auditRows([scoreId])).toHaveLength(4);
    const mark = await lastAuditId();
    expect((await save(8)).status).toBe(201);
    expect(await auditRows([scoreId], mark)).toEqual([]);
    expect((await save(7)).status).toBe(201);
    expect((await auditRows([scoreId], mark)).map(({ fieldId, attempt, from, to }) => ({ fieldId, attempt, from, to }))).toEqual(
      expect.arrayContaining([
        { fieldId: fields.E, attempt: 2, from: 8, to: 7 },
        { fieldId: null, attempt: 2, from: 12, to: 11 },
      ]),
    );
    expect(await auditRows([scoreId], mark)).toHaveLength(2);
  });

  it('legacy bulk INSERT and UPDATE across squads: one row per changed value, source legacy, actor application_name or user', async () => {
    const scores = [await newScore('R1'), await newScore('R2'), await newScore('')].map((score) => score.scoreId);
    await desktop(async (client) => {
      await client.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
         SELECT id, $2, 1, 0, 10 + n FROM unnest($1::int[]) WITH ORDINALITY AS x(id, n)`,
        [scores, discipline.id],
      );
    });
    expect(
      (await auditRows(scores)).map(({ scoreId, fieldId, from, to, source, actor }) => ({ scoreId, fieldId, from, to, source, actor })),
    ).toEqual([
      { scoreId: scores[0], fieldId: null, from: null, to: 11, source: 'legacy', actor: 'TurnerDesk 4.2' },
      { scoreId: scores[1], fieldId: null, from: null, to: 12, source: 'legacy', actor: 'TurnerDesk 4.2' },
      { scoreId: scores[2], fieldId: null, from: null, to: 13, source: 'legacy', actor: 'TurnerDesk 4.2' },
    ]);
    const mark = await lastAuditId();
    // One of the three keeps its value: it gets no row.
    await desktop(
      (client) =>
        client.query(
          `UPDATE ${t.wertungen_details} SET rel_leistung = CASE WHEN int_wertungenid = $2 THEN rel_leistung ELSE rel_leistung + 1 END
            WHERE int_wertungenid = ANY($1::int[]) AND int_disziplinenid = $3`,
          [scores, scores[1], discipline.id],
        ),
      null,
    );
    const { rows } = await server.pool.query<{ user: string }>('SELECT current_user AS user');
    expect((await auditRows(scores, mark)).map(({ scoreId, from, to, source, actor }) => ({ scoreId, from, to, source, actor }))).toEqual([
      { scoreId: scores[0], from: 11, to: 12, source: 'legacy', actor: rows[0]!.user },
      { scoreId: scores[2], from: 13, to: 14, source: 'legacy', actor: rows[0]!.user },
    ]);
  });

  it('legacy jury results and deletes are recorded too', async () => {
    const { scoreId } = await newScore();
    await desktop(async (client) => {
      await client.query(
        `INSERT INTO ${t.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp) VALUES ($1, $2, 7, 1, 0), ($1, $3, 6, 1, 0)`,
        [scoreId, discipline.fields.A, discipline.fields.B],
      );
      await client.query(`DELETE FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`, [
        scoreId,
        discipline.fields.B,
      ]);
    });
    expect((await auditRows([scoreId])).map(({ fieldId, from, to, source }) => ({ fieldId, from, to, source }))).toEqual([
      { fieldId: discipline.fields.A, from: null, to: 7, source: 'legacy' },
      { fieldId: discipline.fields.B, from: null, to: 6, source: 'legacy' },
      { fieldId: discipline.fields.B, from: 6, to: null, source: 'legacy' },
    ]);
  });
  it('legacy transaction: two changes of one value are one row, a change and its undo none, a moved detail row a removal and an entry', async () => {
    const { scoreId } = await newScore();
    const { scoreId: undone } = await newScore();
    await desktop(async (client) => {
      await client.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $3, 1, 0, 8), ($2, $3, 1, 0, 5)`,
        [scoreId, undone, discipline.id],
      );
    });
    const mark = await lastAuditId();
    await desktop(async (client) => {
      await client.query('BEGIN');
      for (const value of [8.5, 9]) {
        await client.query(`UPDATE ${t.wertungen_details} SET rel_leistung = $2 WHERE int_wertungenid = $1 AND int_disziplinenid = $3`, [
          scoreId,
          value,
          discipline.id,
        ]);
      }
      for (const value of [5.5, 5]) {
        await client.query(`UPDATE ${t.wertungen_details} SET rel_leistung = $2 WHERE int_wertungenid = $1 AND int_disziplinenid = $3`, [
          undone,
          value,
          discipline.id,
        ]);
      }
      await client.query('COMMIT');
    });
    expect((await auditRows([scoreId, undone], mark)).map(({ scoreId: id, attempt, from, to }) => ({ id, attempt, from, to }))).toEqual([
      { id: scoreId, attempt: 1, from: 8, to: 9 },
    ]);
    const moved = await lastAuditId();
    await desktop((client) =>
      client.query(`UPDATE ${t.wertungen_details} SET int_versuch = 2 WHERE int_wertungenid = $1 AND int_disziplinenid = $2`, [
        scoreId,
        discipline.id,
      ]),
    );
    expect((await auditRows([scoreId], moved)).map(({ attempt, from, to }) => ({ attempt, from, to }))).toEqual([
      { attempt: 1, from: 9, to: null },
      { attempt: 2, from: null, to: 9 },
    ]);
  });

  it('legacy events: each carries the value its statement wrote, also when numbered together; a score deleted before numbering gets none', async () => {
    const { scoreId } = await newScore();
    const { scoreId: gone } = await newScore();
    await waitForNumbered(server.pool);
    const { rows: before } = await server.pool.query<{ seq: number }>(`SELECT COALESCE(max(seq), 0)::int AS seq FROM ${t.svc_outbox}`);
    await desktop(async (client) => {
      await client.query('BEGIN');
      for (const value of [7.1, 7.2]) {
        await client.query(
          `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, $3, 0, $4)`,
          [scoreId, discipline.id, value === 7.1 ? 1 : 2, value],
        );
      }
      await client.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung) VALUES ($1, $2, 1, 0, 4)`,
        [gone, discipline.id],
      );
      await client.query(`DELETE FROM ${t.wertungen} WHERE int_wertungenid = $1`, [gone]);
      await client.query('COMMIT');
    });
    await waitForNumbered(server.pool);
    const { rows } = await server.pool.query<{ seq: number; scoreId: number; score: number; lastname: string }>(
      `SELECT seq, (payload->>'scoreId')::int AS "scoreId", (payload->>'score')::float AS score, payload->>'lastname' AS lastname
         FROM ${t.svc_outbox} WHERE seq > $1 ORDER BY seq`,
      [before[0]!.seq],
    );
    expect(rows.map(({ scoreId: id, score, lastname }) => ({ id, score, lastname }))).toEqual([
      { id: scoreId, score: 7.1, lastname: 'Muster' },
      { id: scoreId, score: 7.2, lastname: 'Muster' },
    ]);
    // Numbers stay gapless: the dropped capture drew none.
    expect(rows.map((row) => row.seq)).toEqual([before[0]!.seq + 1, before[0]!.seq + 2]);
  });
});

describe('history and the corrections log', () => {
  it('GET /api/scores/:scoreId/history lists the changes oldest first, also after outbox retention removed the events', async () => {
    const { scoreId } = await newScore();
    for (const score of [8, 8.5, 9]) {
      expect(
        (
          await post(
            '/api/scores/save-value',
            { competitionId: competition.competitionId, participantId: scoreId, disciplineId: discipline.id, score },
            bearer(juryToken),
          )
        ).status,
      ).toBe(200);
    }
    await waitForNumbered(server.pool);
    await server.pool.query(`UPDATE ${t.svc_outbox} SET sequenced_at = now() - interval '100 hours' WHERE seq IS NOT NULL`);
    expect(await deleteExpiredOutboxRows(server.pool, 48)).toBeGreaterThan(0);
    const { rows } = await server.pool.query(`SELECT 1 FROM ${t.svc_outbox} WHERE (payload->>'scoreId')::int = $1`, [scoreId]);
    expect(rows).toEqual([]);

    const history = await get(`/api/scores/${scoreId}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      scoreId,
      changes: [
        {
          id: expect.any(Number),
          kind: 'change',
          at: expect.stringMatching(/Z$/),
          source: 'api',
          actor: 'judge-1',
          disciplineId: discipline.id,
          fieldId: null,
          attempt: 1,
          from: null,
          to: 8,
          afterRelease: false,
        },
        {
          id: expect.any(Number),
          kind: 'change',
          at: expect.any(String),
          source: 'api',
          actor: 'judge-1',
          disciplineId: discipline.id,
          fieldId: null,
          attempt: 1,
          from: 8,
          to: 8.5,
          afterRelease: false,
        },
        {
          id: expect.any(Number),
          kind: 'change',
          at: expect.any(String),
          source: 'api',
          actor: 'judge-1',
          disciplineId: discipline.id,
          fieldId: null,
          attempt: 1,
          from: 8.5,
          to: 9,
          afterRelease: false,
        },
      ],
    });
    expect((await get('/api/scores/2000000000/history')).status).toBe(404);
  });

  it('GET /api/audit pages newest first and filters by discipline', async () => {
    const page1 = await get(`/api/audit?eventId=${competition.eventId}&limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.changes).toHaveLength(2);
    expect(page1.body.changes[0].id).toBeGreaterThan(page1.body.changes[1].id);
    expect(page1.body.changes[0]).toMatchObject({
      eventId: competition.eventId,
      competitionId: competition.competitionId,
      disciplineName: 'Reck',
      name: expect.any(String),
    });
    const page2 = await get(`/api/audit?eventId=${competition.eventId}&limit=2&before=${page1.body.nextBefore}`);
    expect(page2.body.changes[0].id).toBeLessThan(page1.body.changes[1].id);
    const filtered = await get(`/api/audit?eventId=${event.eventId}&disciplineId=${event.disciplineId}&limit=1000`);
    expect(filtered.body.changes.length).toBeGreaterThan(0);
    expect(filtered.body.changes.every((change: { disciplineId: number }) => change.disciplineId === event.disciplineId)).toBe(true);
    const future = await get(
      `/api/audit?eventId=${competition.eventId}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future.body).toEqual({ eventId: competition.eventId, changes: [], nextBefore: null });
    expect((await get(`/api/audit?eventId=${competition.eventId}&since=yesterday`)).status).toBe(400);
  });

  it('shows the record only to a head judge or admin and completeness only with a token: it names the judges', async () => {
    const { scoreId } = await newScore();
    const query = `eventId=${competition.eventId}&competitionId=${competition.competitionId}`;
    for (const path of [`/api/audit?eventId=${competition.eventId}`, `/api/scores/${scoreId}/history`, `/api/completeness?${query}`]) {
      const anonymous = await get(path, {});
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body).toMatchObject({ code: 'UNAUTHORIZED' });
      expect((await get(path, bearer(adminToken))).status, path).toBe(200);
    }
    for (const path of [`/api/audit?eventId=${competition.eventId}`, `/api/scores/${scoreId}/history`]) {
      expect((await get(path, bearer(juryToken))).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    }
    expect((await get(`/api/completeness?${query}`, bearer(juryToken))).status).toBe(200);
  });
});

describe('releases', () => {
  let releaseCompetition: Competition;
  let device: Discipline;
  beforeAll(async () => {
    releaseCompetition = await createCompetition(server.pool, 'Bezirksfinale');
    device = await insertDiscipline(server.pool, { name: 'Barren' });
  });
  const scope = () => ({ competitionId: releaseCompetition.competitionId, disciplineId: device.id });

  it('needs the head or admin role', async () => {
    expect((await post('/api/releases', scope())).status).toBe(401);
    expect((await post('/api/releases', scope(), bearer(juryToken))).body.code).toBe('FORBIDDEN');
    expect((await send('DELETE', '/api/releases', scope(), bearer(juryToken))).status).toBe(403);
    expect((await post('/api/releases', { ...scope(), competitionId: 2_000_000_000 }, bearer(headToken))).status).toBe(404);
  });

  it('refuses anonymous and jury writes with 409 and writes nothing; head writes pass; legacy writes are stored and flagged; reopen restores writes', async () => {
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, releaseCompetition, { squadName: 'R1' });
    const juryWrite = (value: number, headers: Record<string, string> = {}) =>
      post('/api/jury-results', { participantId: scoreId, disciplineFieldId: device.fields.A, performance: value, attempt: 1 }, headers);
    expect((await juryWrite(5)).status).toBe(200);

    const released = await post('/api/releases', scope(), bearer(headToken));
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ ...scope(), squadName: null, released: true, releasedBy: 'oberkampfrichter' });

    const before = await rowCounts(server.pool);
    const auditBefore = await lastAuditId();
    for (const headers of [{}, bearer(juryToken), { 'x-judge-name': 'Paul' }]) {
      const refused = await juryWrite(6, headers);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'CONFLICT',
        message: 'released; ask the head judge to reopen',
      });
    }
    const refusedFinal = await post('/api/scores/save-value', {
      competitionId: releaseCompetition.competitionId,
      participantId: scoreId,
      disciplineId: device.id,
      score: 3,
    });
    expect(refusedFinal.status).toBe(409);
    expect(await rowCounts(server.pool)).toEqual(before);
    expect(await lastAuditId()).toBe(auditBefore);

    expect((await juryWrite(6, bearer(headToken))).status).toBe(200);
    await desktop((client) =>
      client.query(`UPDATE ${t.jury_results} SET rel_leistung = 6.5 WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`, [
        scoreId,
        device.fields.A,
      ]),
    );
    await waitForNumbered(server.pool);
    const history = await get(`/api/scores/${scoreId}/history`);
    expect(
      history.body.changes.map(({ source, actor, from, to, afterRelease }: any) => ({ source, actor, from, to, afterRelease })),
    ).toEqual([
      { source: 'api', actor: 'anonymous', from: null, to: 5, afterRelease: false },
      { source: 'api', actor: 'oberkampfrichter', from: 5, to: 6, afterRelease: true },
      { source: 'legacy', actor: 'TurnerDesk 4.2', from: 6, to: 6.5, afterRelease: true },
    ]);

    const reopened = await send('DELETE', '/api/releases', scope(), bearer(headToken));
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ released: false });
    expect((await juryWrite(7)).status).toBe(200);
  });

  it('a squad release holds only that squad', async () => {
    const inSquad = await insertParticipantWithScoreRow(server.pool, releaseCompetition, { squadName: 'R2' });
    const otherSquad = await insertParticipantWithScoreRow(server.pool, releaseCompetition, { squadName: 'R3' });
    expect((await post('/api/releases', { ...scope(), squadName: 'R2' }, bearer(headToken))).body).toMatchObject({
      squadName: 'R2',
      released: true,
    });
    const write = (scoreId: number) =>
      post('/api/jury-results', { participantId: scoreId, disciplineFieldId: device.fields.B, performance: 4, attempt: 1 });
    expect((await write(inSquad.scoreId)).status).toBe(409);
    expect((await write(otherSquad.scoreId)).status).toBe(200);
    expect((await send('DELETE', '/api/releases', { ...scope(), squadName: 'R2' }, bearer(headToken))).body.released).toBe(false);
  });

  it("GET /api/releases lists a competition's released devices and squads without a token", async () => {
    const own = await createCompetition(server.pool, 'Freigabecup');
    const other = await insertDiscipline(server.pool, { name: 'Boden' });
    const listed = async () => get(`/api/releases?competitionId=${own.competitionId}`, {});
    expect((await listed()).body).toEqual({ competitionId: own.competitionId, releases: [] });
    const scopeOf = (disciplineId: number, squadName?: string) => ({ competitionId: own.competitionId, disciplineId, squadName });
    await post('/api/releases', scopeOf(device.id), bearer(headToken));
    await post('/api/releases', scopeOf(other.id, 'R4'), bearer(headToken));
    const answer = await listed();
    expect(answer.status).toBe(200);
    expect(answer.body.releases).toEqual(
      [
        { disciplineId: device.id, squadName: null },
        { disciplineId: other.id, squadName: 'R4' },
      ].sort((a, b) => a.disciplineId - b.disciplineId),
    );
    await send('DELETE', '/api/releases', scopeOf(device.id), bearer(headToken));
    expect((await listed()).body.releases).toEqual([{ disciplineId: other.id, squadName: 'R4' }]);
    expect((await get('/api/releases?competitionId=2000000000', {})).status).toBe(404);
    expect((await get('/api/releases?competitionId=x', {})).body.code).toBe('VALIDATION_FAILED');
  });

  it('score-updated events and live results carry released; released=only lists released scores only', async () => {
    const liveCompetition = await createCompetition(server.pool, 'Livecup');
    const a = await insertParticipantWithScoreRow(server.pool, liveCompetition, { squadName: 'A', lastName: 'Alpha' });
    const b = await insertParticipantWithScoreRow(server.pool, liveCompetition, { squadName: 'B', lastName: 'Beta' });
    const save = (scoreId: number, score: number) =>
      post(
        '/api/scores/save-value',
        { competitionId: liveCompetition.competitionId, participantId: scoreId, disciplineId: device.id, score },
        bearer(headToken),
      );
    expect((await save(a.scoreId, 9)).status).toBe(200);
    expect(
      (
        await post(
          '/api/releases',
          { competitionId: liveCompetition.competitionId, disciplineId: device.id, squadName: 'A' },
          bearer(headToken),
        )
      ).status,
    ).toBe(200);
    expect((await save(a.scoreId, 9.1)).status).toBe(200);
    expect((await save(b.scoreId, 8)).status).toBe(200);
    await desktop((client) =>
      client.query(`UPDATE ${t.wertungen_details} SET rel_leistung = 9.2 WHERE int_wertungenid = $1 AND int_disziplinenid = $2`, [
        a.scoreId,
        device.id,
      ]),
    );
    await waitForNumbered(server.pool);
    const { rows } = await server.pool.query<{ scoreId: number; source: string; released: boolean }>(
      `SELECT (payload->>'scoreId')::int AS "scoreId", source, (payload->'released')::boolean AS released
         FROM ${t.svc_outbox} WHERE topic = 'score-updated' AND (payload->>'scoreId')::int = ANY($1::int[]) ORDER BY id`,
      [[a.scoreId, b.scoreId]],
    );
    expect(rows).toEqual([
      { scoreId: a.scoreId, source: 'api', released: false },
      { scoreId: a.scoreId, source: 'api', released: true },
      { scoreId: b.scoreId, source: 'api', released: false },
      { scoreId: a.scoreId, source: 'legacy', released: true },
    ]);
    const { rows: releaseEvents } = await server.pool.query(
      `SELECT payload FROM ${t.svc_outbox} WHERE topic = 'release-changed' AND event_id = $1`,
      [liveCompetition.eventId],
    );
    expect(releaseEvents).toEqual([
      {
        payload: expect.objectContaining({
          competitionId: liveCompetition.competitionId,
          disciplineId: device.id,
          squadName: 'A',
          released: true,
          by: 'oberkampfrichter',
        }),
      },
    ]);

    const all = await get(`/api/live-results?eventId=${liveCompetition.eventId}&disciplineId=${device.id}`);
    expect(all.body.results.map(({ scoreId, released, rank }: any) => ({ scoreId, released, rank }))).toEqual([
      { scoreId: a.scoreId, released: true, rank: 1 },
      { scoreId: b.scoreId, released: false, rank: 2 },
    ]);
    const only = await get(`/api/live-results?eventId=${liveCompetition.eventId}&disciplineId=${device.id}&released=only`);
    expect(only.body.results.map(({ scoreId, released }: any) => ({ scoreId, released }))).toEqual([
      { scoreId: a.scoreId, released: true },
    ]);
    expect((await get(`/api/live-results?eventId=${liveCompetition.eventId}&disciplineId=${device.id}&released=all`)).status).toBe(400);
  });

  it('records releasing and reopening in the audit and lists them in the corrections log, also a desktop deleting a release', async () => {
    const recorded = await createCompetition(server.pool, 'Protokollcup');
    const deviceScope = { competitionId: recorded.competitionId, disciplineId: device.id };
    const adminHeaders = bearer(adminToken);
    expect((await post('/api/releases', { ...deviceScope, squadName: 'R4' }, bearer(headToken))).status).toBe(200);
    // Releasing what is released already changes nothing and records nothing.
    expect((await post('/api/releases', { ...deviceScope, squadName: 'R4' }, adminHeaders)).status).toBe(200);
    expect((await send('DELETE', '/api/releases', { ...deviceScope, squadName: 'R4' }, adminHeaders)).status).toBe(200);
    expect((await post('/api/releases', deviceScope, bearer(headToken))).status).toBe(200);
    await desktop((client) =>
      client.query(`DELETE FROM ${t.svc_releases} WHERE competition_id = $1 AND discipline_id = $2`, [recorded.competitionId, device.id]),
    );

    const log = await get(`/api/audit?eventId=${recorded.eventId}&competitionId=${recorded.competitionId}`);
    expect(log.status).toBe(200);
    const entry = (kind: string, squadName: string | null, source: string, actor: string) => ({
      id: expect.any(Number),
      kind,
      at: expect.stringMatching(/Z$/),
      source,
      actor,
      scoreId: null,
      eventId: recorded.eventId,
      competitionId: recorded.competitionId,
      disciplineId: device.id,
      disciplineName: 'Barren',
      fieldId: null,
      fieldName: null,
      attempt: null,
      from: null,
      to: null,
      afterRelease: false,
      name: null,
      squadName,
    });
    expect(log.body).toEqual({
      eventId: recorded.eventId,
      changes: [
        entry('reopen', null, 'legacy', 'TurnerDesk 4.2'),
        entry('release', null, 'api', 'oberkampfrichter'),
        entry('reopen', 'R4', 'api', 'anna'),
        entry('release', 'R4', 'api', 'oberkampfrichter'),
      ],
      nextBefore: null,
    });
    const otherDevice = await get(`/api/audit?eventId=${recorded.eventId}&disciplineId=${device.id + 1_000_000}`);
    expect(otherDevice.body.changes).toEqual([]);
  });
});

describe('GET /api/completeness', () => {
  it('counts expected, scored and missing per device and squad, with names and release state', async () => {
    const comp = await createCompetition(server.pool, 'Vollständig');
    const floor = await insertDiscipline(server.pool, { name: 'Boden' });
    const vault = await insertDiscipline(server.pool, { name: 'Sprung' });
    const r1a = await insertParticipantWithScoreRow(server.pool, comp, { squadName: 'R1', lastName: 'Adler' });
    const r1b = await insertParticipantWithScoreRow(server.pool, comp, { squadName: 'R1', lastName: 'Bär' });
    const r2a = await insertParticipantWithScoreRow(server.pool, comp, { squadName: 'R2', lastName: 'Chamäleon' });
    const r2dns = await insertParticipantWithScoreRow(server.pool, comp, { squadName: 'R2', lastName: 'Dachs' });
    await server.pool.query(`UPDATE ${t.wertungen} SET bol_startet_nicht = true WHERE int_wertungenid = $1`, [r2dns.scoreId]);
    await desktop(async (client) => {
      await client.query(
        `INSERT INTO ${t.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
         VALUES ($1, $4, 1, 0, 12), ($2, $4, 1, 0, NULL), ($3, $4, 1, 0, 11), ($1, $5, 1, 0, 13)`,
        [r1a.scoreId, r1b.scoreId, r2a.scoreId, floor.id, vault.id],
      );
    });
    expect(
      (await post('/api/releases', { competitionId: comp.competitionId, disciplineId: vault.id, squadName: 'R1' }, bearer(headToken)))
        .status,
    ).toBe(200);

    const answer = await get(`/api/completeness?eventId=${comp.eventId}&competitionId=${comp.competitionId}`);
    expect(answer.status).toBe(200);
    const missingOf = (name: string, scoreId: number) => ({ scoreId, name: `Anna ${name}`, startNumber: '17' });
    expect(answer.body).toEqual({
      eventId: comp.eventId,
      competitionId: comp.competitionId,
      devices: [
        {
          disciplineId: floor.id,
          disciplineName: 'Boden',
          expected: 3,
          scored: 2,
          release: null,
          squads: [
            { squadName: 'R1', expected: 2, scored: 1, didNotStart: 0, missing: [missingOf('Bär', r1b.scoreId)], release: null },
            { squadName: 'R2', expected: 1, scored: 1, didNotStart: 1, missing: [], release: null },
          ],
        },
        {
          disciplineId: vault.id,
          disciplineName: 'Sprung',
          expected: 3,
          scored: 1,
          release: null,
          squads: [
            {
              squadName: 'R1',
              expected: 2,
              scored: 1,
              didNotStart: 0,
              missing: [missingOf('Bär', r1b.scoreId)],
              release: { releasedAt: expect.any(String), releasedBy: 'oberkampfrichter' },
            },
            { squadName: 'R2', expected: 1, scored: 0, didNotStart: 1, missing: [missingOf('Chamäleon', r2a.scoreId)], release: null },
          ],
        },
      ],
    });
    const filtered = await get(
      `/api/completeness?eventId=${comp.eventId}&competitionId=${comp.competitionId}&disciplineId=${floor.id}&squadName=R2`,
    );
    expect(filtered.body.devices).toEqual([
      expect.objectContaining({ disciplineId: floor.id, expected: 1, scored: 1, squads: [expect.objectContaining({ squadName: 'R2' })] }),
    ]);
    expect((await get(`/api/completeness?eventId=${event.eventId}&competitionId=${comp.competitionId}`)).status).toBe(404);
  });
});
