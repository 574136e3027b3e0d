import type { DisciplineSummary } from '../shared/api.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import type { OfficeView, ViewContext } from './view.js';
import { countOf } from './people.js';
import type { CompetitionSummary, OfficeApi, UnitSummary } from './office-api.js';
import { decideSave, sheetLayout, storedAttempts, type SheetLayout, type StoredAttempt } from './team-sheet.js';

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
}

const disciplineLabel = (discipline: DisciplineSummary) => discipline.displayName || discipline.name;
const timeOfDay = () => new Date().toLocaleTimeString();

/**
 * The inline table of one team, competition and discipline: one row per attempt, one column per
 * field. A cell is normalised by the input mask when it is left (never while typing); leaving it
 * then saves the attempt and loads what the server stored back into the table.
 */
class TeamSheet {
  readonly element = h('div', { class: 'sheet' });
  private readonly rows: AttemptRow[] = [];
  private stored = new Map<number, StoredAttempt>();
  /** Saves run one after another, so two quick edits of one attempt reach the server in order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: OfficeApi,
    private readonly team: UnitSummary,
    private readonly competition: CompetitionSummary,
    private readonly discipline: DisciplineSummary,
    private readonly layout: SheetLayout,
    private readonly format: ScoreFormat,
  ) {}

  async start(): Promise<void> {
    if (this.layout.finalField === null || this.layout.columns.length === 0) {
      this.element.replaceChildren(
        h(
          'p',
          { class: 'view-message', role: 'status' },
          `${disciplineLabel(this.discipline)} has no ${this.layout.columns.length === 0 ? 'enabled fields' : 'final field'}: team scores cannot be entered for it.`,
        ),
      );
      return;
    }
    if (this.competition.attempts < 1) {
      this.element.replaceChildren(
        h('p', { class: 'view-message', role: 'status' }, 'This competition allows no attempts (int_versuche is 0).'),
      );
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
      h('th', { scope: 'col' }, 'Attempt'),
      ...columns.map((field) =>
        h(
          'th',
          { scope: 'col', 'data-field-id': field.id },
          h('span', { class: 'short' }, field.shortName ?? ''),
          h('span', { class: 'long' }, field.name ?? ''),
        ),
      ),
      h('th', { scope: 'col' }, this.layout.finalField?.name || 'Final score'),
      h('th', { scope: 'col' }, 'Status'),
    );
    const body = h('tbody');
    for (let attempt = 1; attempt <= this.competition.attempts; attempt++) {
      const row: AttemptRow = {
        attempt,
        cells: new Map(),
        finalCell: null,
        finalOutput: null,
        status: h('span', { class: 'row-status', id: `status-${attempt}`, role: 'status' }),
      };
      const cellsOfRow = columns.map((field) => {
        const cell = this.cell(row, field.id, `Attempt ${attempt}, ${field.name ?? field.shortName ?? 'field'}`);
        row.cells.set(field.id, cell);
        return h('td', {}, cell.input, cell.error);
      });
      let finalCell: HTMLElement;
      if (formulaFields === null) {
        row.finalCell = this.cell(row, 'final', `Attempt ${attempt}, final score`);
        finalCell = h('td', { class: 'final' }, row.finalCell.input, row.finalCell.error);
      } else {
        row.finalOutput = h('output', { id: `final-${attempt}`, class: 'final-value' }, '—');
        finalCell = h('td', { class: 'final' }, row.finalOutput);
      }
      this.rows.push(row);
      body.append(
        h('tr', { 'data-attempt': attempt }, h('th', { scope: 'row' }, String(attempt)), ...cellsOfRow, finalCell, h('td', {}, row.status)),
      );
    }
    const caption = h(
      'caption',
      {},
      `${this.team.name} · ${this.competition.name ?? `Competition ${this.competition.id}`} · ${disciplineLabel(this.discipline)}`,
      h(
        'span',
        { class: 'formula' },
        formulaFields === null ? ' — no usable formula: type the final score' : ` — final score by formula ${this.discipline.formula}`,
      ),
    );
    this.element.replaceChildren(
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'data-table score-sheet', id: 'score-sheet' }, caption, h('thead', {}, head), body),
      ),
      h(
        'p',
        { class: 'hint' },
        `Values are checked against ${this.format.example} when a cell is left, and the attempt is saved then. Enter moves to the next attempt.`,
      ),
    );
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
      this.setStatus(row, 'error', 'Not saved: correct the marked value.');
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
    if (decision.kind === 'unchanged') {
      if (row.status.dataset.state === 'incomplete') this.setStatus(row, 'idle', '');
      return;
    }
    if (decision.kind === 'incomplete') {
      this.setStatus(row, 'incomplete', decision.reason);
      return;
    }
    this.setStatus(row, 'saving', 'Saving…');
    const body = {
      teamId: this.team.id,
      competitionId: this.competition.id,
      disciplineId: this.discipline.id,
      attempt: row.attempt,
      components: decision.components,
      ...(decision.finalScore === undefined ? {} : { finalScore: decision.finalScore }),
    };
    this.queue = this.queue.then(async () => {
      try {
        const saved = await this.api.saveTeamScore(body);
        this.setStatus(row, 'saved', `✓ Saved at ${timeOfDay()}: ${this.format.format(saved.finalScore)}`);
      } catch (error) {
        this.setError(cell, `Not saved: ${(error as Error).message}`);
        this.setStatus(row, 'error', '✗ Not saved');
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
      entries = (await this.api.teamScores({ teamId: this.team.id, competitionId: this.competition.id, disciplineId: this.discipline.id }))
        .results;
    } catch (error) {
      for (const row of this.rows) this.setStatus(row, 'error', `Could not load the stored values: ${(error as Error).message}`);
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
      if (row.finalOutput) row.finalOutput.textContent = stored?.finalScore == null ? '—' : show(stored.finalScore);
    }
  }
}

/** Team score entry: the three-step selector (team, competition, discipline), then the inline table. */
export function teamsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  let teams: UnitSummary[] = [];
  let competitions: CompetitionSummary[] = [];
  let disciplines: DisciplineSummary[] = [];
  let generation = 0;

