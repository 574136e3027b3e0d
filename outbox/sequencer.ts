import pg from 'pg';
import type { Logger } from 'pino';
import { SEQUENCER_LOCK_KEY } from '../src/db/advisory-locks.js';
import { withTables, type Queryable, type WithTables } from '../src/db/pool.js';
import { NUMBERED_NOTIFY_SETTING } from '../src/db/origin.js';
import type { Tables } from '../src/db/tables.js';
import { LISTEN_APPLICATION_NAME } from './listener.js';

// Non-holders ask for the lock at most this often, so a lost sequencer is replaced within about a second.
const ACQUIRE_INTERVAL_MS = 900;

export const SEQUENCER_APPLICATION_NAME = 'gym-competition-service:sequencer';
/** How often the sequencer looks for other instances' LISTEN connections. */
const PEERS_CHECK_INTERVAL_MS = 1_000;

/** An event as the sequencer numbered it: what the relay delivers. */
export interface NumberedRow {
  seq: number;
  topic: string;
  event_id: number | null;
  source: string;
  payload: Record<string, unknown>;
}

/**
 * Numbers at most `limit` committed rows in one statement (migration 0019): the legacy writes'
 * captures among them applied, every other row given the next seq in id order. Returns how many
 * rows it read, and the numbered events in seq order.
 */
export async function numberCommittedEvents(db: Queryable, limit: number): Promise<{ read: number; events: NumberedRow[] }> {
  const { rows } = await db.query<{ numbered: { read: number; events: NumberedRow[] } }>({
    name: `${db.tables.prefix}svc-number-committed`,
    text: `SELECT ${db.tables.prefix}svc_number_committed_events($1) AS numbered`,
    values: [limit],
  });
  return rows[0]!.numbered;
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
   * Numbers what is visible now, when this instance is the sequencer, at most `limit` rows per
   * statement, each committing before the next is drawn. Calls `numbered` with each statement's
   * events, in seq order. Returns false when the connection failed (the caller reads instead).
   */
  async step(limit: number, numbered: (events: NumberedRow[]) => void): Promise<boolean> {
    if (!this.holding && !(await this.tryAcquire())) return true;
    const client = this.client!;
    try {
      // Whether another instance listens decides whether the numbering notifies (migration 0014).
      if (Date.now() - this.peersCheckedAt >= PEERS_CHECK_INTERVAL_MS) {
        this.peersListening = await setNumberedNotify(client, this.ownListener);
        this.peersCheckedAt = Date.now();
      }
      for (;;) {
        const batch = await numberCommittedEvents(client, limit);
        if (batch.events.length > 0) numbered(batch.events);
        if (batch.read < limit) return true;
      }
    } catch (error) {
      this.drop(error);
      return false;
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
