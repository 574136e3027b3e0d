import { withTransaction, type Pool, type TxClient } from '../src/db/pool.js';

/**
 * Custom setting read by the legacy-write triggers: rows written inside a service command already
 * get their event from the command itself, so the triggers must not add a second one.
 */
export const ORIGIN_SETTING = 'gym.origin';

/**
 * One command = one transaction. BEGIN and the origin marker travel in one round trip; the
 * handler receives the transaction client, never the pool.
 */
export function runCommand<T>(pool: Pool, handler: (tx: TxClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, handler, `BEGIN; SET LOCAL ${ORIGIN_SETTING} = 'api'`);
}
