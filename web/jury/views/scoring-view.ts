import { h } from '../../shared/dom.js';
import { decimalSeparator, t } from '../../shared/i18n.js';
import type { ScoreFormat } from '../../shared/score-format.js';
import { jt } from '../texts.js';
import { computeFinal, formulaUsable, formulaValues, fullName, type FieldLayout, type ParticipantRow } from '../model.js';

export type AckState = 'idle' | 'saved' | 'saving' | 'waiting' | 'error';

/** What the form holds when it is submitted: every input's value, and the typed final if any. */
export type Collected =
  { ok: true; values: { fieldId: number; value: number }[]; manualFinal: number | null } | { ok: false; error: string };

export interface ScoringSetup {
  row: ParticipantRow | undefined;
  layout: FieldLayout;
  format: ScoreFormat;
  formula: string | null;
  useJuryResults: boolean;
  /**
   * An E-panel judge's portal (`&field=`, issue 21): only this field, large, and no final (the
   * service computes the aggregate and the final). Null: every field, as the D-panel sees them.
   */
  judgeFieldId: number | null;
  /** Shown under the form for the selected participant (the panel summary); kept across renders. */
  extra: HTMLElement | null;
  /** The head judge released the participant's device: the stored values show, nothing can be typed. */
  released: boolean;
  /** The office marked the gymnast as not started: the stored values show, the inputs are disabled. */
  didNotStart: boolean;
}

export interface ScoringView {
  element: HTMLElement;
  /** Rebuilt only when the participant or the device changes: events never touch the inputs. */
  render(setup: ScoringSetup): void;
  fill(values: Map<number, number>, finalValue: number | null): void;
  collect(): Collected;
  status(state: string, text: string): void;
  ack(state: AckState, message: string): void;
  focusFirst(): void;
  hasManualFinal(): boolean;
  /** A line about a change made elsewhere; never touches the inputs. Null clears it. */
  notice(text: string | null): void;
  /** A question with buttons inside the panel (plausibility, conflict); the first action gets the focus. */
  ask(question: { kind: 'confirm' | 'conflict'; message: string; actions: PromptAction[] }): void;
  clearPrompt(): void;
}

export interface PromptAction {
  id: string;
  label: string;
  primary?: boolean;
  run(): void;
}

interface InputView {
  input: HTMLInputElement;
  error: HTMLElement;
  fieldId: number | null;
  label: string;
}

export interface ScoringCallbacks {
  /** The judge typed: a reload must not overwrite the work. */
  onTyped(): void;
  onSubmit(): void;
}

const fieldLabel = (field: { name: string | null; shortName: string | null }, letter: string) =>
  field.name ?? field.shortName ?? `Field ${letter}`;

