/**
 * The jury portal put together: the state (./state.ts), the page (./rendering.ts), what is loaded
 * (./loading.ts), the live feed (./live-events.ts), the saves (./saving.ts, ./conflicts.ts) and
 * the selection (./selection.ts). What stays here is the way through the portal: the selection
 * from the top down, and the participant the form is for.
 */
import { api } from '../shared/api.js';
import { queryInteger } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { boundApparatus, captureJudgeCredential } from '../shared/judge-credential.js';
import { LiveFeed } from '../shared/live.js';
import { JuryLiveEvents } from './live-events.js';
import { JuryLoader } from './loading.js';
import type { Selection } from './model.js';
import { HEARTBEAT_MS, TabQueueStore } from './queue-store.js';
import { JuryView } from './rendering.js';
import { SaveQueue } from './save-queue.js';
import { JurySaving } from './saving.js';
import { loadReleases } from './scope.js';
import { keepSelection, squadsOf, wantedSelection } from './selection.js';
import { JuryState } from './state.js';

export class JuryController {
  private readonly state: JuryState;
  private readonly view: JuryView;
  private readonly loader: JuryLoader;
  private readonly saving: JurySaving;
  private readonly queue: SaveQueue;
  private readonly feed: LiveFeed;

  constructor(root: HTMLElement) {
    captureJudgeCredential();
    const store = TabQueueStore.forThisTab(localStorage, sessionStorage);
    this.queue = new SaveQueue(store, api, {
      onChange: () => this.view.renderQueueState(),
      onSaved: (job, response) => this.saving.saved(job, response.wertungenId, response.score ?? job.finalScore),
      onRejected: (job, error) => this.saving.refused(job, error),
    });
    this.state = new JuryState(queryInteger('field'), this.queue);
    this.view = new JuryView(root, this.state, this.queue, {
      select: (change) => void this.select(change),
      choose: (key) => this.chooseParticipant(key),
      typed: () => {
        this.state.dirty = true;
      },
      submit: () => this.saving.submit(false),
      deviationShown: () => void this.loader.refreshSelectedPanel(),
    });
    this.loader = new JuryLoader(this.state, this.view, () => this.followCurrent());
    this.saving = new JurySaving(
      this.state,
      this.view,
      this.queue,
      this.loader,
      (key) => this.chooseParticipant(key),
      () => this.refreshReleases(),
    );
    const live = new JuryLiveEvents(this.state, this.view, this.loader, this.queue, (squad) => void this.select({ squad }));
    this.feed = new LiveFeed({
      onEvent: (event) => live.scoreUpdated(event),
      onStatus: (status) => live.connectionChanged(status),
      onResync: () => {
        void this.loader.loadParticipants();
        void this.refreshReleases();
      },
      onPanelDeviation: (message) => live.panelDeviation(message),
      onRotationChanged: (event) => live.rotationChanged(event),
      onReleaseChanged: () => void this.refreshReleases(),
      // A late entry or a did-not-start set in the office: the list is the office's again.
      onParticipantsChanged: () => void this.loader.loadParticipants(),
    });
    window.addEventListener('online', () => this.queue.kick());
    setInterval(() => {
      store.heartbeat();
      this.queue.adoptOrphans();
    }, HEARTBEAT_MS);
  }

  async start(): Promise<void> {
    const { state, view } = this;
    view.renderShell();
    view.renderQueueState();
    void this.queue.drain();
    try {
      [state.events, state.disciplines, state.useJuryResults] = await Promise.all([
        api.events(),
        api.disciplines(),
        // The setting defaults to true; an older server without the endpoint means the same.
        api.scoreCaptureSetting().then(
          (setting) => setting.value.useJuryResults,
          () => true,
        ),
      ]);
    } catch (error) {
      view.list.message(t('jury.loadFailed', { error: (error as Error).message }));
      return;
    }
    if (state.events.length === 0) {
      view.list.message(t('common.noEvents'));
      return;
    }
    const wanted = wantedSelection();
    const eventId = state.events.some((event) => event.id === wanted.eventId) ? wanted.eventId! : state.events[0]!.id;
    // A credential's portal opens on the squad its apparatus has now, whatever the QR code said then.
    const apparatus = boundApparatus(eventId);
    const squad = apparatus === null ? null : await this.loader.currentSquad(eventId, apparatus);
    await this.select({ ...wanted, eventId, ...(squad === null ? {} : { squad }) }, true);
  }

