/**
 * E-panel settings (`?view=panels&disciplineId=`, issue 21): per device, which fields hold the
 * judges' own values, the aggregation, the field receiving the aggregate and the tolerance;
 * saved with PUT /api/disciplines/:id/panel, removed with DELETE (admin). Also lists each judge's
 * own portal link.
 */
import type { DisciplineField, DisciplineSummary } from '../shared/api.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { HttpError } from '../shared/api.js';
import { decimalSeparator, t, type MessageKey } from '../shared/i18n.js';
import { DEFAULT_PANEL_TOLERANCE, PANEL_AGGREGATIONS, type PanelAggregation, type PanelSettings } from '../shared/panel.js';
import { scoreFormat } from '../shared/score-format.js';
import { parseTyped } from '../../src/domain/input-mask.js';
import { m } from './messages.js';
import { panelRulesForm } from './panel-rules-form.js';
import type { OfficeView, ViewContext } from './view.js';

const deviceName = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;
const fieldName = (field: DisciplineField) => field.name ?? field.shortName ?? `#${field.id}`;
const aggregationLabel = (aggregation: PanelAggregation) => t(`panel.aggregation.${aggregation}` as MessageKey);
const bySortOrder = (a: DisciplineField, b: DisciplineField) => (a.sortOrder ?? Infinity) - (b.sortOrder ?? Infinity) || a.id - b.id;
/** Names an execution score goes by: the aggregate's natural home when it is empty. */
const EXECUTION_NAME = /^e$|^e[-\s]?(note|score|wert|abzug)\b|ausf|execution/i;

/**
 * The field a new panel's aggregate should go to: an empty one, an execution score's first.
 * Null when every candidate holds values (the page then says how to get an empty one).
 */
export function suitableAggregateField(candidates: readonly DisciplineField[], storedValues: ReadonlyMap<number, number>): number | null {
  const empty = candidates.filter((field) => (storedValues.get(field.id) ?? 0) === 0);
  const named = empty.find((field) => EXECUTION_NAME.test(field.shortName ?? '') || EXECUTION_NAME.test(field.name ?? ''));
  return (named ?? empty[0])?.id ?? null;
}

