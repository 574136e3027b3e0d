import type { DisciplineSummary } from '../shared/api.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { decimalSeparator, t, timeOfDay } from '../shared/i18n.js';
import { usualRange } from '../shared/plausibility.js';
import { implausibleQuestion, refusalText } from '../shared/plausibility-text.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import type { OfficeView, ViewContext } from './view.js';
import { m } from './messages.js';
import type { CompetitionSummary, OfficeApi, UnitSummary } from './office-api.js';
import {
  checkSave,
  decideSave,
  sheetLayout,
  storedAttempts,
  type SaveDecision,
  type SheetCheck,
  type SheetLayout,
  type StoredAttempt,
} from './team-sheet.js';
import type { TeamScoreEntry } from '../../queries/team-scores.js';

type StoredEntry = Pick<TeamScoreEntry, 'attempt' | 'components' | 'finalScore'>;

/** What differs between team and group score entry: the texts, the lists offered and the two calls. */
interface UnitKind {
  key: 'team' | 'group';
  title: string;
  choose: string;
  none: string;
  empty: string;
  step1: string;
  label: string;
  units(api: OfficeApi, eventId: number): Promise<UnitSummary[]>;
  /** Group scores need a group competition (bol_gruppe); team rows may stand in any other. */
  fits(competition: CompetitionSummary): boolean;
  load(api: OfficeApi, unitId: number, competitionId: number, disciplineId: number): Promise<StoredEntry[]>;
  /** Saves one attempt; answers the stored final score. */
  save(
    api: OfficeApi,
    target: { unitId: number; competitionId: number; disciplineId: number; attempt: number },
    decision: Extract<SaveDecision, { kind: 'save' }>,
    finalFieldId: number,
  ): Promise<number | null>;
}

const TEAM: Omit<UnitKind, 'title'> = {
  key: 'team',
  choose: m('unit.chooseTeam'),
  none: m('unit.noTeams'),
  empty: m('unit.emptyTeams'),
  step1: m('unit.step1Team'),
  label: m('unit.team'),
  units: (api, eventId) => api.teams(eventId),
  fits: (competition) => !competition.isGroupCompetition,
  load: async (api, teamId, competitionId, disciplineId) => (await api.teamScores({ teamId, competitionId, disciplineId })).results,
  save: async (api, target, decision) =>
    (
      await api.saveTeamScore({
        teamId: target.unitId,
        competitionId: target.competitionId,
        disciplineId: target.disciplineId,
        attempt: target.attempt,
        components: decision.components,
        ...(decision.finalScore === undefined ? {} : { finalScore: decision.finalScore }),
      })
    ).finalScore,
};

const GROUP: Omit<UnitKind, 'title'> = {
  key: 'group',
  choose: m('unit.chooseGroup'),
  none: m('unit.noGroups'),
  empty: m('unit.emptyGroups'),
  step1: m('unit.step1Group'),
  label: m('unit.group'),
  units: (api, eventId) => api.groups(eventId),
  fits: (competition) => competition.isGroupCompetition,
  load: async (api, groupId, competitionId, disciplineId) =>
    (await api.groupScores(groupId, { competitionId, disciplineId })).scores.map((score) => ({
      attempt: score.attemptNumber,
      components: score.components ?? [],
      finalScore: score.finalScore,
    })),
  save: async (api, target, decision, finalFieldId) => {
    const saved = await api.saveGroupScore({
      groupId: target.unitId,
      competitionId: target.competitionId,
      disciplineId: target.disciplineId,
      attemptNumber: target.attempt,
      components: decision.components,
      ...(decision.finalScore === undefined ? {} : { finalScore: decision.finalScore }),
    });
    return saved.components.find((component) => component.fieldId === finalFieldId)?.value ?? null;
  },
};

interface Cell {
  input: HTMLInputElement;
  error: HTMLElement;
  /** The text the last load put in, to tell the user's edits from stored values on a reload. */
  loaded: string;
}

interface AttemptRow {
  attempt: number;
  cells: Map<number, Cell>;
  /** The typed final score, when the discipline has no usable formula. */
  finalCell: Cell | null;
  finalOutput: HTMLOutputElement | null;
  status: HTMLElement;
  /** The plausibility question of a save that waits for confirmation: a table row below the attempt's. */
  prompt: HTMLTableRowElement;
  promptBox: HTMLElement;
  /** The values the open question is about, so leaving another cell does not ask again. */
  asked: string | null;
}

