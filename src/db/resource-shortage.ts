/**
 * PostgreSQL's class 53, "insufficient resources": a full disk, no memory, no free connection
 * slot, a configured limit reached. Not the request's fault and not the database being away: the
 * same request can succeed once the resource is back, so it answers 503 with Retry-After
 * (`src/http/errors.ts`), and health reports `degraded` with the condition while it lasts.
 *
 * "While it lasts" is decided by what the service sees, since no probe can tell a full disk from
 * a healthy one (a write into a page with room left succeeds on a full disk): the shortage starts
 * with the first such error and ends once a transaction has committed after the last one and
 * RESOURCE_SHORTAGE_HOLD_MS have passed since it. The hold keeps health from flickering to `ok`
 * while some writes still fit and others fail; without any write the state stays as the last
 * error left it.
 */

export type ResourceCondition = 'disk-full' | 'out-of-memory' | 'too-many-connections' | 'limit-exceeded' | 'insufficient-resources';

export const RESOURCE_CONDITIONS: readonly ResourceCondition[] = [
  'disk-full',
  'out-of-memory',
  'too-many-connections',
  'limit-exceeded',
  'insufficient-resources',
];

const CONDITION_OF_SQLSTATE: Readonly<Record<string, ResourceCondition>> = {
  '53100': 'disk-full',
  '53200': 'out-of-memory',
  '53300': 'too-many-connections',
  '53400': 'limit-exceeded',
};

/** What the condition means, for the 503's message and the health reason. */
export const RESOURCE_CONDITION_TEXT: Readonly<Record<ResourceCondition, string>> = {
  'disk-full': 'the database server’s disk is full',
  'out-of-memory': 'the database server is out of memory',
  'too-many-connections': 'the database server has no free connection slot',
  'limit-exceeded': 'a statement reached a configured limit of the database server',
  'insufficient-resources': 'the database server is short of resources',
};

/** The condition of a class-53 SQLSTATE (53000 and any code of the class the server adds later: insufficient-resources); null otherwise. */
export function resourceConditionOf(error: unknown): ResourceCondition | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^53[0-9A-Z]{3}$/.test(code)) return null;
  return CONDITION_OF_SQLSTATE[code] ?? 'insufficient-resources';
}

export const RESOURCE_SHORTAGE_HOLD_MS = 10_000;

export interface ResourceShortageState {
  condition: ResourceCondition;
  sqlState: string;
  /** ISO 8601: the first error of this shortage, and the latest. */
  since: string;
  lastAt: string;
  /** Errors seen during this shortage. */
  errors: number;
}

interface Shortage {
  condition: ResourceCondition;
  sqlState: string;
  since: number;
  lastAt: number;
  errors: number;
}

/** The shortage one pool's users have run into; `now` is a parameter so the rule is testable without waiting. */
export class ResourceShortage {
  private shortage: Shortage | null = null;
  private committedAt = Number.NEGATIVE_INFINITY;

  /** Counts `error` when it is a class-53 error; true when it was one. */
  record(error: unknown, now: number = Date.now()): boolean {
    const condition = resourceConditionOf(error);
    if (condition === null) return false;
    const sqlState = (error as { code: string }).code;
    const ongoing = this.current(now) !== null ? this.shortage : null;
    this.shortage = { condition, sqlState, since: ongoing?.since ?? now, lastAt: now, errors: (ongoing?.errors ?? 0) + 1 };
    return true;
  }

  /** A transaction committed: the database took a write. */
  committed(now: number = Date.now()): void {
    this.committedAt = now;
  }

  current(now: number = Date.now()): ResourceShortageState | null {
    const shortage = this.shortage;
    if (shortage === null) return null;
    if (this.committedAt > shortage.lastAt && now - shortage.lastAt >= RESOURCE_SHORTAGE_HOLD_MS) {
      this.shortage = null;
      return null;
    }
    return {
      condition: shortage.condition,
      sqlState: shortage.sqlState,
      since: new Date(shortage.since).toISOString(),
      lastAt: new Date(shortage.lastAt).toISOString(),
      errors: shortage.errors,
    };
  }
}
