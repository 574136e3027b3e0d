import { api, HttpError, type DisciplineField, type DisciplineSummary, type EventSummary, type ScoreEntry, type ScoreUpdatedEvent } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { applyScoreEvent, computeFinal, fieldLayout, fullName, participantRows, type DisplayStatus, type FieldLayout, type ParticipantRow, type Selection } from './model.js';
import { HEARTBEAT_MS, TabQueueStore } from './queue-store.js';
import { SaveQueue, type SaveJob } from './save-queue.js';
import { participantListView, type ListedRow } from './views/participant-list-view.js';
import { scoringView, type AckState } from './views/scoring-view.js';
import { selectionView } from './views/selection-view.js';
import { statusView } from './views/status-view.js';

const SELECTION_STORAGE_KEY = 'gym.jury.selection.v1';

function readStoredSelection(): Selection {
  try {
    const stored = JSON.parse(localStorage.getItem(SELECTION_STORAGE_KEY) ?? '{}') as Partial<Selection>;
    return { eventId: stored.eventId ?? null, disciplineId: stored.disciplineId ?? null };
  } catch {
    return { eventId: null, disciplineId: null };
  }
}

const timeOfDay = () => new Date().toLocaleTimeString();

/**
 * The jury portal's controller: selection, loading, live events, the save queue and validation.
 * It owns the state; the views (./views/) only render what it hands them and report the judge's
 * actions back through callbacks, so nothing in a view points back here.
 */
export class JuryController {
  private events: EventSummary[] = [];
  private disciplines: DisciplineSummary[] = [];
  private selection: Selection = { eventId: null, disciplineId: null };
  private layout: FieldLayout = { inputs: [], finalField: null };
  private format: ScoreFormat = scoreFormat({ inputMask: null, decimals: null });
  private formula: string | null = null;
  private entries: ScoreEntry[] = [];
  private rows: ParticipantRow[] = [];
  private selectedKey: string | null = null;
  /** Events that arrive while the list reloads are applied again on top of the fresh list. */
  private eventsDuringLoad: ScoreUpdatedEvent[] | null = null;
  private listGeneration = 0;
  private juryLoadKey: string | null = null;
  private juryLoadGeneration = 0;
  /** Typed since the last explicit load or save: a reload must not overwrite the judge's work. */
  private dirty = false;
  private rejected = new Map<string, string>();
  private connection: LiveStatus = 'connecting';
  /** Client setting (spec): false means the single legacy value, typed as the final score only. */
  private useJuryResults = true;

  private readonly feed: LiveFeed;
  private readonly queue: SaveQueue;
  private readonly status = statusView();
  private readonly pickers = selectionView((change) => void this.select({ ...this.selection, ...change }));
  private readonly list = participantListView((key) => this.chooseParticipant(key));
  private readonly scoring = scoringView({
    onTyped: () => {
      this.dirty = true;
    },
    onSubmit: () => this.submit(),
  });

  constructor(private readonly root: HTMLElement) {
    const store = TabQueueStore.forThisTab(localStorage, sessionStorage);
    this.queue = new SaveQueue(store, api, {
      onChange: () => this.renderQueueState(),
      onSaved: (job, response) => this.saved(job, response.wertungenId, response.score ?? job.finalScore),
      onRejected: (job, error) => this.refused(job, error),
    });
    this.feed = new LiveFeed({
      onEvent: (event) => this.liveEvent(event),
      onStatus: (status) => this.connectionChanged(status),
      onResync: () => void this.loadParticipants(),
    });
    window.addEventListener('online', () => this.queue.kick());
    setInterval(() => {
      store.heartbeat();
      this.queue.adoptOrphans();
    }, HEARTBEAT_MS);
  }

