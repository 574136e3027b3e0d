import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrationPlaceholders, readMigrations, renderMigration } from '../../src/db/migrate.js';
import { createTables } from '../../src/db/tables.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('migration placeholders', () => {
  // Hashes of the SQL as installations ran it (prefix app_) before the outbox channel and the origin
  // marker became placeholders: the rendering must not change a byte of a migration already applied.
  it('renders the migrations that existed before the placeholders to exactly the SQL they ran as', () => {
    const rendered = new Map(
      readMigrations().map((migration) => [
        migration.name,
        sha256(renderMigration(migration, migrationPlaceholders(createTables('app_')))),
      ]),
    );
    expect(rendered.get('0001_legacy_layout.sql')).toBe('88d6a214c6d65bdc78682cd52cb29cc3babb35cdd0ac35bce404304465a2398c');
    expect(rendered.get('0002_service_tables.sql')).toBe('acc751cc5f3ec8d6ec671a2d9555250528ec9644d04231aad44e83ab3b86769d');
    expect(rendered.get('0003_outbox_sequencing_legacy_events.sql')).toBe(
      'b4aeee4c3f2f8ae3021bf30c9209520d21c24cd13f5c238c8cc09378ad69fdd7',
    );
  });

  it('spells the outbox channel and the origin marker as the TypeScript code does', () => {
    const [, service, legacyEvents] = readMigrations().map((migration) =>
      renderMigration(migration, migrationPlaceholders(createTables('xyz_'))),
    );
    expect(service).toContain(`pg_notify('xyz_svc_outbox', '')`);
    expect(legacyEvents).toContain(`current_setting('gym.origin', true) = 'api'`);
  });

  it('refuses a placeholder it has no value for', () => {
    expect(() =>
      renderMigration(
        { id: 99, name: '0099_typo.sql', sql: 'SELECT 1 FROM {{prefx}}wertungen' },
        migrationPlaceholders(createTables('app_')),
      ),
    ).toThrow(/unknown placeholder \{\{prefx\}\}/);
  });
});
