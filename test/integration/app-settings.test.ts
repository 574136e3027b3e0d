import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { SQUAD_CRITERIA_DEFAULTS } from '../../src/domain/squad-planner.js';
import { getJson } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

async function stored(key: string): Promise<unknown> {
  const { rows } = await server.pool.query<{ value: unknown }>(`SELECT value FROM ${t.svc_settings} WHERE key = $1`, [key]);
  return rows[0]?.value;
}

describe('GET /api/app-settings/:key', () => {
  it('squadAutoAssign: a description and the generate defaults, stored on first read', async () => {
    expect(await stored('squadAutoAssign')).toBeUndefined();
    const response = await getJson(`${server.url}/api/app-settings/squadAutoAssign`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key: 'squadAutoAssign', value: { description: expect.any(String), ...SQUAD_CRITERIA_DEFAULTS } });
    expect(await stored('squadAutoAssign')).toEqual(response.body.value);
    expect((await getJson(`${server.url}/api/app-settings/squadAutoAssign`)).body).toEqual(response.body);
  });

  it('scoreCapture: useJuryResults true by default', async () => {
    const response = await getJson(`${server.url}/api/app-settings/scoreCapture`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key: 'scoreCapture', value: { useJuryResults: true } });
  });

  it('answers with the stored value, completed by the defaults for keys it lacks', async () => {
    await server.pool.query(
      `INSERT INTO ${t.svc_settings} (key, value) VALUES ('squadAutoAssign', $1), ('scoreCapture', $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify({ description: 'Gau', maxParticipantsPerSquad: 8 }), JSON.stringify({ useJuryResults: false })],
    );
    expect((await getJson(`${server.url}/api/app-settings/squadAutoAssign`)).body.value).toEqual({
      ...SQUAD_CRITERIA_DEFAULTS,
      description: 'Gau',
      maxParticipantsPerSquad: 8,
    });
    expect((await getJson(`${server.url}/api/app-settings/scoreCapture`)).body.value).toEqual({ useJuryResults: false });
  });

  it.each(['unknownKey', 'constructor', '__proto__'])('answers 404 for the key %s', async (key) => {
    const response = await getJson(`${server.url}/api/app-settings/${key}`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect(await stored(key)).toBeUndefined();
  });
});
