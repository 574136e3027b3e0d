import '../shared/base.css';
import './jury.css';
import { api, HttpError, type DisciplineField, type DisciplineSummary, type EventSummary, type ScoreEntry, type ScoreUpdatedEvent } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { applyScoreEvent, computeFinal, fieldLayout, formulaUsable, participantRows, type FieldLayout, type ParticipantRow } from './model.js';
import { HEARTBEAT_MS, TabQueueStore } from './queue-store.js';
import { SaveQueue, type SaveJob } from './save-queue.js';

const SELECTION_STORAGE_KEY = 'gym.jury.selection.v1';

interface Selection {
  eventId: number | null;
  disciplineId: number | null;
}

interface InputView {
  input: HTMLInputElement;
  error: HTMLElement;
  fieldId: number | null;
  label: string;
}

function readStoredSelection(): Selection {
  try {
    const stored = JSON.parse(localStorage.getItem(SELECTION_STORAGE_KEY) ?? '{}') as Partial<Selection>;
    return { eventId: stored.eventId ?? null, disciplineId: stored.disciplineId ?? null };
  } catch {
    return { eventId: null, disciplineId: null };
  }
}

const fullName = (row: Pick<ParticipantRow, 'firstName' | 'lastName'>) => `${row.firstName} ${row.lastName}`.trim() || 'Unnamed participant';
const disciplineLabel = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;
const timeOfDay = () => new Date().toLocaleTimeString();

class JuryPortal {
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
  private inputViews: InputView[] = [];
  private manualFinal: InputView | null = null;
  /** Typed since the last explicit load or save: a reload must not overwrite the judge's work. */
  private dirty = false;
  private rejected = new Map<string, string>();
  private connection: LiveStatus = 'connecting';
  /** Client setting (spec): false means the single legacy value, typed as the final score only. */
  private useJuryResults = true;

  private readonly feed: LiveFeed;
  private readonly queue: SaveQueue;

