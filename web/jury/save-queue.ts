/**
 * Offline-safe saving (issue 8, point 6). A save is first written to browser storage as a job of
 * steps in the spec's save order, then sent step by step; each finished step is recorded before
 * the next one starts. A job that cannot reach the server waits, and the queue resumes it (and the
 * ones behind it, strictly in order) when the connection returns, also after a page reload.
 *
 * Every step is an upsert on the server, so repeating one whose answer was lost is harmless; the
 * only creating step (save-value without wertungenId) is resolved per participant and competition
 * by the server, and once answered its wertungenId is stored, so a retry never asks again.
 */
import { HttpError, NetworkError, type api, type JuryResultSaveResponse, type SaveValueResponse } from '../shared/api.js';
import { localId, type QueueStore } from './queue-store.js';
import type { NewSave, SaveJob, SaveStep } from './save-job.js';

export type { ExpectedValues, NewSave, SaveJob, SaveStep } from './save-job.js';

/** The two saves a job's steps send, as `web/shared/api.ts` declares them. */
export type SaveTransport = Pick<typeof api, 'saveValue' | 'saveJuryResult'>;

export interface SaveQueueListener {
  /** The set of jobs or their state changed (enqueued, step done, waiting, finished). */
  onChange(jobs: readonly SaveJob[], waiting: boolean): void;
  /** The server acknowledged the last step; `response` is its answer to the detail save. */
  onSaved(job: SaveJob, response: SaveValueResponse): void;
  /** The server refused a step for good (4xx); the job is dropped so later ones can go. */
  onRejected(job: SaveJob, error: Error): void;
}

const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 5_000];

/**
 * Saves in the spec's order: create when needed; field values; final into the final field; final
 * into the detail. A panel judge's save (final null) is the field alone: the service computes the rest.
 */
export function planSteps(save: Pick<NewSave, 'wertungenId' | 'values' | 'finalFieldId' | 'finalScore'>): SaveStep[] {
  const fields = save.values.map(({ fieldId, value }) => ({ kind: 'field', fieldId, value }) as const);
  const create = save.wertungenId === null ? [{ kind: 'create' } as const] : [];
  if (save.finalScore === null) return [...create, ...fields];
  return [
    ...create,
    ...fields,
    ...(save.finalFieldId === null ? [] : [{ kind: 'field', fieldId: save.finalFieldId, value: save.finalScore } as const]),
    { kind: 'detail' },
  ];
}

/** The value a 409 reports as stored now (`current` of the contract body plus issue 17). */
export function conflictCurrent(error: unknown): { current: number | null } | null {
  if (!(error instanceof HttpError) || error.status !== 409 || !error.body || !('current' in error.body)) return null;
  const current = error.body.current;
  return { current: typeof current === 'number' ? current : null };
}

/**
 * A step repeated after its answer was lost, or a value a reader synced meanwhile, meets its own
 * value on the server: that 409 means the step is done, not that someone else changed it.
 */
async function ownValueAccepted<T>(value: number, send: () => Promise<T>, done?: () => T): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const conflict = conflictCurrent(error);
    if (conflict && conflict.current !== null && Math.fround(conflict.current) === Math.fround(value))
      return (done ?? (() => undefined as T))();
    throw error;
  }
}

function isRetryable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof HttpError && error.retryable);
}

export class SaveQueue {
  private jobs: SaveJob[];
  private running: Promise<void> | null = null;
  private waiting = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;

  constructor(
    private readonly store: QueueStore,
    private readonly transport: SaveTransport,
    private readonly listener: SaveQueueListener,
  ) {
    this.jobs = store.load();
  }

  get pending(): readonly SaveJob[] {
    return this.jobs;
  }

  /** True while the head job could not reach the server and waits for a retry. */
  get isWaiting(): boolean {
    return this.waiting;
  }

  enqueue(save: NewSave): SaveJob {
    const job: SaveJob = {
      id: localId(),
      createdAt: new Date().toISOString(),
      eventId: save.eventId,
      disciplineId: save.disciplineId,
      competitionId: save.competitionId,
      participantId: save.participantId,
      participantKey: save.participantKey,
      label: save.label,
      wertungenId: save.wertungenId ?? this.knownWertungenId(save.participantKey),
      values: save.values,
      finalScore: save.finalScore,
      expected: save.expected,
      steps: [],
      next: 0,
      attempts: 0,
      lastError: null,
    };
    job.steps = planSteps({ ...save, wertungenId: job.wertungenId });
    this.jobs.push(job);
    this.persist();
    void this.drain();
    return job;
  }

