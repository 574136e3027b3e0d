import pg from 'pg';
import type { Logger } from 'pino';
import { NUMBERING_LOCK_KEY, SEQUENCER_LOCK_KEY } from '../src/db/advisory-locks.js';
import { withTables, type Queryable, type WithTables } from '../src/db/pool.js';
import { LEGACY_CAPTURE_TOPIC, NUMBERED_NOTIFY_SETTING } from '../src/db/origin.js';
import type { Tables } from '../src/db/tables.js';
import { NUMBERING_LOCK_CTE, type NumberedRow } from './append.js';
import { LISTEN_APPLICATION_NAME } from './listener.js';

const BATCH_SIZE = 1_000;
// Non-holders ask for the lock at most this often, so a lost sequencer is replaced within about a second.
const ACQUIRE_INTERVAL_MS = 900;

export const SEQUENCER_APPLICATION_NAME = 'gym-competition-service:sequencer';
/** How often the sequencer looks for other instances' LISTEN connections. */
const PEERS_CHECK_INTERVAL_MS = 1_000;

/** The next unnumbered rows in id order, and which of them are legacy writes' captures (migration 0016). */
export async function selectUnsequenced(db: Queryable, limit: number): Promise<{ ids: number[]; captures: number[] }> {
  const { rows } = await db.query<{ id: number; capture: boolean }>({
    name: `${db.tables.prefix}svc-unsequenced`,
    text: `SELECT id, topic = '${LEGACY_CAPTURE_TOPIC}' AS capture FROM ${db.tables.svc_outbox} WHERE seq IS NULL ORDER BY id LIMIT $1`,
    values: [limit],
  });
  return { ids: rows.map((row) => row.id), captures: rows.filter((row) => row.capture).map((row) => row.id) };
}

/**
 * Numbers at most `limit` waiting events in one statement, under the numbering lock, and returns
 * them in seq order; null when more wait or a legacy write's capture does (migration 0018): the
 * batches below number those.
 */
export async function sequenceWaitingEvents(db: Queryable, limit: number): Promise<NumberedRow[] | null> {
  const { rows } = await db.query<{ numbered: NumberedRow[] | null }>({
    name: `${db.tables.prefix}svc-sequence-waiting`,
    text: `SELECT ${db.tables.prefix}svc_sequence_waiting_events($1, $2) AS numbered`,
    values: [NUMBERING_LOCK_KEY, limit],
  });
  return rows[0]!.numbered;
}

/**
 * Applies legacy writes' captures (migration 0016): their audit records, their events in place,
 * the rest deleted. Returns the deleted ids, which the caller leaves out of the numbering.
 */
export async function applyLegacyCaptures(db: Queryable, captureIds: number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ dropped: number[] }>(`SELECT ${db.tables.prefix}svc_apply_legacy_captures($1::bigint[]) AS dropped`, [
    captureIds,
  ]);
  return new Set(rows[0]!.dropped.map(Number));
}

/**
 * The numbering of the statements below: `ids` in id order, each given the next seq. It first
 * takes the numbering lock and holds it until its commit is visible, so no command numbers its own
 * event in between. A command that held the lock before may have numbered some of the ids since
 * they were read (migration 0017): their rows are left as they are, and the seqs drawn for them
 * stay unused.
 */
const drawnForIds = (tables: Tables) => `${NUMBERING_LOCK_CTE},
     drawn AS MATERIALIZED (SELECT id, nextval('${tables.svc_outbox_seq}') AS seq FROM numbering_lock, unnest($1::bigint[]) AS id)`;
const numberDrawn = (tables: Tables) =>
  `UPDATE ${tables.svc_outbox} AS o SET seq = d.seq, sequenced_at = now() FROM drawn AS d WHERE o.id = d.id AND o.seq IS NULL`;

/** nextval is taken in id order (the order of the array) as far as the rows of one batch go. */
export async function assignSeq(db: Queryable, ids: number[]): Promise<void> {
  await db.query(`WITH ${drawnForIds(db.tables)} ${numberDrawn(db.tables)}`, [ids]);
}

