import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { RETENTION_LOCK_KEY } from '../src/db/advisory-locks.js';
import { withTransaction, type Pool, type Queryable } from '../src/db/pool.js';

export async function tryRetentionLock(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK_KEY]);
  return rows[0]?.locked === true;
}

/**
 * Unsequenced rows are never deleted: they are events nobody has been sent yet. Age counts from
 * numbering, so an event committed late by a long transaction still gets its full window.
 */
export async function deleteExpiredOutboxRows(db: Queryable, retentionHours: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM ${db.tables.svc_outbox} WHERE seq IS NOT NULL AND sequenced_at < now() - make_interval(secs => $1)`,
    [retentionHours * 3600],
  );
  return rowCount ?? 0;
}

export interface OutboxRetentionOptions {
  pool: Pool;
  logger: Logger;
  retentionHours: number;
}

/** Deletes outbox rows older than OUTBOX_RETENTION_HOURS every ten minutes, one instance at a time. */
export class OutboxRetention {
  private task: ScheduledTask | null = null;

  constructor(private readonly options: OutboxRetentionOptions) {}

  start(): void {
    this.task = cron.schedule(
      '*/10 * * * *',
      () => this.runOnce().catch((error: unknown) => this.options.logger.warn({ err: error }, 'outbox clean-up failed')),
      {
        name: 'outbox-retention',
        noOverlap: true,
      },
    );
  }

  async stop(): Promise<void> {
    await this.task?.destroy();
    this.task = null;
  }

  /** Returns the number of rows deleted, or null when another instance is cleaning up right now. */
  async runOnce(): Promise<number | null> {
    const deleted = await withTransaction(this.options.pool, async (tx) =>
      (await tryRetentionLock(tx)) ? deleteExpiredOutboxRows(tx, this.options.retentionHours) : null,
    );
    if (deleted)
      this.options.logger.info({ deleted, retentionHours: this.options.retentionHours }, `outbox clean-up deleted ${deleted} events`);
    return deleted;
  }
}
