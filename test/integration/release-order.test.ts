/**
 * Issue 43, "a released scope takes no anonymous write": a group or team save cannot move a score
 * out of or into a released squad, a save in flight either commits before the release's answer or
 * is refused, and a jury result's kind (int_kp) is as much a change as its value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import {
  createCompetition,
  createGroupTeamEvent,
  insertDiscipline,
  insertGroupOrTeam,
  insertParticipantWithScoreRow,
  type Competition,
  type Discipline,
  type GroupTeamEvent,
} from '../support/fixtures.js';
import { postJson, sendJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { bearer, headToken, juryToken } from '../support/tokens.js';

let server: TestServer;
let event: GroupTeamEvent;

beforeAll(async () => {
  server = await startTestServer();
  event = await createGroupTeamEvent(server.pool);
});
afterAll(async () => {
  await server?.stop();
});

const RELEASED = { statusCode: 409, error: 'Conflict', code: 'CONFLICT', message: 'released; ask the head judge to reopen' };

const release = (scope: Record<string, unknown>, method: 'POST' | 'DELETE' = 'POST') =>
  sendJson(method, `${server.url}/api/releases`, scope, bearer(headToken));

interface StoredScoreRow {
  squadName: string | null;
  finals: number[];
}

async function storedScoreRow(scoreId: number, disciplineId: number, finalField: number): Promise<StoredScoreRow> {
  const { rows } = await server.pool.query<StoredScoreRow>(
    `SELECT w.var_riege AS "squadName",
            COALESCE((SELECT array_agg(d.rel_leistung ORDER BY d.int_versuch) FROM ${t.wertungen_details} d
                       WHERE d.int_wertungenid = w.int_wertungenid AND d.int_disziplinenid = $2 AND d.int_kp = $3), '{}') AS finals
       FROM ${t.wertungen} w WHERE w.int_wertungenid = $1`,
    [scoreId, disciplineId, finalField],
  );
  return rows[0]!;
}

describe('a group or team save does not move a score out of or into a released squad', () => {
  const kinds = [
    {
      kind: 'group' as const,
      route: '/api/scores/group',
      unitKey: 'groupId',
      attemptKey: 'attemptNumber',
      competition: () => event.groupCompetitionId,
      saved: 200,
      idKey: 'scoreId',
    },
    {
      kind: 'team' as const,
      route: '/api/scores/team',
      unitKey: 'teamId',
      attemptKey: 'attempt',
      competition: () => event.plainCompetitionId,
      saved: 201,
      idKey: 'id',
    },
  ];

  it.each(kinds)('$kind: another squadName is refused while the squad is released; the head judge may move it', async (kind) => {
    const save = (unitId: number, squadName: string, finalScore: number, headers: Record<string, string> = {}) =>
      postJson(
        `${server.url}${kind.route}`,
        {
          [kind.unitKey]: unitId,
          competitionId: kind.competition(),
          disciplineId: event.disciplineId,
          [kind.attemptKey]: 1,
          squadName,
          components: [{ fieldId: event.fields.D, value: 4 }],
          finalScore,
        },
        headers,
      );
    const unitId = await insertGroupOrTeam(server.pool, event, kind.kind, `${kind.kind} im Finale`, 'CG');
    const saved = await save(unitId, 'CG', 9);
    expect(saved.status).toBe(kind.saved);
    const scoreId: number = saved.body[kind.idKey];
    // Another unit of the device, in a squad nobody released, with a value there.
    const otherId = await insertGroupOrTeam(server.pool, event, kind.kind, `${kind.kind} daneben`, 'ZZ');
    const other = await save(otherId, 'ZZ', 7);
    expect(other.status).toBe(kind.saved);
    const otherScoreId: number = other.body[kind.idKey];

    const scope = { competitionId: kind.competition(), disciplineId: event.disciplineId, squadName: 'CG' };
    expect((await release(scope)).status).toBe(200);
    const before = await storedScoreRow(scoreId, event.disciplineId, event.fields.final);
    const otherBefore = await storedScoreRow(otherScoreId, event.disciplineId, event.fields.final);
    expect(before).toEqual({ squadName: 'CG', finals: [9] });

    for (const headers of [{}, bearer(juryToken), { 'x-judge-name': 'Paul' }]) {
      // Out of the released squad, with another value and with the same one.
      expect(await save(unitId, 'ZZ', 10, headers)).toEqual({ status: 409, body: RELEASED });
      expect(await save(unitId, 'ZZ', 9, headers)).toEqual({ status: 409, body: RELEASED });
      // Into it: the other unit's value would join a released result.
      expect(await save(otherId, 'CG', 7, headers)).toEqual({ status: 409, body: RELEASED });
    }
    expect(await storedScoreRow(scoreId, event.disciplineId, event.fields.final)).toEqual(before);
    expect(await storedScoreRow(otherScoreId, event.disciplineId, event.fields.final)).toEqual(otherBefore);

    // The head judge may: the move is recorded as theirs.
    expect((await save(unitId, 'ZZ', 9, bearer(headToken))).status).toBe(kind.saved);
    expect((await storedScoreRow(scoreId, event.disciplineId, event.fields.final)).squadName).toBe('ZZ');
    // Now outside the released squad, an anonymous save writes again.
    expect((await save(unitId, 'ZZ', 9.5)).status).toBe(kind.saved);
    expect((await release(scope, 'DELETE')).status).toBe(200);
  });

  it('a score without a value on the released device may change squads', async () => {
    const groupId = await insertGroupOrTeam(server.pool, event, 'group', 'Gruppe ohne Wert', 'CH');
    const save = (squadName: string) =>
      postJson(`${server.url}/api/scores/group`, {
        groupId,
        competitionId: event.groupCompetitionId,
        disciplineId: event.disciplineId,
        attemptNumber: 1,
        squadName,
        finalScore: 8,
      });
    const saved = await save('CH');
    expect(saved.status).toBe(200);
    // Released: squad CH on another device, where this group has no value.
    const scope = { competitionId: event.groupCompetitionId, disciplineId: event.recordDisciplineId, squadName: 'CH' };
    expect((await release(scope)).status).toBe(200);
    expect((await save('XY')).status).toBe(200);
    expect((await storedScoreRow(saved.body.scoreId, event.disciplineId, event.fields.final)).squadName).toBe('XY');
    expect((await release(scope, 'DELETE')).status).toBe(200);
  });
});

describe('a release and the saves in flight are ordered', () => {
  let competition: Competition;
  let device: Discipline;
  beforeAll(async () => {
    competition = await createCompetition(server.pool, 'Wettlauf');
    device = await insertDiscipline(server.pool, { name: 'Sprung' });
  });

  it('no value changes after a release has answered: writers against release and reopen cycles', async () => {
    const WRITERS = 10;
    const CYCLES = 40;
    const scoreIds: number[] = [];
    for (let index = 0; index < WRITERS; index++) {
      scoreIds.push(
        (await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1', lastName: `Läufer ${index}` })).scoreId,
      );
    }
    const scope = { competitionId: competition.competitionId, disciplineId: device.id };
    const values = async () =>
      (
        await server.pool.query<{ scoreId: number; value: number }>(
          `SELECT int_wertungenid AS "scoreId", rel_leistung AS value FROM ${t.jury_results}
            WHERE int_wertungenid = ANY($1::int[]) AND int_disziplinen_felderid = $2 ORDER BY int_wertungenid`,
          [scoreIds, device.fields.A],
        )
      ).rows;

    let stop = false;
    const attempts = new Array<number>(WRITERS).fill(0);
    const accepted = new Array<number>(WRITERS).fill(0);
    const statuses = new Set<number>();
    const writers = scoreIds.map(async (scoreId, writer) => {
      while (!stop) {
        const response = await fetch(`${server.url}/api/jury-results`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            participantId: scoreId,
            disciplineFieldId: device.fields.A,
            performance: attempts[writer]! % 100,
            attempt: 1,
          }),
        });
        await response.arrayBuffer();
        statuses.add(response.status);
        if (response.status === 200) accepted[writer]!++;
        attempts[writer]!++;
      }
    });

    const changedAfterRelease: number[] = [];
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        // Every writer gets a save through while the scope is open.
        const acceptedBefore = [...accepted];
        await waitFor(() => accepted.every((count, writer) => count > acceptedBefore[writer]!), { timeoutMs: 20_000 });
        expect((await release(scope)).status).toBe(200);
        const atRelease = await values();
        // Every writer has tried twice more since the answer.
        const attemptsAtRelease = [...attempts];
        await waitFor(() => attempts.every((count, writer) => count >= attemptsAtRelease[writer]! + 2), { timeoutMs: 20_000 });
        if (JSON.stringify(await values()) !== JSON.stringify(atRelease)) changedAfterRelease.push(cycle);
        expect((await release(scope, 'DELETE')).status).toBe(200);
      }
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    expect(changedAfterRelease).toEqual([]);
    expect([...statuses].sort()).toEqual([200, 409]);
    // No accepted anonymous write was announced as released, nor recorded after the release.
    const { rows } = await server.pool.query(
      `SELECT
         (SELECT count(*) FROM ${t.svc_outbox} WHERE topic = 'score-updated' AND (payload->>'scoreId')::int = ANY($1::int[])
             AND (payload->>'released')::boolean)::int AS "releasedEvents",
         (SELECT count(*) FROM ${t.svc_score_audit} WHERE score_id = ANY($1::int[]) AND after_release)::int AS "afterRelease"`,
      [scoreIds],
    );
    expect(rows).toEqual([{ releasedEvents: 0, afterRelease: 0 }]);
  }, 240_000);
});

describe('a jury result in a released scope', () => {
  it('keeps its kind: the same value with another type is refused like any other change', async () => {
    const competition = await createCompetition(server.pool, 'Kürfinale');
    const device = await insertDiscipline(server.pool, { name: 'Balken' });
    const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { squadName: 'R1' });
    const save = (type: 0 | 1, headers: Record<string, string> = {}) =>
      postJson(
        `${server.url}/api/jury-results`,
        { participantId: scoreId, disciplineFieldId: device.fields.A, performance: 5, attempt: 1, type },
        headers,
      );
    const kind = async () =>
      (
        await server.pool.query<{ kp: number }>(
          `SELECT int_kp AS kp FROM ${t.jury_results} WHERE int_wertungenid = $1 AND int_disziplinen_felderid = $2`,
          [scoreId, device.fields.A],
        )
      ).rows;
    expect((await save(0)).status).toBe(200);
    expect((await release({ competitionId: competition.competitionId, disciplineId: device.id })).status).toBe(200);

    for (const headers of [{}, bearer(juryToken)]) expect(await save(1, headers)).toEqual({ status: 409, body: RELEASED });
    expect(await kind()).toEqual([{ kp: 0 }]);
    // The same value with the same type changes nothing and stays a 200.
    expect((await save(0)).status).toBe(200);
    // The head judge may change it.
    expect((await save(1, bearer(headToken))).status).toBe(200);
    expect(await kind()).toEqual([{ kp: 1 }]);
  });
});
