/**
 * What the jury portal knows: the lists it loaded, the selection, the participant rows and what
 * the judge did to them. One object, handed to each part of the portal (loading, live events,
 * saving, prompts, rendering); it holds no DOM and sends no request.
 */
import type { CompetitionSummary, DisciplineSummary, EventSummary, ScoreEntry, ScoreUpdatedEvent } from '../shared/api.js';
import { decimalSeparator } from '../shared/i18n.js';
import type { LiveStatus } from '../shared/live.js';
import type { PanelDeviation, PanelProgress, PanelSettings, PanelState } from '../shared/panel.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { applyScoreEvent, awaitsScore, type DisplayStatus, type FieldLayout, type ParticipantRow, type Selection } from './model.js';
import type { ExpectedValues, SaveJob } from './save-job.js';
import { officeScored, rowReleased, type ScopeRelease } from './scope.js';
import { devicesOf, NO_SELECTION, type EventSquad } from './selection.js';

export class JuryState {
  events: EventSummary[] = [];
  disciplines: DisciplineSummary[] = [];
  competitions: CompetitionSummary[] = [];
  eventSquads: EventSquad[] = [];
  selection: Selection = NO_SELECTION;
  layout: FieldLayout = { inputs: [], finalField: null };
  format: ScoreFormat = scoreFormat({ inputMask: null, decimals: null });
  formula: string | null = null;
  /** Score entries of the selected competition (all devices, all squads). */
  entries: ScoreEntry[] = [];
  rows: ParticipantRow[] = [];
  selectedKey: string | null = null;
  /** Events that arrive while the list reloads are applied again on top of the fresh list. */
  eventsDuringLoad: ScoreUpdatedEvent[] | null = null;
  /** What the form's values were loaded for (`juryKey`); null: load them again. */
  juryLoadKey: string | null = null;
  /** Typed since the last explicit load or save: a reload must not overwrite the judge's work. */
  dirty = false;
  readonly rejected = new Map<string, string>();
  connection: LiveStatus = 'connecting';
  /** Client setting (spec): false means the single legacy value, typed as the final score only. */
  useJuryResults = true;
  /** The stored values the selected participant's form is based on (sent as the optimistic check). */
  baseline: ExpectedValues | null = null;
  /** The last final score this tab saved per participant: its own live event is no news. */
  readonly ownScores = new Map<string, number>();
  /** Jobs saved from this tab's form: their confirmation moves on to the next participant. */
  readonly advanceAfter = new Set<string>();
  deviceLoading = false;
  /** The judge's stored (or here saved) value per participant key: done for this judge. */
  judgeValues = new Map<string, number>();
  /** The selected device's E-panel, if it has one. */
  panelSettings: PanelSettings | null = null;
  /** Per participant key: the panel as the reads say, or as the last judge's save reported it. */
  readonly panelStates = new Map<string, PanelState | PanelProgress>();
  /** The selected participant's panel with every judge's value (from GET /api/jury-results). */
  selectedPanel: PanelState | null = null;
  /** Open deviations of the event (head judge's view), keyed by score, device and attempt. */
  readonly deviations = new Map<string, PanelDeviation>();
  /** The selected competition's released devices and squads: their scores are read-only here. */
  releases: ScopeRelease[] = [];

  constructor(
    /** `&field=`: an E-panel judge's own portal shows this field only (issue 21); null = every field. */
    readonly judgeFieldId: number | null,
    /** The saves not yet through, oldest first. */
    private readonly queue: { readonly pending: readonly SaveJob[] },
  ) {}

  show(value: number): string {
    return this.format.display(value, decimalSeparator);
  }

  /** Whether the head judge released this participant's score on the selected device. */
  released(row: ParticipantRow): boolean {
    return rowReleased(this.releases, this.eventSquads, this.selection.disciplineId, row);
  }

  /** The selected competition when the office enters its scores (groups, teams); null otherwise. */
  officeCompetition(): CompetitionSummary | null {
    const competition = this.competitions.find((candidate) => candidate.id === this.selection.competitionId);
    return competition && officeScored(competition, this.entries) ? competition : null;
  }

  /** The selected competition's devices, in its order (planned detail rows), all of them when it plans none. */
  devices(): DisciplineSummary[] {
    const competition = this.competitions.find((candidate) => candidate.id === this.selection.competitionId);
    return devicesOf(this.disciplines, this.entries, competition?.disciplineIds ?? []);
  }

  discipline(): DisciplineSummary | null {
    return this.disciplines.find((candidate) => candidate.id === this.selection.disciplineId) ?? null;
  }

  selectedRow(): ParticipantRow | undefined {
    return this.selectedKey === null ? undefined : this.rows.find((row) => row.key === this.selectedKey);
  }

  fieldIds(): number[] {
    return [...this.layout.inputs.map((input) => input.field.id), ...(this.layout.finalField ? [this.layout.finalField.id] : [])];
  }

  /** What a load of saved jury results depends on; a new key means the spec wants a reload. */
  juryKey(wertungenId: number, disciplineId: number): string {
    return `${wertungenId}|${disciplineId}|${this.fieldIds().join(',')}`;
  }

  latestJobFor(key: string): SaveJob | undefined {
    return [...this.queue.pending].reverse().find((job) => job.participantKey === key && job.disciplineId === this.selection.disciplineId);
  }

  displayStatus(row: ParticipantRow): DisplayStatus {
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

  /** Still to score here: "next gymnast" stops at such a row, and skips one that did not start. */
  awaitsScore(row: ParticipantRow): boolean {
    return awaitsScore(row, this.displayStatus(row));
  }

  judgeLabel(fieldId: number): string {
    const input = this.layout.inputs.find((candidate) => candidate.field.id === fieldId);
    if (!input) return `#${fieldId}`;
    const name = input.field.shortName ?? input.field.name;
    if (input.judge) return name ?? input.letter;
    return name ? `${input.letter} · ${name}` : input.letter;
  }

  /** Every field of the device with "none stored". */
  noneStored(): Record<string, number | null> {
    return Object.fromEntries(this.fieldIds().map((id) => [String(id), null]));
  }

  /**
   * What is stored once `job` is through: its values, its final in the final field and the detail
   * (a panel judge's job: its field, and the final the service computed, when known).
   */
  savedBaseline(job: Pick<SaveJob, 'values' | 'finalScore'>, computed: number | null = null): ExpectedValues {
    const fields: Record<string, number | null> = Object.fromEntries(job.values.map(({ fieldId, value }) => [String(fieldId), value]));
    if (job.finalScore === null) return { fields, final: computed };
    if (this.layout.finalField) fields[String(this.layout.finalField.id)] = job.finalScore;
    return { fields, final: job.finalScore };
  }

  /** Applies a live event to the listed rows; the row it changed, if any. */
  applyEvent(event: ScoreUpdatedEvent): ParticipantRow | null {
    const { eventId, disciplineId } = this.selection;
    if (eventId === null || disciplineId === null) return null;
    return applyScoreEvent(this.rows, event, { eventId, disciplineId });
  }
}
