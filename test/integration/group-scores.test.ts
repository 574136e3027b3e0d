import { beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  detailRows as storedDetails,
  itRefusesWithoutWrites,
  insertGroupOrTeam,
  sharedRefusals,
  useGroupTeamServer,
  type Refusal,
} from '../support/fixtures.js';
import { getJson, postJson } from '../support/http.js';

const scoring = useGroupTeamServer();

const saveGroup = (body: Record<string, unknown>) => postJson(`${scoring.server.url}/api/scores/group`, body);
const newGroup = (name = 'Gruppe') => insertGroupOrTeam(scoring.server.pool, scoring.event, 'group', name, 'Gelb');
const detailRows = (scoreId: number) => storedDetails(scoring.server.pool, scoreId);

async function scoreRowsOf(groupId: number) {
  const { rows } = await scoring.server.pool.query(
    `SELECT int_wertungenid AS id, int_wettkaempfeid AS "competitionId", int_teilnehmerid AS "participantId",
            int_gruppenid AS "groupId", int_mannschaftenid AS "teamId", int_statusid AS "statusId", int_runde AS round,
            int_startnummer AS "startNumber", var_riege AS "squadName"
       FROM ${t.wertungen} WHERE int_gruppenid = $1 ORDER BY int_wertungenid`,
    [groupId],
  );
  return rows;
}