type Save = Extract<SaveDecision, { kind: 'save' }>;

const disciplineLabel = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;
const competitionLabel = (competition: CompetitionSummary) => competition.name ?? m('competition.fallback', { id: competition.id });

/**
 * The inline table of one team or group, competition and discipline: one row per attempt, one column per
 * field. A cell is normalised by the input mask when it is left (never while typing); leaving it
 * then saves the attempt and loads what the server stored back into the table.
 */
class UnitSheet {
  readonly element = h('div', { class: 'sheet' });
  private readonly rows: AttemptRow[] = [];
  private stored = new Map<number, StoredAttempt>();
  /** Saves run one after another, so two quick edits of one attempt reach the server in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: OfficeApi,
    private readonly kind: UnitKind,
    private readonly unit: UnitSummary,
    private readonly competition: CompetitionSummary,
    private readonly discipline: DisciplineSummary,
    private readonly layout: SheetLayout,
    private readonly format: ScoreFormat,
  ) {}

  async start(): Promise<void> {
    if (this.layout.finalField === null || this.layout.columns.length === 0) {
      const discipline = disciplineLabel(this.discipline);
      this.element.replaceChildren(
        h(
          'p',
          { class: 'view-message', role: 'status' },
          this.layout.columns.length === 0 ? m('sheet.noFields', { discipline }) : m('sheet.noFinalField', { discipline }),
        ),
      );
      return;
    }
    if (this.competition.attempts < 1) {
      this.element.replaceChildren(h('p', { class: 'view-message', role: 'status' }, m('sheet.noAttempts')));
      return;
    }
    this.render();
    await this.reload(null);
  }

  private render(): void {
    const { columns, formulaFields } = this.layout;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, m('sheet.attempt')),
      ...columns.map((field) =>
        h(
          'th',
          { scope: 'col', 'data-field-id': field.id },
          h('span', { class: 'short' }, field.shortName ?? ''),
          h('span', { class: 'long' }, field.name ?? ''),
        ),
      ),
      h('th', { scope: 'col' }, this.layout.finalField?.name || m('sheet.finalScore')),
      h('th', { scope: 'col' }, m('sheet.status')),
    );
    const body = h('tbody');
    for (let attempt = 1; attempt <= this.competition.attempts; attempt++) {
      const row: AttemptRow = {
        attempt,
        cells: new Map(),
        finalCell: null,
        finalOutput: null,
        status: h('span', { class: 'row-status', id: `status-${attempt}`, role: 'status' }),
        prompt: h('tr', { class: 'prompt-row', id: `prompt-${attempt}`, hidden: true }),
        promptBox: h('div', { class: 'row-prompt', role: 'group' }),
        asked: null,
      };
      row.prompt.append(h('td', { colspan: columns.length + 3 }, row.promptBox));
      const cellsOfRow = columns.map((field) => {
        const cell = this.cell(row, field.id, m('sheet.cellLabel', { attempt, field: field.name ?? field.shortName ?? String(field.id) }));
        row.cells.set(field.id, cell);
        return h('td', {}, cell.input, cell.error);
      });
      let finalCell: HTMLElement;
      if (formulaFields === null) {
        row.finalCell = this.cell(row, 'final', m('sheet.finalLabel', { attempt }));
        finalCell = h('td', { class: 'final' }, row.finalCell.input, row.finalCell.error);
      } else {
        row.finalOutput = h('output', { id: `final-${attempt}`, class: 'final-value' }, '—');
        finalCell = h('td', { class: 'final' }, row.finalOutput);
      }
      this.rows.push(row);
      body.append(
        h('tr', { 'data-attempt': attempt }, h('th', { scope: 'row' }, String(attempt)), ...cellsOfRow, finalCell, h('td', {}, row.status)),
        row.prompt,
      );
    }
    const caption = h(
      'caption',
      {},
      `${this.unit.name} · ${competitionLabel(this.competition)} · ${disciplineLabel(this.discipline)}`,
      h(
        'span',
        { class: 'formula' },
        formulaFields === null ? m('sheet.noFormula') : m('sheet.byFormula', { formula: this.discipline.formula ?? '' }),
      ),
    );
    this.element.replaceChildren(
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'data-table score-sheet', id: 'score-sheet' }, caption, h('thead', {}, head), body),
      ),
      h('p', { class: 'hint', id: 'sheet-hint' }, this.hint()),
    );
  }

  /** The notation and the plausible ranges in words (the portal's rule, docs/decisions.md). */
  private hint(): string {
    const field = this.layout.columns.map((column) =>
      usualRange(this.discipline, { kind: 'field', name: column.name ?? '', shortName: column.shortName }),
    );
    const strict = field.find((range) => !range.negative) ?? field[0];
    const final = usualRange(this.discipline, { kind: 'final' });
    const parts = [
      m('sheet.hintFormat', { example: this.format.example }),
      strict ? m('sheet.hintFields', { min: this.show(strict.min), max: this.show(strict.max) }) : '',
      m('sheet.hintFinal', { min: this.show(final.min), max: this.show(final.max) }),
      m('sheet.hintNegative'),
      m('sheet.hintSave'),
    ];
    return parts.filter(Boolean).join(' ');
  }

