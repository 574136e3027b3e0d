import type { BuildInfo } from '../../src/system/build-info.js';

/** The server could not be reached or did not answer in time: the request may be retried as it is. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** The server answered with an error status; `retryable` tells a passing outage from a refusal. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The parsed error body, e.g. a 409's `current`. */
    readonly body: Record<string, unknown> | null = null,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

const DEFAULT_TIMEOUT_MS = 8_000;

export interface RequestOptions {
  timeoutMs?: number;
  /** Extra headers, e.g. the office client's `authorization`. */
  headers?: Record<string, string>;
}

async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  options: RequestOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch (error) {
    throw new NetworkError(
      controller.signal.aborted
        ? `no answer from the server within ${timeoutMs / 1000} s`
        : `server not reachable (${(error as Error).message})`,
    );
  } finally {
    clearTimeout(timer);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // A proxy or a stopped backend may answer with HTML; the status code still tells what happened.
  }
  if (!response.ok) {
    const errorBody = (parsed ?? {}) as { code?: unknown; message?: unknown };
    throw new HttpError(
      response.status,
      typeof errorBody.code === 'string' ? errorBody.code : 'HTTP_' + response.status,
      typeof errorBody.message === 'string' ? errorBody.message : `${method} ${path} answered ${response.status}`,
      parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null,
    );
  }
  return parsed as T;
}

export function getJson<T>(
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  options: RequestOptions = {},
): Promise<T> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  const suffix = text ? `?${text}` : '';
  return request<T>('GET', path + suffix, undefined, options);
}

export function postJson<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('POST', path, body, options);
}

export function putJson<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('PUT', path, body, options);
}

export function patchJson<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('PATCH', path, body, options);
}

export function deleteJson<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('DELETE', path, body, options);
}

// Response shapes: spec "Individual scores and jury results" and contract section 6.

// The shapes the server's query handlers return; type-only imports add nothing to the bundle.
import type { DisciplineSummary, EventSummary } from '../../queries/list-catalog.js';
import type { DisciplineField } from '../../queries/list-discipline-fields.js';
import type { ScoreEntry } from '../../queries/list-scores.js';
import type { JuryResultEntry } from '../../src/model/scoring-context.js';
import type { ScoreUpdatedFields } from '../../outbox/events.js';
import type { PanelReading } from '../../src/domain/panel.js';
import { judgeNameHeaders } from './judge-name.js';
import type { CompetitionSummary } from '../../queries/office-event-lists.js';
export type { DisciplineField, DisciplineSummary, EventSummary, JuryResultEntry, ScoreEntry };
export type { CompetitionSummary };

export interface ScoresPage {
  results: ScoreEntry[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

export interface SavedJuryResult {
  fieldId: number;
  performance: number | null;
  isFinalScore: boolean;
  sortOrder: number | null;
}

export interface SaveValueResponse {
  success: boolean;
  wertungenId: number;
  score: number | null;
}

export interface JuryResultSaveResponse {
  success: boolean;
  id: number;
  wertungenId: number;
  disciplineFieldId: number;
  performance: number;
  finalScore: number | null;
}

export interface VersionInfo {
  version: string;
  name: string;
  build: BuildInfo;
}

/**
 * A `score-updated` message as the server's event contract (`outbox/events.ts`) defines it, read
 * field by field: the keys all variants share are always there, the others (`participantId` of
 * event 2, `groupId` of a group score…) only in their variants.
 */
export type ScoreUpdatedEvent = ScoreUpdatedFields;

/** The score an event reports: `score` and `finalScore` carry the same value when both are present. */
export function eventScore(event: ScoreUpdatedEvent): number | null {
  const value = event.score ?? event.finalScore;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

const SCORES_PAGE_SIZE = 1000;

export const api = {
  events: () => getJson<EventSummary[]>('/api/events'),
  disciplines: () => getJson<DisciplineSummary[]>('/api/disciplines'),
  disciplineFields: (disciplineId: number) => getJson<DisciplineField[]>('/api/discipline-fields', { disciplineId }),
  /**
   * Load workflow step 1 asks with limit 1000; an event with more entries (participants times
   * devices) continues with the next page rather than silently missing participants.
   */
  async scores(
    eventId: number,
    filter: { competitionId?: number | undefined; squadName?: string | undefined } = {},
  ): Promise<ScoreEntry[]> {
    const entries: ScoreEntry[] = [];
    for (let offset = 0; ; offset += SCORES_PAGE_SIZE) {
      const page = await getJson<ScoresPage>('/api/scores', { eventId, ...filter, limit: SCORES_PAGE_SIZE, offset });
      entries.push(...page.results);
      if (!page.pagination.hasMore || page.results.length === 0) return entries;
    }
  },
  juryResults: (wertungenId: number, disciplineId: number) =>
    getJson<{ results: SavedJuryResult[]; panel: PanelReading | null }>('/api/jury-results', { participantId: wertungenId, disciplineId }),
  version: () => getJson<VersionInfo>('/api/system/version'),
  scoreCaptureSetting: () => getJson<{ key: string; value: { useJuryResults: boolean } }>('/api/app-settings/scoreCapture'),
  competitions: (eventId: number) => getJson<CompetitionSummary[]>(`/api/events/${eventId}/competitions`),
  squads: (eventId: number) =>
    getJson<{ squads: Array<{ name: string; participants: Array<{ id: number }> }> }>(`/api/events/${eventId}/squads`),
  saveValue: (body: { competitionId: number; participantId: number; disciplineId: number; score: number; expectedScore?: number | null }) =>
    postJson<SaveValueResponse>('/api/scores/save-value', body, { headers: judgeNameHeaders() }),
  saveJuryResult: (body: {
    participantId: number;
    disciplineFieldId: number;
    performance: number;
    attempt: 1;
    type: 0 | 1;
    expectedPerformance?: number | null;
  }) => postJson<JuryResultSaveResponse>('/api/jury-results', body, { headers: judgeNameHeaders() }),
};
