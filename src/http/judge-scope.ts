/**
 * A judge credential's token writes only inside its scope (issue 45): its event, its apparatus
 * and, for an E-judge, its field alone. Checked before the write's command runs; a token without
 * a judge scope (or no token, in lan mode) is not limited here.
 */
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/pool.js';
import { resolveScoreWriteTarget, type ScoreWriteTarget } from '../../queries/judge-credentials.js';
import type { TokenClaims } from './auth.js';
import { AppError } from './errors.js';

const outOfScope = (what: string) => new AppError(403, 'FORBIDDEN', `This judge credential does not cover ${what}`);

export async function enforceJudgeScope(db: Queryable, request: FastifyRequest, target: ScoreWriteTarget): Promise<void> {
  const scope = (request.user as TokenClaims | undefined)?.judge;
  if (scope === undefined) return;
  if (scope.fieldId !== null) {
    if (target.final) throw outOfScope('the final score; it writes field ' + scope.fieldId + ' only');
    const other = target.fieldIds?.find((fieldId) => fieldId !== scope.fieldId);
    if (other !== undefined) throw outOfScope(`field ${other}; it writes field ${scope.fieldId} only`);
  }
  const resolved = await resolveScoreWriteTarget(db, target);
  // Unknown rows and fields are not resolved: the command answers them with its 404.
  const event = resolved.eventIds.find((eventId) => eventId !== null && eventId !== scope.eventId);
  if (event !== undefined) throw outOfScope(`event ${event}`);
  const discipline = resolved.disciplineIds.find((disciplineId) => disciplineId !== null && disciplineId !== scope.disciplineId);
  if (discipline !== undefined) throw outOfScope(`apparatus ${discipline}`);
}
