/**
 * GET /api/panel-deviations by competition and in pages (issue 44): the head judge console asks
 * for one competition's open deviations a page at a time; one statement whatever the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertParticipantWithScoreRow, type Competition, type PanelDiscipline } from '../support/fixtures.js';
import { sendJson } from '../support/http.js';
import { openDeviation, seedTwoCompetitionsWithPanel } from '../support/panel-deviations.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { captureStatements } from '../support/statements.js';
import { bearer, headToken } from '../support/tokens.js';

let server: TestServer;
let cup: Competition;
let league: Competition;
let vault: PanelDiscipline;
const deviating = { cup: [] as number[], league: [] as number[] };

beforeAll(async () => {
  server = await startTestServer();
  ({ cup, league, vault } = await seedTwoCompetitionsWithPanel(server));
  for (const [key, competition, count] of [
    ['cup', cup, 6],
    ['league', league, 2],
  ] as const) {
    for (let index = 0; index < count; index += 1) {
      const { scoreId } = await insertParticipantWithScoreRow(server.pool, competition, { lastName: `${key}${index}` });
      await openDeviation(server, vault, scoreId);
      deviating[key].push(scoreId);
    }
  }
});
afterAll(async () => {
  await server?.stop();
});

const list = async (query: string) => {
  const answer = await sendJson('GET', `${server.url}/api/panel-deviations?eventId=${cup.eventId}${query}`, undefined, bearer(headToken));
  return {
    status: answer.status,
    scores: Array.isArray(answer.body) ? (answer.body as Array<{ scoreId: number }>).map((item) => item.scoreId) : answer.body,
  };
};

describe('GET /api/panel-deviations by competition and in pages', () => {
  it("lists one competition's deviations only, oldest first", async () => {
    expect((await list('')).scores).toEqual([...deviating.cup, ...deviating.league]);
    expect((await list(`&competitionId=${cup.competitionId}`)).scores).toEqual(deviating.cup);
    expect((await list(`&competitionId=${league.competitionId}`)).scores).toEqual(deviating.league);
  });

  it('pages with limit and offset in the same order', async () => {
    const first = await list(`&competitionId=${cup.competitionId}&limit=4`);
    const second = await list(`&competitionId=${cup.competitionId}&limit=4&offset=4`);
    expect(first.scores).toEqual(deviating.cup.slice(0, 4));
    expect(second.scores).toEqual(deviating.cup.slice(4));
    expect((await list(`&competitionId=${cup.competitionId}&limit=4&offset=8`)).scores).toEqual([]);
  });

  it('runs the same statements for six deviations as for two', async () => {
    const statementsOf = async (competitionId: number) =>
      (await captureStatements(server.pool, () => list(`&competitionId=${competitionId}`))).statements;
    const many = await statementsOf(cup.competitionId);
    expect(many).toEqual(await statementsOf(league.competitionId));
    expect(many).toHaveLength(1);
  });

  it.each(['&limit=0', '&limit=501', '&offset=-1', '&competitionId=abc'])('refuses %s with 400 and the contract body', async (query) => {
    const answer = await sendJson('GET', `${server.url}/api/panel-deviations?eventId=${cup.eventId}${query}`, undefined, bearer(headToken));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: expect.any(String), message: expect.any(String) });
  });
});
