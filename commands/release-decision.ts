/**
 * The rules of releasing a scope (a device of a competition, or one squad of it), decided without
 * a database: whether the scope exists, and the effective state the release rows give. The SQL is
 * in `release-scope.ts`.
 */
import type { ReleaseChangedPayload } from '../outbox/events.js';
import { notFound } from '../src/domain/errors.js';

export interface ReleaseScope {
  competitionId: number;
  disciplineId: number;
  /** Absent: the whole device, every squad. */
  squadName?: string | undefined;
}

/** The state of a scope after a change: the release-changed payload without its event, actor and time. */
export type ReleaseState = Omit<ReleaseChangedPayload, 'eventId' | 'by' | 'timestamp'>;

/** The event of the scope's competition, or the 404 when competition or discipline do not exist. */
export function eventOfReleaseScope(scope: ReleaseScope, found: { eventId: number | null; disciplineFound: boolean }): number {
  if (found.eventId === null) throw notFound(`No competition ${scope.competitionId}`);
  if (!found.disciplineFound) throw notFound(`No discipline ${scope.disciplineId}`);
  return found.eventId;
}

/**
 * The effective state of the scope from the release row that applies to it (its own, else for a
 * squad its device's), or null when none does.
 */
export function releaseStateOf(
  scope: ReleaseScope,
  release: { releasedAt: string | null; releasedBy: string | null } | null,
): ReleaseState {
  return {
    competitionId: scope.competitionId,
    disciplineId: scope.disciplineId,
    squadName: scope.squadName ?? null,
    released: release !== null,
    releasedAt: release?.releasedAt ?? null,
    releasedBy: release?.releasedBy ?? null,
  };
}
