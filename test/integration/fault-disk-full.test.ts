/**
 * A full disk, for real: the detail table of this file's database lives in a tablespace on a small
 * tmpfs, which the test fills to the last byte. A save must then extend that table, PostgreSQL
 * answers SQLSTATE 53100 ("could not extend file ... No space left on device"), and the service
 * must say so: 503 UNAVAILABLE with Retry-After, health `degraded` with the reason while it lasts,
 * and back to normal once space is freed. Needs root and the right to mount (as CI has) and a
 * database server on this machine (embedded or Debian's, not a container), since the tablespace
 * is a directory of the server's file system.
 */
import { statSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCompetition, detailRows, insertDiscipline, insertParticipantWithScoreRow, type Discipline } from '../support/fixtures.js';
import { fillUp, mountTmpfs, type TestFilesystem } from '../support/filesystems.js';
import { getJson, postJson } from '../support/http.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';

const tablespace = `gym_full_${randomBytes(4).toString('hex')}`;
let admin: pg.Client;
let disk: TestFilesystem;
let server: TestServer;
let discipline: Discipline;
let competitionId: number;
let eventId: number;
let scoreIds: number[];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  const { rows } = await admin.query<{ data_directory: string }>('SHOW data_directory');
  // The server's OS user must own the tablespace's directory.
  const { uid, gid } = statSync(rows[0]!.data_directory);
  disk = await mountTmpfs({ size: '1m', mode: '0700', owner: { uid, gid } });
  await admin.query(`CREATE TABLESPACE ${tablespace} LOCATION '${disk.dir}'`);

  server = await startTestServer();
  const competition = await createCompetition(server.pool, 'Hallenmeisterschaft');
  competitionId = competition.competitionId;
  eventId = competition.eventId;
  discipline = await insertDiscipline(server.pool, { name: 'Boden' });
  scoreIds = [];
  for (const lastName of ['Voll', 'Frei'])
    scoreIds.push((await insertParticipantWithScoreRow(server.pool, competition, { lastName })).scoreId);
  // Empty, so the first detail row a save writes has to extend the table's file on the tmpfs.
  await server.pool.query(`ALTER TABLE ${t.wertungen_details} SET TABLESPACE ${tablespace}`);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await admin?.query(`DROP TABLESPACE IF EXISTS ${tablespace}`);
  await admin?.end();
  await disk?.dispose();
});

const save = (scoreId: number, score: number) =>
  postJson(`${server.url}/api/scores/save-value`, { competitionId, participantId: scoreId, disciplineId: discipline.id, score });

describe('a full disk', () => {
  it('answers 503 with Retry-After, reports degraded with the reason while it lasts, and recovers once space is freed', async () => {
    const filler = fillUp(disk.dir);

    const refused = await fetch(`${server.url}/api/scores/save-value`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ competitionId, participantId: scoreIds[0], disciplineId: discipline.id, score: 9.5 }),
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'UNAVAILABLE',
      message: 'The database server’s disk is full; retry once it is resolved',
    });
    expect(await detailRows(server.pool, scoreIds[0]!)).toEqual([]);

    const degraded = await getJson(`${server.url}/api/system/health`);
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({
      status: 'degraded',
      database: 'up',
      relay: 'listening',
      resources: 'disk-full',
      reason: expect.stringMatching(/disk is full \(SQLSTATE 53100\): 1 request\(s\) failed/),
    });
    // It lasts: reads still work, the next save fails too, and health says so.
    expect((await getJson(`${server.url}/api/scores?eventId=${eventId}`)).status).toBe(200);
    expect((await save(scoreIds[1]!, 8)).status).toBe(503);
    expect((await getJson(`${server.url}/api/system/health`)).body).toMatchObject({
      status: 'degraded',
      resources: 'disk-full',
      reason: expect.stringContaining('2 request(s) failed'),
    });

    unlinkSync(filler);
    expect((await save(scoreIds[0]!, 9.5)).status).toBe(200);
    expect((await detailRows(server.pool, scoreIds[0]!)).map((row) => row.value)).toEqual([9.5]);
    // Health turns ok once the hold after the last failure has passed; nothing fails meanwhile.
    const recovered = await waitFor(
      async () => {
        const health = await getJson(`${server.url}/api/system/health`);
        return health.status === 200 ? health : null;
      },
      { timeoutMs: 30_000, message: 'health ok after the disk has room again' },
    );
    expect(recovered.body).toMatchObject({ status: 'ok', resources: 'ok' });
    expect(recovered.body).not.toHaveProperty('reason');
  });
});
