import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ReplacesStoredValuesError, StaleValueError, type DomainErrorKind } from '../domain/errors.js';
import { RESOURCE_CONDITION_TEXT, resourceConditionOf } from '../db/resource-shortage.js';

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'PERMISSION_DENIED'
  | 'RULE_NOT_FOUND'
  | 'UNSUPPORTED_PLATFORM'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

/**
 * An error of the HTTP layer itself (authentication, host adapters) whose status, code and message
 * are meant for the client as they are. Handlers throw `DomainError`s (`src/domain/errors.ts`).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** How the contract answers each domain error. */
const DOMAIN_ERROR_RESPONSES: Readonly<Record<DomainErrorKind, { statusCode: number; code: ErrorCode }>> = {
  'validation-failed': { statusCode: 400, code: 'VALIDATION_FAILED' },
  'not-found': { statusCode: 404, code: 'NOT_FOUND' },
  conflict: { statusCode: 409, code: 'CONFLICT' },
  unavailable: { statusCode: 503, code: 'UNAVAILABLE' },
};

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: ErrorCode;
  message: string;
  /** Only on a 409 of an optimistic check: the value stored now. */
  current?: number | null;
  /** Only on a 409 of a write that would replace stored values: how many. */
  replaced?: number;
}

export function errorBody(statusCode: number, code: ErrorCode, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message };
}

// SQLSTATE classes that mean "the database is not reachable right now", not "the request is wrong".
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