  private readonly connectionPill = h('span', { class: 'connection', 'data-status': 'connecting', role: 'status' }, 'Connecting…');
  private readonly eventSelect = h('select', { id: 'event-select', name: 'eventId' });
  private readonly deviceSelect = h('select', { id: 'device-select', name: 'disciplineId' });
  private readonly queueBanner = h('div', { class: 'queue-banner', role: 'status', 'aria-live': 'polite', hidden: true });
  private readonly list = h('ul', { class: 'participant-list', 'aria-label': 'Participants' });
  private readonly listMessage = h('p', { class: 'list-message', role: 'status' });
  private readonly panel = h('section', { class: 'scoring', 'aria-labelledby': 'scoring-title' });
  private readonly ack = h('p', { class: 'ack', role: 'status', 'aria-live': 'polite', 'data-state': 'idle' });
  private finalOutput = h('output', { id: 'final-score', class: 'final-value' }, '—');

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
      this.listMessage.textContent = `Could not load events and devices: ${(error as Error).message}. Reload the page when the server is reachable.`;
      return;
    }
    const stored = readStoredSelection();
    const eventId = [queryInteger('eventId'), stored.eventId].find((id) => id !== null && this.events.some((event) => event.id === id)) ?? this.events[0]?.id ?? null;
    const disciplineId =
      [queryInteger('disciplineId'), stored.disciplineId].find((id) => id !== null && this.disciplines.some((discipline) => discipline.id === id)) ??
      (this.disciplines.find((discipline) => discipline.enabledFieldCount > 0) ?? this.disciplines[0])?.id ??
      null;
    this.fillPickers();
    await this.select({ eventId, disciplineId });
  }

  // ---------------------------------------------------------------- selection and loading

  private async select(next: Selection): Promise<void> {
    const eventChanged = next.eventId !== this.selection.eventId;
    const deviceChanged = next.disciplineId !== this.selection.disciplineId;
    this.selection = next;
    this.eventSelect.value = next.eventId === null ? '' : String(next.eventId);
    this.deviceSelect.value = next.disciplineId === null ? '' : String(next.disciplineId);
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
      this.listMessage.textContent = `Could not load the fields of this device: ${(error as Error).message}`;
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
    if (this.rows.length === 0) this.listMessage.textContent = 'Loading participants…';
    try {
      const entries = await api.scores(eventId);
      if (generation !== this.listGeneration) return;
      this.entries = entries;
    } catch (error) {
      if (generation !== this.listGeneration) return;
      this.eventsDuringLoad = null;
      this.listMessage.textContent = `Could not load the participants: ${(error as Error).message}. They load again as soon as the server is back.`;
      return;
    }
    this.rows = participantRows(this.entries, this.selection.disciplineId ?? 0);
    const replay = this.eventsDuringLoad ?? [];
    this.eventsDuringLoad = null;
    for (const event of replay) this.applyEvent(event);
    this.listMessage.textContent = this.rows.length === 0 ? 'No participants with scores in this event yet.' : '';
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
      if (!this.dirty) this.fillInputs(new Map(waitingJob.values.map(({ fieldId, value }) => [fieldId, value])), waitingJob.finalScore);
      return;
    }
    if (!this.useJuryResults) {
      if (!this.dirty) this.fillInputs(new Map(), row.currentScore);
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
    this.fillInputs(values, finalResult?.performance ?? null);
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
    const values: { fieldId: number; value: number }[] = [];
    for (const view of this.inputViews) {
      const value = this.normalizeInput(view);
      if (value === null) {
        this.showAck('error', `Field ${view.label} needs a value (e.g. ${this.format.example}).`);
        view.input.focus();
        return;
      }
      values.push({ fieldId: view.fieldId ?? 0, value });
    }
    let finalScore: number | null;
    if (this.manualFinal) {
      finalScore = this.normalizeInput(this.manualFinal);
      if (finalScore === null) {
        this.showAck('error', `The final score needs a value (e.g. ${this.format.example}).`);
        this.manualFinal.input.focus();
        return;
      }
    } else {
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

  /** Input mask rules 7-8: normalised on blur (and before a save), never while typing. */
  private normalizeInput(view: InputView): number | null {
    const typed = view.input.value.trim();
    if (typed === '') {
      this.setInputError(view, null);
      return null;
    }
    const result = this.format.normalize(typed);
    if (!result.ok) {
      this.setInputError(view, result.error);
      return null;
    }
    view.input.value = result.text;
    this.setInputError(view, null);
    return result.value;
  }

  private setInputError(view: InputView, message: string | null): void {
    view.error.textContent = message ?? '';
    view.error.hidden = message === null;
    if (message === null) view.input.removeAttribute('aria-invalid');
    else view.input.setAttribute('aria-invalid', 'true');
  }

  private updateLiveFinal(): void {
    if (this.manualFinal) return;
    const values = this.inputViews.map((view) => {
      const typed = view.input.value.trim();
      if (typed === '') return null;
      const result = this.format.normalize(typed);
      return result.ok ? result.value : null;
    });
    const final = computeFinal(this.formula, values);
    this.finalOutput.textContent = final === null ? '—' : this.format.format(this.format.round(final));
    this.finalOutput.dataset.value = final === null ? '' : String(this.format.round(final));
  }

  private fillInputs(values: Map<number, number>, finalValue: number | null): void {
    for (const view of this.inputViews) {
      const value = view.fieldId === null ? undefined : values.get(view.fieldId);
      view.input.value = value === undefined ? '' : this.format.format(value);
      this.setInputError(view, null);
    }
    if (this.manualFinal) this.manualFinal.input.value = finalValue === null ? '' : this.format.format(finalValue);
    this.updateLiveFinal();
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
    this.inputViews[0]?.input.focus();
    this.panel.scrollIntoView({ block: 'nearest' });
  }

  // ---------------------------------------------------------------- rendering

  private renderShell(): void {
    const header = h('header', { class: 'topbar' }, h('h1', {}, 'Jury portal'), this.connectionPill, buildBadges(api.version));
    const eventLabel = h('label', { for: 'event-select' }, 'Event');
    const deviceLabel = h('label', { for: 'device-select' }, 'Device');
    this.eventSelect.addEventListener('change', () => void this.select({ ...this.selection, eventId: Number(this.eventSelect.value) || null }));
    this.deviceSelect.addEventListener('change', () => void this.select({ ...this.selection, disciplineId: Number(this.deviceSelect.value) || null }));
    const pickers = h('div', { class: 'pickers' }, h('div', { class: 'picker' }, eventLabel, this.eventSelect), h('div', { class: 'picker' }, deviceLabel, this.deviceSelect));
    const participants = h('section', { class: 'participants', 'aria-labelledby': 'participants-title' }, h('h2', { id: 'participants-title' }, 'Participants'), this.listMessage, this.list);
    this.root.replaceChildren(header, h('main', {}, pickers, this.queueBanner, h('div', { class: 'layout' }, participants, this.panel)));
    this.renderPanel();
  }

  private fillPickers(): void {
    this.eventSelect.replaceChildren(...this.events.map((event) => h('option', { value: event.id }, event.name)));
    this.deviceSelect.replaceChildren(...this.disciplines.map((discipline) => h('option', { value: discipline.id }, disciplineLabel(discipline))));
    if (this.events.length === 0) this.listMessage.textContent = 'There are no events in the database yet.';
  }

  private renderConnection(): void {
    const waiting = this.queue.pending.length > 0 && this.queue.isWaiting;
    const texts: Record<LiveStatus, string> = { live: '● Live', connecting: '◌ Connecting…', offline: '○ Offline' };
    // Connected but saves still fail (e.g. the database is down): not the all-clear colour.
    this.connectionPill.dataset.status = waiting && this.connection === 'live' ? 'connecting' : this.connection;
    this.connectionPill.textContent = waiting && this.connection === 'live' ? '● Live · saves waiting' : texts[this.connection];
  }

  private renderQueueState(): void {
    const count = this.queue.pending.length;
    const waiting = count > 0 && this.queue.isWaiting;
    this.queueBanner.hidden = !waiting;
    this.queueBanner.textContent = waiting
      ? `${count} ${count === 1 ? 'save is' : 'saves are'} waiting for the server. ${count === 1 ? 'It is' : 'They are'} kept on this device and sent in order as soon as the server is reachable again.`
      : '';
    this.renderConnection();
    this.renderList();
    const selected = this.selectedRow();
    if (selected && waiting && this.latestJobFor(selected.key)) {
      this.showAck('waiting', `◷ Waiting: ${fullName(selected)} is kept on this device and sent when the server is back.`);
    }
    this.renderPanelStatus();
  }

  private displayStatus(row: ParticipantRow): 'pending' | 'completed' | 'waiting' | 'error' {
    if (this.queue.pending.some((job) => job.participantKey === row.key && job.disciplineId === this.selection.disciplineId && job.eventId === this.selection.eventId)) return 'waiting';
    if (this.rejected.has(row.key)) return 'error';
    return row.status;
  }

  private statusText(row: ParticipantRow): { icon: string; text: string } {
    switch (this.displayStatus(row)) {
      case 'waiting':
        return { icon: '◷', text: 'waiting' };
      case 'error':
        return { icon: '⚠', text: 'not saved' };
      case 'completed':
        return { icon: '✓', text: row.currentScore === null ? 'completed' : this.format.format(row.currentScore) };
      default:
        return { icon: '○', text: 'pending' };
    }
  }

  private renderList(): void {
    const focusedKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.participantKey : undefined;
    const items = this.rows.map((row) => {
      const status = this.displayStatus(row);
      const { icon, text } = this.statusText(row);
      const button = h(
        'button',
        {
          type: 'button',
          class: 'participant',
          'data-participant-key': row.key,
          'data-participant-id': row.participantId,
          'data-status': status,
          'aria-pressed': row.key === this.selectedKey ? 'true' : 'false',
        },
        h('span', { class: 'start-number' }, row.startNumber),
        h('span', { class: 'who' }, h('span', { class: 'name' }, fullName(row)), h('span', { class: 'club' }, row.clubName)),
        h('span', { class: 'status', title: status }, h('span', { class: 'status-icon', 'aria-hidden': 'true' }, icon), h('span', { class: 'status-text' }, text)),
      );
      button.addEventListener('click', () => this.chooseParticipant(row.key));
      return h('li', {}, button);
    });
    this.list.replaceChildren(...items);
    if (focusedKey) this.list.querySelector<HTMLElement>(`[data-participant-key="${focusedKey}"]`)?.focus();
  }

  /** Rebuilt only when the participant or the device changes: events never touch the inputs. */
  private renderPanel(): void {
    const row = this.selectedRow();
    this.inputViews = [];
    this.manualFinal = null;
    this.finalOutput = h('output', { id: 'final-score', class: 'final-value', 'aria-live': 'polite' }, '—');
    if (!row) {
      this.panel.replaceChildren(h('h2', { id: 'scoring-title' }, 'Scoring'), h('p', { class: 'hint' }, 'Choose a participant to enter the scores.'), this.ack);
      return;
    }
    const makeInput = (id: string, label: string, name: string, fieldId: number | null): { view: InputView; element: HTMLElement } => {
      const input = h('input', {
        id,
        name,
        type: 'text',
        inputmode: this.format.inputMode,
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: this.format.example,
        'aria-describedby': `${id}-error`,
        'data-field-id': fieldId,
      });
      const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
      const view: InputView = { input, error, fieldId, label };
      input.addEventListener('input', () => {
        this.dirty = true;
        this.updateLiveFinal();
      });
      input.addEventListener('blur', () => {
        this.normalizeInput(view);
        this.updateLiveFinal();
      });
      const labelElement = h('label', { for: id }, h('span', { class: 'letter' }, label), h('span', { class: 'field-name' }, name));
      return { view, element: h('div', { class: 'field' }, labelElement, input, error) };
    };
    const fields = this.layout.inputs.map(({ letter, field }) => {
      const { view, element } = makeInput(`field-${letter}`, letter, field.name ?? field.shortName ?? `Field ${letter}`, field.id);
      this.inputViews.push(view);
      return element;
    });
    let finalBlock: HTMLElement;
    if (formulaUsable(this.formula, this.layout.inputs.length)) {
      finalBlock = h('div', { class: 'final' }, h('span', { class: 'final-label' }, 'Final score'), this.finalOutput, h('span', { class: 'formula' }, `Formula: ${this.formula}`));
    } else {
      const { view, element } = makeInput('field-final', 'Final', this.layout.finalField?.name ?? 'Final score', this.layout.finalField?.id ?? null);
      this.manualFinal = view;
      const why = !this.useJuryResults
        ? 'Single-value scoring (useJuryResults is off): type the final score.'
        : this.formula === null
          ? 'No formula: type the final score.'
          : `Formula ${this.formula} cannot be used: type the final score.`;
      finalBlock = h('div', { class: 'final final--manual' }, element, h('span', { class: 'formula' }, why));
    }
    const save = h('button', { type: 'submit', class: 'save', id: 'save-button' }, 'Save');
    const form = h('form', { class: 'score-form', novalidate: true, autocomplete: 'off' }, h('div', { class: 'fields' }, ...fields), finalBlock, save);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    const title = h('h2', { id: 'scoring-title' }, fullName(row), row.startNumber ? h('span', { class: 'title-number' }, ` #${row.startNumber}`) : null);
    const status = h('p', { class: 'panel-status' });
    this.panel.replaceChildren(title, status, form, this.ack);
    this.renderPanelStatus();
    this.updateLiveFinal();
  }

  private renderPanelStatus(): void {
    const row = this.selectedRow();
    const status = this.panel.querySelector<HTMLElement>('.panel-status');
    if (!row || !status) return;
    const { icon, text } = this.statusText(row);
    status.dataset.status = this.displayStatus(row);
    status.textContent = `${icon} ${text}${row.clubName ? ` · ${row.clubName}` : ''}`;
  }

  private showAck(state: 'saved' | 'saving' | 'waiting' | 'error', message: string): void {
    this.ack.dataset.state = state;
    this.ack.textContent = message;
  }
}

const root = document.getElementById('app');
if (root) void new JuryPortal(root).start();