describe('POST /api/scores/group', () => {
  it('creates the group score row and one detail row per component plus the final row, and appends an outbox event', async () => {
    const groupId = await newGroup('Gruppe Stern');
    const { fields } = scoring.event;
    const response = await saveGroup({
      groupId,
      competitionId: scoring.event.groupCompetitionId,
      disciplineId: scoring.event.disciplineId,
      attemptNumber: 1,
      components: [
        { fieldId: fields.E, value: 8.2 },
        { fieldId: fields.D, value: 4.5 },
        { fieldId: fields.Abz, value: 0.3 },
      ],
      finalScore: 12.4,
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    const scoreId = response.body.scoreId;
    expect(response.body.components.map(({ fieldId, value }: { fieldId: number; value: number }) => ({ fieldId, value }))).toEqual([
      { fieldId: fields.D, value: 4.5 },
      { fieldId: fields.E, value: 8.2 },
      { fieldId: fields.Abz, value: 0.3 },
      { fieldId: fields.final, value: 12.4 },
    ]);

    expect(await scoreRowsOf(groupId)).toEqual([
      {
        id: scoreId,
        competitionId: scoring.event.groupCompetitionId,
        participantId: null,
        groupId,
        teamId: null,
        statusId: 1,
        round: 1,
        startNumber: 42,
        squadName: 'Gelb',
      },
    ]);
    const details = await detailRows(scoreId);
    expect(details.map(({ kp, value, attempt, disciplineId }) => ({ kp, value, attempt, disciplineId }))).toEqual(
      [fields.D, fields.E, fields.Abz, fields.final]
        .map((kp, index) => ({ kp, value: [4.5, 8.2, 0.3, 12.4][index], attempt: 1, disciplineId: scoring.event.disciplineId }))
        .sort((a, b) => a.kp - b.kp),
    );
    expect(response.body.components.map((component: { id: number }) => component.id).sort()).toEqual(
      details.map((detail) => detail.id).sort(),
    );

    const { rows } = await scoring.server.pool.query(
      `SELECT topic, event_id AS "eventId", payload FROM ${t.svc_outbox} WHERE payload->>'scoreId' = $1`,
      [String(scoreId)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ topic: 'score-updated', eventId: scoring.event.eventId });
    expect(rows[0].payload).toEqual({
      scoreId,
      eventId: scoring.event.eventId,
      competitionId: scoring.event.groupCompetitionId,
      groupId,
      name: 'Gruppe Stern',
      disciplineId: scoring.event.disciplineId,
      disciplineName: 'Boden',
      attempt: 1,
      score: 12.4,
      finalScore: 12.4,
      squadName: 'Gelb',
      released: false,
      timestamp: expect.any(String),
    });
    expect(new Date(rows[0].payload.timestamp).toISOString()).toBe(rows[0].payload.timestamp);
  });

  it('updates on the second save: one score row, the same detail rows, untouched components kept', async () => {
    const groupId = await newGroup();
    const { fields } = scoring.event;
    const key = { groupId, competitionId: scoring.event.groupCompetitionId, disciplineId: scoring.event.disciplineId, attemptNumber: 2 };
    const first = await saveGroup({
      ...key,
      components: [
        { fieldId: fields.D, value: 4 },
        { fieldId: fields.E, value: 8 },
      ],
      finalScore: 12,
    });
    expect(first.status).toBe(200);
    const before = await detailRows(first.body.scoreId);

    const second = await saveGroup({
      ...key,
      squadName: 'Blau',
      statusId: 9,
      components: [{ fieldId: fields.E, value: 9 }],
      finalScore: 13,
    });
    expect(second.status).toBe(200);
    expect(second.body.scoreId).toBe(first.body.scoreId);

    const rows = await scoreRowsOf(groupId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ statusId: 9, squadName: 'Blau' });
    const after = await detailRows(first.body.scoreId);
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(Object.fromEntries(after.map((row) => [row.kp, row.value]))).toEqual({ [fields.D]: 4, [fields.E]: 9, [fields.final]: 13 });

    // An omitted status keeps the row's instead of falling back to 1; an omitted squad name is the group's.
    await saveGroup({ ...key, finalScore: 14 });
    expect((await scoreRowsOf(groupId))[0]).toMatchObject({ statusId: 9, squadName: 'Gelb' });
  });

  it('creates one score row when first saves of a group race each other', async () => {
    const groupId = await newGroup();
    const responses = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((value) =>
        saveGroup({
          groupId,
          competitionId: scoring.event.groupCompetitionId,
          disciplineId: scoring.event.disciplineId,
          attemptNumber: 1,
          components: [{ fieldId: scoring.event.fields.D, value }],
          finalScore: value,
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await scoreRowsOf(groupId)).toHaveLength(1);
    expect(await detailRows(responses[0]!.body.scoreId)).toHaveLength(2);
  });

  it('keeps attempts and disciplines apart under one score row', async () => {
    const groupId = await newGroup();
    const base = { groupId, competitionId: scoring.event.groupCompetitionId };
    const a1 = await saveGroup({ ...base, disciplineId: scoring.event.disciplineId, attemptNumber: 1, finalScore: 10 });
    const a2 = await saveGroup({ ...base, disciplineId: scoring.event.disciplineId, attemptNumber: 2, finalScore: 11 });
    const other = await saveGroup({ ...base, disciplineId: scoring.event.plainDisciplineId, finalScore: 7 });
    expect(new Set([a1.body.scoreId, a2.body.scoreId, other.body.scoreId]).size).toBe(1);
    const finals = (await detailRows(a1.body.scoreId)).map(({ disciplineId, attempt, value }) => ({ disciplineId, attempt, value }));
    expect(finals).toEqual([
      { disciplineId: scoring.event.disciplineId, attempt: 1, value: 10 },
      { disciplineId: scoring.event.disciplineId, attempt: 2, value: 11 },
      { disciplineId: scoring.event.plainDisciplineId, attempt: 1, value: 7 },
    ]);
  });

  const finals: Array<[string, () => { disciplineId: number; components: Array<[number, number]> }, number, () => number]> = [
    [
      'calculates an omitted finalScore from the field short names',
      () => ({
        disciplineId: scoring.event.disciplineId,
        components: [
          [scoring.event.fields.D, 4.5],
          [scoring.event.fields.E, 8.2],
          [scoring.event.fields.Abz, 0.3],
        ],
      }),
      12.4,
      () => scoring.event.fields.final,
    ],
    [
      'uses the formula record before the discipline formula',
      () => ({ disciplineId: scoring.event.recordDisciplineId, components: [[scoring.event.recordFields.D, 3.5]] }),
      7,
      () => scoring.event.recordFields.final,
    ],
    [
      'takes a final field sent as a component as the finalScore',
      () => ({
        disciplineId: scoring.event.disciplineId,
        components: [
          [scoring.event.fields.D, 1],
          [scoring.event.fields.final, 9.5],
        ],
      }),
      9.5,
      () => scoring.event.fields.final,
    ],
  ];

  it.each(finals)('%s', async (_name, request, expected, finalField) => {
    const { disciplineId, components } = request();
    const response = await saveGroup({
      groupId: await newGroup(),
      competitionId: scoring.event.groupCompetitionId,
      disciplineId,
      components: components.map(([fieldId, value]) => ({ fieldId, value })),
    });
    expect(response.status).toBe(200);
    expect(response.body.components).toHaveLength(components.filter(([fieldId]) => fieldId !== finalField()).length + 1);
    expect(response.body.components.at(-1)).toMatchObject({ fieldId: finalField(), value: expected });
  });
});

describe('POST /api/scores/group refusals write nothing', () => {
  const refusals: Refusal[] = [
    ['unknown group', () => ({ groupId: 999_999 }), 404, /group 999999 not found/],
    ...sharedRefusals('attemptNumber'),
    ['a group of another event', (event) => ({ groupId: event.otherEventGroupId }), 400, /does not belong to the event/],
    [
      'a competition that is not a group competition',
      (event) => ({ competitionId: event.plainCompetitionId }),
      400,
      /not a group competition/,
    ],
  ];

  itRefusesWithoutWrites(
    scoring,
    '/api/scores/group',
    (event) => ({
      groupId: event.groupId,
      competitionId: event.groupCompetitionId,
      disciplineId: event.disciplineId,
      attemptNumber: 1,
      components: [{ fieldId: event.fields.D, value: 4 }],
      finalScore: 10,
    }),
    refusals,
  );
});

describe('GET /api/scores/group/:groupId', () => {
  let groupId: number;
  beforeAll(async () => {
    groupId = await newGroup('Gruppe Lesen');
    const { fields } = scoring.event;
    const save = (competitionId: number, disciplineId: number, attemptNumber: number, components: unknown[], finalScore: number) =>
      saveGroup({ groupId, competitionId, disciplineId, attemptNumber, components, finalScore });
    await save(
      scoring.event.groupCompetitionId,
      scoring.event.disciplineId,
      1,
      [
        { fieldId: fields.Abz, value: 0.5 },
        { fieldId: fields.D, value: 4 },
      ],
      11.5,
    );
    await save(scoring.event.groupCompetitionId, scoring.event.disciplineId, 2, [{ fieldId: fields.D, value: 5 }], 12);
    await save(
      scoring.event.groupCompetitionId,
      scoring.event.plainDisciplineId,
      1,
      [{ fieldId: scoring.event.plainFields.E, value: 7 }],
      7,
    );
    const secondCompetition = await scoring.server.pool.query<{ id: number }>(
      `INSERT INTO ${t.wettkaempfe} (int_veranstaltungenid, var_name, bol_gruppe, int_versuche) VALUES ($1, 'WK 2', true, 1) RETURNING int_wettkaempfeid AS id`,
      [scoring.event.eventId],
    );
    await save(secondCompetition.rows[0]!.id, scoring.event.disciplineId, 1, [], 3);
  });

  it('lists one entry per competition, discipline and attempt with components in field order, final field excluded', async () => {
    const { status, body } = await getJson(`${scoring.server.url}/api/scores/group/${groupId}`);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.group).toEqual({ id: groupId, name: 'Gruppe Lesen', startNumber: 42 });
    expect(body.scores).toHaveLength(4);
    expect(body.scores[0]).toEqual({
      id: expect.any(Number),
      competitionId: scoring.event.groupCompetitionId,
      disciplineId: scoring.event.disciplineId,
      disciplineName: 'Boden',
      attemptNumber: 1,
      finalScore: 11.5,
      statusId: 1,
      components: [
        { fieldId: scoring.event.fields.D, fieldName: 'Schwierigkeit', value: 4 },
        { fieldId: scoring.event.fields.Abz, fieldName: 'Abzug', value: 0.5 },
      ],
    });
    expect(body.scores.map((score: { attemptNumber: number; finalScore: number }) => [score.attemptNumber, score.finalScore])).toEqual([
      [1, 11.5],
      [2, 12],
      [1, 7],
      [1, 3],
    ]);
  });

  it('filters by competition and discipline and drops components on request', async () => {
    const byCompetition = await getJson(
      `${scoring.server.url}/api/scores/group/${groupId}?competitionId=${scoring.event.groupCompetitionId}`,
    );
    expect(byCompetition.body.scores).toHaveLength(3);
    const byBoth = await getJson(
      `${scoring.server.url}/api/scores/group/${groupId}?competitionId=${scoring.event.groupCompetitionId}&disciplineId=${scoring.event.plainDisciplineId}`,
    );
    expect(byBoth.body.scores.map((score: { finalScore: number }) => score.finalScore)).toEqual([7]);
    const bare = await getJson(
      `${scoring.server.url}/api/scores/group/${groupId}?disciplineId=${scoring.event.disciplineId}&includeComponents=false`,
    );
    expect(bare.body.scores).toHaveLength(3);
    for (const score of bare.body.scores) expect(score).not.toHaveProperty('components');
  });

  it('answers 404 for an unknown group and an empty list for a group without scores', async () => {
    expect((await getJson(`${scoring.server.url}/api/scores/group/999999`)).status).toBe(404);
    const empty = await getJson(`${scoring.server.url}/api/scores/group/${await newGroup()}`);
    expect(empty).toMatchObject({ status: 200, body: { success: true, scores: [] } });
  });
});
