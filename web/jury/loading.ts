/**
 * What the jury portal loads (spec "Jury portal load workflow"): the event's competitions and
 * squads, the competition's score rows, the device's fields, and the selected participant's saved
 * jury results. A load that a newer one overtook changes nothing.
 */
import { api, getJson, type CompetitionSummary, type DisciplineField } from '../shared/api.js';
import { t } from '../shared/i18n.js';
import { deviationFromState, deviationKey } from '../shared/panel.js';
import { scoreFormat } from '../shared/score-format.js';
import { entriesForDevice, fieldLayout, fieldValues, participantKey, participantRows } from './model.js';
import type { JuryView } from './rendering.js';
import type { JuryState } from './state.js';

export class JuryLoader {
  private listGeneration = 0;
  private juryLoadGeneration = 0;
  private panelGeneration = 0;

  constructor(
    private readonly state: JuryState,
    private readonly view: JuryView,
    /** After a reload of the rows: a judge's portal moves on to the next participant to score. */
    private readonly followCurrent: () => void,
  ) {}

  async loadEventLists(eventId: number): Promise<void> {
    const [competitions, squads] = await Promise.all([
      api.competitions(eventId).catch(() => [] as CompetitionSummary[]),
      api.squads(eventId).catch(() => ({ squads: [] })),
    ]);
    // Group competitions last: listed so the portal can say that the office scores them.
    this.state.competitions = [...competitions].sort((a, b) => Number(a.isGroupCompetition) - Number(b.isGroupCompetition));
    this.state.eventSquads = squads.squads.map((squad) => ({
      name: squad.name,
      participantIds: new Set(squad.participants.map((participant) => participant.id)),
    }));
    if (this.state.competitions.length === 0) this.view.list.message(t('jury.noCompetitions'));
  }

  /** The squad the current rotation puts on the apparatus; null without a plan, a started rotation or an answer. */
  async currentSquad(eventId: number, disciplineId: number): Promise<string | null> {
    try {
      const { current } = await getJson<{ current: { apparatus: Array<{ disciplineId: number; squadName: string }> } | null }>(
        `/api/events/${eventId}/rotations/current`,
      );
      return current?.apparatus.find((slot) => slot.disciplineId === disciplineId)?.squadName ?? null;
    } catch {
      return null;
    }
  }

  async loadDevice(): Promise<void> {
    const { state } = this;
    const disciplineId = state.selection.disciplineId;
    const discipline = state.discipline();
    state.format = scoreFormat(discipline ?? { inputMask: null, decimals: null });
    state.formula = state.useJuryResults ? (discipline?.formula ?? null) : null;
    state.panelSettings = state.useJuryResults ? (discipline?.panel ?? null) : null;
    state.layout = { inputs: [], finalField: null };
    if (disciplineId === null || !state.useJuryResults) return;
    let fields: DisciplineField[];
    try {
      fields = await api.disciplineFields(disciplineId);
    } catch (error) {
      this.view.list.message(t('jury.fieldsFailed', { error: (error as Error).message }));
      return;
    }
    if (disciplineId !== state.selection.disciplineId) return;
    const panel = state.panelSettings;
    state.layout = fieldLayout(fields, disciplineId, panel?.judgeFieldIds ?? [], panel?.reference?.fieldIds ?? []);
  }

  /** The score rows of the selected competition; false when they could not be loaded. */
  async loadEntries(): Promise<boolean> {
    const { state } = this;
    const { eventId, competitionId } = state.selection;
    if (eventId === null || competitionId === null) return false;
    const generation = ++this.listGeneration;
    state.eventsDuringLoad = [];
    if (state.rows.length === 0) this.view.list.message(t('jury.loadingParticipants'));
    try {
      const entries = await api.scores(eventId, { competitionId });
      if (generation !== this.listGeneration) return false;
      state.entries = entries;
    } catch (error) {
      if (generation !== this.listGeneration) return false;
      state.eventsDuringLoad = null;
      this.view.list.message(t('jury.participantsFailed', { error: (error as Error).message }));
      return false;
    }
    return true;
  }

