import pg from 'pg';
import { ACTOR_SETTING, API_ORIGIN, ORIGIN_SETTING, ROLE_SETTING } from '../src/db/origin.js';
import { withTransaction, type Pool, type TxClient } from '../src/db/pool.js';

/**
 * Who runs a command. `actor`: the token's subject, else the judge name the portal sends, else
 * null ("anonymous"); `role`: the verified token's role, or `system` for the service's own
 * corrections on read, null without a token.
 */
export interface CommandContext {
  actor: string | null;
  role: string | null;
}

export const ANONYMOUS: CommandContext = { actor: null, role: null };

/**
 * The corrections on read are the service's own formula completion, recorded under this name; role
 * `system` lets them complete a final in a released scope (they follow from stored results only).
 */
export const AUTO_CALCULATION: CommandContext = { actor: 'auto-calculation', role: 'system' };

/** SET LOCAL takes no parameters; the values are quoted as literals (pg's escaping). */
function beginStatement(context: CommandContext): string {
  return [
    'BEGIN',
    `SET LOCAL ${ORIGIN_SETTING} = '${API_ORIGIN}'`,
    `SET LOCAL ${ACTOR_SETTING} = ${pg.escapeLiteral(context.actor ?? 'anonymous')}`,
    `SET LOCAL ${ROLE_SETTING} = ${pg.escapeLiteral(context.role ?? '')}`,
  ].join('; ');
}

/**
 * One command = one transaction. BEGIN, the origin marker and the caller travel in one round
 * trip; the handler receives the transaction client, never the pool.
 */
export function runCommand<T>(pool: Pool, handler: (tx: TxClient) => Promise<T>, context: CommandContext = ANONYMOUS): Promise<T> {
  return withTransaction(pool, handler, beginStatement(context));
}
