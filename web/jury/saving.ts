/**
 * The jury portal's saves: the form's values become a job of the offline-safe queue
 * (./save-queue.ts), and the queue's answers come back here: saved (the row, the form's baseline,
 * on to the next participant) or refused (a 409 asks the judge, anything else says why).
 */
import { HttpError } from '../shared/api.js';
import { t, timeOfDay } from '../shared/i18n.js';
import { askAboutConflict, plausible } from './conflicts.js';
import { computeFinal, formulaValues, fullName, nextPending } from './model.js';
import type { JuryLoader } from './loading.js';
import type { JuryView } from './rendering.js';
import { conflictCurrent, type NewSave, type SaveJob } from './save-queue.js';
import type { JuryState } from './state.js';
import { jt } from './texts.js';

/** The 409 of a write into a released scope (src/http/errors.ts): it carries no `current`. */
const releasedRefusal = (error: Error) =>
  error instanceof HttpError && error.status === 409 && /^released\b/.test(String(error.body?.message ?? ''));

export class JurySaving {
  constructor(
    private readonly state: JuryState,
    private readonly view: JuryView,
    private readonly queue: { enqueue(save: NewSave): SaveJob },
    private readonly loader: JuryLoader,
    /** Moves the form to another participant. */
    private readonly choose: (key: string) => void,
    /** Loads the competition's releases again; the form turns read-only when the participant's is. */
    private readonly refreshReleases: () => Promise<void>,
  ) {}

  /** `confirmed`: the judge has seen the plausibility question for these values and saves anyway. */
  submit(confirmed: boolean): void {
    const { state, view } = this;
    const row = state.selectedRow();
    const { eventId, disciplineId } = state.selection;
    if (!row || eventId === null || disciplineId === null) return;
    // The form has no save button then; Enter in a field lands here.
    if (state.released(row) || row.didNotStart) return;
    view.scoring.clearPrompt();
    const collected = view.scoring.collect();
    if (!collected.ok) {
      view.showAck('error', collected.error);
      return;
    }
    const { values } = collected;
    let finalScore = collected.manualFinal;
    if (state.judgeFieldId !== null) {
      // The service computes the aggregate and the final from every judge's value.
      finalScore = null;
    } else if (finalScore === null) {
      finalScore = computeFinal(
        state.formula,
        formulaValues(
          state.layout.inputs,
          values.map((entry) => entry.value),
        ),
      );
      if (finalScore === null) {
        view.showAck('error', t('jury.formulaNoScore', { formula: state.formula ?? '' }));
        return;
      }
      finalScore = state.format.round(finalScore);
    }
    if (!plausible(state, view, { values, finalScore, confirmed }, () => this.submit(true))) return;
    state.dirty = false;
    state.rejected.delete(row.key);
    const shown = finalScore ?? values[0]?.value ?? null;
    view.showAck('saving', t('jury.saving', { name: fullName(row, t('jury.unnamed')), score: shown === null ? '—' : state.show(shown) }));
    const job = this.enqueue({
      eventId,
      disciplineId,
      competitionId: row.competitionId,
      participantId: row.participantId,
      participantKey: row.key,
      label: fullName(row, t('jury.unnamed')),
      wertungenId: row.wertungenId,
      values,
      finalFieldId: state.layout.finalField?.id ?? null,
      finalScore,
      // Always sent (issue 17): without a known baseline the final is checked against the list's value.
      expected: state.baseline ?? { fields: {}, final: row.currentScore },
    });
    state.advanceAfter.add(job.id);
  }

  private enqueue(save: NewSave): SaveJob {
    this.view.scoring.notice(null);
    return this.queue.enqueue(save);
  }

  /** The queue's answer: every step of `job` is through; `score` is the final the service stored. */
  saved(job: SaveJob, wertungenId: number, score: number | null): void {
    const { state, view } = this;
    state.rejected.delete(job.participantKey);
    if (score !== null) state.ownScores.set(job.participantKey, score);
    const judgeValue = job.finalScore === null ? job.values.find((entry) => entry.fieldId === state.judgeFieldId) : undefined;
    if (judgeValue) state.judgeValues.set(job.participantKey, judgeValue.value);
    const row = state.rows.find((candidate) => candidate.key === job.participantKey);
    const sameView = job.eventId === state.selection.eventId && job.disciplineId === state.selection.disciplineId;
    const advance = state.advanceAfter.delete(job.id);
    if (row && sameView) {
      row.wertungenId = wertungenId;
      if (score !== null) {
        row.currentScore = score;
        row.status = 'completed';
      }
      if (row.key === state.selectedKey && !state.dirty) {
        // The inputs already show what was saved; remember that instead of loading it back.
        state.juryLoadKey = state.juryKey(wertungenId, job.disciplineId);
        state.baseline = state.savedBaseline(job.finalScore === null ? job : { values: job.values, finalScore: score }, score);
      }
      if (row.key === state.selectedKey) void this.loader.refreshSelectedPanel();
    }
    view.renderList();
    view.renderPanelStatus();
    const shown = judgeValue?.value ?? score;
    view.showAck('saved', t('jury.saved', { name: job.label, score: shown === null ? '—' : state.show(shown), time: timeOfDay() }));
    // Next participant (issue 17, point 2): only after this tab's own confirmed save, and only
    // while the judge is still on that participant without new typing.
    if (advance && row && sameView && row.key === state.selectedKey && !state.dirty) {
      const next = nextPending(state.rows, row.key, (candidate) => state.awaitsScore(candidate));
      if (next) this.choose(next.key);
    }
  }

  /** The queue's answer: the service refused a step of `job` for good. */
  refused(job: SaveJob, error: Error): void {
    const { state, view } = this;
    state.advanceAfter.delete(job.id);
    if (releasedRefusal(error)) {
      this.refusedAsReleased(job);
      return;
    }
    const conflict = conflictCurrent(error);
    state.rejected.set(job.participantKey, error.message);
    view.renderList();
    if (conflict && job.participantKey === state.selectedKey) {
      const { current } = conflict;
      askAboutConflict(state, view, job, current, {
        keep: () => {
          state.rejected.delete(job.participantKey);
          state.dirty = false;
          state.juryLoadKey = null;
          view.showAck('idle', t('jury.keptStored', { current: current === null ? '—' : state.show(current) }));
          void this.loader.loadParticipants();
        },
        overwrite: () => {
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
          this.enqueue({ ...save, finalFieldId: state.layout.finalField?.id ?? null, expected: undefined });
        },
      });
      return;
    }
    const status = error instanceof HttpError ? error.status : '—';
    view.showAck('error', t('jury.refused', { name: job.label, status, error: error.message }));
  }

  /**
   * The head judge released the scope before the save arrived: what is stored stands, so the row
   * keeps its stored state (no "not saved" mark) and the form shows the stored values read-only.
   */
  private refusedAsReleased(job: SaveJob): void {
    const { state, view, loader } = this;
    state.rejected.delete(job.participantKey);
    const say = () => {
      const row = state.rows.find((candidate) => candidate.key === job.participantKey);
      const stored = row?.currentScore ?? null;
      view.showAck('error', jt('releasedRefused', { name: job.label, stored: stored === null ? '—' : state.show(stored) }));
    };
    say();
    void this.refreshReleases()
      .then(() => loader.loadParticipants())
      .then(say);
  }
}
