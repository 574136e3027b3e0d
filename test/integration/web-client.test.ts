/**
 * The backend's side of the web client: the built pages under /jury/ and /board/, a clear 503 when
 * they are not built, and the event and discipline lists the pages pick from.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps, TypedApp } from '../../src/http/app-types.js';
import { WEB_DIST_DIR, webRoutesFrom } from '../../src/http/routes/web.js';
import { insertRow } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('web client pages', () => {
  it('lists the pages at the bare address that network-info and the QR codes hand out', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const links = [...(await response.text()).matchAll(/<li><a href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(['/jury/', '/board/', '/office/', '/live/', '/docs']);
  });

  it("answers the root in the browser's language, German whenever the browser lists it, ?lang= first", async () => {
    const root = async (headers: Record<string, string>, query = '') => {
      const response = await fetch(`${server.url}/${query}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toContain('accept-language');
      return response.text();
    };
    const german = await root({ 'accept-language': 'en-US,en;q=0.9,de;q=0.8' });
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('Kampfrichter-Portal');
    const english = await root({ 'accept-language': 'fr-FR,en;q=0.5' });
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Jury portal');
    expect(await root({ 'accept-language': 'de-DE' }, '?lang=en')).toContain('<html lang="en">');
    expect(await root({}, '?lang=xx')).toContain('<html lang="en">');
  });

  it.each([
    ['/favicon.ico', 'image/x-icon', [0, 0, 1, 0]],
    ['/favicon.svg', 'image/svg+xml', [...Buffer.from('<svg')]],
  ])('serves %s as %s', async (url, type, leading) => {
    const response = await fetch(`${server.url}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    // An icon file: the ICO header (reserved 0, type 1), or the SVG element.
    expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, leading.length)]).toEqual(leading);
  });

  it.each(['jury', 'board', 'live'])('serves /%s/ from web/dist with assets that may be cached for good', async (page) => {
    // `npm test` builds the client first (pretest); a missing build is a setup error, not a skip.
    expect(existsSync(path.join(WEB_DIST_DIR, page, 'index.html'))).toBe(true);
    const response = await fetch(`${server.url}/${page}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}/${page}/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const redirect = await fetch(`${server.url}/${page}?eventId=1`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe(`/${page}/?eventId=1`);
  });

  it('answers 503 with the build command when the client is not built', async () => {
    const emptyDist = mkdtempSync(path.join(os.tmpdir(), 'gym-web-dist-'));
    const app = Fastify() as unknown as TypedApp;
    await webRoutesFrom(emptyDist)(app, { config: { serviceMode: 'hall' } } as AppDeps);
    try {
      const response = await app.inject({ method: 'GET', url: '/jury/' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.body).toContain('npm run build:web');
      expect((await app.inject({ method: 'GET', url: '/board/' })).statusCode).toBe(503);
    } finally {
      await app.close();
      rmSync(emptyDist, { recursive: true, force: true });
    }
  });

  it('lists events and disciplines with input mask, decimals and the resolved formula', async () => {
    const eventId = await insertRow(server.pool, 'veranstaltungen', 'int_veranstaltungenid', {
      var_name: 'Catalog Cup',
      dat_von: '2031-05-01',
    });
    const formulaId = await insertRow(server.pool, 'formeln', 'int_formelid', {
      var_name: 'Record',
      var_formel: '(10 - B) + A',
      var_typ: 'Endwert',
    });
    const withRecord = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', {
      var_name: 'Bars',
      var_formel: 'A',
      int_formelid: formulaId,
      var_eingabemaske: '0,00',
      int_berechnung: 2,
    });
    const broken = await insertRow(server.pool, 'disziplinen', 'int_disziplinenid', {
      var_name: 'Beam',
      var_formel: 'A +',
      var_anzeigename: 'Balance beam',
    });
    await insertRow(server.pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
      int_disziplinenid: withRecord,
      var_name: 'D',
      int_sortierung: 1,
    });
    await insertRow(server.pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
      int_disziplinenid: withRecord,
      var_name: 'off',
      int_sortierung: 2,
      bol_enabled: false,
    });

    const events = (await (await fetch(`${server.url}/api/events`)).json()) as Array<Record<string, unknown>>;
    expect(events).toContainEqual({ id: eventId, name: 'Catalog Cup', dateFrom: '2031-05-01', dateTo: null });

    const disciplines = (await (await fetch(`${server.url}/api/disciplines`)).json()) as Array<Record<string, unknown>>;
    expect(disciplines.find((discipline) => discipline.id === withRecord)).toEqual({
      id: withRecord,
      name: 'Bars',
      displayName: null,
      shortName: null,
      inputMask: '0,00',
      decimals: 2,
      formula: '(10 - B) + A',
      startValue: 10,
      enabledFieldCount: 1,
      panel: null,
    });
    expect(disciplines.find((discipline) => discipline.id === broken)).toMatchObject({
      displayName: 'Balance beam',
      formula: null,
      inputMask: null,
      enabledFieldCount: 0,
    });
  });
});
