import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { signToken } from '../../src/http/auth.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  rowCounts,
  detailRows as storedDetails,
  itRefusesWithoutWrites,
  insertGroupOrTeam,
  sharedRefusals,
  useGroupTeamServer,
  type Refusal,
} from '../support/fixtures.js';
import { getJson, postJson } from '../support/http.js';
import { captureStatements } from '../support/statements.js';

const scoring = useGroupTeamServer();

const saveTeam = (body: Record<string, unknown>) => postJson(`${scoring.server.url}/api/scores/team`, body);
const newTeam = (name = 'Team') => insertGroupOrTeam(scoring.server.pool, scoring.event, 'team', name, 'Rot');
const detailRows = async (scoreId: number) =>
  (await storedDetails(scoring.server.pool, scoreId)).map(({ kp, value, attempt }) => ({ kp, value, attempt }));

describe('POST /api/scores/team', () => {
  it('creates the score row without naming the participant column, with start number and squad name from the team', async () => {
    const teamId = await newTeam('Team Ost');
    const { fields } = scoring.event;
    const { result: response, statements } = await captureStatements(scoring.server.pool, () =>
      saveTeam({
        teamId,
        competitionId: scoring.event.plainCompetitionId,
        disciplineId: scoring.event.disciplineId,
        statusId: 9,
        attempt: 1,
        components: [
          { fieldId: fields.D, value: 4 },
          { fieldId: fields.E, value: 8 },
        ],
        finalScore: 12,
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(Number), message: expect.any(String), finalScore: 12 });

    const inserts = statements.filter((text) => new RegExp(`INSERT\\s+INTO\\s+${t.wertungen}\\s*\\(`).test(text));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).not.toMatch(/int_teilnehmerid/);

    const { rows } = await scoring.server.pool.query(
      `SELECT int_teilnehmerid AS "participantId", int_gruppenid AS "groupId", int_mannschaftenid AS "teamId", int_statusid AS "statusId",
              int_runde AS round, int_startnummer AS "startNumber", var_riege AS "squadName"
         FROM ${t.wertungen} WHERE int_wertungenid = $1`,
      [response.body.id],
    );
    expect(rows).toEqual([{ participantId: null, groupId: null, teamId, statusId: 9, round: 1, startNumber: 7, squadName: 'Rot' }]);
    expect(await detailRows(response.body.id)).toEqual(
      [
        { kp: fields.D, value: 4, attempt: 1 },
        { kp: fields.E, value: 8, attempt: 1 },
        { kp: fields.final, value: 12, attempt: 1 },
      ].sort((a, b) => a.kp - b.kp),
    );

    const outbox = await scoring.server.pool.query(`SELECT payload FROM ${t.svc_outbox} WHERE payload->>'teamId' = $1`, [String(teamId)]);
    expect(outbox.rows.map((row) => row.payload)).toEqual([
      {
        scoreId: response.body.id,
        eventId: scoring.event.eventId,
        competitionId: scoring.event.plainCompetitionId,
        teamId,
        name: 'Team Ost',
        disciplineId: scoring.event.disciplineId,
        disciplineName: 'Boden',
        attempt: 1,
        score: 12,
        finalScore: 12,
        squadName: 'Rot',
        released: false,
        timestamp: expect.any(String),
      },
    ]);
  });

  it('replaces the detail rows of (score, discipline, attempt) on a re-save: exactly one set remains', async () => {
    const teamId = await newTeam();
    const { fields } = scoring.event;
    const key = { teamId, competitionId: scoring.event.plainCompetitionId, disciplineId: scoring.event.disciplineId, attempt: 2 };
    const first = await saveTeam({
      ...key,
      components: [
        { fieldId: fields.D, value: 4 },
        { fieldId: fields.E, value: 8 },
        { fieldId: fields.Abz, value: 1 },
      ],
      finalScore: 11,
    });
    // Another attempt of the same score must survive the replacement.
    await saveTeam({ ...key, attempt: 1, components: [{ fieldId: fields.D, value: 1 }], finalScore: 1 });
    const second = await saveTeam({ ...key, components: [{ fieldId: fields.E, value: 9 }], finalScore: 9 });
    expect(second.body.id).toBe(first.body.id);

    const { rows } = await scoring.server.pool.query(`SELECT count(*)::int AS n FROM ${t.wertungen} WHERE int_mannschaftenid = $1`, [
      teamId,
    ]);
    expect(rows[0].n).toBe(1);
    expect((await detailRows(first.body.id)).filter((row) => row.attempt === 2)).toEqual(
      [
        { kp: fields.E, value: 9, attempt: 2 },
        { kp: fields.final, value: 9, attempt: 2 },
      ].sort((a, b) => a.kp - b.kp),
    );
    expect((await detailRows(first.body.id)).filter((row) => row.attempt === 1)).toHaveLength(2);
  });

  it('accepts the mirrored group body (attemptNumber, squadName)', async () => {
    const teamId = await newTeam();
    const response = await saveTeam({
      teamId,
      competitionId: scoring.event.plainCompetitionId,
      disciplineId: scoring.event.disciplineId,
      attemptNumber: 2,
      squadName: 'Grn',
      components: [{ fieldId: scoring.event.fields.D, value: 3 }],
      finalScore: 3,
    });
    expect(response.status).toBe(201);
    const { rows } = await scoring.server.pool.query(`SELECT var_riege AS "squadName" FROM ${t.wertungen} WHERE int_wertungenid = $1`, [
      response.body.id,
    ]);
    expect(rows[0].squadName).toBe('Grn');
    expect((await detailRows(response.body.id)).map((row) => row.attempt)).toEqual([2, 2]);
  });

  it('calculates an omitted finalScore from the field short names', async () => {
    const teamId = await newTeam();
    const { fields } = scoring.event;
    const response = await saveTeam({
      teamId,
      competitionId: scoring.event.plainCompetitionId,
      disciplineId: scoring.event.disciplineId,
      components: [
        { fieldId: fields.D, value: 2.5 },
        { fieldId: fields.E, value: 7.25 },
        { fieldId: fields.Abz, value: 0.5 },
      ],
    });
    expect(response).toMatchObject({ status: 201, body: { finalScore: 9.25 } });
  });
});

