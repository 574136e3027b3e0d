import type pg from 'pg';
import type { TableName, Tables } from './tables.js';

/**
 * Logical replication from the hall's database to a public instance's (docs/public-results.md).
 * The hall publishes the tables the public reads; the public side subscribes, after running the
 * service's migrations itself (DDL is not replicated). The hall never waits for the public side.
 */

export const PUBLICATION_NAME = 'gym_public_results';
/** The role the subscriber logs in with on the hall: replication, and reading the published tables. */
export const REPLICATION_ROLE = 'public_replica';
/** A subscription's default name, which is also the name of its replication slot on the hall. */
export const DEFAULT_SUBSCRIPTION_NAME = 'gym_public_results';
const SUBSCRIPTION_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * What the public instances read: the legacy tables, the outbox (the live events, numbered by the
 * hall) and the service's settings, group members, releases, panel settings, rotations, the
 * spectators' privacy settings and the inquiries (the spectator page marks a value under an open
 * one; the public routes serve no more of a row than that fact). Not published: the audit records
 * (who changed what), panel deviations, judge credentials (secrets), the inquiry deadlines and the
 * migration list.
 */
export const PUBLISHED_TABLES: readonly TableName[] = [
  'veranstaltungen',
  'wettkaempfe',
  'disziplinen',
  'disziplinen_felder',
  'formeln',
  'teilnehmer',
  'vereine',
  'gruppen',
  'mannschaften',
  'wertungen',
  'wertungen_details',
  'jury_results',
  'status',
  'bereiche',
  'sport',
  'svc_outbox',
  'svc_settings',
  'svc_group_members',
  'svc_releases',
  'svc_panel_settings',
  'svc_rotation_plans',
  'svc_rotations',
  'svc_rotation_slots',
  'svc_spectator_settings',
  'svc_spectator_hidden',
  'svc_inquiries',
];

const publishedList = (tables: Tables) => PUBLISHED_TABLES.map((name) => tables[name]).join(', ');

export class ReplicationSetupError extends Error {}

/**
 * In the hall's database, as a superuser: the replication role with `password` (created or given
 * the password again), allowed to read the published tables for the initial copy, and the
 * publication of those tables (created, or set to this list again). Needs `wal_level=logical`.
 */
export async function publishForPublicInstances(admin: pg.Client, tables: Tables, password: string): Promise<void> {
  const { rows } = await admin.query<{ wal_level: string }>('SHOW wal_level');
  if (rows[0]?.wal_level !== 'logical')
    throw new ReplicationSetupError(
      `the hall's PostgreSQL runs with wal_level=${rows[0]?.wal_level}; logical replication needs wal_level=logical ` +
        '(the embedded server: start the service with PUBLISH_RESULTS=1; another server: set it in postgresql.conf and restart)',
    );
  const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [REPLICATION_ROLE]);
  await admin.query(
    `${role.rowCount ? 'ALTER' : 'CREATE'} ROLE ${REPLICATION_ROLE} WITH LOGIN REPLICATION PASSWORD ${admin.escapeLiteral(password)}`,
  );
  const { rows: database } = await admin.query<{ name: string }>('SELECT current_database() AS name');
  await admin.query(`GRANT CONNECT ON DATABASE ${admin.escapeIdentifier(database[0]!.name)} TO ${REPLICATION_ROLE}`);
  await admin.query(`GRANT USAGE ON SCHEMA public TO ${REPLICATION_ROLE}`);
  await admin.query(`GRANT SELECT ON ${publishedList(tables)} TO ${REPLICATION_ROLE}`);
  const publication = await admin.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [PUBLICATION_NAME]);
  await admin.query(
    publication.rowCount
      ? `ALTER PUBLICATION ${PUBLICATION_NAME} SET TABLE ${publishedList(tables)}`
      : `CREATE PUBLICATION ${PUBLICATION_NAME} FOR TABLE ${publishedList(tables)}`,
  );
}

export function checkSubscriptionName(name: string): string {
  if (!SUBSCRIPTION_NAME_PATTERN.test(name))
    throw new ReplicationSetupError(`a subscription name is lowercase letters, digits and underscores (at most 63), got "${name}"`);
  return name;
}

/**
 * In a public instance's database, as a superuser, after the migrations: empties the published
 * tables (what the migrations seeded would collide with the hall's rows) and subscribes to the
 * hall's publication at `publisherUrl` (the replication role, through the hall's tunnel). The hall
 * copies what it has, then streams every change. Resolves once every table is copied.
 */
export async function subscribeToHall(
  admin: pg.Client,
  tables: Tables,
  publisherUrl: string,
  options: { name?: string; timeoutMs?: number } = {},
): Promise<void> {
  const name = checkSubscriptionName(options.name ?? DEFAULT_SUBSCRIPTION_NAME);
  const existing = await admin.query('SELECT 1 FROM pg_subscription WHERE subname = $1', [name]);
  if (existing.rowCount) throw new ReplicationSetupError(`this database already has the subscription ${name}`);
  await admin.query(`TRUNCATE ${publishedList(tables)} CASCADE`);
  await admin
    .query(`CREATE SUBSCRIPTION ${name} CONNECTION ${admin.escapeLiteral(publisherUrl)} PUBLICATION ${PUBLICATION_NAME}`)
    .catch((error: Error) => {
      // PostgreSQL's text names the host and port (never the password): is the tunnel up?
      throw new ReplicationSetupError(`the subscription to the hall failed: ${error.message}`, { cause: error });
    });
  await waitForInitialCopy(admin, name, options.timeoutMs ?? 120_000);
}

async function waitForInitialCopy(admin: pg.Client, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await admin.query<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM pg_subscription_rel r JOIN pg_subscription s ON s.oid = r.srsubid
        WHERE s.subname = $1 AND r.srsubstate <> 'r'`,
      [name],
    );
    if (rows[0]?.pending === 0) return;
    if (Date.now() > deadline)
      throw new ReplicationSetupError(`the initial copy of ${name} has not finished after ${timeoutMs / 1000} s; see the server log`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Removes the subscription and its slot in the hall (the slot keeps WAL until dropped): `dropped`.
 * When the hall does not answer or has no such slot any more (given up past
 * max_slot_wal_keep_size), the subscription is detached from the slot and removed here only:
 * `detached`; a slot the hall still has is then dropped there by hand.
 */
export async function unsubscribeFromHall(admin: pg.Client, name: string = DEFAULT_SUBSCRIPTION_NAME): Promise<'dropped' | 'detached'> {
  checkSubscriptionName(name);
  try {
    await admin.query(`DROP SUBSCRIPTION IF EXISTS ${name}`);
    return 'dropped';
  } catch {
    await admin.query(`ALTER SUBSCRIPTION ${name} DISABLE`);
    await admin.query(`ALTER SUBSCRIPTION ${name} SET (slot_name = NONE)`);
    await admin.query(`DROP SUBSCRIPTION ${name}`);
    return 'detached';
  }
}

/** Stops (false) or resumes (true) applying the hall's changes; the hall's slot keeps them meanwhile. */
export async function setSubscriptionEnabled(admin: pg.Client, enabled: boolean, name: string = DEFAULT_SUBSCRIPTION_NAME): Promise<void> {
  checkSubscriptionName(name);
  await admin.query(`ALTER SUBSCRIPTION ${name} ${enabled ? 'ENABLE' : 'DISABLE'}`);
}
