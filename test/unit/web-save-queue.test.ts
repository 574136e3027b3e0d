import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError } from '../../web/shared/api.js';
import { QUEUE_KEY_PREFIX, TabQueueStore } from '../../web/jury/queue-store.js';
import { SaveQueue, planSteps, type NewSave, type SaveJob, type SaveTransport } from '../../web/jury/save-queue.js';

class MemoryStorage {
  readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const TAB = 'tab-1';
const storedJobs = (storage: MemoryStorage, tab = TAB) => JSON.parse(storage.getItem(QUEUE_KEY_PREFIX + tab) ?? '[]') as SaveJob[];

type Call = { kind: 'saveValue' | 'saveJuryResult'; body: Record<string, number> };

/** A server that records calls and can be switched off, or made to refuse, call by call. */
class FakeServer implements SaveTransport {
  calls: Call[] = [];
  reachable = true;
  /** Goes away after answering this many more calls. */
  answersLeft = Number.POSITIVE_INFINITY;
  refuseFieldId: number | null = null;
  /** What the service reports as the final after a field save (an E-panel recomputes it). */
  computedFinal: number | null = null;
  private nextScoreId = 500;

  private answer(): void {
    if (this.answersLeft <= 0) this.reachable = false;
    if (!this.reachable) throw new NetworkError('server not reachable');
    this.answersLeft -= 1;
  }

  async saveValue(body: { competitionId: number; participantId: number; disciplineId: number; score: number }) {
    this.answer();
    this.calls.push({ kind: 'saveValue', body: { ...body } });
    const wertungenId = body.participantId >= 500 ? body.participantId : this.nextScoreId++;
    return { success: true, wertungenId, score: body.score };
  }

  async saveJuryResult(body: { participantId: number; disciplineFieldId: number; performance: number; attempt: 1; type: 0 | 1 }) {
    this.answer();
    if (body.disciplineFieldId === this.refuseFieldId) throw new HttpError(400, 'VALIDATION_FAILED', 'field refused');
    this.calls.push({ kind: 'saveJuryResult', body: { ...body } });
    return {
      success: true,
      id: 1,
      wertungenId: body.participantId,
      disciplineFieldId: body.disciplineFieldId,
      performance: body.performance,
      finalScore: this.computedFinal,
    };
  }
}

const save = (overrides: Partial<NewSave> = {}): NewSave => ({
  eventId: 1,
  disciplineId: 7,
  competitionId: 3,
  participantId: 40,
  participantKey: '3:40',
  label: 'Anna Adler',
  wertungenId: 600,
  values: [
    { fieldId: 11, value: 4.5 },
    { fieldId: 12, value: 8.2 },
  ],
  finalFieldId: 19,
  finalScore: 12.7,
  ...overrides,
});

function makeQueue(storage: MemoryStorage, server: FakeServer) {
  const saved: Array<{ job: SaveJob; score: number | null }> = [];
  const rejected: Array<{ job: SaveJob; error: Error }> = [];
  const queue = new SaveQueue(new TabQueueStore(storage, TAB), server, {
    onChange: () => undefined,
    onSaved: (job, response) => saved.push({ job, score: response.score }),
    onRejected: (job, error) => rejected.push({ job, error }),
  });
  return { queue, saved, rejected };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('jury portal save queue', () => {
  it('plans the spec order: create when needed, field values, final into the final field, final into the detail', () => {
    expect(planSteps({ wertungenId: null, values: [{ fieldId: 11, value: 1 }], finalFieldId: 19, finalScore: 5 })).toEqual([
      { kind: 'create' },
      { kind: 'field', fieldId: 11, value: 1 },
      { kind: 'field', fieldId: 19, value: 5 },
      { kind: 'detail' },
    ]);
    expect(planSteps({ wertungenId: 3, values: [], finalFieldId: null, finalScore: 5 })).toEqual([{ kind: 'detail' }]);
  });

  it("plans a panel judge's save as the judge's field alone (the service computes the aggregate and the final)", () => {
    expect(planSteps({ wertungenId: null, values: [{ fieldId: 13, value: 8.5 }], finalFieldId: 19, finalScore: null })).toEqual([
      { kind: 'create' },
      { kind: 'field', fieldId: 13, value: 8.5 },
    ]);
  });

  it("reports the final the service computed after a panel judge's field save", async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    server.computedFinal = 13.6;
    const { queue, saved } = makeQueue(storage, server);
    queue.enqueue(save({ values: [{ fieldId: 13, value: 8.5 }], finalScore: null, expected: { fields: { '13': null }, final: null } }));
    await queue.drain();
    expect(server.calls).toEqual([
      {
        kind: 'saveJuryResult',
        body: { participantId: 600, disciplineFieldId: 13, performance: 8.5, attempt: 1, type: 0, expectedPerformance: null },
      },
    ]);
    expect(saved.map((entry) => entry.score)).toEqual([13.6]);
  });

  it('sends the steps in order with the wertungenId as participantId and reports the acknowledged score', async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    const { queue, saved } = makeQueue(storage, server);
    queue.enqueue(save());
    await queue.drain();
    expect(server.calls).toEqual([
      { kind: 'saveJuryResult', body: { participantId: 600, disciplineFieldId: 11, performance: 4.5, attempt: 1, type: 0 } },
      { kind: 'saveJuryResult', body: { participantId: 600, disciplineFieldId: 12, performance: 8.2, attempt: 1, type: 0 } },
      { kind: 'saveJuryResult', body: { participantId: 600, disciplineFieldId: 19, performance: 12.7, attempt: 1, type: 0 } },
      { kind: 'saveValue', body: { competitionId: 3, participantId: 600, disciplineId: 7, score: 12.7 } },
    ]);
    expect(saved.map((entry) => [entry.job.label, entry.score])).toEqual([['Anna Adler', 12.7]]);
    expect(storage.getItem(QUEUE_KEY_PREFIX + TAB)).toBeNull();
  });

  it('keeps waiting jobs in storage and resumes after a reload at the first unacknowledged step, in order', async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    const first = makeQueue(storage, server);
    // The create step and the first field get through; then the server goes away.
    server.answersLeft = 2;
    first.queue.enqueue(save({ wertungenId: null }));
    first.queue.enqueue(save({ participantId: 41, participantKey: '3:41', label: 'Ben Berg', wertungenId: 601 }));
    await first.queue.drain();
    expect(first.queue.isWaiting).toBe(true);
    const stored = storedJobs(storage);
    expect(stored.map((job) => job.label)).toEqual(['Anna Adler', 'Ben Berg']);
    const callsBeforeReload = server.calls.length;
    expect(callsBeforeReload).toBe(2);
    expect(stored[0]!.next).toBe(2);
    expect(stored[0]!.wertungenId).toBe(500);

    server.answersLeft = Number.POSITIVE_INFINITY;
    server.reachable = true;
    const reloaded = makeQueue(storage, server);
    await reloaded.queue.drain();
    const resent = server.calls.slice(callsBeforeReload);
    // No step is sent twice, the score row is created once, and Anna's save completes before Ben's starts.
    expect(server.calls.filter((call) => call.kind === 'saveValue' && call.body.score === 0)).toHaveLength(1);
    expect(server.calls).toHaveLength(5 + 4);
    expect(resent.at(-1)).toEqual({ kind: 'saveValue', body: { competitionId: 3, participantId: 601, disciplineId: 7, score: 12.7 } });
    expect(reloaded.saved.map((entry) => entry.job.label)).toEqual(['Anna Adler', 'Ben Berg']);
    expect(reloaded.saved[0]!.job.wertungenId).toBe(500);
  });

