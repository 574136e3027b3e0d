/**
 * Issue 17's API pieces against the demo event: `GET /api/scores?competitionId=`, the optimistic
 * checks `expectedScore` / `expectedPerformance` (409 CONFLICT + `current`, nothing written),
 * `kind` and the time order in `GET /api/live-results`, and group members stored by the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSummary } from '../../scripts/demo-seed.js';
import { insertRow } from '../support/fixtures.js';
import { t } from '../support/tables.js';
import { adminToken, bearer, juryToken } from '../support/tokens.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let demo: DemoSummary;

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = bearer(adminToken),
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const competition = (name: RegExp) => demo.competitions.find((candidate) => name.test(candidate.name))!;
const discipline = (name: string) => demo.disciplines.find((candidate) => candidate.name === name)!;

async function storedFinal(scoreId: number, disciplineId: number): Promise<number | null> {
  const { rows } = await server.pool.query<{ value: number | null }>(
    `SELECT rel_leistung AS value FROM ${t.wertungen_details} WHERE int_wertungenid = $1 AND int_disziplinenid = $2 AND int_versuch = 1 AND int_kp = 0`,
    [scoreId, disciplineId],
  );
  return rows[0]?.value ?? null;
}

async function outboxCount(): Promise<number> {
  const { rows } = await server.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${t.svc_outbox}`);
  return rows[0]!.count;
}

beforeAll(async () => {
  server = await startTestServer();
  demo = await server.commands.run((tx) => seedDemo(tx));
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /api/scores?competitionId=', () => {
  it('lists only the score rows of that competition, and combines with squadName', async () => {
    const girls = competition(/^P-Stufen weiblich/);
    const all = await call('GET', `/api/scores?eventId=${demo.event.id}&limit=1000`);
    const only = await call('GET', `/api/scores?eventId=${demo.event.id}&competitionId=${girls.id}&limit=1000`);
    expect(only.status).toBe(200);
    expect(only.body.results.length).toBeGreaterThan(0);
    expect(only.body.results.length).toBeLessThan(all.body.results.length);
    expect(new Set(only.body.results.map((entry: any) => entry.competitionId))).toEqual(new Set([girls.id]));
    expect(new Set(only.body.results.map((entry: any) => entry.disciplineId))).toEqual(new Set(girls.disciplineIds));
    const squad = girls.squads[0]!;
    const inSquad = await call(
      'GET',
      `/api/scores?eventId=${demo.event.id}&competitionId=${girls.id}&squadName=${encodeURIComponent(squad)}&limit=1000`,
    );
    expect(inSquad.body.results.length).toBeGreaterThan(0);
    expect(inSquad.body.results.length).toBeLessThan(only.body.results.length);
  });

  it('refuses a competition id that is not a positive integer', async () => {
    expect((await call('GET', '/api/scores?competitionId=0')).status).toBe(400);
  });
});

describe('optimistic checks', () => {
  it('save-value: absent → saves as before; equal → saves; differing → 409 with current and nothing written', async () => {
    const { scoreId, competitionId, disciplineId } = demo.scores.capturedExample;
    const before = await storedFinal(scoreId, disciplineId);
    expect(before).not.toBeNull();
    const body = { competitionId, participantId: scoreId, disciplineId };

    const stale = await call('POST', '/api/scores/save-value', { ...body, score: 12.5, expectedScore: before! + 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ statusCode: 409, code: 'CONFLICT', error: 'Conflict', current: before });
    expect(typeof stale.body.message).toBe('string');
    expect(await storedFinal(scoreId, disciplineId)).toBe(before);

    const staleNull = await call('POST', '/api/scores/save-value', { ...body, score: 12.5, expectedScore: null });
    expect(staleNull.status).toBe(409);
    expect(staleNull.body.current).toBe(before);

    const outboxBefore = await outboxCount();
    expect((await call('POST', '/api/scores/save-value', { ...body, score: 12.5, expectedScore: 13 })).status).toBe(409);
    expect(await outboxCount()).toBe(outboxBefore);

    const matching = await call('POST', '/api/scores/save-value', { ...body, score: 12.5, expectedScore: before });
    expect(matching.status).toBe(200);
    expect(await storedFinal(scoreId, disciplineId)).toBe(12.5);

    const unchecked = await call('POST', '/api/scores/save-value', { ...body, score: 12.75 });
    expect(unchecked.status).toBe(200);
    expect(await storedFinal(scoreId, disciplineId)).toBe(12.75);
  });

  it('save-value: null means "none stored"; a row created for the check is rolled back on 409', async () => {
    const { scoreId, competitionId, disciplineId } = demo.scores.pendingExample;
    expect(await storedFinal(scoreId, disciplineId)).toBeNull();
    const body = { competitionId, participantId: scoreId, disciplineId };
    const stale = await call('POST', '/api/scores/save-value', { ...body, score: 9, expectedScore: 8 });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toBeNull();
    expect(await storedFinal(scoreId, disciplineId)).toBeNull();
    const fresh = await call('POST', '/api/scores/save-value', { ...body, score: 9, expectedScore: null });
    expect(fresh.status).toBe(200);
    expect(await storedFinal(scoreId, disciplineId)).toBe(9);
  });

  it('jury-results: expectedPerformance present/absent/null, 409 writes nothing', async () => {
    const { scoreId, disciplineId } = demo.scores.pendingExample;
    const fieldId = discipline(demo.scores.pendingExample.discipline).fields.find((field) => !field.isFinal)!.id;
    expect(fieldId).toBeGreaterThan(0);
    void disciplineId;
    const first = await call('POST', '/api/jury-results', {
      participantId: scoreId,
      disciplineFieldId: fieldId,
      performance: 4.5,
      expectedPerformance: null,
    });
    expect(first.status).toBe(200);
    const stale = await call('POST', '/api/jury-results', {
      participantId: scoreId,
      disciplineFieldId: fieldId,
      performance: 5.5,
      expectedPerformance: null,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'CONFLICT', current: 4.5 });
    const stored = await call('GET', `/api/jury-results?participantId=${scoreId}&disciplineId=${disciplineId}`);
    expect(stored.body.results.find((result: any) => result.fieldId === fieldId).performance).toBe(4.5);
    expect(
      (
        await call('POST', '/api/jury-results', {
          participantId: scoreId,
          disciplineFieldId: fieldId,
          performance: 5.5,
          expectedPerformance: 4.5,
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', '/api/jury-results', { participantId: scoreId, disciplineFieldId: fieldId, performance: 5.6 })).status).toBe(
      200,
    );
  });

  it('jury-results: a value expected where none is stored is a conflict, a value read back as float4 is not', async () => {
    const { scoreId, disciplineId } = demo.scores.pendingExample;
    const stored = await call('GET', `/api/jury-results?participantId=${scoreId}&disciplineId=${disciplineId}`);
    const fields = discipline(demo.scores.pendingExample.discipline).fields.filter((field) => !field.isFinal);
    const empty = fields.find(
      (field) => !stored.body.results.some((result: any) => result.fieldId === field.id && result.performance !== null),
    );
    expect(empty).toBeDefined();
    const eventsBefore = await outboxCount();
    const stale = await call('POST', '/api/jury-results', {
      participantId: scoreId,
      disciplineFieldId: empty!.id,
      performance: 7.2,
      expectedPerformance: 6.9,
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'CONFLICT', current: null });
    const after = await call('GET', `/api/jury-results?participantId=${scoreId}&disciplineId=${disciplineId}`);
    expect(after.body.results.some((result: any) => result.fieldId === empty!.id && result.performance !== null)).toBe(false);
    expect(await outboxCount()).toBe(eventsBefore);

    // 8.155 is stored as the float4 8.15499973…; a portal sending back what it read must not conflict.
    const body = { participantId: scoreId, disciplineFieldId: empty!.id };
    expect((await call('POST', '/api/jury-results', { ...body, performance: 8.155, expectedPerformance: null })).status).toBe(200);
    expect((await call('POST', '/api/jury-results', { ...body, performance: 8.3, expectedPerformance: 8.155 })).status).toBe(200);
  });

  it('jury-results: of two judges saving over the same value at once, one wins and the other gets 409 with the winner', async () => {
    const { scoreId } = demo.scores.pendingExample;
    const fieldId = discipline(demo.scores.pendingExample.discipline).fields.find((field) => !field.isFinal)!.id;
    const body = { participantId: scoreId, disciplineFieldId: fieldId };
    expect((await call('POST', '/api/jury-results', { ...body, performance: 3.5 })).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const base = 3.5 + round;
      const [first, second] = await Promise.all([
        call('POST', '/api/jury-results', { ...body, performance: base + 0.25, expectedPerformance: base }),
        call('POST', '/api/jury-results', { ...body, performance: base + 0.75, expectedPerformance: base }),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = first.status === 200 ? base + 0.25 : base + 0.75;
      expect((first.status === 409 ? first : second).body).toMatchObject({ code: 'CONFLICT', current: winner });
      expect((await call('POST', '/api/jury-results', { ...body, performance: base + 1, expectedPerformance: winner })).status).toBe(200);
    }
  });
});

describe('GET /api/live-results: kind and time order', () => {
  it('lists group and team scores with kind, participantId null and the name in lastName', async () => {
    const group = demo.scores.groupExample;
    const groupResults = await call('GET', `/api/live-results?eventId=${demo.event.id}&disciplineId=${group.disciplineId}`);
    expect(groupResults.status).toBe(200);
    const groupEntry = groupResults.body.results.find((entry: any) => entry.scoreId === group.scoreId);
    expect(groupEntry).toMatchObject({
      kind: 'group',
      participantId: null,
      lastName: demo.groups.find((g) => g.id === group.groupId)!.name,
      score: group.finalScore,
    });
    const team = demo.scores.teamExample;
    const teamResults = await call('GET', `/api/live-results?eventId=${demo.event.id}&disciplineId=${team.disciplineId}`);
    const teamEntry = teamResults.body.results.find((entry: any) => entry.scoreId === team.scoreId);
    expect(teamEntry).toMatchObject({ kind: 'team', participantId: null, lastName: demo.teams.find((g) => g.id === team.teamId)!.name });
    const individual = await call(
      'GET',
      `/api/live-results?eventId=${demo.event.id}&disciplineId=${demo.scores.capturedExample.disciplineId}`,
    );
    expect(individual.body.results.every((entry: any) => entry.kind === 'individual' && typeof entry.participantId === 'number')).toBe(
      true,
    );
    expect(individual.body.order).toBe('descending');
  });

  it('ranks a time-mask discipline ascending: the shortest time is rank 1', async () => {
    const rope = discipline('Tauklettern');
    const boys = competition(/^P-Stufen männlich/);
    const rows = (await call('GET', `/api/scores?competitionId=${boys.id}&limit=1000`)).body.results
      .filter((entry: any) => entry.disciplineId === rope.id)
      .slice(0, 3);
    const times = [45.2, 38.9, 52];
    for (const [index, row] of rows.entries()) {
      const saved = await call('POST', '/api/scores/save-value', {
        competitionId: boys.id,
        participantId: row.id,
        disciplineId: rope.id,
        score: times[index],
      });
      expect(saved.status).toBe(200);
    }
    const live = await call('GET', `/api/live-results?eventId=${demo.event.id}&disciplineId=${rope.id}&competitionId=${boys.id}`);
    expect(live.body.order).toBe('ascending');
    const ranked = live.body.results.filter((entry: any) => rows.some((row: any) => row.id === entry.scoreId));
    expect(ranked.map((entry: any) => entry.score)).toEqual([38.9, 45.2, 52]);
    const scores = live.body.results.map((entry: any) => entry.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(live.body.results[0].rank).toBe(1);
  });
});

describe('group members stored by the service', () => {
  it('a member list PUT by one client is what another client GETs; admin only', async () => {
    const group = demo.groups[0]!;
    const candidates = await call(
      'GET',
      `/api/groups/available-participants?eventId=${demo.event.id}&clubId=${group.clubId}&groupId=${group.id}`,
    );
    const ids = candidates.body.results.slice(0, 3).map((candidate: any) => candidate.id);
    expect(ids.length).toBe(3);
    const empty = await call('GET', `/api/groups/${group.id}/members`);
    expect(empty).toEqual({ status: 200, body: { groupId: group.id, members: [] } });

    const put = await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [ids[2], ids[0], ids[1]] });
    expect(put.status).toBe(200);
    // A second client (its own token, no shared browser state) sees the same list in the same order.
    const otherAdmin = bearer((await import('../support/tokens.js')).signWithTestSecret({ sub: 'bert', role: 'admin' }));
    const seen = await call('GET', `/api/groups/${group.id}/members`, undefined, otherAdmin);
    expect(seen.body.members.map((member: any) => member.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(seen.body.members[0]).toHaveProperty('lastName');

    await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [ids[1]] }, otherAdmin);
    expect((await call('GET', `/api/groups/${group.id}/members`)).body.members.map((member: any) => member.id)).toEqual([ids[1]]);

    expect((await call('GET', `/api/groups/${group.id}/members`, undefined, {})).status).toBe(401);
    expect((await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [] }, bearer(juryToken))).status).toBe(403);
    expect((await call('GET', '/api/groups/999999/members')).status).toBe(404);
    expect((await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [ids[0], ids[0]] })).status).toBe(400);
    expect((await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [2_000_000] })).status).toBe(400);
    expect((await call('GET', `/api/groups/${group.id}/members`)).body.members.map((member: any) => member.id)).toEqual([ids[1]]);
  });

  it('refuses a participant of another event, and one not entered as a group member, with 400; the list stays', async () => {
    const group = demo.groups[0]!;
    const candidates = await call(
      'GET',
      `/api/groups/available-participants?eventId=${demo.event.id}&clubId=${group.clubId}&groupId=${group.id}`,
    );
    const member = candidates.body.results[0].id as number;
    expect((await call('PUT', `/api/groups/${group.id}/members`, { participantIds: [member] })).status).toBe(200);
    const otherEvent = await insertRow(server.pool, 'veranstaltungen', 'int_veranstaltungenid', { var_name: 'Herbstpokal' });
    const stranger = await insertRow(server.pool, 'teilnehmer', 'int_teilnehmerid', {
      var_vorname: 'Fremd',
      var_nachname: 'Gast',
      int_eventid: otherEvent,
      var_typ: 'Gruppe',
    });
    const { rows } = await server.pool.query<{ id: number }>(
      `SELECT int_teilnehmerid AS id FROM ${t.teilnehmer} WHERE int_eventid = $1 AND var_typ IS DISTINCT FROM 'Gruppe' LIMIT 1`,
      [demo.event.id],
    );
    const individual = rows[0]!.id;
    for (const [participantIds, message] of [
      [[member, stranger], new RegExp(`another event than the group's: ${stranger}$`)],
      [[individual, member], new RegExp(`not entered as group members \\(var_typ Gruppe\\): ${individual}$`)],
    ] as const) {
      const refused = await call('PUT', `/api/groups/${group.id}/members`, { participantIds });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(refused.body.message).toMatch(message);
      expect((await call('GET', `/api/groups/${group.id}/members`)).body.members.map((entry: any) => entry.id)).toEqual([member]);
    }
  });
});