/** A seq drawn for a row that a command numbered first: no row will ever carry it. */
export interface UnusedSeq {
  seq: number;
  topic: null;
}

/**
 * `assignSeq` returning every seq it drew, in order: the rows it numbered, which the relay
 * delivers, and the unused seqs, which the relay passes over without reading. (One statement
 * reading the ids and numbering them, a CTE over the unsequenced index, was planned as a scan per
 * row on PostgreSQL 15 after a 20,000-row burst and ran into the statement timeout.)
 */
export async function assignSeqReturning(db: Queryable, ids: number[]): Promise<Array<NumberedRow | UnusedSeq>> {
  const { rows } = await db.query<NumberedRow | UnusedSeq>({
    name: `${db.tables.prefix}svc-number-returning`,
    text: `WITH ${drawnForIds(db.tables)},
     numbering AS (${numberDrawn(db.tables)} RETURNING o.seq, o.topic, o.event_id, o.source, o.payload)
     SELECT d.seq, n.topic, n.event_id, n.source, n.payload FROM drawn AS d LEFT JOIN numbering AS n ON n.seq = d.seq ORDER BY d.seq`,
    values: [ids],
  });
  return rows;
}

/**
 * Sets the session's numbered-notify setting (migration 0014): `quiet` when no LISTEN connection
 * but `ownListener` is open on this database, so the numbering notifies nobody; else `notify`.
 * Returns whether another instance listens.
 */
export async function setNumberedNotify(db: Queryable, ownListener: string): Promise<boolean> {
  const { rows } = await db.query<{ setting: string }>(
    `SELECT set_config($1, CASE WHEN EXISTS (
              SELECT 1 FROM pg_stat_activity
               WHERE datname = current_database() AND starts_with(application_name, $2) AND application_name <> $3)
            THEN 'notify' ELSE 'quiet' END, false) AS setting`,
    [NUMBERED_NOTIFY_SETTING, `${LISTEN_APPLICATION_NAME}:`, ownListener],
  );
  return rows[0]?.setting === 'notify';
}

/**
 * Numbers committed outbox rows. Exactly one instance per database does it — whoever holds a session
 * advisory lock on its own connection — and each batch is a short autocommit statement on that same
 * connection, so batches commit in the order their numbers were drawn: a reader that has seen `seq`
 * N has already been able to see every lower one, and `seq > cursor` never skips. Uncommitted rows
 * are invisible to the UPDATE rather than waited for, so a transaction left open elsewhere holds up
 * only its own row. If this connection dies, its lock goes with it and another instance takes over.
 */
export class OutboxSequencer {
  private client: (pg.Client & WithTables) | null = null;
  private holding = false;
  private lastAttempt = 0;
  private peersCheckedAt = 0;
  private peersListening = true;

  constructor(
    private readonly connectionString: string,
    private readonly tables: Tables,
    private readonly logger: Logger,
    /** The application_name of this instance's LISTEN connection: other instances' are peers to notify. */
    private readonly ownListener: string,
    /** The class of its connection (pg's own by default; the bench counts statements with a subclass). */
    private readonly clientClass: typeof pg.Client = pg.Client,
  ) {}

  get isSequencer(): boolean {
    return this.holding;
  }

  /**
   * Whether another instance may be listening: unless this instance numbers the outbox and has
   * seen no other LISTEN connection at its last check (at most a second ago), assume one is.
   */
  get peersMayListen(): boolean {
    return !this.holding || this.peersListening;
  }