  /** Sends now instead of waiting for the retry timer, e.g. when the live connection is back. */
  kick(): void {
    if (this.jobs.length === 0) return;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.drain();
  }

  /** Takes over the waiting saves of portals that were closed, behind this tab's own. */
  adoptOrphans(): void {
    const adopted = this.store.adoptOrphans();
    if (adopted.length === 0) return;
    this.jobs.push(...adopted);
    this.persist();
    this.notify();
    this.kick();
  }

  /** Sends what is queued; while a run is under way, returns that run. */
  drain(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
      this.notify();
      // A job enqueued just as the run ended found it still running; it must not wait for a retry.
      if (this.jobs.length > 0 && !this.waiting) void this.drain();
    });
    return this.running;
  }

  private async run(): Promise<void> {
    while (this.jobs.length > 0) {
      const job = this.jobs[0]!;
      try {
        const response = await this.runRemainingSteps(job);
        this.jobs.shift();
        this.failures = 0;
        this.setWaiting(false);
        this.persist();
        this.listener.onSaved(job, response);
      } catch (error) {
        job.attempts += 1;
        job.lastError = (error as Error).message;
        if (isRetryable(error)) {
          this.persist();
          this.setWaiting(true);
          this.scheduleRetry();
          return;
        }
        this.jobs.shift();
        this.persist();
        this.listener.onRejected(job, error as Error);
      }
    }
    this.setWaiting(false);
  }

  private async runRemainingSteps(job: SaveJob): Promise<SaveValueResponse> {
    let last: SaveValueResponse | null = null;
    /** The final as the service computed it after the last field step (a panel judge's save ends there). */
    let computedFinal: number | null = null;
    while (job.next < job.steps.length) {
      const step = job.steps[job.next]!;
      if (step.kind === 'create') {
        if (job.wertungenId === null) {
          const created = await this.transport.saveValue({
            competitionId: job.competitionId,
            participantId: job.participantId,
            disciplineId: job.disciplineId,
            score: 0,
          });
          this.adoptWertungenId(job.participantKey, created.wertungenId);
        }
      } else if (step.kind === 'field') {
        // Only fields whose stored value the form knew are checked.
        const known = job.expected !== undefined && String(step.fieldId) in job.expected.fields;
        const expected = known ? { expectedPerformance: job.expected!.fields[String(step.fieldId)] ?? null } : {};
        const answer = await ownValueAccepted<JuryResultSaveResponse | undefined>(step.value, () =>
          this.transport.saveJuryResult({
            participantId: this.scoreIdOf(job),
            disciplineFieldId: step.fieldId,
            performance: step.value,
            attempt: 1,
            type: 0,
            ...expected,
          }),
        );
        computedFinal = answer?.finalScore ?? null;
      } else {
        const finalScore = job.finalScore ?? 0;
        const expected = job.expected ? { expectedScore: job.expected.final } : {};
        const body = {
          competitionId: job.competitionId,
          participantId: this.scoreIdOf(job),
          disciplineId: job.disciplineId,
          score: finalScore,
        };
        last = await ownValueAccepted(
          finalScore,
          () => this.transport.saveValue({ ...body, ...expected }),
          () => ({ success: true, wertungenId: body.participantId, score: finalScore }),
        );
      }
      job.next += 1;
      this.persist();
      this.notify();
    }
    // Plans with a final end with the detail step, so `last` is set whenever such a loop ran to its end.
    return last ?? { success: true, wertungenId: this.scoreIdOf(job), score: job.finalScore ?? computedFinal };
  }

  private scoreIdOf(job: SaveJob): number {
    if (job.wertungenId === null) throw new Error(`save of ${job.label} has no score id after its create step`);
    return job.wertungenId;
  }

  /** Later saves of the same participant, queued while the first was offline, need not create again. */
  private adoptWertungenId(participantKey: string, wertungenId: number): void {
    for (const job of this.jobs) if (job.participantKey === participantKey && job.wertungenId === null) job.wertungenId = wertungenId;
  }

  private knownWertungenId(participantKey: string): number | null {
    return this.jobs.find((job) => job.participantKey === participantKey && job.wertungenId !== null)?.wertungenId ?? null;
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== null) return;
    const delay = RETRY_DELAYS_MS[Math.min(this.failures, RETRY_DELAYS_MS.length - 1)]!;
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.drain();
    }, delay);
  }

  private setWaiting(waiting: boolean): void {
    if (this.waiting === waiting) return;
    this.waiting = waiting;
    this.notify();
  }

  private notify(): void {
    this.listener.onChange(this.jobs, this.waiting);
  }

  private persist(): void {
    this.store.save(this.jobs);
  }
}