  const placeholder = (text: string) => h('option', { value: '' }, text);
  const teamSelect = h('select', { id: 'team-select', name: 'teamId' });
  const competitionSelect = h('select', { id: 'competition-select', name: 'competitionId', disabled: true });
  const disciplineSelect = h('select', { id: 'discipline-select', name: 'disciplineId', disabled: true });
  const message = h('p', { class: 'view-message', role: 'status', id: 'teams-message' });
  const sheetHost = h('div', { class: 'sheet-host' });
  const step = (number: number, label: string, select: HTMLSelectElement) =>
    h('li', { class: 'picker' }, h('label', { for: select.id }, h('span', { class: 'step-number' }, `${number}`), ` ${label}`), select);

  const chosen = <T extends { id: number }>(list: readonly T[], select: HTMLSelectElement) =>
    list.find((entry) => entry.id === Number(select.value)) ?? null;

  async function showSheet(): Promise<void> {
    const mine = ++generation;
    sheetHost.replaceChildren();
    const team = chosen(teams, teamSelect);
    const competition = chosen(competitions, competitionSelect);
    const discipline = chosen(disciplines, disciplineSelect);
    competitionSelect.disabled = team === null;
    disciplineSelect.disabled = team === null || competition === null;
    replaceQuery({ teamId: team?.id ?? null, competitionId: competition?.id ?? null, disciplineId: discipline?.id ?? null });
    if (!team || !competition || !discipline) {
      message.textContent = !team
        ? 'Step 1: choose a team.'
        : !competition
          ? 'Step 2: choose a competition.'
          : 'Step 3: choose a discipline.';
      return;
    }
    message.textContent = 'Loading the fields…';
    let fields;
    try {
      fields = await api.disciplineFields(discipline.id);
    } catch (error) {
      if (mine === generation) message.textContent = `Could not load the fields: ${(error as Error).message}`;
      return;
    }
    if (mine !== generation) return;
    message.textContent = '';
    const sheet = new TeamSheet(
      api,
      team,
      competition,
      discipline,
      sheetLayout(fields, discipline.id, discipline.formula),
      scoreFormat(discipline),
    );
    sheetHost.replaceChildren(sheet.element);
    await sheet.start();
  }

  for (const select of [teamSelect, competitionSelect, disciplineSelect]) select.addEventListener('change', () => void showSheet());

  Promise.all([api.teams(event.id), api.competitions(event.id), api.disciplines()]).then(
    ([loadedTeams, loadedCompetitions, loadedDisciplines]) => {
      teams = loadedTeams;
      competitions = loadedCompetitions;
      disciplines = loadedDisciplines;
      teamSelect.replaceChildren(
        placeholder(teams.length === 0 ? 'No teams in this event' : 'Choose a team…'),
        ...teams.map((team) => h('option', { value: team.id }, team.clubName ? `${team.name} (${team.clubName})` : team.name)),
      );
      competitionSelect.replaceChildren(
        placeholder('Choose a competition…'),
        ...competitions.map((competition) =>
          h(
            'option',
            { value: competition.id },
            `${competition.name ?? `Competition ${competition.id}`} · ${countOf(competition.attempts, 'attempt')}`,
          ),
        ),
      );
      disciplineSelect.replaceChildren(
        placeholder('Choose a discipline…'),
        ...disciplines.map((discipline) => h('option', { value: discipline.id }, disciplineLabel(discipline))),
      );
      // A reload or a bookmark comes back to the same table; ids that are not offered select nothing.
      for (const [select, name] of [
        [teamSelect, 'teamId'],
        [competitionSelect, 'competitionId'],
        [disciplineSelect, 'disciplineId'],
      ] as const) {
        select.value = String(queryInteger(name) ?? '');
        if (select.selectedIndex < 0) select.selectedIndex = 0;
      }
      void showSheet();
    },
    (error: unknown) => {
      message.textContent = `Could not load teams, competitions and disciplines: ${(error as Error).message}`;
    },
  );
  message.textContent = 'Loading…';

  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'teams-title' },
    h('h2', { id: 'teams-title' }, `Team score entry · ${event.name}`),
    h(
      'ol',
      { class: 'stepper' },
      step(1, 'Team', teamSelect),
      step(2, 'Competition', competitionSelect),
      step(3, 'Discipline', disciplineSelect),
    ),
    message,
    sheetHost,
  );
  return { element };
}