describe('POST /api/scores/team refusals write nothing', () => {
  const refusals: Refusal[] = [
    ['unknown team', () => ({ teamId: 999_999 }), 404, /team 999999 not found/],
    ...sharedRefusals('attempt'),
    ['attempt and attemptNumber that disagree', () => ({ attemptNumber: 2 }), 400, /must agree/],
    ['a team of another event', (event) => ({ teamId: event.otherEventTeamId }), 400, /does not belong to the event/],
    ['a competition of another event', (event) => ({ competitionId: event.otherEventCompetitionId }), 400, /does not belong to the event/],
    ['a missing teamId', () => ({ teamId: undefined }), 400, /teamId is required/],
  ];

  itRefusesWithoutWrites(
    scoring,
    '/api/scores/team',
    (event) => ({
      teamId: event.teamId,
      competitionId: event.plainCompetitionId,
      disciplineId: event.disciplineId,
      attempt: 1,
      components: [{ fieldId: event.fields.D, value: 4 }],
      finalScore: 10,
    }),
    refusals,
  );
});

describe('GET /api/scores/team', () => {
  let teamA: number;
  let teamB: number;
  beforeAll(async () => {
    teamA = await newTeam('Team A');
    teamB = await newTeam('Team B');
    const { fields } = scoring.event;
    const save = (teamId: number, disciplineId: number, attempt: number, components: unknown[], finalScore: number) =>
      saveTeam({ teamId, competitionId: scoring.event.plainCompetitionId, disciplineId, attempt, components, finalScore });
    await save(
      teamA,
      scoring.event.disciplineId,
      1,
      [
        { fieldId: fields.Abz, value: 0.5 },
        { fieldId: fields.D, value: 4 },
      ],
      11.5,
    );
    await save(teamA, scoring.event.disciplineId, 2, [{ fieldId: fields.D, value: 5 }], 12);
    await save(teamA, scoring.event.plainDisciplineId, 1, [], 6);
    await save(teamB, scoring.event.disciplineId, 1, [], 8);
  });

  it('lists entries with components joined to fields on int_kp in int_kp order, club and discipline names', async () => {
    const { status, body } = await getJson(`${scoring.server.url}/api/scores/team?teamId=${teamA}`);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ total: 3, limit: 100, offset: 0 });
    expect(body.results).toHaveLength(3);
    const names = new Map([
      [scoring.event.fields.D, 'Schwierigkeit'],
      [scoring.event.fields.Abz, 'Abzug'],
      [scoring.event.fields.final, 'Endwert'],
    ]);
    const expectedComponents = [
      [scoring.event.fields.D, 4],
      [scoring.event.fields.Abz, 0.5],
      [scoring.event.fields.final, 11.5],
    ]
      .sort((a, b) => a[0]! - b[0]!)
      .map(([fieldId, value]) => ({ fieldId, fieldName: names.get(fieldId!), value }));
    expect(body.results[0]).toEqual({
      id: expect.any(Number),
      teamId: teamA,
      competitionId: scoring.event.plainCompetitionId,
      disciplineId: scoring.event.disciplineId,
      attempt: 1,
      finalScore: 11.5,
      components: expectedComponents,
      club: { name: 'TV Musterstadt' },
      discipline: { name: 'Boden' },
    });
    expect(body.results.map((entry: { disciplineId: number; attempt: number }) => [entry.disciplineId, entry.attempt])).toEqual([
      [scoring.event.disciplineId, 1],
      [scoring.event.disciplineId, 2],
      [scoring.event.plainDisciplineId, 1],
    ]);
  });

  it('filters by discipline and competition and pages with the total', async () => {
    const byDiscipline = await getJson(
      `${scoring.server.url}/api/scores/team?competitionId=${scoring.event.plainCompetitionId}&disciplineId=${scoring.event.plainDisciplineId}&teamId=${teamA}`,
    );
    expect(byDiscipline.body.results.map((entry: { finalScore: number }) => entry.finalScore)).toEqual([6]);
    const otherCompetition = await getJson(
      `${scoring.server.url}/api/scores/team?competitionId=${scoring.event.groupCompetitionId}&teamId=${teamA}`,
    );
    expect(otherCompetition.body).toEqual({ results: [], pagination: { total: 0, limit: 100, offset: 0 } });
    const page = await getJson(`${scoring.server.url}/api/scores/team?teamId=${teamA}&limit=2&offset=1`);
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 1 });
    expect(page.body.results.map((entry: { attempt: number }) => entry.attempt)).toEqual([2, 1]);
    const pastTheEnd = await getJson(`${scoring.server.url}/api/scores/team?teamId=${teamA}&offset=10`);
    expect(pastTheEnd.body).toEqual({ results: [], pagination: { total: 3, limit: 100, offset: 10 } });
    const all = await getJson(`${scoring.server.url}/api/scores/team?disciplineId=${scoring.event.disciplineId}`);
    const teamIds = all.body.results.map((entry: { teamId: number }) => entry.teamId);
    expect(teamIds.filter((id: number) => id === teamA)).toHaveLength(2);
    expect(teamIds.filter((id: number) => id === teamB)).toHaveLength(1);
    expect((await getJson(`${scoring.server.url}/api/scores/team?limit=1001`)).status).toBe(400);
  });

  it('serves GET /api/scores/team/:teamId and 404 for an unknown team', async () => {
    const { status, body } = await getJson(`${scoring.server.url}/api/scores/team/${teamB}`);
    expect(status).toBe(200);
    expect(body.results.map((entry: { teamId: number; finalScore: number }) => [entry.teamId, entry.finalScore])).toEqual([[teamB, 8]]);
    expect(body.pagination.total).toBe(1);
    const unknown = await getJson(`${scoring.server.url}/api/scores/team/999999`);
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});

describe('score writing in AUTH_MODE=strict', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ database: scoring.server.database, env: { AUTH_MODE: 'strict' } });
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('needs a jury or admin token for group and team saves', async () => {
    const team = {
      teamId: scoring.event.teamId,
      competitionId: scoring.event.plainCompetitionId,
      disciplineId: scoring.event.disciplineId,
      finalScore: 5,
    };
    const group = {
      groupId: scoring.event.groupId,
      competitionId: scoring.event.groupCompetitionId,
      disciplineId: scoring.event.disciplineId,
      finalScore: 5,
    };
    const before = await rowCounts(scoring.server.pool);
    expect((await postJson(`${strict.url}/api/scores/team`, team)).status).toBe(401);
    expect((await postJson(`${strict.url}/api/scores/group`, group)).status).toBe(401);
    expect(await rowCounts(scoring.server.pool)).toEqual(before);
    const authorization = `Bearer ${signToken(strict.app, { sub: 'judge', role: 'jury' }, 1)}`;
    expect((await postJson(`${strict.url}/api/scores/team`, team, { authorization })).status).toBe(201);
    expect((await postJson(`${strict.url}/api/scores/group`, group, { authorization })).status).toBe(200);
  });
});
