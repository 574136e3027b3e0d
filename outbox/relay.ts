import cron, { type ScheduledTask } from 'node-cron';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Pool, Queryable } from '../src/db/pool.js';
import type { OutboxTopic } from './events.js';
import { OutboxListener } from './listener.js';
import { mayHaveMore, nextReplayStep, sentUpToAfterRead } from './replay-plan.js';
import { OutboxSequencer, type NumberedRow } from './sequencer.js';

const READ_BATCH = 500;
/** Payload of the notification a command's instance sends to the sequencer on another instance. */
export const COMMITTED_NOTIFICATION = 'committed';

/** What the health endpoint reports about this instance's relay. */
export interface RelayStatus {
  state: 'starting' | 'listening' | 'reconnecting' | 'stopped';
  delivered: number;
  /** Last `seq` this instance has delivered: everything up to it has gone out to the rooms. */
  cursor: number;
  /** Whether this instance currently numbers the outbox (exactly one per database does). */
  sequencer: boolean;
}

/** One sequenced outbox row as clients receive it. */
export interface OutboxDelivery {
  seq: number;
  topic: OutboxTopic;
  eventId: number;
  /** The payload plus `seq` and `source` (contract section 5). */
  message: Record<string, unknown>;
}

interface OutboxRow {
  seq: number;
  topic: OutboxTopic;
  event_id: number | null;
  source: string;
  payload: Record<string, unknown>;
}

export async function selectMaxSeq(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ seq: number }>(`SELECT COALESCE(max(seq), 0) AS seq FROM ${db.tables.svc_outbox}`);
  return rows[0]?.seq ?? 0;
}

export async function selectSequencedAfter(db: Queryable, after: number, limit: number): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `SELECT seq, topic, event_id, source, payload FROM ${db.tables.svc_outbox} WHERE seq > $1 ORDER BY seq LIMIT $2`,
    [after, limit],
  );
  return rows;
}

export async function selectEventRange(db: Queryable, eventId: number, after: number, upTo: number, limit: number): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `SELECT seq, topic, event_id, source, payload FROM ${db.tables.svc_outbox}
     WHERE event_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
    [eventId, after, upTo, limit],
  );
  return rows;
}

/** How many events of `eventId` lie in `(after, upTo]`, counted up to `cap` (enough to say "more than"). */
export async function countEventRange(db: Queryable, eventId: number, after: number, upTo: number, cap: number): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (SELECT 1 FROM ${db.tables.svc_outbox} WHERE event_id = $1 AND seq > $2 AND seq <= $3 LIMIT $4) AS capped`,
    [eventId, after, upTo, cap],
  );
  return rows[0]?.count ?? 0;
}

function toDelivery(row: OutboxRow & { event_id: number }): OutboxDelivery {
  return { seq: row.seq, topic: row.topic, eventId: row.event_id, message: { ...row.payload, seq: row.seq, source: row.source } };
}

export interface ReplayOptions {
  /** Where the replay reads; the relay's pool when absent. */
  db?: Queryable;
  batchSize?: number;
  /** Awaited after each batch is sent (backpressure); throwing ends the replay with that error. */
  afterBatch?: () => Promise<void>;
  /**
   * Called once before anything is sent with how many events are due, counted up to `cap + 1`;
   * throwing refuses the replay (the client is too far behind to replay event by event).
   */
  limit?: { cap: number; check(due: number): void };
}

export interface OutboxRelayOptions {
  connectionString: string;
  pool: Pool;
  logger: Logger;
  /** The class of the sequencer's connection (pg's own by default). */
  clientClass?: typeof pg.Client;
  /**
   * False on a public instance: its database is a logical replica whose rows arrive numbered by the
   * hall's sequencer, so it numbers nothing and only reads `seq > cursor`. True by default.
   */
  numbering?: boolean;
}

/**
 * Turns sequenced outbox rows into deliveries, in `seq` order, on every instance. Wake-ups come
 * from a command committed by this instance (in process, `commandCommitted`), from NOTIFY (a
 * latency hint only: the legacy triggers and the sequencer's numbering send it), from every
 * (re)connect of the LISTEN client, and from a node-cron backstop each second. Whatever woke it, a
 * pass lets the sequencer number what is committed (on the one instance that is the sequencer) and
 * delivers what it numbered when that continues the cursor without a gap; otherwise it reads
 * `seq > cursor` until drained, so a lost notification costs at most a second and a reconnect
 * catches up everything.
 */