  /** The rows of the selected device and squad from the loaded entries, with their panels and open deviations. */
  rebuildRows(): void {
    const { state } = this;
    const disciplineId = state.selection.disciplineId ?? 0;
    const squad = state.selection.squad === null ? null : state.eventSquads.find((candidate) => candidate.name === state.selection.squad);
    const forDevice = entriesForDevice(state.entries, disciplineId);
    state.rows = participantRows(
      squad ? forDevice.filter((entry) => squad.participantIds.has(entry.participantId)) : forDevice,
      disciplineId,
    );
    state.judgeValues = state.judgeFieldId === null ? new Map() : fieldValues(state.entries, disciplineId, state.judgeFieldId);
    state.panelStates.clear();
    for (const key of [...state.deviations.keys()])
      if (state.deviations.get(key)!.disciplineId === disciplineId) state.deviations.delete(key);
    for (const entry of state.entries) {
      if (entry.disciplineId !== disciplineId) continue;
      const panel = entry.panel;
      if (!panel) continue;
      state.panelStates.set(participantKey(entry.competitionId, entry.participantId), panel);
      const open = deviationFromState(entry.id, disciplineId, panel);
      if (open) state.deviations.set(deviationKey(open), open);
    }
  }

  /** The rows again, as after a resync or a kept conflict; the judge's typing stays. */
  async loadParticipants(): Promise<void> {
    const { state, view } = this;
    if (!(await this.loadEntries())) return;
    this.rebuildRows();
    const replay = state.eventsDuringLoad ?? [];
    state.eventsDuringLoad = null;
    for (const event of replay) state.applyEvent(event);
    view.list.message(state.rows.length === 0 ? t('jury.noParticipants') : '');
    view.renderList();
    view.renderAlerts();
    const selected = state.selectedRow();
    if (selected && selected.didNotStart !== view.formDidNotStart) {
      // The office marked the gymnast as (not) started: the form is rebuilt, disabled or open, with
      // the stored values; nothing typed is kept for a gymnast who is not there.
      state.dirty = false;
      view.renderPanel();
    }
    if (!state.dirty) state.juryLoadKey = null;
    view.renderPanelStatus();
    this.followCurrent();
    void this.loadJuryResults();
  }

  /**
   * Load workflow step 3: only with a wertungenId, a device and at least one field, and again when
   * any of them changes. A save still waiting in the queue is newer than the server, so it wins.
   */
  async loadJuryResults(): Promise<void> {
    const { state, view } = this;
    const row = state.selectedRow();
    const disciplineId = state.selection.disciplineId;
    if (!row || disciplineId === null) return;
    const waitingJob = state.latestJobFor(row.key);
    if (waitingJob) {
      if (!state.dirty) {
        view.scoring.fill(new Map(waitingJob.values.map(({ fieldId, value }) => [fieldId, value])), waitingJob.finalScore);
        state.baseline = state.savedBaseline(waitingJob);
      }
      return;
    }
    if (!state.useJuryResults || row.wertungenId === null || state.fieldIds().length === 0) {
      if (!state.dirty) {
        if (!state.useJuryResults) view.scoring.fill(new Map(), row.currentScore);
        state.baseline = { fields: row.wertungenId === null ? state.noneStored() : {}, final: row.currentScore };
      }
      return;
    }
    const key = state.juryKey(row.wertungenId, disciplineId);
    if (key === state.juryLoadKey) return;
    state.juryLoadKey = key;
    const generation = ++this.juryLoadGeneration;
    let results;
    try {
      const answer = await api.juryResults(row.wertungenId, disciplineId);
      results = answer.results;
      if (generation === this.juryLoadGeneration && state.selectedRow() === row) view.showPanel(answer.panel);
    } catch (error) {
      if (generation === this.juryLoadGeneration) {
        state.juryLoadKey = null;
        view.showAck('error', t('jury.loadValuesFailed', { error: (error as Error).message }));
      }
      return;
    }
    if (generation !== this.juryLoadGeneration || state.selectedRow() !== row || state.dirty) return;
    const finalFieldId = state.layout.finalField?.id ?? null;
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
    view.scoring.fill(values, finalResult?.performance ?? null);
    const fields = state.noneStored();
    for (const result of results) fields[String(result.fieldId)] = typeof result.performance === 'number' ? result.performance : null;
    state.baseline = { fields, final: row.currentScore };
    view.scoring.notice(null);
  }

  /** Every judge's value as stored now, for the summary only: the inputs stay as the judge left them. */
  async refreshSelectedPanel(): Promise<void> {
    const { state } = this;
    const row = state.selectedRow();
    const disciplineId = state.selection.disciplineId;
    if (state.judgeFieldId !== null || !state.panelSettings || !row || row.wertungenId === null || disciplineId === null) return;
    const generation = ++this.panelGeneration;
    try {
      const answer = await api.juryResults(row.wertungenId, disciplineId);
      if (generation === this.panelGeneration && state.selectedRow() === row) this.view.showPanel(answer.panel);
    } catch {
      // The summary keeps its last state; the next event or selection asks again.
    }
  }
}