  private cell(row: AttemptRow, column: number | 'final', label: string): Cell {
    const id = `cell-${row.attempt}-${column}`;
    const input = h('input', {
      id,
      type: 'text',
      inputmode: this.format.inputMode,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: this.format.example,
      'aria-label': label,
      'aria-describedby': `${id}-error`,
    });
    const error = h('span', { class: 'cell-error', id: `${id}-error`, role: 'alert', hidden: true });
    const cell: Cell = { input, error, loaded: '' };
    input.addEventListener('blur', () => this.left(row, cell));
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      // rows[attempt] is the next attempt's row (attempts count from 1).
      const below = this.rows[row.attempt];
      const next = column === 'final' ? below?.finalCell : below?.cells.get(column);
      if (next) next.input.focus();
      else input.blur();
    });
    return cell;
  }

  /** For reading: the mask's decimals without leading zeros, in the language's notation (inputs keep the mask's). */
  private show(value: number): string {
    return this.format.display(value, decimalSeparator);
  }

  private setError(cell: Cell, message: string | null): void {
    cell.error.hidden = message === null;
    cell.error.textContent = message ?? '';
    if (message === null) cell.input.removeAttribute('aria-invalid');
    else cell.input.setAttribute('aria-invalid', 'true');
  }

  private setStatus(row: AttemptRow, state: 'saving' | 'saved' | 'incomplete' | 'error' | 'idle', text: string): void {
    row.status.dataset.state = state;
    row.status.textContent = text;
  }

  /** Input mask rules 7-8: empty is "no value"; anything else is normalised or marked wrong. */
  private normalize(cell: Cell): { ok: true; value: number | null } | { ok: false } {
    const typed = cell.input.value.trim();
    if (typed === '') {
      cell.input.value = '';
      this.setError(cell, null);
      return { ok: true, value: null };
    }
    const result = this.format.normalize(typed);
    if (!result.ok) {
      this.setError(cell, result.error);
      return { ok: false };
    }
    cell.input.value = result.text;
    this.setError(cell, null);
    return { ok: true, value: result.value };
  }

  private left(row: AttemptRow, cell: Cell): void {
    if (!this.normalize(cell).ok) {
      this.setStatus(row, 'error', m('sheet.correct'));
      return;
    }
    const values = new Map<number, number>();
    for (const [fieldId, other] of row.cells) {
      const typed = other.input.value.trim();
      if (typed === '') continue;
      const result = this.format.normalize(typed);
      // Another cell of the row still holds a wrong value: its own blur already said so.
      if (!result.ok) return;
      values.set(fieldId, result.value);
    }
    let finalScore: number | null = null;
    if (row.finalCell && row.finalCell.input.value.trim() !== '') {
      const result = this.format.normalize(row.finalCell.input.value);
      if (!result.ok) return;
      finalScore = result.value;
    }
    const same = (a: number, b: number) => this.format.format(a) === this.format.format(b);
    const decision = decideSave(this.layout, { values, finalScore }, this.stored.get(row.attempt), same);
    if (decision.kind !== 'save') this.closePrompt(row);
    if (decision.kind === 'unchanged') {
      if (row.status.dataset.state === 'incomplete') this.setStatus(row, 'idle', '');
      return;
    }
    if (decision.kind === 'incomplete') {
      this.setStatus(
        row,
        'incomplete',
        decision.reason === 'needs'
          ? m('sheet.needs', { fields: decision.missing.join(', ') })
          : m(decision.reason === 'type-final' ? 'sheet.typeFinal' : 'sheet.noFinal'),
      );
      return;
    }
    this.check(row, cell, decision);
  }

  /**
   * The portal's plausibility rule before anything is sent: a negative value where none can be is
   * refused at its cell; values outside their usual range wait for "Save anyway".
   */
  private check(row: AttemptRow, cell: Cell, decision: Save): void {
    const outcome = checkSave(this.layout, decision, this.discipline, t('jury.finalScore'));
    if (outcome.kind === 'refuse') {
      this.closePrompt(row);
      const { check } = outcome;
      this.setError(
        this.cellOf(row, check) ?? cell,
        refusalText(check, (value) => this.show(value)),
      );
      this.setStatus(row, 'error', m('sheet.correct'));
      return;
    }
    if (outcome.kind === 'confirm') {
      this.ask(row, decision, outcome.checks);
      return;
    }
    this.closePrompt(row);
    this.save(row, cell, decision);
  }

  private cellOf(row: AttemptRow, check: SheetCheck): Cell | null {
    return (check.column === 'final' ? row.finalCell : row.cells.get(check.column)) ?? null;
  }

  private ask(row: AttemptRow, decision: Save, checks: SheetCheck[]): void {
    const key = JSON.stringify(decision);
    if (row.asked === key && !row.prompt.hidden) return;
    row.asked = key;
    const correct = h('button', { type: 'button', class: 'primary small', id: `correct-${row.attempt}` }, t('jury.correct'));
    const confirm = h('button', { type: 'button', class: 'small', id: `confirm-${row.attempt}` }, t('jury.saveAnyway'));
    const first = this.cellOf(row, checks[0]!);
    correct.addEventListener('click', () => {
      this.closePrompt(row);
      (first ?? [...row.cells.values()][0])?.input.focus();
    });
    confirm.addEventListener('click', () => {
      this.closePrompt(row);
      this.save(row, first ?? [...row.cells.values()][0]!, decision);
    });
    this.setStatus(row, 'incomplete', m('sheet.waitsForConfirm'));
    row.promptBox.replaceChildren(
      h(
        'p',
        {},
        implausibleQuestion(checks, (value) => this.show(value)),
      ),
      h('div', { class: 'actions' }, correct, confirm),
    );
    row.prompt.hidden = false;
    // As in the portal: "Correct it" has the focus, "Save anyway" is one Tab away.
    correct.focus();
  }

  private closePrompt(row: AttemptRow): void {
    row.asked = null;
    row.prompt.hidden = true;
    row.promptBox.replaceChildren();
  }

  private save(row: AttemptRow, cell: Cell, decision: Save): void {
    this.setStatus(row, 'saving', m('sheet.saving'));
    const target = { unitId: this.unit.id, competitionId: this.competition.id, disciplineId: this.discipline.id, attempt: row.attempt };
    const finalFieldId = this.layout.finalField!.id;
    this.queue = this.queue.then(async () => {
      try {
        const finalScore = await this.kind.save(this.api, target, decision, finalFieldId);
        // The saved final shows with "saved", not only after the reload that follows.
        if (row.finalOutput) row.finalOutput.textContent = finalScore === null ? '—' : this.show(finalScore);
        this.setStatus(row, 'saved', m('sheet.saved', { time: timeOfDay(), score: finalScore === null ? '—' : this.show(finalScore) }));
      } catch (error) {
        this.setError(cell, m('sheet.notSavedError', { error: (error as Error).message }));
        this.setStatus(row, 'error', m('sheet.notSaved'));
        return;
      }
      await this.reload(row.attempt);
    });
  }

  /**
   * Spec: saved values are loaded again after each save. The saved attempt is shown as stored;
   * other rows keep what the user typed there and has not saved yet, and the focused cell is
   * never overwritten under the cursor.
   */
  private async reload(savedAttempt: number | null): Promise<void> {
    let entries;
    try {
      entries = await this.kind.load(this.api, this.unit.id, this.competition.id, this.discipline.id);
    } catch (error) {
      for (const row of this.rows) this.setStatus(row, 'error', m('sheet.loadFailed', { error: (error as Error).message }));
      return;
    }
    this.stored = storedAttempts(entries, this.layout.finalField?.id ?? null);
    const show = (value: number | null | undefined) => (value === null || value === undefined ? '' : this.format.format(value));
    for (const row of this.rows) {
      const stored = this.stored.get(row.attempt);
      const refill = (cell: Cell, value: number | null | undefined) => {
        if (cell.input === document.activeElement) return;
        if (row.attempt !== savedAttempt && cell.input.value !== cell.loaded) return;
        cell.loaded = show(value);
        cell.input.value = cell.loaded;
        this.setError(cell, null);
      };
      for (const [fieldId, cell] of row.cells) refill(cell, stored?.values.get(fieldId));
      if (row.finalCell) refill(row.finalCell, stored?.finalScore);
      if (row.finalOutput) row.finalOutput.textContent = stored?.finalScore == null ? '—' : this.show(stored.finalScore);
    }
  }
}

