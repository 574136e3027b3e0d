import { createTables } from '../../src/db/tables.js';

/**
 * The prefix the template database is migrated with (`global-setup.ts`) and the test server runs
 * with (the config's default). A test that needs another prefix builds its own `createTables`.
 */
export const TEST_TABLE_PREFIX = 'app_';

/** The test databases' table names, for the SQL the tests run themselves: `t.wertungen`. */
export const t = createTables(TEST_TABLE_PREFIX);