  async start(): Promise<void> {
    this.renderShell();
    this.renderQueueState();
    void this.queue.drain();
    try {
      [this.events, this.disciplines, this.useJuryResults] = await Promise.all([
        api.events(),
        api.disciplines(),
        // The setting defaults to true; an older server without the endpoint means the same.
        api.scoreCaptureSetting().then(
          (setting) => setting.value.useJuryResults,
          () => true,
        ),
      ]);
    } catch (error) {
      this.list.message(`Could not load events and devices: ${(error as Error).message}. Reload the page when the server is reachable.`);
      return;
    }
    const stored = readStoredSelection();
    const eventId = [queryInteger('eventId'), stored.eventId].find((id) => id !== null && this.events.some((event) => event.id === id)) ?? this.events[0]?.id ?? null;
    const disciplineId =
      [queryInteger('disciplineId'), stored.disciplineId].find((id) => id !== null && this.disciplines.some((discipline) => discipline.id === id)) ??
      (this.disciplines.find((discipline) => discipline.enabledFieldCount > 0) ?? this.disciplines[0])?.id ??
      null;
    this.pickers.fill(this.events, this.disciplines);
    if (this.events.length === 0) this.list.message('There are no events in the database yet.');
    await this.select({ eventId, disciplineId });
  }

  // ---------------------------------------------------------------- selection and loading

