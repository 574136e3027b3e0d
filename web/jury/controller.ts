import {
  api,
  eventScore,
  HttpError,
  type CompetitionSummary,
  type DisciplineField,
  type DisciplineSummary,
  type EventSummary,
  type ScoreEntry,
  type ScoreUpdatedEvent,
} from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { judgeNameControl } from './judge-name-control.js';
import { h, queryInteger } from '../shared/dom.js';
import { decimalSeparator, languageSwitch, t, timeOfDay } from '../shared/i18n.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { maskClass } from '../../src/domain/input-mask.js';
import {
  applyDeviation,
  deviationFromState,
  deviationKey,
  type PanelDeviation,
  type PanelProgress,
  type PanelSettings,
  type PanelState,
} from '../shared/panel.js';
import { deviationAlert } from '../shared/deviation-view.js';
import {
  applyScoreEvent,
  computeFinal,
  devicesOfCompetition,
  entriesForDevice,
  fieldLayout,
  fieldValues,
  formulaValues,
  fullName,
  judgeValue,
  nextPending,
  participantKey,
  participantRows,
  plausibleRange,
  type DisplayStatus,
  type FieldLayout,
  type ParticipantRow,
  type Selection,
} from './model.js';
import { HEARTBEAT_MS, TabQueueStore } from './queue-store.js';
import { conflictCurrent, SaveQueue, type ExpectedValues, type NewSave, type SaveJob } from './save-queue.js';
import { panelSummaryView } from './views/panel-view.js';
import { participantListView, type ListedRow } from './views/participant-list-view.js';
import { scoringView, type AckState } from './views/scoring-view.js';
import { selectionView } from './views/selection-view.js';
import { statusView } from './views/status-view.js';

const SELECTION_STORAGE_KEY = 'gym.jury.selection.v2';
const NO_SELECTION: Selection = { eventId: null, competitionId: null, disciplineId: null, squad: null };

function readStoredSelection(): Selection {
  try {
    const stored = JSON.parse(localStorage.getItem(SELECTION_STORAGE_KEY) ?? '{}') as Partial<Selection>;
    return { ...NO_SELECTION, ...stored };
  } catch {
    return NO_SELECTION;
  }
}

/** The selection as the address says it, else as stored for this browser. */
function wantedSelection(): Selection {
  const stored = readStoredSelection();
  const squad = new URLSearchParams(window.location.search).get('squad');
  return {
    eventId: queryInteger('eventId') ?? stored.eventId,
    competitionId: queryInteger('competitionId') ?? stored.competitionId,
    disciplineId: queryInteger('disciplineId') ?? stored.disciplineId,
    squad: squad !== null ? squad || null : stored.squad,
  };
}

function keepSelection(selection: Selection): void {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(selection)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  window.history.replaceState(null, '', url);
  try {
    localStorage.setItem(SELECTION_STORAGE_KEY, JSON.stringify(selection));
  } catch {
    // Only a convenience for the next visit.
  }
}

const same = (a: number | null | undefined, b: number | null | undefined) =>
  (a ?? null) === null || (b ?? null) === null ? (a ?? null) === (b ?? null) : Math.fround(a!) === Math.fround(b!);

/**
 * The jury portal's controller: selection, loading, live events, the save queue and validation.
 * It owns the state; the views (./views/) only render what it hands them and report the judge's
 * actions back through callbacks, so nothing in a view points back here.
 */
