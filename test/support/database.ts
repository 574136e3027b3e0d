import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

function urlFor(database: string): string {
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for one test file: a clone of the migrated template (fast), or an empty
 * one for tests of the migrations themselves. The global setup's process id is part of the name
 * so its teardown can sweep what a crashed file left.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const setupPid = inject('templateDatabase').split('_').pop();
  const name = `gymtest_${setupPid}_${randomBytes(5).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(options.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
        return;
      } catch (error) {
        // Two files cloning the template at the same instant can collide; a short retry settles it.
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return {
    name,
    url: urlFor(name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