/** The scoring panel: one input per field (A, B, C…), the final score, Save and the acknowledgement. */
export function scoringView(callbacks: ScoringCallbacks): ScoringView {
  const panel = h('section', { class: 'scoring', 'aria-labelledby': 'scoring-title' });
  const ackLine = h('p', { class: 'ack', role: 'status', 'aria-live': 'polite', 'data-state': 'idle' });
  const noticeLine = h('p', { class: 'elsewhere-notice', role: 'status', 'aria-live': 'polite', hidden: true });
  const promptBox = h('div', { class: 'prompt', role: 'alertdialog', 'aria-live': 'assertive', hidden: true });
  let inputViews: InputView[] = [];
  let manualFinal: InputView | null = null;
  let finalOutput = h('output', { id: 'final-score', class: 'final-value' }, '—');
  let format: ScoreFormat | null = null;
  /** The layout's inputs behind `inputViews`, in the same order (judge or formula letter). */
  let shownInputs: FieldLayout['inputs'] = [];
  let formula: string | null = null;

  function setInputError(view: InputView, message: string | null): void {
    view.error.textContent = message ?? '';
    view.error.hidden = message === null;
    if (message === null) view.input.removeAttribute('aria-invalid');
    else view.input.setAttribute('aria-invalid', 'true');
  }

  /** Input mask rules 7-8: normalised on blur (and before a save), never while typing. */
  function normalizeInput(view: InputView): number | null {
    const typed = view.input.value.trim();
    if (typed === '' || !format) {
      setInputError(view, null);
      return null;
    }
    const result = format.normalize(typed);
    if (!result.ok) {
      setInputError(view, result.error);
      return null;
    }
    view.input.value = result.text;
    setInputError(view, null);
    return result.value;
  }

  function updateLiveFinal(): void {
    if (manualFinal || !format) return;
    const current = format;
    const values = inputViews.map((view) => {
      const typed = view.input.value.trim();
      if (typed === '') return null;
      const result = current.normalize(typed);
      return result.ok ? result.value : null;
    });
    const final = computeFinal(formula, formulaValues(shownInputs, values));
    finalOutput.textContent = final === null ? '—' : current.display(current.round(final), decimalSeparator);
    finalOutput.dataset.value = final === null ? '' : String(current.round(final));
  }

  function makeInput(id: string, label: string, name: string, fieldId: number | null): { view: InputView; element: HTMLElement } {
    const input = h('input', {
      id,
      name,
      type: 'text',
      inputmode: format?.inputMode ?? 'decimal',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: format?.example ?? '',
      'aria-describedby': `${id}-error`,
      'data-field-id': fieldId,
    });
    const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
    const view: InputView = { input, error, fieldId, label };
    input.addEventListener('input', () => {
      callbacks.onTyped();
      updateLiveFinal();
    });
    input.addEventListener('blur', () => {
      normalizeInput(view);
      updateLiveFinal();
    });
    const labelElement = h('label', { for: id }, h('span', { class: 'letter' }, label), h('span', { class: 'field-name' }, name));
    return { view, element: h('div', { class: 'field' }, labelElement, input, error) };
  }

  return {
    element: panel,
    render(setup) {
      const { row, layout } = setup;
      format = setup.format;
      formula = setup.formula;
      inputViews = [];
      manualFinal = null;
      finalOutput = h('output', { id: 'final-score', class: 'final-value', 'aria-live': 'polite' }, '—');
      if (!row) {
        panel.replaceChildren(h('h2', { id: 'scoring-title' }, t('jury.scoring')), h('p', { class: 'hint' }, t('jury.choose')), ackLine);
        return;
      }
      const judge = setup.judgeFieldId === null ? null : layout.inputs.find((input) => input.field.id === setup.judgeFieldId);
      if (judge === undefined) {
        panel.replaceChildren(
          h('h2', { id: 'scoring-title' }, t('jury.scoring')),
          h('p', { class: 'form-error', id: 'judge-field-missing' }, t('jury.judgeFieldMissing', { field: setup.judgeFieldId ?? '' })),
          ackLine,
        );
        return;
      }
      const shown = judge ? [judge] : layout.inputs;
      shownInputs = shown;
      const fields = shown.map(({ letter, field }) => {
        const { view, element } = makeInput(`field-${letter}`, letter, fieldLabel(field, letter), field.id);
        inputViews.push(view);
        return element;
      });
      let finalBlock: HTMLElement | null;
      if (judge) {
        finalBlock = null;
      } else if (formulaUsable(formula, layout.inputs.filter((input) => !input.judge).length)) {
        finalBlock = h(
          'div',
          { class: 'final' },
          h('span', { class: 'final-label' }, t('jury.finalScore')),
          finalOutput,
          h('span', { class: 'formula' }, t('jury.formula', { formula: formula ?? '' })),
        );
      } else {
        const { view, element } = makeInput(
          'field-final',
          'Σ',
          layout.finalField?.name ?? t('jury.finalScore'),
          layout.finalField?.id ?? null,
        );
        manualFinal = view;
        const why = !setup.useJuryResults
          ? t('jury.singleValue')
          : formula === null
            ? t('jury.noFormula')
            : t('jury.badFormula', { formula });
        finalBlock = h('div', { class: 'final final--manual' }, element, h('span', { class: 'formula' }, why));
      }
      const allInputs = [...inputViews, ...(manualFinal ? [manualFinal] : [])];
      if (setup.released) for (const view of allInputs) view.input.readOnly = true;
      // No example either: in a greyed input it reads like a value.
      if (setup.didNotStart)
        for (const view of allInputs) {
          view.input.disabled = true;
          view.input.placeholder = '';
        }
      const save = setup.didNotStart
        ? h('p', { class: 'dns-note', id: 'dns-note' }, jt('didNotStartForm'))
        : setup.released
          ? h('p', { class: 'released-note', id: 'released-note' }, jt('releasedForm'))
          : h('button', { type: 'submit', class: 'save', id: 'save-button' }, t('jury.save'));
      const form = h(
        'form',
        {
          class: [
            judge ? 'score-form score-form--judge' : 'score-form',
            setup.released ? 'score-form--released' : '',
            setup.didNotStart ? 'score-form--dns' : '',
          ]
            .join(' ')
            .trim(),
          novalidate: true,
          autocomplete: 'off',
        },
        h('div', { class: 'fields' }, ...fields),
        finalBlock,
        save,
      );
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        callbacks.onSubmit();
      });
      const title = h(
        'h2',
        { id: 'scoring-title' },
        fullName(row, t('jury.unnamed')),
        row.startNumber ? h('span', { class: 'title-number' }, ` #${row.startNumber}`) : null,
        setup.didNotStart ? h('span', { class: 'dns-mark', id: 'dns-mark' }, jt('didNotStart')) : null,
        setup.released ? h('span', { class: 'released-badge', id: 'released-badge' }, jt('releasedBadge')) : null,
      );
      noticeLine.hidden = true;
      promptBox.hidden = true;
      promptBox.replaceChildren();
      const judgeLine = judge
        ? [h('p', { class: 'judge-field', id: 'judge-field' }, t('jury.judgeField', { field: fieldLabel(judge.field, judge.letter) }))]
        : [];
      panel.replaceChildren(
        title,
        h('p', { class: 'panel-status' }),
        ...judgeLine,
        noticeLine,
        form,
        promptBox,
        ackLine,
        ...(setup.extra ? [setup.extra] : []),
      );
      updateLiveFinal();
    },
    fill(values, finalValue) {
      for (const view of inputViews) {
        const value = view.fieldId === null ? undefined : values.get(view.fieldId);
        view.input.value = value === undefined || !format ? '' : format.format(value);
        setInputError(view, null);
      }
      if (manualFinal) manualFinal.input.value = finalValue === null || !format ? '' : format.format(finalValue);
      updateLiveFinal();
    },
    collect() {
      const example = format?.example ?? '9.5';
      const values: { fieldId: number; value: number }[] = [];
      for (const view of inputViews) {
        const value = normalizeInput(view);
        if (value === null) {
          view.input.focus();
          return { ok: false, error: t('jury.needsValue', { field: view.label, example }) };
        }
        values.push({ fieldId: view.fieldId ?? 0, value });
      }
      if (!manualFinal) return { ok: true, values, manualFinal: null };
      const final = normalizeInput(manualFinal);
      if (final === null) {
        manualFinal.input.focus();
        return { ok: false, error: t('jury.finalNeedsValue', { example }) };
      }
      return { ok: true, values, manualFinal: final };
    },
    status(state, text) {
      const status = panel.querySelector<HTMLElement>('.panel-status');
      if (!status) return;
      status.dataset.status = state;
      status.textContent = text;
    },
    ack(state, message) {
      ackLine.dataset.state = state;
      ackLine.textContent = message;
    },
    focusFirst() {
      (inputViews[0]?.input ?? manualFinal?.input)?.focus();
      panel.scrollIntoView({ block: 'nearest' });
    },
    hasManualFinal: () => manualFinal !== null,
    notice(text) {
      noticeLine.hidden = text === null;
      noticeLine.textContent = text ?? '';
    },
    ask({ kind, message, actions }) {
      const buttons = actions.map((action) => {
        const button = h(
          'button',
          { type: 'button', id: action.id, class: action.primary ? 'prompt-primary' : 'prompt-secondary' },
          action.label,
        );
        button.addEventListener('click', () => {
          promptBox.hidden = true;
          promptBox.replaceChildren();
          action.run();
        });
        return button;
      });
      promptBox.dataset.kind = kind;
      promptBox.replaceChildren(h('p', { class: 'prompt-message' }, message), h('div', { class: 'prompt-actions' }, ...buttons));
      promptBox.hidden = false;
      buttons[0]?.focus();
    },
    clearPrompt() {
      promptBox.hidden = true;
      promptBox.replaceChildren();
    },
  };
}