export class JuryController {
  private events: EventSummary[] = [];
  private disciplines: DisciplineSummary[] = [];
  private competitions: CompetitionSummary[] = [];
  private eventSquads: Array<{ name: string; participantIds: Set<number> }> = [];
  private selection: Selection = NO_SELECTION;
  private layout: FieldLayout = { inputs: [], finalField: null };
  private format: ScoreFormat = scoreFormat({ inputMask: null, decimals: null });
  private formula: string | null = null;
  /** Score entries of the selected competition (all devices, all squads). */
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
  /** The stored values the selected participant's form is based on (sent as the optimistic check). */
  private baseline: ExpectedValues | null = null;
  /** The last final score this tab saved per participant: its own live event is no news. */
  private readonly ownScores = new Map<string, number>();
  /** Jobs saved from this tab's form: their confirmation moves on to the next participant. */
  private readonly advanceAfter = new Set<string>();
  private deviceLoading = false;
  /** `&field=`: an E-panel judge's own portal shows this field only (issue 21); null = every field. */
  private readonly judgeFieldId = queryInteger('field');
  /** The judge's stored (or here saved) value per participant key: done for this judge. */
  private judgeValues = new Map<string, number>();
  /** The selected device's E-panel, if it has one. */
  private panelSettings: PanelSettings | null = null;
  /** Per participant key: the panel as the reads say, or as the last judge's save reported it. */
  private readonly panelStates = new Map<string, PanelState | PanelProgress>();
  /** The selected participant's panel with every judge's value (from GET /api/jury-results). */
  private selectedPanel: PanelState | null = null;
  private panelGeneration = 0;
  /** Open deviations of the event (head judge's view), keyed by score, device and attempt. */
  private readonly deviations = new Map<string, PanelDeviation>();
  private readonly panelSummary = panelSummaryView();
  private readonly pickerSummary = h('summary', { id: 'selection-summary' });
  private readonly alerts = h('div', { class: 'deviation-alerts', id: 'deviation-alerts', 'aria-live': 'assertive' });

