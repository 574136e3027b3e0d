import { API_ORIGIN, ORIGIN_SETTING } from '../src/db/origin.js';
import { withTransaction, type Pool, type TxClient } from '../src/db/pool.js';

/**
 * One command = one transaction. BEGIN and the origin marker travel in one round trip; the
 * handler receives the transaction client, never the pool.
 */
export function runCommand<T>(pool: Pool, handler: (tx: TxClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, handler, `BEGIN; SET LOCAL ${ORIGIN_SETTING} = '${API_ORIGIN}'`);
}
