import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { ACTOR_SETTING, API_ORIGIN, ORIGIN_SETTING, ROLE_SETTING } from '../src/db/origin.js';
import { RequestAbortedError, withQuery, withTransaction, type Pool, type TxClient } from '../src/db/pool.js';

/**
 * How long one attempt waits for a row lock. Far below the statement timeout (15 s): a row the
 * desktop program holds in an open transaction must not keep a pool connection waiting. The
 * attempt gives up, its connection goes back to the pool, and the command tries again after a
 * pause without one, until LOCK_WAIT_BUDGET_MS is spent; then 503 with Retry-After. Commands of the
 * service queueing on one score (50 judges at once) each hold the lock for milliseconds, so they
 * get through in turn.
 */
export const LOCK_TIMEOUT_MS = 100;
export const LOCK_WAIT_BUDGET_MS = 5_000;
const RETRY_PAUSE_MS = [50, 200] as const;

const isLockTimeout = (error: unknown) => (error as { code?: unknown } | null)?.code === '55P03';

/**
 * Who runs a command. `actor`: the token's subject, else the judge name the portal sends, else
 * null ("anonymous"); `role`: the verified token's role, or `system` for the service's own
 * corrections on read, null without a token. `signal`: fires when the HTTP client the command
 * answers went away (src/http/client-gone.ts); the command then stops waiting and gives its
 * connection back.
 */
export interface CommandContext {
  actor: string | null;
  role: string | null;
  signal?: AbortSignal | undefined;
}

export const ANONYMOUS: CommandContext = { actor: null, role: null };

/**
 * The corrections on read are the service's own formula completion, recorded under this name; role
 * `system` lets them complete a final in a released scope (they follow from stored results only).
 */
export const AUTO_CALCULATION: CommandContext = { actor: 'auto-calculation', role: 'system' };

/**
 * The command's settings for its transaction: the origin marker, the caller, the lock timeout, and
 * generic plans for the named statements below (parsed and planned once per connection). Values
 * travel as parameters: a caller's name is never part of the statement's text. A connection keeps
 * its plans until the tables' statistics change, so a plan made while a table was one page would
 * scan it for good: without sequential scans, a command's keyed lookups use their indexes
 * whatever the table's size was when they were planned.
 */
function transactionSettings(context: CommandContext): pg.QueryConfig {
  return {
    name: 'command-settings',
    text: `SELECT set_config('${ORIGIN_SETTING}', $1, true), set_config('${ACTOR_SETTING}', $2, true), set_config('${ROLE_SETTING}', $3, true),
                  set_config('lock_timeout', $4, true), set_config('plan_cache_mode', 'force_generic_plan', true),
                  set_config('enable_seqscan', 'off', true)`,
    values: [API_ORIGIN, context.actor ?? 'anonymous', context.role ?? '', `${LOCK_TIMEOUT_MS}ms`],
  };
}

/** Runs commands, each as one transaction; what the routes and scripts receive. */
export interface CommandRunner {
  run<T>(handler: (tx: TxClient) => Promise<T>, context?: CommandContext): Promise<T>;
}

/**
 * One command = one transaction. BEGIN and its settings travel with the handler's first statements
 * (withTransaction); the handler receives the transaction client, never the pool. A command that
 * could not get its locks in time rolled back completely, so running it again is safe. After each
 * commit `committed` is called: the service passes its relay's wake-up, so the events the command
 * appended are numbered and delivered at once (the commit itself notifies nobody).
 */
export function createCommandRunner(pool: Pool, committed: () => void = () => undefined): CommandRunner {
  return {
    async run(handler, context = ANONYMOUS) {
      const settings = transactionSettings(context);
      const deadline = Date.now() + LOCK_WAIT_BUDGET_MS;
      for (;;) {
        try {
          const result = await withTransaction(pool, (tx) => handler(namedStatements(tx)), settings, context.signal);
          committed();
          return result;
        } catch (error) {
          const pause = RETRY_PAUSE_MS[0] + Math.random() * (RETRY_PAUSE_MS[1] - RETRY_PAUSE_MS[0]);
          if (!isLockTimeout(error) || Date.now() + pause >= deadline) throw error;
          await sleep(pause);
          if (context.signal?.aborted) throw new RequestAbortedError();
        }
      }
    },
  };
}

// Statement text → prepared statement name, for the process. Command statements are fixed texts
// (values travel as parameters, lists as arrays); the cap keeps a text built from data from
// preparing statements without end on every connection: past it, new texts run unnamed.
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `cmd-${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** The transaction client, with `query(text, values)` sent as a named statement. */
function namedStatements(tx: TxClient): TxClient {
  return withQuery(tx, ((text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
      const name = statementName(text);
      if (name !== undefined) return tx.query({ name, text, values });
    }
    return (tx.query as (...args: unknown[]) => unknown)(text, values, callback);
  }) as TxClient['query']);
}
