import type pg from 'pg';

/**
 * The service's schema as the migrations leave it, as one readable SQL text: tables with their
 * columns and constraints, sequences, indexes, functions and triggers of schema `public`, each kind
 * sorted by name, so that two dumps of the same schema are equal on every supported PostgreSQL and
 * a change diffs as the lines it changes. Owners and privileges are left out (they depend on the
 * installation's roles). `migrations/schema.sql` is this text for the default prefix.
 */
export async function dumpSchema(db: Pick<pg.ClientBase, 'query'>): Promise<string> {
  const texts = async (sql: string) => (await db.query<{ text: string }>(sql)).rows.map((row) => row.text.trim());
  const tables = await texts(`
    SELECT format(E'CREATE TABLE %I (\\n%s\\n);', c.relname,
                  concat_ws(E',\\n', columns.list, constraints.list)) AS text
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
     CROSS JOIN LATERAL (
       SELECT string_agg(format('  %I %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                                CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
                                CASE WHEN d.adbin IS NOT NULL THEN ' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid) ELSE '' END),
                         E',\\n' ORDER BY a.attnum) AS list
         FROM pg_attribute a
         LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns
     CROSS JOIN LATERAL (
       SELECT string_agg(format('  CONSTRAINT %I %s', k.conname, pg_get_constraintdef(k.oid)), E',\\n' ORDER BY k.conname) AS list
         FROM pg_constraint k
        WHERE k.conrelid = c.oid AND k.contype IN ('p', 'u', 'f', 'c', 'x')) AS constraints
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
     ORDER BY c.relname`);
  const sequences = await texts(`
    SELECT format('CREATE SEQUENCE %I;', c.relname) AS text
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'S'
     ORDER BY c.relname`);
  const indexes = await texts(`
    SELECT pg_get_indexdef(i.indexrelid) || ';' AS text
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
     ORDER BY c.relname`);
  const functions = await texts(`
    SELECT pg_get_functiondef(p.oid) || ';' AS text
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'public'
     ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`);
  const triggers = await texts(`
    SELECT pg_get_triggerdef(t.oid) || ';' AS text
      FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND NOT t.tgisinternal
     ORDER BY c.relname, t.tgname`);
  const section = (title: string, items: string[]) => `-- ${title}\n\n${items.join('\n\n')}\n`;
  const dump = [
    '-- The schema the migrations leave, for the default prefix `app_`: written by `npm run db:schema`,',
    '-- checked by test/integration/schema-dump.test.ts. Read it here; change it with a new migration.',
    '',
    section('Tables', tables),
    section('Sequences', sequences),
    section('Indexes', indexes),
    section('Functions', functions),
    section('Triggers', triggers),
  ].join('\n');
  // Everything lives in `public`; PostgreSQL qualifies some names with it and not others.
  return dump.replace(/\bpublic\./g, '').replace(/[ \t]+$/gm, '');
}