function isDatabaseUnavailable(error: { code?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  return (
    UNAVAILABLE_SQLSTATES.has(code) ||
    UNAVAILABLE_NODE_CODES.has(code) ||
    /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/** Raised by the audit trigger (migration 0008) for an API write into a released scope without the head or admin role. */
export const RELEASED_SQLSTATE = 'GY409';

/** Maps any thrown value to the contract's error body; only domain errors, AppErrors and framework 4xx keep their text. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof StaleValueError) return { ...errorBody(409, 'CONFLICT', error.message), current: error.current };
  if (error instanceof ReplacesStoredValuesError) return { ...errorBody(409, 'CONFLICT', error.message), replaced: error.replaced };
  if (error instanceof DomainError) {
    const { statusCode, code } = DOMAIN_ERROR_RESPONSES[error.kind];
    return errorBody(statusCode, code, error.message);
  }
  if (error instanceof AppError) return errorBody(error.statusCode, error.code, error.message);
  const candidate = (error ?? {}) as Partial<FastifyError> & { code?: string };
  if (candidate.validation) {
    const context = candidate.validationContext ?? 'request';
    const first = candidate.validation[0];
    const field = first ? `${context}${first.instancePath.replaceAll('/', '.')}` : context;
    // A union of literals fails once per branch; naming the accepted values helps more than "constant".
    const allowed = candidate.validation
      .filter((issue) => issue.keyword === 'const' && issue.instancePath === first?.instancePath)
      .map((issue) => String(issue.params.allowedValue));
    const detail = allowed.length > 0 ? `must be one of ${allowed.join(', ')}` : (first?.message ?? 'is invalid');
    const missing = first?.keyword === 'required' ? `.${String(first.params.missingProperty)}` : '';
    return errorBody(400, 'VALIDATION_FAILED', `${field}${missing} ${first?.keyword === 'required' ? 'is required' : detail}`);
  }
  switch (candidate.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errorBody(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than the allowed limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errorBody(415, 'VALIDATION_FAILED', 'The request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errorBody(400, 'VALIDATION_FAILED', 'The request body is not valid JSON');
    case 'FST_ERR_VALIDATION':
      return errorBody(400, 'VALIDATION_FAILED', candidate.message ?? 'The request is invalid');
    case '23503':
      return errorBody(400, 'VALIDATION_FAILED', 'The request refers to a record that does not exist');
    case '23505':
      return errorBody(409, 'CONFLICT', 'The record was changed by another request; retry');
    case RELEASED_SQLSTATE:
      return errorBody(409, 'CONFLICT', 'released; ask the head judge to reopen');
    case '55P03':
      return errorBody(503, 'UNAVAILABLE', 'The score is being changed elsewhere (another session holds it); retry in a moment');
    case '57014':
      return errorBody(503, 'UNAVAILABLE', 'The database did not answer in time; retry in a moment');
    case 'REQUEST_ABORTED':
      return errorBody(503, 'UNAVAILABLE', 'The request was abandoned by its client');
    case '40001':
    case '40P01':
      return errorBody(409, 'CONFLICT', 'The record was changed by another request at the same moment; retry');
  }
  const shortage = resourceConditionOf(candidate);
  if (shortage !== null) {
    const condition = RESOURCE_CONDITION_TEXT[shortage];
    return errorBody(503, 'UNAVAILABLE', `${condition.charAt(0).toUpperCase()}${condition.slice(1)}; retry once it is resolved`);
  }
  if (typeof candidate.code === 'string' && /^22/.test(candidate.code)) {
    return errorBody(400, 'VALIDATION_FAILED', 'A value in the request is out of range for its field');
  }
  if (isDatabaseUnavailable(candidate)) {
    return errorBody(503, 'UNAVAILABLE', 'The database is not reachable right now; retry in a moment');
  }
  const status = candidate.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 401
        ? 'UNAUTHORIZED'
        : status === 403
          ? 'FORBIDDEN'
          : status === 404
            ? 'NOT_FOUND'
            : status === 429
              ? 'RATE_LIMITED'
              : 'VALIDATION_FAILED';
    return errorBody(status, code, candidate.message ?? 'The request is invalid');
  }
  return errorBody(500, 'INTERNAL', 'An unexpected error occurred; it has been logged');
}

/**
 * URLs the router refuses before any route or hook runs (a malformed percent-escape, a path
 * parameter over 100 characters) answer with the contract body instead of fastify's own.
 */
export function contractFrameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // Fastify's messages quote the whole path back, up to the header limit; these say what to fix.
  const body =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? errorBody(414, 'VALIDATION_FAILED', 'A path parameter is longer than 100 characters')
      : error.code === 'FST_ERR_BAD_URL'
        ? errorBody(400, 'VALIDATION_FAILED', 'The URL path is not validly percent-encoded')
        : toErrorBody(error);
  request.log.info({ err: { message: error.message, code: body.code } }, 'request refused');
  void reply.status(body.statusCode).send(body);
}

/**
 * Requests Node refuses before fastify sees them (headers over 16 KiB, a broken request line, a
 * client too slow to send its headers) get the contract body too, instead of fastify's own.
 */
export function contractClientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request line or headers are larger than allowed']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify(errorBody(status, 'VALIDATION_FAILED', message));
  this.log.debug({ err: { message: error.message, code: error.code } }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Requests that arrive on an open keep-alive connection while the server shuts down get the
 * contract's 503 (fastify's own `return503OnClosing` answer has no `code`), with
 * `Connection: close` so the client's next attempt opens a connection to the restarted service.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing)
      return reply
        .header('connection', 'close')
        .status(503)
        .send(errorBody(503, 'UNAVAILABLE', 'The service is shutting down; retry in a moment'));
  });
}

/** What a 503 tells the client to wait before it retries. */
export const RETRY_AFTER_SECONDS = 2;

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const body = toErrorBody(error);
    // 501 (a feature this host OS does not offer) and 503 (database away) are expected states, not bugs.
    if (body.statusCode === 500) request.log.error({ err: error }, 'request failed');
    else if (body.statusCode > 500) request.log.warn({ err: { message: (error as Error).message, code: body.code } }, 'request not served');
    else request.log.info({ err: { message: (error as Error).message, code: body.code } }, 'request refused');
    // Every 503 is "retry later"; a client that honours Retry-After spreads its retries out.
    if (body.statusCode === 503 && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    void reply.status(body.statusCode).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send(errorBody(404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}
