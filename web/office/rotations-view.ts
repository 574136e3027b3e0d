/**
 * Rotation plan (`?view=rotations`, issue 45): the day's timetable of squads on apparatus. The
 * admin generates it from the event's squads and apparatus, edits a squad or a time, and saves it
 * (the server checks it as a whole and its refusal is shown in words). The head judge starts the
 * next rotation here, with a question while the current one still misses scores; per apparatus
 * the progress and the delay against the plan follow the live feed.
 */
import { HttpError, type DisciplineSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { LiveFeed } from '../shared/live.js';
import { m } from './messages.js';
import type { CurrentRotation, Rotation } from './office-api.js';
import { duration, parseBreaks, planProblemTexts } from './rotation-texts.js';
import type { OfficeView, ViewContext } from './view.js';

// Score events come in bursts while a squad finishes; one reload of the progress per burst.
const RELOAD_DELAY_MS = 300;

const pad = (value: number) => String(value).padStart(2, '0');
/** An ISO instant as a `datetime-local` value in the browser's time zone. */
function localInput(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
const clock = (iso: string) => new Date(iso).toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });

/** The next full hour from now, a sensible first start for a plan made on the day. */
function nextFullHour(): string {
  const date = new Date();
  date.setHours(date.getHours() + 1, 0, 0, 0);
  return localInput(date.toISOString());
}

