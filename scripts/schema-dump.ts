// `npm run db:schema`: migrates a throwaway embedded PostgreSQL with the default prefix and writes
// the schema the migrations leave to migrations/schema.sql (src/db/schema-dump.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { migrate } from '../src/db/migrate.js';
import { dumpSchema } from '../src/db/schema-dump.js';
import { createTables } from '../src/db/tables.js';
import { PROJECT_ROOT } from '../src/system/project-root.js';

export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'migrations', 'schema.sql');

const { freePort, startEmbeddedDatabase } = await import('../src/db/embedded.js');
const tempDir = mkdtempSync(path.join(os.tmpdir(), 'gym-schema-'));
const database = await startEmbeddedDatabase(tempDir, pino({ level: 'silent' }), { host: '127.0.0.1', port: await freePort() });
try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await migrate(client, createTables('app_'));
    writeFileSync(SCHEMA_FILE, await dumpSchema(client));
    console.log(`wrote ${path.relative(PROJECT_ROOT, SCHEMA_FILE)}`);
  } finally {
    await client.end();
  }
} finally {
  await database.stop();
  rmSync(tempDir, { recursive: true, force: true });
}