  private async select(next: Selection): Promise<void> {
    const eventChanged = next.eventId !== this.selection.eventId;
    const deviceChanged = next.disciplineId !== this.selection.disciplineId;
    this.selection = next;
    this.pickers.show(next);
    replaceQuery({ eventId: next.eventId, disciplineId: next.disciplineId });
    try {
      localStorage.setItem(SELECTION_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Only a convenience for the next visit.
    }
    if (eventChanged) {
      this.selectedKey = null;
      this.entries = [];
      this.rows = [];
      this.renderList();
    }
    if (deviceChanged) await this.loadDevice();
    if (eventChanged || deviceChanged) {
      this.juryLoadKey = null;
      this.dirty = false;
      this.renderPanel();
    }
    // Joined before loading, so nothing between the load and the join is lost (the join's resync reloads).
    if (eventChanged && next.eventId !== null) this.feed.follow(next.eventId);
    await this.loadParticipants();
  }

  private async loadDevice(): Promise<void> {
    const disciplineId = this.selection.disciplineId;
    const discipline = this.disciplines.find((candidate) => candidate.id === disciplineId) ?? null;
    this.format = scoreFormat(discipline ?? { inputMask: null, decimals: null });
    this.formula = this.useJuryResults ? (discipline?.formula ?? null) : null;
    this.layout = { inputs: [], finalField: null };
    if (disciplineId === null || !this.useJuryResults) return;
    let fields: DisciplineField[];
    try {
      fields = await api.disciplineFields(disciplineId);
    } catch (error) {
      this.list.message(`Could not load the fields of this device: ${(error as Error).message}`);
      return;
    }
    if (disciplineId !== this.selection.disciplineId) return;
    this.layout = fieldLayout(fields, disciplineId);
  }

  private async loadParticipants(): Promise<void> {
    const { eventId } = this.selection;
    if (eventId === null) return;
    const generation = ++this.listGeneration;
    this.eventsDuringLoad = [];
    if (this.rows.length === 0) this.list.message('Loading participants…');
    try {
      const entries = await api.scores(eventId);
      if (generation !== this.listGeneration) return;
      this.entries = entries;
    } catch (error) {
      if (generation !== this.listGeneration) return;
      this.eventsDuringLoad = null;
      this.list.message(`Could not load the participants: ${(error as Error).message}. They load again as soon as the server is back.`);
      return;
    }
    this.rows = participantRows(this.entries, this.selection.disciplineId ?? 0);
    const replay = this.eventsDuringLoad ?? [];
    this.eventsDuringLoad = null;
    for (const event of replay) this.applyEvent(event);
    this.list.message(this.rows.length === 0 ? 'No participants with scores in this event yet.' : '');
    this.renderList();
    if (!this.dirty) this.juryLoadKey = null;
    this.renderPanelStatus();
    void this.loadJuryResults();
  }

  /**
   * Load workflow step 3: only with a wertungenId, a device and at least one field, and again when
   * any of them changes. A save still waiting in the queue is newer than the server, so it wins.
   */
  private async loadJuryResults(): Promise<void> {
    const row = this.selectedRow();
    const disciplineId = this.selection.disciplineId;
    if (!row || disciplineId === null) return;
    const waitingJob = this.latestJobFor(row.key);
    if (waitingJob) {
      if (!this.dirty) this.scoring.fill(new Map(waitingJob.values.map(({ fieldId, value }) => [fieldId, value])), waitingJob.finalScore);
      return;
    }
    if (!this.useJuryResults) {
      if (!this.dirty) this.scoring.fill(new Map(), row.currentScore);
      return;
    }
    if (row.wertungenId === null || this.fieldIds().length === 0) return;
    const key = this.juryKey(row.wertungenId, disciplineId);
    if (key === this.juryLoadKey) return;
    this.juryLoadKey = key;
    const generation = ++this.juryLoadGeneration;
    let results;
    try {
      results = (await api.juryResults(row.wertungenId, disciplineId)).results;
    } catch (error) {
      if (generation === this.juryLoadGeneration) {
        this.juryLoadKey = null;
        this.showAck('error', `Could not load the saved values: ${(error as Error).message}`);
      }
      return;
    }
    if (generation !== this.juryLoadGeneration || this.selectedRow() !== row || this.dirty) return;
    const finalFieldId = this.layout.finalField?.id ?? null;
    const finalResult = results.find((result) => result.isFinalScore || result.fieldId === finalFieldId);
    if (finalResult && typeof finalResult.performance === 'number' && row.currentScore !== null && Math.abs(finalResult.performance - row.currentScore) > 1e-6) {
      console.warn(
        `[jury portal] final jury result ${finalResult.performance} differs from the detail score ${row.currentScore} (wertungenId ${row.wertungenId}, discipline ${disciplineId}); the detail score is authoritative`,
      );
    }
    const values = new Map<number, number>();
    for (const result of results) if (!result.isFinalScore && typeof result.performance === 'number') values.set(result.fieldId, result.performance);
    this.scoring.fill(values, finalResult?.performance ?? null);
  }

  // ---------------------------------------------------------------- live events and the queue

  private liveEvent(event: ScoreUpdatedEvent): void {
    this.eventsDuringLoad?.push(event);
    const row = this.applyEvent(event);
    if (!row) return;
    this.renderList();
    if (row.key === this.selectedKey) this.renderPanelStatus();
  }

  private applyEvent(event: ScoreUpdatedEvent): ParticipantRow | null {
    const { eventId, disciplineId } = this.selection;
    if (eventId === null || disciplineId === null) return null;
    return applyScoreEvent(this.rows, event, { eventId, disciplineId });
  }

  private connectionChanged(status: LiveStatus): void {
    this.connection = status;
    if (status === 'live') this.queue.kick();
    this.renderConnection();
  }

  private saved(job: SaveJob, wertungenId: number, score: number): void {
    this.rejected.delete(job.participantKey);
    const row = this.rows.find((candidate) => candidate.key === job.participantKey);
    const sameView = job.eventId === this.selection.eventId && job.disciplineId === this.selection.disciplineId;
    if (row && sameView) {
      row.wertungenId = wertungenId;
      row.currentScore = score;
      row.status = 'completed';
      if (row.key === this.selectedKey && !this.dirty) {
        // The inputs already show what was saved; remember that instead of loading it back.
        this.juryLoadKey = this.juryKey(wertungenId, job.disciplineId);
      }
    }
    this.renderList();
    this.renderPanelStatus();
    this.showAck('saved', `✓ Saved: ${job.label} — ${this.format.format(score)} (confirmed by the server at ${timeOfDay()})`);
  }

  private refused(job: SaveJob, error: Error): void {
    const status = error instanceof HttpError ? ` (${error.status})` : '';
    this.rejected.set(job.participantKey, error.message);
    this.renderList();
    this.showAck('error', `✗ Not saved: ${job.label} — the server refused it${status}: ${error.message}`);
  }

  private fieldIds(): number[] {
    return [...this.layout.inputs.map((input) => input.field.id), ...(this.layout.finalField ? [this.layout.finalField.id] : [])];
  }

  /** What a load of saved jury results depends on; a new key means the spec wants a reload. */
  private juryKey(wertungenId: number, disciplineId: number): string {
    return `${wertungenId}|${disciplineId}|${this.fieldIds().join(',')}`;
  }

  private latestJobFor(key: string): SaveJob | undefined {
    return [...this.queue.pending].reverse().find((job) => job.participantKey === key && job.disciplineId === this.selection.disciplineId);
  }

  // ---------------------------------------------------------------- saving

  private submit(): void {
    const row = this.selectedRow();
    const { eventId, disciplineId } = this.selection;
    if (!row || eventId === null || disciplineId === null) return;
    const collected = this.scoring.collect();
    if (!collected.ok) {
      this.showAck('error', collected.error);
      return;
    }
    const { values } = collected;
    let finalScore = collected.manualFinal;
    if (finalScore === null) {
      finalScore = computeFinal(this.formula, values.map((entry) => entry.value));
      if (finalScore === null) {
        this.showAck('error', `The formula ${this.formula ?? ''} gives no score for these values; nothing was saved.`);
        return;
      }
      finalScore = this.format.round(finalScore);
    }
    this.dirty = false;
    this.rejected.delete(row.key);
    this.showAck('saving', `Saving ${fullName(row)} — ${this.format.format(finalScore)}…`);
    this.queue.enqueue({
      eventId,
      disciplineId,
      competitionId: row.competitionId,
      participantId: row.participantId,
      participantKey: row.key,
      label: fullName(row),
      wertungenId: row.wertungenId,
      values,
      finalFieldId: this.layout.finalField?.id ?? null,
      finalScore,
    });
  }

  private selectedRow(): ParticipantRow | undefined {
    return this.selectedKey === null ? undefined : this.rows.find((row) => row.key === this.selectedKey);
  }

  private chooseParticipant(key: string): void {
    if (key !== this.selectedKey) {
      this.selectedKey = key;
      this.juryLoadKey = null;
      this.dirty = false;
      this.renderList();
      this.renderPanel();
      void this.loadJuryResults();
    }
    this.scoring.focusFirst();
  }

  // ---------------------------------------------------------------- rendering

  private renderShell(): void {
    const header = h('header', { class: 'topbar' }, h('h1', {}, 'Jury portal'), this.status.pill, buildBadges(api.version));
    this.root.replaceChildren(header, h('main', {}, this.pickers.element, this.status.banner, h('div', { class: 'layout' }, this.list.element, this.scoring.element)));
    this.renderPanel();
  }

  private waitingCount(): number {
    return this.queue.pending.length > 0 && this.queue.isWaiting ? this.queue.pending.length : 0;
  }

  private renderConnection(): void {
    this.status.render({ connection: this.connection, waitingCount: this.waitingCount() });
  }

  private renderQueueState(): void {
    this.renderConnection();
    this.renderList();
    const selected = this.selectedRow();
    if (selected && this.waitingCount() > 0 && this.latestJobFor(selected.key)) {
      this.showAck('waiting', `◷ Waiting: ${fullName(selected)} is kept on this device and sent when the server is back.`);
    }
    this.renderPanelStatus();
  }

  private displayStatus(row: ParticipantRow): DisplayStatus {
    if (this.queue.pending.some((job) => job.participantKey === row.key && job.disciplineId === this.selection.disciplineId && job.eventId === this.selection.eventId)) return 'waiting';
    if (this.rejected.has(row.key)) return 'error';
    return row.status;
  }

  private listed(row: ParticipantRow): ListedRow {
    const status = this.displayStatus(row);
    switch (status) {
      case 'waiting':
        return { row, status, icon: '◷', text: 'waiting' };
      case 'error':
        return { row, status, icon: '⚠', text: 'not saved' };
      case 'completed':
        return { row, status, icon: '✓', text: row.currentScore === null ? 'completed' : this.format.format(row.currentScore) };
      default:
        return { row, status, icon: '○', text: 'pending' };
    }
  }

  private renderList(): void {
    this.list.render(
      this.rows.map((row) => this.listed(row)),
      this.selectedKey,
    );
  }

  private renderPanel(): void {
    this.scoring.render({ row: this.selectedRow(), layout: this.layout, format: this.format, formula: this.formula, useJuryResults: this.useJuryResults });
    this.renderPanelStatus();
  }

  private renderPanelStatus(): void {
    const row = this.selectedRow();
    if (!row) return;
    const { status, icon, text } = this.listed(row);
    this.scoring.status(status, `${icon} ${text}${row.clubName ? ` · ${row.clubName}` : ''}`);
  }

  private showAck(state: AckState, message: string): void {
    this.scoring.ack(state, message);
  }
}
