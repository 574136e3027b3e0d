import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../system/project-root.js';
import type pg from 'pg';
import type { Logger } from 'pino';
import { MIGRATION_LOCK_KEY, RELEASE_SCOPE_LOCK_CLASS } from './advisory-locks.js';
import {
  ACTOR_SETTING,
  API_ORIGIN,
  DESKTOP_ROLE,
  LEGACY_CAPTURE_TOPIC,
  NUMBERED_NOTIFY_SETTING,
  ORIGIN_SETTING,
  ROLE_SETTING,
} from './origin.js';
import type { Tables } from './tables.js';

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'migrations');

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/** Reads `NNNN_name.sql` files in order; numbers are forward-only and must be unique. */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ id: Number(file.slice(0, 4)), name: file, sql: readFileSync(path.join(dir, file), 'utf8') }));
  const ids = new Set<number>();
  for (const migration of migrations) {
    if (ids.has(migration.id)) throw new Error(`two migrations share number ${migration.id}`);
    ids.add(migration.id);
  }
  return migrations;
}

/**
 * The names a migration's SQL shares with the TypeScript code, as `{{name}}` placeholders: the
 * table prefix, and the outbox channel, origin marker, actor/role and numbered-notify settings and
 * the legacy capture topic, the desktop program's role and the release lock's key class, which have
 * their single spelling in `tables.ts`, `origin.ts` and `advisory-locks.ts`.
 */
export function migrationPlaceholders(tables: Tables): Record<string, string> {
  return {
    prefix: tables.prefix,
    outbox_channel: tables.outboxChannel,
    origin_setting: ORIGIN_SETTING,
    api_origin: API_ORIGIN,
    actor_setting: ACTOR_SETTING,
    role_setting: ROLE_SETTING,
    numbered_notify_setting: NUMBERED_NOTIFY_SETTING,
    legacy_capture_topic: LEGACY_CAPTURE_TOPIC,
    desktop_role: DESKTOP_ROLE,
    release_lock_class: String(RELEASE_SCOPE_LOCK_CLASS),
  };
}

/** The SQL as it runs; a placeholder without a value is a typo and fails before anything runs. */
export function renderMigration(migration: Migration, placeholders: Readonly<Record<string, string>>): string {
  return migration.sql.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = placeholders[name];
    if (value === undefined) throw new Error(`migration ${migration.name} uses the unknown placeholder ${whole}`);
    return value;
  });
}

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so two
 * instances starting together do not race. Returns the names applied by this call.
 */
export async function migrate(client: pg.ClientBase, tables: Tables, logger?: Logger): Promise<string[]> {
  const bookkeeping = tables.svc_migrations;
  const placeholders = migrationPlaceholders(tables);
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${bookkeeping} (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ id: number }>(`SELECT id FROM ${bookkeeping}`);
    const done = new Set(rows.map((row) => row.id));
    const applied: string[] = [];
    for (const migration of readMigrations()) {
      if (done.has(migration.id)) continue;
      const sql = renderMigration(migration, placeholders);
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query(`INSERT INTO ${bookkeeping} (id, name) VALUES ($1, $2)`, [migration.id, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      logger?.info({ migration: migration.name }, 'migration applied');
      applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
}