/**
 * Team or group score entry: the three-step selector (unit, competition, discipline), then the
 * inline table. Only the competitions the unit is entered in and their devices are offered (see
 * docs/decisions.md, "Competition day"); a unit without any score row yet gets every competition
 * of its kind and every device.
 */
function unitScoresView(kind: UnitKind, context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  let units: UnitSummary[] = [];
  let competitions: CompetitionSummary[] = [];
  let disciplines: DisciplineSummary[] = [];
  let generation = 0;

  const placeholder = (text: string) => h('option', { value: '' }, text);
  const unitSelect = h('select', { id: `${kind.key}-select`, name: `${kind.key}Id` });
  const competitionSelect = h('select', { id: 'competition-select', name: 'competitionId', disabled: true });
  const disciplineSelect = h('select', { id: 'discipline-select', name: 'disciplineId', disabled: true });
  const message = h('p', { class: 'view-message', role: 'status', id: `${kind.key}s-message` });
  const notice = h('p', { class: 'hint', id: `${kind.key}s-offer`, hidden: true });
  const sheetHost = h('div', { class: 'sheet-host' });
  const step = (number: number, label: string, select: HTMLSelectElement) =>
    h('li', { class: 'picker' }, h('label', { for: select.id }, h('span', { class: 'step-number' }, `${number}`), ` ${label}`), select);

  const chosen = <T extends { id: number }>(list: readonly T[], select: HTMLSelectElement) =>
    list.find((entry) => entry.id === Number(select.value)) ?? null;
  const keep = (select: HTMLSelectElement, wanted: string) => {
    select.value = wanted;
    if (select.selectedIndex < 0) select.selectedIndex = 0;
  };

  /** The unit's competitions of the fitting kind; all of that kind when it is entered nowhere yet. */
  function offeredCompetitions(unit: UnitSummary): CompetitionSummary[] {
    const fitting = competitions.filter(kind.fits);
    if (unit.competitions.length === 0) return fitting;
    const entered = new Set(unit.competitions.map((competition) => competition.id));
    return fitting.filter((competition) => entered.has(competition.id));
  }

  function offeredDisciplines(unit: UnitSummary, competition: CompetitionSummary): DisciplineSummary[] {
    const devices = unit.competitions.find((entry) => entry.id === competition.id)?.disciplineIds ?? [];
    if (devices.length === 0) return disciplines;
    return disciplines.filter((discipline) => devices.includes(discipline.id));
  }

  function fillCompetitions(unit: UnitSummary | null): void {
    const wanted = competitionSelect.value;
    const offered = unit ? offeredCompetitions(unit) : [];
    competitionSelect.replaceChildren(
      placeholder(unit && offered.length === 0 ? m('unit.noCompetition') : m('unit.chooseCompetition')),
      ...offered.map((competition) => {
        const attempts = competition.attempts === 1 ? m('count.attempt') : m('count.attempts', { count: competition.attempts });
        return h('option', { value: competition.id }, `${competitionLabel(competition)} · ${attempts}`);
      }),
    );
    keep(competitionSelect, wanted);
    notice.hidden = !unit || unit.competitions.length > 0;
    notice.textContent = unit && unit.competitions.length === 0 ? m('unit.notEntered', { name: unit.name }) : '';
  }

  function fillDisciplines(unit: UnitSummary | null, competition: CompetitionSummary | null): void {
    const wanted = disciplineSelect.value;
    const offered = unit && competition ? offeredDisciplines(unit, competition) : [];
    disciplineSelect.replaceChildren(
      placeholder(m('unit.chooseDiscipline')),
      ...offered.map((discipline) => h('option', { value: discipline.id }, disciplineLabel(discipline))),
    );
    keep(disciplineSelect, wanted);
  }

  async function showSheet(): Promise<void> {
    const mine = ++generation;
    sheetHost.replaceChildren();
    const unit = chosen(units, unitSelect);
    fillCompetitions(unit);
    const competition = chosen(competitions, competitionSelect);
    fillDisciplines(unit, competition);
    const discipline = chosen(disciplines, disciplineSelect);
    competitionSelect.disabled = unit === null;
    disciplineSelect.disabled = unit === null || competition === null;
    replaceQuery({ [`${kind.key}Id`]: unit?.id ?? null, competitionId: competition?.id ?? null, disciplineId: discipline?.id ?? null });
    if (!unit || !competition || !discipline) {
      message.textContent = units.length === 0 ? kind.empty : !unit ? kind.step1 : !competition ? m('unit.step2') : m('unit.step3');
      if (kind.key === 'group' && unit && competitions.every((entry) => !kind.fits(entry)))
        message.textContent = m('unit.noGroupCompetition');
      return;
    }
    message.textContent = m('unit.loadingFields');
    let fields;
    try {
      fields = await api.disciplineFields(discipline.id);
    } catch (error) {
      if (mine === generation) message.textContent = m('unit.fieldsFailed', { error: (error as Error).message });
      return;
    }
    if (mine !== generation) return;
    message.textContent = '';
    const sheet = new UnitSheet(
      api,
      kind,
      unit,
      competition,
      discipline,
      sheetLayout(fields, discipline.id, discipline.formula),
      scoreFormat(discipline),
    );
    sheetHost.replaceChildren(sheet.element);
    await sheet.start();
  }

  for (const select of [unitSelect, competitionSelect, disciplineSelect]) select.addEventListener('change', () => void showSheet());

  Promise.all([kind.units(api, event.id), api.competitions(event.id), api.disciplines()]).then(
    ([loadedUnits, loadedCompetitions, loadedDisciplines]) => {
      units = loadedUnits;
      competitions = loadedCompetitions;
      disciplines = loadedDisciplines;
      unitSelect.replaceChildren(
        placeholder(units.length === 0 ? kind.none : kind.choose),
        ...units.map((unit) => h('option', { value: unit.id }, unit.clubName ? `${unit.name} (${unit.clubName})` : unit.name)),
      );
      // A reload or a bookmark comes back to the same table; ids that are not offered select nothing.
      keep(unitSelect, String(queryInteger(`${kind.key}Id`) ?? ''));
      fillCompetitions(chosen(units, unitSelect));
      keep(competitionSelect, String(queryInteger('competitionId') ?? ''));
      fillDisciplines(chosen(units, unitSelect), chosen(competitions, competitionSelect));
      keep(disciplineSelect, String(queryInteger('disciplineId') ?? ''));
      void showSheet();
    },
    (error: unknown) => {
      message.textContent = m('unit.listsFailed', { error: (error as Error).message });
    },
  );
  message.textContent = m('unit.loading');

  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': `${kind.key}s-title` },
    h('h2', { id: `${kind.key}s-title` }, kind.title),
    h(
      'ol',
      { class: 'stepper' },
      step(1, kind.label, unitSelect),
      step(2, m('unit.competition'), competitionSelect),
      step(3, m('unit.discipline'), disciplineSelect),
    ),
    message,
    notice,
    sheetHost,
  );
  return { element };
}

/** Team score entry (spec "Team scoring", entry client rules). */
export const teamsView = (context: ViewContext): OfficeView =>
  unitScoresView({ ...TEAM, title: m('unit.teamTitle', { event: context.event!.name }) }, context);

/** Group score entry, the same table against POST /api/scores/group (issue 17, point 8). */
export const groupScoresView = (context: ViewContext): OfficeView =>
  unitScoresView({ ...GROUP, title: m('unit.groupTitle', { event: context.event!.name }) }, context);
