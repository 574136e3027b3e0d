/**
 * The E-panel's rules on the settings page (issue 47): what a missing judge's value becomes, which
 * judges are not there, and the two reference judges with their agreement range and tolerance
 * table (one row per line, "from tolerance", in the page's notation; FIG's table by default).
 */
import type { DisciplineField } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { decimalSeparator } from '../shared/i18n.js';
import type { PanelSettings } from '../shared/panel.js';
import type { ScoreFormat } from '../shared/score-format.js';
import { parseTyped } from '../../src/domain/input-mask.js';
import { DEFAULT_REFERENCE_AGREEMENT, FIG_REFERENCE_TOLERANCES, type ToleranceStep } from '../../src/domain/reference-judges.js';
import type { MissingJudgeRule } from '../../src/domain/panel.js';
import { m } from './messages.js';

export interface PanelRules {
  missingJudge: MissingJudgeRule;
  absentFieldIds: number[];
  reference: { fieldIds: number[]; agreement: number; tolerances: ToleranceStep[] } | null;
}

/** Lines "from tolerance" (separated by blanks or a colon) to table rows; null when a line is not two numbers. */
export function parseToleranceTable(text: string): ToleranceStep[] | null {
  const rows: ToleranceStep[] = [];
  for (const line of text.split('\n')) {
    const parts = line.split(/[\s:;]+/).filter((part) => part !== '');
    if (parts.length === 0) continue;
    const [from, tolerance] = parts.map((part) => parseTyped(part));
    if (parts.length !== 2 || from === null || from === undefined || tolerance === null || tolerance === undefined) return null;
    rows.push({ from, tolerance });
  }
  return rows.length === 0 ? null : rows;
}

export function panelRulesForm(
  candidates: readonly DisciplineField[],
  panel: PanelSettings | null,
  format: ScoreFormat,
  fieldName: (field: DisciplineField) => string,
): {
  element: HTMLElement;
  /** Offers only the judge fields as absent. */
  showJudges(judgeFieldIds: readonly number[]): void;
  read(judgeFieldIds: readonly number[]): PanelRules | { error: string };
} {
  const show = (value: number) => format.display(value, decimalSeparator);
  const missingSelect = h(
    'select',
    { id: 'panel-missing-judge' },
    h('option', { value: 'fewer-values', selected: panel?.missingJudge !== 'mean-of-given' }, m('panels.missing.fewer')),
    h('option', { value: 'mean-of-given', selected: panel?.missingJudge === 'mean-of-given' }, m('panels.missing.mean')),
  );
  const absentBoxes = candidates.map((field) =>
    h('input', { type: 'checkbox', id: `absent-field-${field.id}`, value: field.id, checked: panel?.absentFieldIds?.includes(field.id) }),
  );
  const absentLabels = candidates.map((field, index) =>
    h('label', { for: absentBoxes[index]!.id, class: 'check' }, absentBoxes[index]!, ` ${fieldName(field)}`),
  );
  const referenceSelect = (index: number) =>
    h(
      'select',
      { id: `panel-reference-${index + 1}` },
      h('option', { value: '' }, m('panels.reference.none')),
      ...candidates.map((field) =>
        h('option', { value: field.id, selected: panel?.reference?.fieldIds[index] === field.id }, fieldName(field)),
      ),
    );
  const references = [referenceSelect(0), referenceSelect(1)];
  const agreementInput = h('input', {
    id: 'panel-reference-agreement',
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    value: show(panel?.reference?.agreement ?? DEFAULT_REFERENCE_AGREEMENT),
  });
  const table = h('textarea', { id: 'panel-reference-tolerances', rows: 7 });
  table.value = [...(panel?.reference?.tolerances ?? FIG_REFERENCE_TOLERANCES)]
    .sort((a, b) => b.from - a.from)
    .map((step) => `${show(step.from)} ${show(step.tolerance)}`)
    .join('\n');

  const element = h(
    'fieldset',
    { class: 'panel-rules' },
    h('legend', {}, m('panels.rules')),
    h('div', { class: 'picker' }, h('label', { for: missingSelect.id }, m('panels.missing')), missingSelect),
    h('div', { class: 'absent-fields' }, h('p', { class: 'hint' }, m('panels.absent')), ...absentLabels),
    h('p', { class: 'hint' }, m('panels.reference.hint')),
    h('div', { class: 'picker' }, h('label', { for: references[0]!.id }, m('panels.reference.first')), references[0]!),
    h('div', { class: 'picker' }, h('label', { for: references[1]!.id }, m('panels.reference.second')), references[1]!),
    h('div', { class: 'picker' }, h('label', { for: agreementInput.id }, m('panels.reference.agreement')), agreementInput),
    h('div', { class: 'picker' }, h('label', { for: table.id }, m('panels.reference.table')), table),
  );

  return {
    element,
    showJudges(judgeFieldIds) {
      candidates.forEach((field, index) => {
        absentLabels[index]!.hidden = !judgeFieldIds.includes(field.id);
      });
    },
    read(judgeFieldIds) {
      // A field unticked as a judge since is no absent judge any more.
      const absentFieldIds = absentBoxes
        .filter((box) => box.checked)
        .map((box) => Number(box.value))
        .filter((fieldId) => judgeFieldIds.includes(fieldId));
      const rules = { missingJudge: missingSelect.value as MissingJudgeRule, absentFieldIds };
      const fieldIds = references.map((select) => Number(select.value)).filter((fieldId) => fieldId > 0);
      if (fieldIds.length === 0) return { ...rules, reference: null };
      if (fieldIds.length !== 2) return { error: m('panels.reference.two') };
      const agreement = parseTyped(agreementInput.value);
      if (agreement === null || agreement < 0) return { error: m('panels.reference.badAgreement') };
      const tolerances = parseToleranceTable(table.value);
      if (tolerances === null) return { error: m('panels.reference.badTable') };
      return { ...rules, reference: { fieldIds, agreement, tolerances } };
    },
  };
}