export class OutboxRelay {
  private readonly listener: OutboxListener;
  private readonly sequencer: OutboxSequencer | null;
  private readonly subscribers = new Set<(delivery: OutboxDelivery) => void>();
  private backstop: ScheduledTask | null = null;
  private cursor = 0;
  private delivered = 0;
  private running: Promise<void> | null = null;
  private again = false;
  private nextPassWaiters: Array<() => void> = [];
  private reportCatchUp = false;
  private readFailing = false;
  private stopped = false;
  private notifying = false;
  private pendingNotification: string | null = null;

  constructor(private readonly options: OutboxRelayOptions) {
    this.listener = new OutboxListener({
      connectionString: options.connectionString,
      channel: options.pool.tables.outboxChannel,
      logger: options.logger,
      onWake: (reason, payload) => {
        if (reason === 'connected') this.reportCatchUp = true;
        // A numbering's notification names the highest seq it numbered: nothing to read when
        // this relay has delivered that far already (the sequencer's own instance, usually).
        else if (typeof payload === 'number' && payload <= this.cursor) return;
        // Another instance committed a command: only the sequencer has something to do (number
        // it); everyone else reads once the sequencer's own notification names the new seq.
        else if (payload === COMMITTED_NOTIFICATION && !this.isSequencer) return;
        this.wake();
      },
    });
    this.sequencer =
      options.numbering === false
        ? null
        : new OutboxSequencer(
            options.connectionString,
            options.pool.tables,
            options.logger,
            this.listener.applicationName,
            options.clientClass,
          );
  }

  private get isSequencer(): boolean {
    return this.sequencer?.isSequencer ?? false;
  }

  /**
   * A command of this instance committed; its commit notified nobody. The sequencer numbers its
   * events: this instance's at once, or another instance's, told with a NOTIFY sent outside the
   * command's transaction (no command's commit waits on the notify lock for it). Passed to the
   * command runner by the composition root.
   */
  commandCommitted(): void {
    if (this.stopped) return;
    if (this.isSequencer) this.wake();
    else this.notifyPeers(COMMITTED_NOTIFICATION);
  }

  /**
   * One notification in flight at a time, over the LISTEN connection (no pool slot). Those asked
   * for while one is on its way merge into one sent after it.
   */
  private notifyPeers(payload: string): void {
    if (this.notifying) {
      this.pendingNotification = payload;
      return;
    }
    this.notifying = true;
    this.listener
      .notify(payload)
      .catch((error: unknown) => this.options.logger.debug({ err: error }, 'outbox wake-up notification failed'))
      .finally(() => {
        this.notifying = false;
        const pending = this.pendingNotification;
        this.pendingNotification = null;
        if (pending !== null && !this.stopped) this.notifyPeers(pending);
      });
  }

  status(): RelayStatus {
    return { state: this.listener.state, delivered: this.delivered, cursor: this.cursor, sequencer: this.isSequencer };
  }

  /** Called synchronously for each delivery, in `seq` order; returns the unsubscribe function. */
  subscribe(subscriber: (delivery: OutboxDelivery) => void): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  async start(): Promise<void> {
    // Live only from here on: what came before is for clients to replay with `since`.
    this.cursor = await selectMaxSeq(this.options.pool);
    await this.listener.start();
    this.backstop = cron.schedule('* * * * * *', () => this.wake(), { name: 'outbox-relay-backstop', noOverlap: true });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.backstop?.destroy();
    await this.listener.stop();
    await this.running;
    for (const resolve of this.nextPassWaiters.splice(0)) resolve();
    await this.sequencer?.stop();
  }

  wake(): void {
    if (this.stopped) return;
    this.again = true;
    this.running ??= this.run();
  }