  /**
   * Numbers what is visible now (when this instance is the sequencer) and returns the rows it
   * numbered and the seqs it drew unused, in seq order, as long as they are at most `keep`;
   * `complete` is false when more were
   * numbered than that, or the connection failed midway (the caller reads them instead). Each batch
   * commits before the next is drawn.
   */
  async step(keep = 0): Promise<{ rows: Array<NumberedRow | UnusedSeq>; complete: boolean }> {
    if (!this.holding && !(await this.tryAcquire())) return { rows: [], complete: true };
    const client = this.client!;
    let numbered: Array<NumberedRow | UnusedSeq> = [];
    let complete = true;
    try {
      // Whether another instance listens decides whether the numbering notifies (migration 0014).
      if (Date.now() - this.peersCheckedAt >= PEERS_CHECK_INTERVAL_MS) {
        this.peersListening = await setNumberedNotify(client, this.ownListener);
        this.peersCheckedAt = Date.now();
      }
      // The usual pass, a few events, is one statement; a burst or a desktop write's capture goes to the batches.
      const few = keep > 0 ? await sequenceWaitingEvents(client, keep) : null;
      if (few !== null) return { rows: few, complete: true };
      for (;;) {
        const batch = await selectUnsequenced(client, BATCH_SIZE);
        const dropped = batch.captures.length > 0 ? await applyLegacyCaptures(client, batch.captures) : new Set<number>();
        const ids = dropped.size > 0 ? batch.ids.filter((id) => !dropped.has(id)) : batch.ids;
        // Only a non-empty batch is written (the UPDATE's trigger notifies when it numbered rows,
        // migration 0010). The rows come back only while the caller keeps them: a burst is read
        // by the relay in slices instead of travelling twice.
        if (ids.length > 0 && complete && numbered.length + ids.length <= keep)
          numbered = numbered.concat(await assignSeqReturning(client, ids));
        else if (ids.length > 0) {
          await assignSeq(client, ids);
          complete = false;
          numbered = [];
        }
        if (batch.ids.length < BATCH_SIZE) return { rows: numbered, complete };
      }
    } catch (error) {
      this.drop(error);
      return { rows: [], complete: false };
    }
  }

  private async tryAcquire(): Promise<boolean> {
    if (Date.now() - this.lastAttempt < ACQUIRE_INTERVAL_MS) return false;
    this.lastAttempt = Date.now();
    try {
      if (!this.client) this.client = await this.connect();
      const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [SEQUENCER_LOCK_KEY]);
      this.holding = rows[0]?.locked === true;
      if (this.holding) this.logger.info('this instance is now the outbox sequencer');
    } catch (error) {
      this.drop(error);
    }
    return this.holding;
  }

  private async connect(): Promise<pg.Client & WithTables> {
    const client = new this.clientClass({
      connectionString: this.connectionString,
      application_name: SEQUENCER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 3_000,
      statement_timeout: 10_000,
      query_timeout: 15_000,
    });
    client.on('error', (error) => this.drop(error));
    await client.connect();
    // If this process vanishes without closing the socket, the server ends the session (and frees the
    // lock) once it has been idle this long; a live sequencer runs a statement every second.
    await client.query(`SET idle_session_timeout = '30s'`).catch(() => undefined);
    // The unnumbered rows are read through the partial index in id order. The planner prefers a
    // bitmap scan there, which returns every entry of a row numbered since the last vacuum and never
    // marks them dead: the scan grew by 0.2 ms per 4,000 events (0.85 ms after 16,000). A plain
    // index scan marks them as it passes and stays at 0.02 ms.
    await client.query('SET enable_bitmapscan = off');
    // The named statements keep the plan they got at first use: one made while the outbox was one
    // page scanned the whole table at every batch (sequencer CPU 0.03 → 0.2 ms per event over
    // 30,000 events).
    await client.query('SET enable_seqscan = off');
    return withTables(client, this.tables);
  }

  private drop(error: unknown): void {
    this.peersCheckedAt = 0;
    this.peersListening = true;
    if (this.holding) this.logger.warn({ err: error }, 'outbox sequencer lost its connection; another instance or a reconnect takes over');
    else this.logger.debug({ err: error }, 'outbox sequencer connection failed');
    this.holding = false;
    const client = this.client;
    this.client = null;
    void client?.end().catch(() => undefined);
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.holding = false;
    // Closing the session releases the lock at once, so another instance need not wait for a timeout.
    await client?.end().catch(() => undefined);
  }
}
