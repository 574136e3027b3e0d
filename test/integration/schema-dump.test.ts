import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpSchema } from '../../src/db/schema-dump.js';
import { PROJECT_ROOT } from '../../src/system/project-root.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  // A clone of the template the global setup migrated with the default prefix.
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe('migrations/schema.sql', () => {
  it('is the schema the migrations leave (after a new migration: npm run db:schema)', async () => {
    const checkedIn = readFileSync(path.join(PROJECT_ROOT, 'migrations', 'schema.sql'), 'utf8');
    expect(await dumpSchema(client)).toBe(checkedIn);
  });

  it('defines each function once and leaves no function that nothing calls', async () => {
    const dump = await dumpSchema(client);
    const names = [...dump.matchAll(/^CREATE OR REPLACE FUNCTION (\w+)\(/gm)].map((match) => match[1]!);
    expect(new Set(names).size).toBe(names.length);
    const code = ['outbox', 'commands', 'queries', 'projections', 'src'].map((dir) => readAllTs(path.join(PROJECT_ROOT, dir))).join('\n');
    const uncalled = names.filter((name) => {
      // A call names the function with its parentheses (in TypeScript also through the table names,
      // `${tables.svc_x}(`); a trigger of the same name does not.
      const calledInSql = dump.split(`CREATE OR REPLACE FUNCTION ${name}(`).join('').includes(`${name}(`);
      const bare = name.replace(/^app_/, '');
      return !calledInSql && !code.includes(`${bare}(`) && !code.includes(`${bare}}(`);
    });
    expect(uncalled).toEqual([]);
  });
});

describe("the service's functions", () => {
  it('may be called by their owner only (the desktop role cannot run them, migration 0020)', async () => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT p.proname AS name FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE 'app\\_svc\\_%'
          AND (p.proacl IS NULL OR EXISTS (SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'))
        ORDER BY 1`,
    );
    expect(rows.map((row) => row.name)).toEqual([]);
  });
});

function readAllTs(dir: string): string {
  return readdirSync(dir)
    .map((entry) => path.join(dir, entry))
    .map((file) => (statSync(file).isDirectory() ? readAllTs(file) : file.endsWith('.ts') ? readFileSync(file, 'utf8') : ''))
    .join('\n');
}