export function rotationsView(context: ViewContext): OfficeView {
  const { api } = context;
  const event = context.event!;
  const start = h('input', { type: 'datetime-local', id: 'rot-start', value: nextFullHour(), required: true });
  const minutes = h('input', { type: 'number', id: 'rot-minutes', min: 1, max: 600, step: 1, value: 30, inputmode: 'numeric' });
  const breaks = h('input', { type: 'text', id: 'rot-breaks', placeholder: '2:15', autocomplete: 'off' });
  const generate = h('button', { type: 'submit', id: 'rot-generate' }, m('rot.generate'));
  const generator = h(
    'form',
    { class: 'rot-generator', id: 'rot-generator' },
    h('div', { class: 'picker' }, h('label', { for: start.id }, m('rot.start')), start),
    h('div', { class: 'picker' }, h('label', { for: minutes.id }, m('rot.minutes')), minutes),
    h('div', { class: 'picker' }, h('label', { for: breaks.id }, m('rot.breaks')), breaks, h('p', { class: 'hint' }, m('rot.breaksHint'))),
    generate,
  );
  const planHost = h('div', { class: 'rot-plan-host table-scroll' });
  const save = h('button', { type: 'button', id: 'rot-save', disabled: true }, m('rot.save'));
  const message = h('div', { class: 'view-message', role: 'status', id: 'rot-message' });
  const currentHost = h('section', { class: 'rot-current', id: 'rot-current', 'aria-labelledby': 'rot-current-title' });

  let disciplines: DisciplineSummary[] = [];
  let squadNames: string[] = [];
  /** The plan as the editor holds it: saved, or generated and not saved yet. */
  let rotations: Rotation[] = [];
  /** Per rotation, the squad pickers in apparatus order, to mark the one a refusal names. */
  let rows: Array<{ time: HTMLInputElement; selects: HTMLSelectElement[] }> = [];
  let apparatusIds: number[] = [];
  let current: CurrentRotation | null = null;
  let confirming = false;
  let reloadTimer: ReturnType<typeof setTimeout> | null = null;

  const apparatusName = (id: number) => {
    const discipline = disciplines.find((candidate) => candidate.id === id);
    return discipline?.displayName || discipline?.name || `#${id}`;
  };

  function say(text: string, state: 'ok' | 'error' | 'info' = 'info', lines: string[] = []): void {
    message.dataset.state = state;
    message.replaceChildren(h('p', {}, text), ...(lines.length ? [h('ul', {}, ...lines.map((line) => h('li', {}, line)))] : []));
  }

  function renderPlan(): void {
    apparatusIds = [...new Set(rotations.flatMap((rotation) => rotation.slots.map((slot) => slot.disciplineId)))].sort((a, b) => a - b);
    save.disabled = rotations.length === 0;
    if (rotations.length === 0) {
      rows = [];
      planHost.replaceChildren(h('p', { class: 'hint', id: 'rot-empty' }, m('rot.empty')));
      return;
    }
    rows = rotations.map((rotation) => {
      const time = h('input', { type: 'datetime-local', class: 'rot-time', value: localInput(rotation.plannedStart) });
      time.setAttribute('aria-label', m('rot.timeOf', { rotation: rotation.rotation }));
      const selects = apparatusIds.map((disciplineId) => {
        const squad = rotation.slots.find((slot) => slot.disciplineId === disciplineId)?.squadName ?? '';
        const select = h(
          'select',
          { class: 'rot-squad', 'data-rotation': rotation.rotation, 'data-discipline-id': disciplineId },
          h('option', { value: '' }, '—'),
          ...squadNames.map((name) => h('option', { value: name, selected: name === squad }, name)),
        );
        select.setAttribute('aria-label', m('rot.squadOn', { rotation: rotation.rotation, apparatus: apparatusName(disciplineId) }));
        return select;
      });
      return { time, selects };
    });
    planHost.replaceChildren(
      h(
        'table',
        { class: 'rot-plan data-table', id: 'rot-plan' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, m('rot.rotation')),
            h('th', {}, m('rot.plannedStart')),
            ...apparatusIds.map((id) => h('th', {}, apparatusName(id))),
          ),
        ),
        h(
          'tbody',
          {},
          ...rotations.map((rotation, index) =>
            h(
              'tr',
              { 'data-rotation': rotation.rotation, 'aria-current': rotation.rotation === current?.current?.rotation ? 'true' : false },
              h('th', { scope: 'row' }, String(rotation.rotation)),
              h('td', {}, rows[index]!.time),
              ...rows[index]!.selects.map((select) => h('td', {}, select)),
            ),
          ),
        ),
      ),
    );
  }

  /** The editor's plan; judges named for a slot stay with the slot while its squad does. */
  function editedPlan(): Rotation[] {
    return rotations.map((rotation, index) => {
      const row = rows[index]!;
      const planned = row.time.value ? new Date(row.time.value).toISOString() : rotation.plannedStart;
      const slots = row.selects.flatMap((select, column) => {
        if (!select.value) return [];
        const disciplineId = apparatusIds[column]!;
        const before = rotation.slots.find((slot) => slot.disciplineId === disciplineId);
        return [{ disciplineId, squadName: select.value, judges: before?.squadName === select.value ? before.judges : [] }];
      });
      return { rotation: rotation.rotation, plannedStart: planned, slots };
    });
  }

  /** Marks the pickers and times a refusal names (`body.rotations[i].slots[j]` counts the filled pickers). */
  function markProblems(text: string): void {
    for (const row of rows) for (const select of row.selects) select.removeAttribute('aria-invalid');
    for (const match of text.matchAll(/body\.rotations\[(\d+)\]\.slots\[(\d+)\]/g)) {
      const row = rows[Number(match[1])];
      row?.selects.filter((select) => select.value)[Number(match[2])]?.setAttribute('aria-invalid', 'true');
    }
  }

  function renderCurrent(): void {
    const state = current?.current ?? null;
    const plannedNumbers = rotations.map((rotation) => rotation.rotation).sort((a, b) => a - b);
    const next = state === null ? plannedNumbers[0] : plannedNumbers.find((number) => number > state.rotation);
    const incomplete = state?.apparatus.filter((apparatus) => apparatus.scored < apparatus.expected) ?? [];
    const startButton = h(
      'button',
      { type: 'button', id: 'rot-next', disabled: next === undefined },
      m('rot.startNext', { rotation: next ?? '—' }),
    );
    startButton.addEventListener('click', () => {
      if (next === undefined) return;
      if (incomplete.length > 0 && !confirming) {
        confirming = true;
        renderCurrent();
        return;
      }
      void startRotation(next);
    });
    const question = confirming
      ? h(
          'div',
          { class: 'rot-question', id: 'rot-question', role: 'alert' },
          h(
            'p',
            {},
            m('rot.incomplete', {
              apparatus: incomplete.map((item) => `${apparatusName(item.disciplineId)} (${item.scored}/${item.expected})`).join(', '),
            }),
          ),
          (() => {
            const anyway = h(
              'button',
              { type: 'button', id: 'rot-next-anyway', class: 'danger' },
              m('rot.startAnyway', { rotation: next ?? '' }),
            );
            anyway.addEventListener('click', () => next !== undefined && void startRotation(next));
            return anyway;
          })(),
          (() => {
            const cancel = h('button', { type: 'button', id: 'rot-next-cancel' }, t('common.cancel'));
            cancel.addEventListener('click', () => {
              confirming = false;
              renderCurrent();
            });
            return cancel;
          })(),
        )
      : null;
    const delay = state ? state.delayMinutes : 0;
    const parts: Array<HTMLElement | null> = [
      h(
        'h3',
        { id: 'rot-current-title' },
        state ? m('rot.current', { rotation: state.rotation, time: clock(state.startedAt) }) : m('rot.notStarted'),
      ),
      state
        ? h(
            'p',
            { id: 'rot-delay', 'data-delay': delay, class: delay > 0 ? 'late' : '' },
            delay === 0 ? m('rot.onTime') : m(delay > 0 ? 'rot.behind' : 'rot.ahead', { duration: duration(Math.abs(delay)) }),
          )
        : null,
      state
        ? h(
            'table',
            { class: 'rot-progress data-table', id: 'rot-progress' },
            h('thead', {}, h('tr', {}, h('th', {}, t('common.device')), h('th', {}, t('common.squad')), h('th', {}, m('rot.scored')))),
            h(
              'tbody',
              {},
              ...state.apparatus.map((item) =>
                h(
                  'tr',
                  { 'data-discipline-id': item.disciplineId, 'data-complete': String(item.scored >= item.expected) },
                  h('td', {}, item.disciplineName ?? apparatusName(item.disciplineId)),
                  h('td', {}, item.squadName),
                  h('td', { class: 'rot-count' }, `${item.scored}/${item.expected}`),
                ),
              ),
            ),
          )
        : null,
      current && current.upcoming.length > 0
        ? h(
            'ul',
            { class: 'rot-upcoming', id: 'rot-upcoming' },
            ...current.upcoming.map((item) =>
              h(
                'li',
                {},
                m('rot.upcoming', { rotation: item.rotation, time: clock(item.expectedStart), planned: clock(item.plannedStart) }),
              ),
            ),
          )
        : null,
      next !== undefined ? startButton : state !== null ? h('p', { class: 'hint', id: 'rot-last' }, m('rot.last')) : null,
      question,
    ];
    currentHost.replaceChildren(...parts.filter((child): child is HTMLElement => child !== null));
  }

  async function startRotation(rotation: number): Promise<void> {
    confirming = false;
    try {
      await api.startRotation(event.id, rotation);
      say(m('rot.started', { rotation }), 'ok');
    } catch (error) {
      say(m('rot.startFailed', { error: (error as Error).message }), 'error');
    }
    await loadCurrent();
  }

  async function loadCurrent(): Promise<void> {
    try {
      current = await api.currentRotation(event.id);
    } catch (error) {
      say(m('rot.loadFailed', { error: (error as Error).message }), 'error');
    }
    renderCurrent();
    planHost
      .querySelectorAll<HTMLElement>('tbody tr')
      .forEach((row) => row.setAttribute('aria-current', String(Number(row.dataset.rotation) === current?.current?.rotation)));
  }

  async function load(): Promise<void> {
    try {
      const [catalog, squads, plan] = await Promise.all([api.disciplines(), api.squads(event.id), api.rotationPlan(event.id)]);
      disciplines = catalog;
      squadNames = squads.squads.map((squad) => squad.name);
      rotations = plan.rotations;
    } catch (error) {
      say(m('rot.loadFailed', { error: (error as Error).message }), 'error');
    }
    renderPlan();
    await loadCurrent();
  }

  generator.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const pauses = parseBreaks(breaks.value);
    breaks.setAttribute('aria-invalid', String(pauses === null));
    if (pauses === null || !start.value) {
      say(m(pauses === null ? 'rot.badBreaks' : 'rot.needStart'), 'error');
      return;
    }
    void (async () => {
      try {
        const answer = await api.generateRotationPlan(event.id, {
          start: new Date(start.value).toISOString(),
          minutesPerApparatus: Number(minutes.value),
          breaks: pauses,
        });
        rotations = answer.rotations;
        renderPlan();
        renderCurrent();
        say(answer.rotations.length ? m('rot.generated', { count: answer.rotations.length }) : m('rot.nothingToPlan'), 'info');
      } catch (error) {
        say(m('rot.generateFailed', { error: (error as Error).message }), 'error');
      }
    })();
  });

  save.addEventListener('click', () => {
    void (async () => {
      const plan = editedPlan();
      try {
        const saved = await api.saveRotationPlan(event.id, plan);
        rotations = saved.rotations;
        renderPlan();
        say(m('rot.saved'), 'ok');
        await loadCurrent();
      } catch (error) {
        const text = (error as Error).message;
        if (error instanceof HttpError && error.status === 400) {
          rotations = plan;
          markProblems(text);
          say(m('rot.refused'), 'error', planProblemTexts(text, apparatusName));
        } else say(m('rot.saveFailed', { error: text }), 'error');
      }
    })();
  });

  function scheduleReload(): void {
    if (reloadTimer !== null) clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => {
      reloadTimer = null;
      void loadCurrent();
    }, RELOAD_DELAY_MS);
  }
  const live = new LiveFeed({
    onEvent: scheduleReload,
    onStatus: () => undefined,
    onResync: scheduleReload,
    onRotationChanged: scheduleReload,
  });
  live.follow(event.id);

  const element = h(
    'section',
    { class: 'rotations-view' },
    h('h2', {}, m('rot.title', { event: event.name })),
    h('p', { class: 'hint' }, m('rot.intro')),
    generator,
    planHost,
    h('div', { class: 'rot-actions' }, save),
    message,
    currentHost,
  );
  void load();
  return {
    element,
    dispose() {
      if (reloadTimer !== null) clearTimeout(reloadTimer);
      live.close();
    },
  };
}
