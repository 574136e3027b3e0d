/**
 * Issue 15 item 6: strings that are not well-formed Unicode (lone surrogates, sent as JSON `\ud800`
 * escapes) are refused with 400 naming the field on every route that takes a body, and nothing is
 * written. Before, the squad names "S\ud800" and "S\udbff" were both applied and stored as one name.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { appRoutes, changedTables, fingerprint, pathOf, send } from '../support/security.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createCompetition, insertParticipantWithScoreRow } from '../support/fixtures.js';
import { adminToken, bearer } from '../support/tokens.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const postRaw = (path: string, method: string, json: string) =>
  send(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...bearer(adminToken) }, body: json });

it('refuses the issue’s two squad names that differ only in a lone surrogate, storing nothing', async () => {
  const competition = await createCompetition(server.pool);
  const first = await insertParticipantWithScoreRow(server.pool, competition);
  const second = await insertParticipantWithScoreRow(server.pool, competition);
  const before = await fingerprint(server.pool);
  // Written by hand: JSON.stringify would escape the same way, but this is what goes over the wire.
  const body = `{"eventId":${competition.eventId},"squads":[{"name":"S\\ud800","participantIds":[${first.participantId}]},{"name":"S\\udbff","participantIds":[${second.participantId}]}]}`;
  const answer = await postRaw('/api/squad-management/auto-assign/apply', 'POST', body);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text)).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('body.squads[0].name') });
  expect(changedTables(before, await fingerprint(server.pool))).toEqual([]);
  const { rows } = await server.pool.query(`SELECT DISTINCT var_riege FROM ${t.wertungen} WHERE int_wertungenid = ANY($1::int[])`, [
    [first.scoreId, second.scoreId],
  ]);
  expect(rows.map((row) => row.var_riege)).not.toContain('S\uFFFD');
});

it('refuses a lone surrogate in any string or key of the body on every route that takes one, with 400 naming it', async () => {
  const withBody = appRoutes(server.app).filter((route) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH');
  expect(withBody.length).toBeGreaterThan(8);
  const before = await fingerprint(server.pool);
  for (const route of withBody) {
    for (const [json, field] of [
      ['{"name":"Riege \\udc00 1"}', 'body.name'],
      ['{"items":[{"text":"ok"},{"text":"\\ud83d"}]}', 'body.items[1].text'],
      ['{"\\udfff":1}', 'body.\uDFFF'],
    ] as const) {
      const answer = await postRaw(pathOf(route.url), route.method, json);
      expect(answer.status, `${route.method} ${route.url} ${json}`).toBe(400);
      const body = JSON.parse(answer.text) as { code: string; message: string };
      expect(body.code).toBe('VALIDATION_FAILED');
      if (!field.includes('\uDFFF')) expect(body.message, route.url).toContain(field);
    }
  }
  expect(changedTables(before, await fingerprint(server.pool))).toEqual([]);
});

it('accepts well-formed text outside the BMP (a surrogate pair) as before', async () => {
  const answer = await postRaw(
    '/api/squad-management/auto-assign/apply',
    'POST',
    '{"eventId":1,"squads":[{"name":"S\\ud83d\\ude00","participantIds":[]}]}',
  );
  expect(answer.text).not.toContain('well-formed');
});