  /** Resolves after a full pass that started after this call, whether it succeeded or not. */
  nextPass(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      this.nextPassWaiters.push(resolve);
      this.wake();
    });
  }

  /** Single flight: wake-ups during a pass merge into one more pass after it. */
  private async run(): Promise<void> {
    try {
      while (this.again && !this.stopped) {
        this.again = false;
        const waiters = this.nextPassWaiters;
        this.nextPassWaiters = [];
        try {
          let readNeeded = this.sequencer === null;
          const numbered = await this.sequencer?.step(READ_BATCH, (events) => {
            if (readNeeded || !this.deliverNumbered(events)) readNeeded = true;
          });
          if (readNeeded || !numbered || !this.isSequencer) await this.drain();
        } finally {
          for (const resolve of waiters) resolve();
        }
      }
    } finally {
      // Same tick as the loop's last check, so no wake-up can fall between the two.
      this.running = null;
    }
  }

  /**
   * Delivers events this instance's sequencer has just numbered and committed, in seq order, when
   * they continue the cursor without a gap; returns false when a read is needed instead: a gap (a
   * seq drawn by a failed statement, or rows another instance numbered before this one became the
   * sequencer), or a catch-up to report.
   */
  private deliverNumbered(events: NumberedRow[]): boolean {
    if (this.reportCatchUp || events[0]!.seq !== this.cursor + 1) return false;
    for (let i = 1; i < events.length; i++) if (events[i]!.seq !== events[i - 1]!.seq + 1) return false;
    for (const event of events) this.deliver(event as OutboxRow);
    return true;
  }

  private async drain(): Promise<void> {
    const catchingUp = this.reportCatchUp;
    this.reportCatchUp = false;
    const before = this.delivered;
    try {
      for (;;) {
        const rows = await selectSequencedAfter(this.options.pool, this.cursor, READ_BATCH);
        // Delivery is synchronous from here to the cursor update, which is what lets a replay
        // join the room in the tick where it has seen the cursor reach its own position.
        for (const row of rows) this.deliver(row);
        if (!mayHaveMore(rows.length, READ_BATCH)) break;
      }
      if (this.readFailing) this.options.logger.info({ cursor: this.cursor }, 'outbox relay can read again');
      this.readFailing = false;
      if (catchingUp)
        this.options.logger.info(
          { events: this.delivered - before, cursor: this.cursor },
          `outbox relay caught up ${this.delivered - before} events`,
        );
    } catch (error) {
      // The backstop retries every second; a reconnect is reported again once reading works.
      if (!this.readFailing) this.options.logger.warn({ err: error }, 'outbox relay cannot read the outbox; retrying');
      this.readFailing = true;
      this.reportCatchUp ||= catchingUp;
    }
  }

  private deliver(row: OutboxRow): void {
    // A command's events handed over while a read was on its way come back in that read.
    if (row.seq <= this.cursor) return;
    this.cursor = row.seq;
    if (row.event_id === null) return;
    const delivery = toDelivery({ ...row, event_id: row.event_id });
    this.delivered += 1;
    for (const subscriber of this.subscribers) {
      try {
        subscriber(delivery);
      } catch (error) {
        this.options.logger.error({ err: error, seq: row.seq }, 'outbox subscriber failed');
      }
    }
  }

  /**
   * Sends the deliveries of one event with `seq > since` that this instance has already delivered
   * live, then calls `follow` (join the room) in the same tick in which it has seen that nothing
   * newer was delivered in between: every event goes out exactly once, by replay or live.
   * Returns how many were replayed.
   */
  async replay(
    eventId: number,
    since: number,
    send: (delivery: OutboxDelivery) => void,
    follow: () => void,
    options: ReplayOptions = {},
  ): Promise<number> {
    const db = options.db ?? this.options.pool;
    const batchSize = options.batchSize ?? READ_BATCH;
    let sentUpTo = since;
    let replayed = 0;
    let waitedForRelay = false;
    if (options.limit && since < this.cursor) {
      options.limit.check(await countEventRange(db, eventId, since, this.cursor, options.limit.cap + 1));
    }
    for (;;) {
      // Decided and acted on in one tick: `follow` runs before any other delivery can happen.
      const step = nextReplayStep(sentUpTo, this.cursor, waitedForRelay);
      if (step.kind === 'follow') {
        follow();
        return replayed;
      }
      if (step.kind === 'wait-for-relay') {
        // A client may have seen a later seq from another instance whose relay is a moment ahead;
        // one pass started now reads everything that instance had delivered.
        waitedForRelay = true;
        await this.nextPass();
        continue;
      }
      const rows = await selectEventRange(db, eventId, step.after, step.upTo, batchSize);
      for (const row of rows) send(toDelivery({ ...row, event_id: eventId }));
      replayed += rows.length;
      sentUpTo = sentUpToAfterRead(
        rows.map((row) => row.seq),
        batchSize,
        step.upTo,
      );
      // The loop reads the cursor again after this wait, so the hand-over to live stays exact.
      if (rows.length > 0) await options.afterBatch?.();
    }
  }
}
