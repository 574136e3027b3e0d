import type { Pool, TxClient } from '../src/db/pool.js';

/**
 * Custom setting read by the legacy-write triggers: rows written inside a service command already
 * get their event from the command itself, so the triggers must not add a second one.
 */
export const ORIGIN_SETTING = 'gym.origin';

/**
 * One command = one transaction. BEGIN and the origin marker travel in one round trip; the
 * handler receives the transaction client, never the pool.
 */
export async function runCommand<T>(pool: Pool, handler: (tx: TxClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SET LOCAL ${ORIGIN_SETTING} = 'api'`);
    const result = await handler(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