export function panelsView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const message = h('p', { class: 'view-message', role: 'status', id: 'panels-message' });
  const adminHint = h('p', { class: 'hint', id: 'panels-hint' });
  const tableBody = h('tbody', {});
  const editor = h('section', { class: 'sub-panel panel-editor', id: 'panel-editor', 'aria-live': 'polite' });
  let disciplines: DisciplineSummary[] = [];
  let chosen: number | null = queryInteger('disciplineId');
  let generation = 0;
  const panels = new Map<number, PanelSettings | null>();

  function panelSummary(panel: PanelSettings | null, discipline: DisciplineSummary): string {
    if (!panel) return m('panels.none');
    const tolerance = scoreFormat(discipline).display(panel.tolerance, decimalSeparator);
    return m('panels.summary', { size: panel.size, aggregation: aggregationLabel(panel.aggregation), tolerance });
  }

  function renderTable(): void {
    tableBody.replaceChildren(
      ...disciplines.map((discipline) => {
        const panel = panels.get(discipline.id) ?? null;
        const button = h(
          'button',
          { type: 'button', class: 'link-button', 'data-discipline-id': discipline.id, 'aria-pressed': String(discipline.id === chosen) },
          deviceName(discipline),
        );
        button.addEventListener('click', () => choose(discipline.id));
        return h(
          'tr',
          { 'data-discipline-id': discipline.id, 'data-panel': String(panel !== null), class: discipline.id === chosen ? 'chosen' : '' },
          h('th', { scope: 'row' }, button),
          h('td', { class: 'panel-summary' }, panelSummary(panel, discipline)),
        );
      }),
    );
  }

  function choose(disciplineId: number): void {
    chosen = disciplineId;
    replaceQuery({ disciplineId });
    renderTable();
    void renderEditor();
  }

  function judgeLinks(discipline: DisciplineSummary, fields: DisciplineField[], panel: PanelSettings): HTMLElement {
    const base = new URL('../jury/', window.location.href);
    return h(
      'div',
      { class: 'judge-links', id: 'judge-links' },
      h('h4', {}, m('panels.links')),
      h(
        'ul',
        {},
        ...[...panel.judgeFieldIds, ...(panel.reference?.fieldIds ?? [])].map((fieldId) => {
          const url = new URL(base);
          if (context.event) url.searchParams.set('eventId', String(context.event.id));
          url.searchParams.set('disciplineId', String(discipline.id));
          url.searchParams.set('field', String(fieldId));
          const field = fields.find((candidate) => candidate.id === fieldId);
          return h(
            'li',
            {},
            h('span', { class: 'judge-name' }, field ? fieldName(field) : `#${fieldId}`),
            h('a', { href: url.href, 'data-field-id': fieldId }, url.pathname + url.search),
          );
        }),
      ),
    );
  }

  async function renderEditor(): Promise<void> {
    const discipline = disciplines.find((candidate) => candidate.id === chosen);
    if (!discipline) {
      editor.replaceChildren();
      return;
    }
    const mine = ++generation;
    editor.replaceChildren(h('h3', {}, deviceName(discipline)), h('p', { class: 'hint' }, '…'));
    let fields: DisciplineField[];
    let storedValues: Map<number, number>;
    try {
      const [loaded, usage] = await Promise.all([api.disciplineFields(discipline.id), api.fieldValues(discipline.id)]);
      fields = loaded.filter((field) => field.enabled).sort(bySortOrder);
      storedValues = new Map(usage.fields.map((entry) => [entry.fieldId, entry.storedValues]));
    } catch (error) {
      if (mine === generation)
        editor.replaceChildren(h('p', { class: 'form-error' }, m('panels.fieldsFailed', { error: (error as Error).message })));
      return;
    }
    if (mine !== generation) return;
    const panel = panels.get(discipline.id) ?? null;
    const format = scoreFormat(discipline);
    const candidates = fields.filter((field) => !field.isFinalScore);
    const judgeBoxes = candidates.map((field) =>
      h('input', {
        type: 'checkbox',
        name: 'judgeField',
        value: field.id,
        id: `judge-field-${field.id}`,
        checked: panel?.judgeFieldIds.includes(field.id),
      }),
    );
    const aggregationSelect = h(
      'select',
      { id: 'panel-aggregation', name: 'aggregation' },
      ...PANEL_AGGREGATIONS.map((aggregation) =>
        h(
          'option',
          { value: aggregation, selected: aggregation === (panel?.aggregation ?? 'trimmed-mean') },
          aggregationLabel(aggregation),
        ),
      ),
    );
    const aggregateSelect = h('select', { id: 'panel-aggregate-field', name: 'aggregateFieldId' });
    const toleranceInput = h('input', {
      id: 'panel-tolerance',
      name: 'tolerance',
      type: 'text',
      inputmode: 'decimal',
      autocomplete: 'off',
      value: format.display(panel?.tolerance ?? DEFAULT_PANEL_TOLERANCE, decimalSeparator),
    });
    const formError = h('p', { class: 'form-error', id: 'panel-error', role: 'alert', hidden: true });
    const noEmptyField = h('p', { class: 'hint', id: 'panel-no-empty-field', hidden: true }, m('panels.noEmptyField'));
    const replaceBox = h('div', { class: 'replace-question', id: 'panel-replace', role: 'alertdialog', hidden: true });
    const save = h('button', { type: 'submit', class: 'primary', id: 'panel-save' }, m('panels.save'));
    const remove = h('button', { type: 'button', id: 'panel-remove', hidden: panel === null }, m('panels.remove'));

    const judgeIds = () => judgeBoxes.filter((box) => box.checked).map((box) => Number(box.value));
    /**
     * The aggregate field can be any field that is neither a judge's nor the final; each says
     * whether it holds values, and an empty one is offered first (issue 44).
     */
    const fillAggregateChoices = () => {
      const judges = new Set(judgeIds());
      const choices = candidates.filter((field) => !judges.has(field.id));
      const suitable = suitableAggregateField(choices, storedValues);
      const wanted = Number(aggregateSelect.value) || panel?.aggregateFieldId || suitable;
      aggregateSelect.replaceChildren(
        h('option', { value: '' }, m('panels.chooseField')),
        ...choices.map((field) => {
          const count = storedValues.get(field.id) ?? 0;
          const label =
            count === 0 ? m('panels.fieldEmpty', { field: fieldName(field) }) : m('panels.fieldHolds', { field: fieldName(field), count });
          return h('option', { value: field.id, selected: field.id === wanted }, label);
        }),
      );
      noEmptyField.hidden = suitable !== null || judges.size < 2;
    };
    const rules = panelRulesForm(candidates, panel, format, fieldName);
    const judgesChanged = () => {
      fillAggregateChoices();
      rules.showJudges(judgeIds());
    };
    judgeBoxes.forEach((box) => box.addEventListener('change', judgesChanged));
    judgesChanged();

    const showError = (text: string | null) => {
      formError.hidden = text === null;
      formError.textContent = text ?? '';
    };

    const form = h(
      'form',
      { class: 'panel-form', novalidate: true },
      h(
        'fieldset',
        { class: 'judge-fields' },
        h('legend', {}, m('panels.judgeFields')),
        ...candidates.map((field, index) =>
          h('label', { for: `judge-field-${field.id}`, class: 'check' }, judgeBoxes[index]!, ` ${fieldName(field)}`),
        ),
        ...fields
          .filter((field) => field.isFinalScore)
          .map((field) => h('p', { class: 'hint' }, `${fieldName(field)} (${m('panels.finalField')})`)),
      ),
      h(
        'div',
        { class: 'picker' },
        h('label', { for: 'panel-aggregation' }, m('panels.aggregation')),
        aggregationSelect,
        h('p', { class: 'hint' }, m('panels.aggregationHint')),
      ),
      h(
        'div',
        { class: 'picker' },
        h('label', { for: 'panel-aggregate-field' }, m('panels.aggregateField')),
        aggregateSelect,
        noEmptyField,
      ),
      h('div', { class: 'picker' }, h('label', { for: 'panel-tolerance' }, m('panels.tolerance')), toleranceInput),
      rules.element,
      formError,
      replaceBox,
      h('div', { class: 'actions' }, remove, save),
    );

    form.addEventListener('submit', (submitted) => {
      submitted.preventDefault();
      const judgeFieldIds = judgeIds();
      const aggregateFieldId = Number(aggregateSelect.value) || null;
      const tolerance = parseTyped(toleranceInput.value);
      if (judgeFieldIds.length < 2) return showError(m('panels.tooFew'));
      if (aggregateFieldId === null) return showError(m('panels.noAggregateField'));
      if (tolerance === null || tolerance < 0)
        return showError(m('panels.badTolerance', { example: format.display(DEFAULT_PANEL_TOLERANCE, decimalSeparator) }));
      const chosenRules = rules.read(judgeFieldIds);
      if ('error' in chosenRules) return showError(chosenRules.error);
      showError(null);
      const body = { judgeFieldIds, aggregation: aggregationSelect.value as PanelAggregation, aggregateFieldId, tolerance, ...chosenRules };
      const aggregateName = fieldName(candidates.find((field) => field.id === aggregateFieldId)!);
      const send = async (replaceStoredValues?: number) => {
        replaceBox.hidden = true;
        try {
          const saved = await api.savePanel(discipline.id, { ...body, replaceStoredValues });
          panels.set(discipline.id, saved);
          message.textContent = m('panels.saved', { device: deviceName(discipline), size: saved.size });
          renderTable();
          await renderEditor();
        } catch (error) {
          const replaced = error instanceof HttpError && error.status === 409 ? error.body?.replaced : undefined;
          if (typeof replaced === 'number') askToReplace(replaced, aggregateName, send);
          else showError(m('panels.failed', { error: (error as Error).message }));
        }
      };
      void send();
    });

    /** The server counted stored values the panel would replace: nothing is saved unless the user says so. */
    function askToReplace(count: number, field: string, send: (replace: number) => Promise<void>): void {
      const replace = h('button', { type: 'button', class: 'danger', id: 'panel-replace-confirm' }, m('panels.replace', { count }));
      const keep = h('button', { type: 'button', class: 'primary', id: 'panel-replace-keep' }, m('panels.keep'));
      replace.addEventListener('click', () => void send(count));
      keep.addEventListener('click', () => {
        replaceBox.hidden = true;
        showError(m('panels.kept', { field }));
      });
      replaceBox.replaceChildren(
        h('p', { id: 'panel-replace-text' }, m('panels.replaceQuestion', { count, field })),
        h('div', { class: 'actions' }, keep, replace),
      );
      replaceBox.hidden = false;
      keep.focus();
    }
    remove.addEventListener('click', () => {
      void (async () => {
        try {
          await api.removePanel(discipline.id);
          panels.set(discipline.id, null);
          message.textContent = m('panels.removed', { device: deviceName(discipline) });
          renderTable();
          await renderEditor();
        } catch (error) {
          showError(m('panels.failed', { error: (error as Error).message }));
        }
      })();
    });
    editor.replaceChildren(
      h('h3', { id: 'panel-editor-title' }, deviceName(discipline)),
      form,
      panel ? judgeLinks(discipline, fields, panel) : '',
    );
    renderAccess();
  }

  const renderAccess = () => {
    adminHint.hidden = session.isAdmin;
    adminHint.textContent = m('panels.needsAdmin');
    editor.querySelectorAll<HTMLButtonElement>('#panel-save, #panel-remove').forEach((button) => {
      button.disabled = !session.isAdmin;
    });
  };
  const unsubscribe = session.onChange(renderAccess);
  renderAccess();

  async function start(): Promise<void> {
    try {
      disciplines = await api.disciplines();
    } catch (error) {
      message.textContent = m('panels.loadFailed', { error: (error as Error).message });
      return;
    }
    for (const discipline of disciplines) panels.set(discipline.id, discipline.panel);
    if (!disciplines.some((discipline) => discipline.id === chosen)) chosen = disciplines[0]?.id ?? null;
    renderTable();
    await renderEditor();
  }
  void start();

  const element = h(
    'section',
    { class: 'panel panels-settings', 'aria-labelledby': 'panels-title' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'panels-title' }, m('panels.title'))),
    h('p', { class: 'hint' }, m('panels.intro')),
    adminHint,
    message,
    h(
      'div',
      { class: 'split panels-split' },
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data-table', id: 'panel-devices' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, m('panels.device')), h('th', { scope: 'col' }, m('panels.panel')))),
          tableBody,
        ),
      ),
      editor,
    ),
  );
  return {
    element,
    dispose() {
      generation += 1;
      unsubscribe();
    },
  };
}
