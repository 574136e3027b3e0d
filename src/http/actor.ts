import type { FastifyRequest } from 'fastify';
import type { CommandContext } from '../../commands/run-command.js';
import type { TokenClaims } from './auth.js';
import { withClientGone } from './client-gone.js';

/** The judge name the jury portal asks for once and sends with every save (percent-encoded UTF-8). */
export const JUDGE_NAME_HEADER = 'x-judge-name';
const MAX_ACTOR_LENGTH = 100;

function judgeName(request: FastifyRequest): string | null {
  const header = request.headers[JUDGE_NAME_HEADER];
  if (typeof header !== 'string') return null;
  let name = header;
  try {
    name = decodeURIComponent(header);
  } catch {
    // Not percent-encoded: taken as sent.
  }
  const clean = name
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, MAX_ACTOR_LENGTH);
  return clean === '' ? null : clean;
}

/**
 * Who a score-writing request acts as, for the audit record and the release check: a token that
 * was sent has been verified by the route's guard (`requireScoreWriter`), so its subject and role
 * count; without one, only the judge name the portal sends, which grants no role.
 */
export function commandContext(request: FastifyRequest): CommandContext {
  const claims = request.user as TokenClaims | undefined | null;
  const caller =
    claims && typeof claims.sub === 'string'
      ? { actor: claims.sub.slice(0, MAX_ACTOR_LENGTH), role: claims.role }
      : { actor: judgeName(request), role: null };
  return withClientGone(caller, request);
}
