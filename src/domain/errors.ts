/**
 * Errors the handlers (commands, queries, projections) throw when a request cannot be served as
 * asked. They name what went wrong in domain terms; the adapters decide what that means on their
 * channel (`src/http/errors.ts` maps them to the HTTP contract's status and code).
 */
export type DomainErrorKind = 'not-found' | 'validation-failed' | 'conflict' | 'unavailable';

/** Its message is meant for the client as it is: it names the offending input, never internals. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A record the request names does not exist. */
export const notFound = (message: string) => new DomainError('not-found', message);
/** The request is well-formed but breaks a rule the schema cannot express. */
export const validationFailed = (message: string) => new DomainError('validation-failed', message);
/** The request collides with the current state (a concurrent change, a duplicate). */
export const conflict = (message: string) => new DomainError('conflict', message);
/** Something the request depends on is away for now; retrying later can succeed. */
export const unavailable = (message: string) => new DomainError('unavailable', message);

/**
 * A write based on a value that changed meanwhile (the optimistic check of `expectedScore` /
 * `expectedPerformance`): a conflict that carries `current`, the value stored now.
 */
export class StaleValueError extends DomainError {
  constructor(
    message: string,
    readonly current: number | null,
  ) {
    super('conflict', message);
  }
}

/**
 * A write that would replace stored values the user has not agreed to replace: a conflict that
 * carries `replaced`, how many; the request repeats with that count to confirm it.
 */
export class ReplacesStoredValuesError extends DomainError {
  constructor(
    message: string,
    readonly replaced: number,
  ) {
    super('conflict', message);
  }
}