  /**
   * Applies a change of the selection from the top down: a new event loads its competitions, a
   * new competition its score rows and so its devices and squads, a new device its fields.
   */
  private async select(change: Partial<Selection>, initial = false): Promise<void> {
    const { state, view, loader } = this;
    const next: Selection = { ...state.selection, ...change };
    const eventChanged = initial || next.eventId !== state.selection.eventId;
    if (eventChanged && next.eventId !== null) {
      await loader.loadEventLists(next.eventId);
      if (!state.competitions.some((competition) => competition.id === next.competitionId))
        next.competitionId = state.competitions[0]?.id ?? null;
    }
    const competitionChanged = eventChanged || next.competitionId !== state.selection.competitionId;
    state.selection = next;
    if (competitionChanged) {
      state.selectedKey = null;
      state.entries = [];
      state.rows = [];
      state.releases = [];
      view.renderList();
      const competitionId = next.competitionId;
      const [, releases] = await Promise.all([
        loader.loadEntries(),
        competitionId === null ? [] : loadReleases(competitionId).catch(() => []),
      ]);
      if (competitionId === state.selection.competitionId) state.releases = releases;
    }
    const replay = state.eventsDuringLoad ?? [];
    state.eventsDuringLoad = null;
    const devices = state.devices();
    if (!devices.some((device) => device.id === state.selection.disciplineId)) state.selection.disciplineId = devices[0]?.id ?? null;
    if (state.selection.squad !== null && !squadsOf(state.eventSquads, state.entries).includes(state.selection.squad))
      state.selection.squad = null;
    const deviceChanged = initial || competitionChanged || change.disciplineId !== undefined;
    view.renderSelection();
    keepSelection(state.selection);
    if (deviceChanged) {
      // The old device's inputs go at once, so nothing is typed into them while the new fields load.
      state.deviceLoading = true;
      view.renderPanel();
      await loader.loadDevice();
      state.deviceLoading = false;
    }
    state.juryLoadKey = null;
    state.dirty = false;
    loader.rebuildRows();
    for (const event of replay) state.applyEvent(event);
    if (state.selectedKey !== null && !state.rows.some((row) => row.key === state.selectedKey)) state.selectedKey = null;
    view.renderPanel();
    view.renderList();
    view.renderAlerts();
    this.followCurrent();
    // Joined before loading, so nothing between the load and the join is lost (the join's resync reloads).
    if (eventChanged && next.eventId !== null) this.feed.follow(next.eventId);
    void loader.loadJuryResults();
  }

  /**
   * Loads the selected competition's releases again. When the form shows the selected participant
   * otherwise (open, or read-only) it is rebuilt and filled with the stored values.
   */
  private async refreshReleases(): Promise<void> {
    const { state, view } = this;
    const competitionId = state.selection.competitionId;
    if (competitionId === null) return;
    let releases;
    try {
      releases = await loadReleases(competitionId);
    } catch {
      return; // The next release event or resync asks again; the server refuses writes meanwhile.
    }
    if (competitionId !== state.selection.competitionId) return;
    state.releases = releases;
    view.renderList();
    const row = state.selectedRow();
    if (row === undefined || state.released(row) === view.formReleased) return;
    state.dirty = false;
    state.juryLoadKey = null;
    view.renderPanel();
    await this.loader.loadJuryResults();
  }

  private chooseParticipant(key: string): void {
    const { state, view } = this;
    if (key !== state.selectedKey) {
      state.selectedKey = key;
      state.juryLoadKey = null;
      state.dirty = false;
      state.baseline = null;
      state.selectedPanel = null;
      view.renderList();
      view.renderPanel();
      void this.loader.loadJuryResults();
    }
    view.scoring.focusFirst();
  }

  /** A judge's portal follows the competition: the first participant still without their value. */
  private followCurrent(): void {
    const { state } = this;
    if (state.judgeFieldId === null || state.selectedKey !== null) return;
    const next = state.rows.find((row) => state.awaitsScore(row));
    if (next) this.chooseParticipant(next.key);
    else if (state.rows.length > 0) this.view.showAck('idle', t('jury.judgeAllDone'));
  }
}
