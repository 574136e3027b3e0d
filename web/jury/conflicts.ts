/**
 * The two questions the jury portal asks before a value counts: a value outside its usual range
 * (the rule is `web/shared/plausibility.ts`, the same for every page that takes scores), and a save
 * the service refused with 409 because someone else changed the value meanwhile.
 */
import { t } from '../shared/i18n.js';
import { checkPlausibility, type PlausibilityValue } from '../shared/plausibility.js';
import { implausibleQuestion, refusalText } from '../shared/plausibility-text.js';
import type { JuryView } from './rendering.js';
import type { SaveJob } from './save-job.js';
import type { JuryState } from './state.js';

/** What the judge can answer to a conflict. */
export interface ConflictAnswers {
  /** Keep the stored value: the form follows the server again. */
  keep(): void;
  /** Save this value over the stored one. */
  overwrite(): void;
}

/**
 * Whether the values may be saved now. A negative value where none can be is refused; values
 * outside their usual range are held: the judge corrects them or confirms, and `saveAnyway` saves
 * (`confirmed`: the judge already did, for these values).
 */
export function plausible(
  state: JuryState,
  view: JuryView,
  save: { values: ReadonlyArray<{ fieldId: number; value: number }>; finalScore: number | null; confirmed: boolean },
  saveAnyway: () => void,
): boolean {
  const typed: PlausibilityValue[] = save.values.map(({ fieldId, value }) => {
    const input = state.layout.inputs.find((candidate) => candidate.field.id === fieldId);
    const name = input?.field.name ?? input?.field.shortName ?? input?.letter ?? '?';
    return { kind: 'field', label: input ? `${input.letter} (${name})` : name, value, name, shortName: input?.field.shortName ?? null };
  });
  if (save.finalScore !== null) typed.push({ kind: 'final', label: t('jury.finalScore'), value: save.finalScore });
  const outcome = checkPlausibility(state.discipline(), typed);
  const show = (value: number) => state.show(value);
  if (outcome.kind === 'refuse') {
    view.showAck('error', refusalText(outcome.check, show));
    return false;
  }
  if (outcome.kind === 'ok' || save.confirmed) return true;
  view.showAck('error', '');
  view.scoring.ask({
    kind: 'confirm',
    message: implausibleQuestion(outcome.checks, show),
    actions: [
      { id: 'plausibility-correct', label: t('jury.correct'), primary: true, run: () => view.scoring.focusFirst() },
      { id: 'plausibility-confirm', label: t('jury.saveAnyway'), run: saveAnyway },
    ],
  });
  return false;
}

/** A field as the judge knows it: an E-panel judge's short name (E3), else the field's name (D-Note). */
function conflictLabel(state: JuryState, fieldId: number): string {
  const input = state.layout.inputs.find((candidate) => candidate.field.id === fieldId);
  return input && !input.judge ? (input.field.name ?? state.judgeLabel(fieldId)) : state.judgeLabel(fieldId);
}

/**
 * 409 (issue 17, point 3): the refused step's value beside the value stored in the same place, the
 * field against the field or the final against the final; the judge overwrites knowingly or keeps
 * the stored one.
 */
export function askAboutConflict(state: JuryState, view: JuryView, job: SaveJob, current: number | null, answers: ConflictAnswers): void {
  const step = job.steps[job.next];
  const fieldId = step?.kind === 'field' && step.fieldId !== state.layout.finalField?.id ? step.fieldId : null;
  const value = step?.kind === 'field' ? step.value : (job.finalScore ?? job.values[0]?.value ?? null);
  const mine = value === null ? '—' : state.show(value);
  const stored = current === null ? '—' : state.show(current);
  view.showAck('error', '');
  view.scoring.ask({
    kind: 'conflict',
    message:
      fieldId === null
        ? t('jury.conflict', { name: job.label, current: stored, mine })
        : t('jury.conflictField', { field: conflictLabel(state, fieldId), name: job.label, current: stored, mine }),
    actions: [
      { id: 'conflict-keep', label: t('jury.conflictKeep'), run: () => answers.keep() },
      { id: 'conflict-overwrite', label: t('jury.conflictOverwrite'), primary: true, run: () => answers.overwrite() },
    ],
  });
}