  it('creates the score row once for two saves of the same participant queued while offline', async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    server.reachable = false;
    const { queue, saved } = makeQueue(storage, server);
    queue.enqueue(save({ wertungenId: null, finalScore: 10 }));
    queue.enqueue(save({ wertungenId: null, finalScore: 11 }));
    await queue.drain();
    server.reachable = true;
    queue.kick();
    await settle();
    await queue.drain();
    expect(server.calls.filter((call) => call.kind === 'saveValue' && call.body.participantId === 40)).toHaveLength(1);
    expect(saved.map((entry) => [entry.job.wertungenId, entry.score])).toEqual([
      [500, 10],
      [500, 11],
    ]);
  });

  it('drops a save the server refuses for good and goes on with the next one', async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    server.refuseFieldId = 12;
    const { queue, saved, rejected } = makeQueue(storage, server);
    queue.enqueue(save());
    queue.enqueue(
      save({ participantId: 41, participantKey: '3:41', label: 'Ben Berg', wertungenId: 601, values: [{ fieldId: 11, value: 1 }] }),
    );
    await queue.drain();
    await settle();
    expect(rejected.map((entry) => [entry.job.label, entry.error.message])).toEqual([['Anna Adler', 'field refused']]);
    expect(saved.map((entry) => entry.job.label)).toEqual(['Ben Berg']);
    expect(queue.pending).toHaveLength(0);
  });

  it('keeps each tab’s queue apart and hands a closed tab’s waiting saves to a live one', async () => {
    const storage = new MemoryStorage();
    const server = new FakeServer();
    server.reachable = false;
    let clock = 1_000_000;
    const closedTab = new SaveQueue(new TabQueueStore(storage, 'closed', () => clock), server, {
      onChange: () => undefined,
      onSaved: () => undefined,
      onRejected: () => undefined,
    });
    closedTab.enqueue(save({ label: 'From the closed tab' }));
    await closedTab.drain();
    const liveStore = new TabQueueStore(storage, 'live', () => clock);
    const saved: Array<{ job: SaveJob; score: number | null }> = [];
    // A tab that is still alive keeps its saves; nobody else touches them.
    expect(liveStore.adoptOrphans()).toEqual([]);
    expect(storedJobs(storage, 'closed').map((job) => job.label)).toEqual(['From the closed tab']);

    clock += 60_000;
    server.reachable = true;
    const adopter = new SaveQueue(liveStore, server, {
      onChange: () => undefined,
      onSaved: (job) => saved.push({ job, score: job.finalScore }),
      onRejected: () => undefined,
    });
    adopter.adoptOrphans();
    await adopter.drain();
    expect(saved.map((entry) => entry.job.label)).toEqual(['From the closed tab']);
    expect(storedJobs(storage, 'closed')).toEqual([]);
    expect([...storage.items.keys()].filter((key) => key.startsWith(QUEUE_KEY_PREFIX))).toEqual([]);
  });
});