  private readonly feed: LiveFeed;
  private readonly queue: SaveQueue;
  private readonly status = statusView();
  private readonly pickers = selectionView((change) => void this.select(change));
  private readonly list = participantListView((key) => this.chooseParticipant(key));
  private readonly scoring = scoringView({
    onTyped: () => {
      this.dirty = true;
    },
    onSubmit: () => this.submit(false),
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
      onPanelDeviation: (message) => {
        if (this.judgeFieldId === null && applyDeviation(this.deviations, message)) this.renderAlerts();
      },
    });
    window.addEventListener('online', () => this.queue.kick());
    setInterval(() => {
      store.heartbeat();
      this.queue.adoptOrphans();
    }, HEARTBEAT_MS);
  }

  private show(value: number): string {
    return this.format.display(value, decimalSeparator);
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
      this.list.message(t('jury.loadFailed', { error: (error as Error).message }));
      return;
    }
    if (this.events.length === 0) {
      this.list.message(t('common.noEvents'));
      return;
    }
    const wanted = wantedSelection();
    const eventId = this.events.some((event) => event.id === wanted.eventId) ? wanted.eventId : this.events[0]!.id;
    await this.select({ ...wanted, eventId }, true);
  }

  // ---------------------------------------------------------------- selection and loading

  /**
   * Applies a change of the selection from the top down: a new event loads its competitions, a
   * new competition its score rows and so its devices and squads, a new device its fields.
   */
  private async select(change: Partial<Selection>, initial = false): Promise<void> {
    const next: Selection = { ...this.selection, ...change };
    const eventChanged = initial || next.eventId !== this.selection.eventId;
    if (eventChanged && next.eventId !== null) {
      await this.loadEventLists(next.eventId);
      if (!this.competitions.some((competition) => competition.id === next.competitionId))
        next.competitionId = this.competitions[0]?.id ?? null;
    }
    const competitionChanged = eventChanged || next.competitionId !== this.selection.competitionId;
    this.selection = next;
    if (competitionChanged) {
      this.selectedKey = null;
      this.entries = [];
      this.rows = [];
      this.renderList();
      await this.loadEntries();
    }
    const replay = this.eventsDuringLoad ?? [];
    this.eventsDuringLoad = null;
    const devices = this.devices();
    if (!devices.some((device) => device.id === this.selection.disciplineId)) this.selection.disciplineId = devices[0]?.id ?? null;
    const squads = this.squads();
    if (this.selection.squad !== null && !squads.includes(this.selection.squad)) this.selection.squad = null;
    const deviceChanged = initial || competitionChanged || change.disciplineId !== undefined;
    this.pickers.fill({ events: this.events, competitions: this.competitions, devices, squads });
    this.pickers.show(this.selection);
    this.pickerSummary.textContent = [
      this.discipline()?.displayName || this.discipline()?.name,
      this.competitions.find((competition) => competition.id === this.selection.competitionId)?.name,
      this.selection.squad,
    ]
      .filter(Boolean)
      .join(' · ');
    keepSelection(this.selection);
    if (deviceChanged) {
      // The old device's inputs go at once, so nothing is typed into them while the new fields load.
      this.deviceLoading = true;
      this.renderPanel();
      await this.loadDevice();
      this.deviceLoading = false;
    }
    this.juryLoadKey = null;
    this.dirty = false;
    this.rebuildRows();
    for (const event of replay) this.applyEvent(event);
    if (this.selectedKey !== null && !this.rows.some((row) => row.key === this.selectedKey)) this.selectedKey = null;
    this.renderPanel();
    this.renderList();
    this.renderAlerts();
    this.followCurrent();
    // Joined before loading, so nothing between the load and the join is lost (the join's resync reloads).
    if (eventChanged && next.eventId !== null) this.feed.follow(next.eventId);
    void this.loadJuryResults();
  }

  private async loadEventLists(eventId: number): Promise<void> {
    const [competitions, squads] = await Promise.all([
      api.competitions(eventId).catch(() => [] as CompetitionSummary[]),
      api.squads(eventId).catch(() => ({ squads: [] })),
    ]);
    this.competitions = competitions.filter((competition) => !competition.isGroupCompetition);
    this.eventSquads = squads.squads.map((squad) => ({
      name: squad.name,
      participantIds: new Set(squad.participants.map((participant) => participant.id)),
    }));
    if (this.competitions.length === 0) this.list.message(t('jury.noCompetitions'));
  }

  /** The devices of the selected competition, as its planned detail rows name them (all when they plan none). */
  private devices(): DisciplineSummary[] {
    const ids = devicesOfCompetition(this.entries);
    return ids === null ? this.disciplines : this.disciplines.filter((discipline) => ids.has(discipline.id));
  }

  /** Squads with at least one participant of the selected competition. */
  private squads(): string[] {
    const participants = new Set(this.entries.map((entry) => entry.participantId));
    return this.eventSquads.filter((squad) => [...squad.participantIds].some((id) => participants.has(id))).map((squad) => squad.name);
  }

  private rebuildRows(): void {
    const disciplineId = this.selection.disciplineId ?? 0;
    const squad = this.selection.squad === null ? null : this.eventSquads.find((candidate) => candidate.name === this.selection.squad);
    const forDevice = entriesForDevice(this.entries, disciplineId);
    this.rows = participantRows(
      squad ? forDevice.filter((entry) => squad.participantIds.has(entry.participantId)) : forDevice,
      disciplineId,
    );
    this.judgeValues = this.judgeFieldId === null ? new Map() : fieldValues(this.entries, disciplineId, this.judgeFieldId);
    this.panelStates.clear();
    for (const key of [...this.deviations.keys()]) if (this.deviations.get(key)!.disciplineId === disciplineId) this.deviations.delete(key);
    for (const entry of this.entries) {
      if (entry.disciplineId !== disciplineId) continue;
      const state = entry.panel;
      if (!state) continue;
      this.panelStates.set(participantKey(entry.competitionId, entry.participantId), state);
      const open = deviationFromState(entry.id, disciplineId, state);
      if (open) this.deviations.set(deviationKey(open), open);
    }
  }

  /** A judge's portal follows the competition: the first participant still without their value. */
  private followCurrent(): void {
    if (this.judgeFieldId === null || this.selectedKey !== null) return;
    const next = this.rows.find((row) => this.displayStatus(row) === 'pending');
    if (next) this.chooseParticipant(next.key);
    else if (this.rows.length > 0) this.showAck('idle', t('jury.judgeAllDone'));
  }

  private async loadDevice(): Promise<void> {
    const disciplineId = this.selection.disciplineId;
    const discipline = this.discipline();
    this.format = scoreFormat(discipline ?? { inputMask: null, decimals: null });
    this.formula = this.useJuryResults ? (discipline?.formula ?? null) : null;
    this.panelSettings = this.useJuryResults ? (discipline?.panel ?? null) : null;
    this.layout = { inputs: [], finalField: null };
    if (disciplineId === null || !this.useJuryResults) return;
    let fields: DisciplineField[];
    try {
      fields = await api.disciplineFields(disciplineId);
    } catch (error) {
      this.list.message(t('jury.fieldsFailed', { error: (error as Error).message }));
      return;
    }
    if (disciplineId !== this.selection.disciplineId) return;
    this.layout = fieldLayout(fields, disciplineId, this.panelSettings?.judgeFieldIds ?? []);
  }

  private discipline(): DisciplineSummary | null {
    return this.disciplines.find((candidate) => candidate.id === this.selection.disciplineId) ?? null;
  }

  /** The score rows of the selected competition; false when they could not be loaded. */
  private async loadEntries(): Promise<boolean> {
    const { eventId, competitionId } = this.selection;
    if (eventId === null || competitionId === null) return false;
    const generation = ++this.listGeneration;
    this.eventsDuringLoad = [];
    if (this.rows.length === 0) this.list.message(t('jury.loadingParticipants'));
    try {
      const entries = await api.scores(eventId, { competitionId });
      if (generation !== this.listGeneration) return false;
      this.entries = entries;
    } catch (error) {
      if (generation !== this.listGeneration) return false;
      this.eventsDuringLoad = null;
      this.list.message(t('jury.participantsFailed', { error: (error as Error).message }));
      return false;
    }
    return true;
  }

  private async loadParticipants(): Promise<void> {
    if (!(await this.loadEntries())) return;
    this.rebuildRows();
    const replay = this.eventsDuringLoad ?? [];
    this.eventsDuringLoad = null;
    for (const event of replay) this.applyEvent(event);
    this.list.message(this.rows.length === 0 ? t('jury.noParticipants') : '');
    this.renderList();
    this.renderAlerts();
    if (!this.dirty) this.juryLoadKey = null;
    this.renderPanelStatus();
    this.followCurrent();
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
      if (!this.dirty) {
        this.scoring.fill(new Map(waitingJob.values.map(({ fieldId, value }) => [fieldId, value])), waitingJob.finalScore);
        this.baseline = this.savedBaseline(waitingJob);
      }
      return;
    }
    if (!this.useJuryResults || row.wertungenId === null || this.fieldIds().length === 0) {
      if (!this.dirty) {
        if (!this.useJuryResults) this.scoring.fill(new Map(), row.currentScore);
        this.baseline = { fields: row.wertungenId === null ? this.noneStored() : {}, final: row.currentScore };
      }
      return;
    }
    const key = this.juryKey(row.wertungenId, disciplineId);
    if (key === this.juryLoadKey) return;
    this.juryLoadKey = key;
    const generation = ++this.juryLoadGeneration;
    let results;
    try {
      const answer = await api.juryResults(row.wertungenId, disciplineId);
      results = answer.results;
      if (generation === this.juryLoadGeneration && this.selectedRow() === row) this.showPanel(answer.panel);
    } catch (error) {
      if (generation === this.juryLoadGeneration) {
        this.juryLoadKey = null;
        this.showAck('error', t('jury.loadValuesFailed', { error: (error as Error).message }));
      }
      return;
    }
    if (generation !== this.juryLoadGeneration || this.selectedRow() !== row || this.dirty) return;
    const finalFieldId = this.layout.finalField?.id ?? null;
    const finalResult = results.find((result) => result.isFinalScore || result.fieldId === finalFieldId);
    if (
      finalResult &&
      typeof finalResult.performance === 'number' &&
      row.currentScore !== null &&
      Math.abs(finalResult.performance - row.currentScore) > 1e-6
    ) {
      console.warn(
        `[jury portal] final jury result ${finalResult.performance} differs from the detail score ${row.currentScore} (wertungenId ${row.wertungenId}, discipline ${disciplineId}); the detail score is authoritative`,
      );
    }
    const values = new Map<number, number>();
    for (const result of results)
      if (!result.isFinalScore && typeof result.performance === 'number') values.set(result.fieldId, result.performance);
    this.scoring.fill(values, finalResult?.performance ?? null);
    const fields = this.noneStored();
    for (const result of results) fields[String(result.fieldId)] = typeof result.performance === 'number' ? result.performance : null;
    this.baseline = { fields, final: row.currentScore };
    this.scoring.notice(null);
  }

  /** Every field of the device with "none stored". */
  private noneStored(): Record<string, number | null> {
    return Object.fromEntries(this.fieldIds().map((id) => [String(id), null]));
  }

  /**
   * What is stored once `job` is through: its values, its final in the final field and the detail
   * (a panel judge's job: its field, and the final the service computed, when known).
   */
  private savedBaseline(job: Pick<SaveJob, 'values' | 'finalScore'>, computed: number | null = null): ExpectedValues {
    const fields: Record<string, number | null> = Object.fromEntries(job.values.map(({ fieldId, value }) => [String(fieldId), value]));
    if (job.finalScore === null) return { fields, final: computed };
    if (this.layout.finalField) fields[String(this.layout.finalField.id)] = job.finalScore;
    return { fields, final: job.finalScore };
  }

  // ---------------------------------------------------------------- live events and the queue

  private liveEvent(event: ScoreUpdatedEvent): void {
    this.eventsDuringLoad?.push(event);
    const row = this.applyEvent(event);
    if (!row) return;
    const progress = event.panel;
    if (progress) this.panelStates.set(row.key, { ...this.panelStates.get(row.key), ...progress });
    this.renderList();
    if (row.key !== this.selectedKey) return;
    this.renderPanelStatus();
    // Another judge's value changes the final every time: on a judge's own portal that is no news.
    if (this.judgeFieldId !== null) return;
    if (this.panelSettings !== null && !this.dirty && this.latestJobFor(row.key) === undefined) {
      // Head judge watching a panel fill up, nothing typed: the form follows the stored values (and
      // so does its optimistic check); once the head judge types, the notice below applies instead.
      this.juryLoadKey = null;
      void this.loadJuryResults();
      return;
    }
    void this.refreshSelectedPanel();
    // Someone else's change: say so, and leave the inputs alone (the next save asks before it overwrites).
    const score = eventScore(event);
    const own = this.latestJobFor(row.key) !== undefined || same(score, this.ownScores.get(row.key));
    if (!own && score !== null && this.baseline && !same(score, this.baseline.final)) {
      this.scoring.notice(
        t('jury.changedElsewhere', { score: this.show(score), base: this.baseline.final === null ? '—' : this.show(this.baseline.final) }),
      );
    }
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

  private saved(job: SaveJob, wertungenId: number, score: number | null): void {
    this.rejected.delete(job.participantKey);
    if (score !== null) this.ownScores.set(job.participantKey, score);
    const judgeValue = job.finalScore === null ? job.values.find((entry) => entry.fieldId === this.judgeFieldId) : undefined;
    if (judgeValue) this.judgeValues.set(job.participantKey, judgeValue.value);
    const row = this.rows.find((candidate) => candidate.key === job.participantKey);
    const sameView = job.eventId === this.selection.eventId && job.disciplineId === this.selection.disciplineId;
    const advance = this.advanceAfter.delete(job.id);
    if (row && sameView) {
      row.wertungenId = wertungenId;
      if (score !== null) {
        row.currentScore = score;
        row.status = 'completed';
      }
      if (row.key === this.selectedKey && !this.dirty) {
        // The inputs already show what was saved; remember that instead of loading it back.
        this.juryLoadKey = this.juryKey(wertungenId, job.disciplineId);
        this.baseline = this.savedBaseline(job.finalScore === null ? job : { values: job.values, finalScore: score }, score);
      }
      if (row.key === this.selectedKey) void this.refreshSelectedPanel();
    }
    this.renderList();
    this.renderPanelStatus();
    const shown = judgeValue?.value ?? score;
    this.showAck('saved', t('jury.saved', { name: job.label, score: shown === null ? '—' : this.show(shown), time: timeOfDay() }));
    // Next participant (issue 17, point 2): only after this tab's own confirmed save, and only
    // while the judge is still on that participant without new typing.
    if (advance && row && sameView && row.key === this.selectedKey && !this.dirty) {
      const next = nextPending(this.rows, row.key, (candidate) => this.displayStatus(candidate) === 'pending');
      if (next) this.chooseParticipant(next.key);
    }
  }

  private refused(job: SaveJob, error: Error): void {
    this.advanceAfter.delete(job.id);
    const conflict = conflictCurrent(error);
    this.rejected.set(job.participantKey, error.message);
    this.renderList();
    if (conflict && job.participantKey === this.selectedKey) {
      this.askAboutConflict(job, conflict.current);
      return;
    }
    const status = error instanceof HttpError ? error.status : '—';
    this.showAck('error', t('jury.refused', { name: job.label, status, error: error.message }));
  }

  /** 409 (issue 17, point 3): both values side by side; the judge overwrites knowingly or keeps the stored one. */
  private askAboutConflict(job: SaveJob, current: number | null): void {
    const mine = this.show(job.finalScore ?? job.values[0]?.value ?? 0);
    this.showAck('error', '');
    this.scoring.ask({
      kind: 'conflict',
      message:
        job.finalScore === null
          ? t('jury.conflictField', {
              field: this.judgeLabel(job.values[0]?.fieldId ?? 0),
              name: job.label,
              current: current === null ? '—' : this.show(current),
              mine,
            })
          : t('jury.conflict', { name: job.label, current: current === null ? '—' : this.show(current), mine }),
      actions: [
        {
          id: 'conflict-keep',
          label: t('jury.conflictKeep'),
          run: () => {
            this.rejected.delete(job.participantKey);
            this.dirty = false;
            this.juryLoadKey = null;
            this.showAck('idle', t('jury.keptStored', { current: current === null ? '—' : this.show(current) }));
            void this.loadParticipants();
          },
        },
        {
          id: 'conflict-overwrite',
          label: t('jury.conflictOverwrite', { mine }),
          primary: true,
          run: () => {
            const {
              id: _id,
              createdAt: _created,
              steps: _steps,
              next: _next,
              attempts: _attempts,
              lastError: _error,
              expected: _expected,
              ...save
            } = job;
            this.enqueue({ ...save, finalFieldId: this.layout.finalField?.id ?? null, expected: undefined });
          },
        },
      ],
    });
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

  /** `confirmed`: the judge has seen the plausibility question for these values and saves anyway. */
  private submit(confirmed: boolean): void {
    const row = this.selectedRow();
    const { eventId, disciplineId } = this.selection;
    if (!row || eventId === null || disciplineId === null) return;
    this.scoring.clearPrompt();
    const collected = this.scoring.collect();
    if (!collected.ok) {
      this.showAck('error', collected.error);
      return;
    }
    const { values } = collected;
    let finalScore = collected.manualFinal;
    if (this.judgeFieldId !== null) {
      // The service computes the aggregate and the final from every judge's value.
      finalScore = null;
    } else if (finalScore === null) {
      finalScore = computeFinal(
        this.formula,
        formulaValues(
          this.layout.inputs,
          values.map((entry) => entry.value),
        ),
      );
      if (finalScore === null) {
        this.showAck('error', t('jury.formulaNoScore', { formula: this.formula ?? '' }));
        return;
      }
      finalScore = this.format.round(finalScore);
    }
    if (!this.plausible(values, finalScore, confirmed)) return;
    this.dirty = false;
    this.rejected.delete(row.key);
    const shown = finalScore ?? values[0]?.value ?? null;
    this.showAck('saving', t('jury.saving', { name: fullName(row, t('jury.unnamed')), score: shown === null ? '—' : this.show(shown) }));
    const job = this.enqueue({
      eventId,
      disciplineId,
      competitionId: row.competitionId,
      participantId: row.participantId,
      participantKey: row.key,
      label: fullName(row, t('jury.unnamed')),
      wertungenId: row.wertungenId,
      values,
      finalFieldId: this.layout.finalField?.id ?? null,
      finalScore,
      // Always sent (issue 17): without a known baseline the final is checked against the list's value.
      expected: this.baseline ?? { fields: {}, final: row.currentScore },
    });
    this.advanceAfter.add(job.id);
  }

  private enqueue(save: NewSave): SaveJob {
    this.scoring.notice(null);
    return this.queue.enqueue(save);
  }

  /**
   * Issue 17, point 4: a negative value where none can be is refused; a value outside its usual
   * range is held until the judge confirms it (a typo like 45 for 4.5 never reaches the board).
   */
  private plausible(values: ReadonlyArray<{ fieldId: number; value: number }>, finalScore: number | null, confirmed: boolean): boolean {
    const discipline = this.discipline();
    const isTime = discipline?.inputMask ? maskClass(discipline.inputMask.trim()) === 'time' : false;
    const startValue = discipline?.startValue ?? null;
    const checks = values.map(({ fieldId, value }) => {
      const input = this.layout.inputs.find((candidate) => candidate.field.id === fieldId);
      const name = input?.field.name ?? input?.field.shortName ?? input?.letter ?? '?';
      return {
        label: input ? `${input.letter} (${name})` : name,
        value,
        range: plausibleRange({ kind: 'field', name, shortName: input?.field.shortName ?? null, isTime, startValue }),
      };
    });
    if (finalScore !== null)
      checks.push({
        label: t('jury.finalScore'),
        value: finalScore,
        range: plausibleRange({ kind: 'final', name: 'final', isTime, startValue }),
      });
    const refused = checks.find((check) => judgeValue(check.value, check.range).kind === 'refuse');
    if (refused) {
      this.showAck('error', t('jury.refuseNegative', { field: refused.label, value: this.show(refused.value) }));
      return false;
    }
    const doubtful = checks.filter((check) => judgeValue(check.value, check.range).kind === 'confirm');
    if (doubtful.length === 0 || confirmed) return true;
    const list = doubtful
      .map((check) =>
        t('jury.implausibleItem', {
          field: check.label,
          value: this.show(check.value),
          min: this.show(check.range.min),
          max: this.show(check.range.max),
        }),
      )
      .join('; ');
    this.showAck('error', '');
    this.scoring.ask({
      kind: 'confirm',
      message: t('jury.implausible', { list }),
      actions: [
        { id: 'plausibility-correct', label: t('jury.correct'), primary: true, run: () => this.scoring.focusFirst() },
        { id: 'plausibility-confirm', label: t('jury.saveAnyway'), run: () => this.submit(true) },
      ],
    });
    return false;
  }

  private selectedRow(): ParticipantRow | undefined {
    return this.selectedKey === null ? undefined : this.rows.find((row) => row.key === this.selectedKey);
  }

  private chooseParticipant(key: string): void {
    if (key !== this.selectedKey) {
      this.selectedKey = key;
      this.juryLoadKey = null;
      this.dirty = false;
      this.baseline = null;
      this.selectedPanel = null;
      this.renderList();
      this.renderPanel();
      void this.loadJuryResults();
    }
    this.scoring.focusFirst();
  }

  // ---------------------------------------------------------------- rendering

  private renderShell(): void {
    document.title = t('jury.title');
    const header = h(
      'header',
      { class: 'topbar' },
      h('h1', {}, t('jury.title')),
      this.status.pill,
      judgeNameControl(),
      languageSwitch(),
      buildBadges(api.version),
    );
    this.root.replaceChildren(
      header,
      h(
        'main',
        { class: this.judgeFieldId === null ? '' : 'judge-mode' },
        // On a judge's phone the selection is set by the link: folded away under one line saying what it is.
        this.judgeFieldId === null
          ? this.pickers.element
          : h('details', { class: 'judge-pickers' }, this.pickerSummary, this.pickers.element),
        this.status.banner,
        this.alerts,
        // A judge's own field comes first: on a phone it is all the judge needs.
        this.judgeFieldId === null
          ? h('div', { class: 'layout' }, this.list.element, this.scoring.element)
          : h('div', { class: 'layout' }, this.scoring.element, this.list.element),
      ),
    );
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
      this.showAck('waiting', t('jury.waiting', { name: fullName(selected, t('jury.unnamed')) }));
    }
    this.renderPanelStatus();
  }

  private displayStatus(row: ParticipantRow): DisplayStatus {
    if (
      this.queue.pending.some(
        (job) =>
          job.participantKey === row.key && job.disciplineId === this.selection.disciplineId && job.eventId === this.selection.eventId,
      )
    )
      return 'waiting';
    if (this.rejected.has(row.key)) return 'error';
    if (this.judgeFieldId !== null) return this.judgeValues.has(row.key) ? 'completed' : 'pending';
    return row.status;
  }

  private listed(row: ParticipantRow): ListedRow {
    const status = this.displayStatus(row);
    switch (status) {
      case 'waiting':
        return { row, status, icon: '◷', text: t('jury.status.waiting') };
      case 'error':
        return { row, status, icon: '⚠', text: t('jury.status.error') };
      case 'completed': {
        const mine = this.judgeValues.get(row.key);
        if (mine !== undefined) return { row, status, icon: '✓', text: t('jury.yourValue', { value: this.show(mine) }) };
        if (row.currentScore === null) return { row, status, icon: '✓', text: t('jury.status.completed') };
        const score = this.show(row.currentScore);
        const provisional = this.panelSettings !== null && this.panelStates.get(row.key)?.complete === false;
        return { row, status, icon: provisional ? '◐' : '✓', text: provisional ? t('jury.provisional', { score }) : score };
      }
      default:
        return { row, status, icon: '○', text: t('jury.status.pending') };
    }
  }

  private renderList(): void {
    if (this.rows.length > 0) this.list.message('');
    else if (this.entries.length > 0) this.list.message(t('jury.noParticipants'));
    this.list.render(
      this.rows.map((row) => this.listed(row)),
      this.selectedKey,
    );
  }

  private renderPanel(): void {
    this.scoring.render({
      row: this.deviceLoading ? undefined : this.selectedRow(),
      layout: this.layout,
      format: this.format,
      formula: this.formula,
      useJuryResults: this.useJuryResults,
      judgeFieldId: this.judgeFieldId,
      extra: this.judgeFieldId === null ? this.panelSummary.element : null,
    });
    // A link whose field is not on this device: the folded selection opens so the judge can change it.
    const folded = this.root.querySelector<HTMLDetailsElement>('details.judge-pickers');
    if (folded && !this.deviceLoading && this.layout.inputs.length > 0)
      folded.open ||= !this.layout.inputs.some((input) => input.field.id === this.judgeFieldId);
    this.renderPanelStatus();
    this.renderPanelSummary();
  }

  // ---------------------------------------------------------------- E-panel (issue 21)

  private showPanel(state: PanelState | null): void {
    this.selectedPanel = state;
    const row = this.selectedRow();
    if (row && state) this.panelStates.set(row.key, state);
    this.renderPanelSummary();
    this.renderList();
  }

  /** Every judge's value as stored now, for the summary only: the inputs stay as the judge left them. */
  private async refreshSelectedPanel(): Promise<void> {
    const row = this.selectedRow();
    const disciplineId = this.selection.disciplineId;
    if (this.judgeFieldId !== null || !this.panelSettings || !row || row.wertungenId === null || disciplineId === null) return;
    const generation = ++this.panelGeneration;
    try {
      const answer = await api.juryResults(row.wertungenId, disciplineId);
      if (generation === this.panelGeneration && this.selectedRow() === row) this.showPanel(answer.panel);
    } catch {
      // The summary keeps its last state; the next event or selection asks again.
    }
  }

  private judgeLabel(fieldId: number): string {
    const input = this.layout.inputs.find((candidate) => candidate.field.id === fieldId);
    if (!input) return `#${fieldId}`;
    const name = input.field.shortName ?? input.field.name;
    if (input.judge) return name ?? input.letter;
    return name ? `${input.letter} · ${name}` : input.letter;
  }

  private renderPanelSummary(): void {
    const settings = this.panelSettings;
    if (this.judgeFieldId !== null || !settings || !this.selectedRow()) {
      this.panelSummary.render(null);
      return;
    }
    this.panelSummary.render({ settings, state: this.selectedPanel, format: this.format, judge: (fieldId) => this.judgeLabel(fieldId) });
  }

  /** The head judge's alerts: open deviations of the selected device among the listed participants. */
  private renderAlerts(): void {
    const shown = [...this.deviations.values()].flatMap((deviation) => {
      const row = this.rows.find((candidate) => candidate.wertungenId === deviation.scoreId);
      return deviation.disciplineId === this.selection.disciplineId && row ? [{ deviation, row }] : [];
    });
    this.alerts.hidden = shown.length === 0;
    this.alerts.replaceChildren(
      ...shown.map(({ deviation, row }) => {
        const open = h('button', { type: 'button', class: 'deviation-open' }, t('panel.show'));
        open.addEventListener('click', () => this.chooseParticipant(row.key));
        return deviationAlert(
          deviation,
          {
            name: fullName(row, t('jury.unnamed')),
            device: this.discipline()?.displayName || this.discipline()?.name || `#${deviation.disciplineId}`,
            judge: (fieldId) => this.judgeLabel(fieldId),
            format: this.format,
          },
          open,
        );
      }),
    );
    if (shown.some(({ row }) => row.key === this.selectedKey)) void this.refreshSelectedPanel();
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
