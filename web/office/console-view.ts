/**
 * Head judge console (`?view=console&eventId=&competitionId=`): what is still missing per device
 * and squad, release and reopen, and the corrections log with each score's history one click away.
 * Live: every score-updated or release-changed message of the event reloads what it touches.
 * E-panel deviations (issue 21) show as alerts until resolved, with "confirm" for the head judge.
 */
import { api as sharedApi, type DisciplineField, type DisciplineSummary } from '../shared/api.js';
import { deviationAlert } from '../shared/deviation-view.js';
import { h, queryInteger, replaceQuery } from '../shared/dom.js';
import { decimalSeparator, t } from '../shared/i18n.js';
import { LiveFeed } from '../shared/live.js';
import { deviationKey, type PanelDeviation } from '../shared/panel.js';
import { scoreFormat } from '../shared/score-format.js';
import type { OfficeView, ViewContext } from './view.js';
import { inquiryDecisions } from './inquiry-decisions.js';
import { m } from './messages.js';
import type { AuditPage, CompetitionSummary, Completeness, ReleaseScope } from './office-api.js';

type Device = Completeness['devices'][number];
type MissingEntry = Device['squads'][number]['missing'][number];
type Change = AuditPage['changes'][number];

/** Entries per page of the corrections log and of the deviation alerts: the console stays a screen or two long. */
const LOG_PAGE_SIZE = 25;
const DEVIATION_PAGE_SIZE = 5;
const RELOAD_DELAY_MS = 150;

/** A logged value as its device shows it (mask, language's separator); plain until the catalog is loaded. */
const formatValue = (value: number | null, discipline: DisciplineSummary | undefined) =>
  value === null
    ? '–'
    : discipline
      ? scoreFormat(discipline).display(value, decimalSeparator)
      : String(Math.round(value * 1000) / 1000).replace('.', decimalSeparator);
const formatTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function consoleView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  const competitionSelect = h('select', { id: 'console-competition', name: 'competitionId' });
  const deviceFilter = h('select', { id: 'log-device', name: 'disciplineId' }, h('option', { value: '' }, m('con.allDevices')));
  const sinceFilter = h('input', { id: 'log-since', name: 'since', type: 'time', step: 60 });
  const liveBadge = h('span', { class: 'live-state', id: 'console-live', 'data-state': 'connecting' }, 'connecting');
  const message = h('p', { class: 'view-message', role: 'status', id: 'console-message' });
  const accessHint = h('p', { class: 'hint', id: 'console-hint' });
  const devicesArea = h('div', { class: 'console-devices', id: 'completeness' });
  const logBody = h('tbody', {});
  const logTable = h(
    'table',
    { class: 'data-table corrections', id: 'corrections-log' },
    h('thead', {}, h('tr', {}, ...[...m('con.cols').split('|'), ''].map((label) => h('th', { scope: 'col' }, label)))),
    logBody,
  );
  const historyDialog = h('dialog', { class: 'history-dialog', id: 'score-history', 'aria-labelledby': 'history-title' });
  const releaseDialog = h('dialog', { class: 'release-dialog', id: 'release-confirm', 'aria-labelledby': 'release-confirm-title' });
  let competitions: CompetitionSummary[] = [];
  let competitionId: number | null = null;
  let completeness: Completeness | null = null;
  let generation = 0;
  let reloadTimer: ReturnType<typeof setTimeout> | null = null;
  const deviations = new Map<string, PanelDeviation>();
  const deviationArea = h('div', { class: 'deviation-alerts', id: 'deviation-alerts', 'aria-live': 'assertive' });
  const deviationMessage = h('p', { class: 'hint', id: 'deviation-message' });
  /** The deviation page shown: its first entry's place, and whether the service holds more after it. */
  let deviationOffset = 0;
  let deviationsMore = false;
  let deviationLoads = 0;
  let deviationTimer: ReturnType<typeof setTimeout> | null = null;
  const deviationPager = pager(
    'deviation-pager',
    { previous: m('con.pagePrevious'), next: m('con.pageNext') },
    {
      previous: () => {
        deviationOffset = Math.max(0, deviationOffset - DEVIATION_PAGE_SIZE);
        void loadDeviations();
      },
      next: () => {
        deviationOffset += DEVIATION_PAGE_SIZE;
        void loadDeviations();
      },
    },
  );
  /** The log page shown: the `before` cursors of the newer pages, the one shown, and the next older one. */
  const newerCursors: Array<number | undefined> = [];
  let logCursor: number | undefined;
  let olderCursor: number | null = null;
  const logPager = pager(
    'log-pager',
    { previous: m('con.pageNewer'), next: m('con.pageOlder') },
    {
      previous: () => {
        logCursor = newerCursors.pop();
        void load();
      },
      next: () => {
        if (olderCursor === null) return;
        newerCursors.push(logCursor);
        logCursor = olderCursor;
        void load();
      },
    },
  );
  const firstLogPage = () => {
    newerCursors.length = 0;
    logCursor = undefined;
  };
  const inquiries = inquiryDecisions({ session, eventId: event.id });
  let disciplines: DisciplineSummary[] | null = null;
  const disciplineOf = (id: number) => disciplines?.find((candidate) => candidate.id === id);
  const fieldsOf = new Map<number, DisciplineField[]>();
  const names = new Map<number, string>();
  /** Looked up once per unknown id, so a score nobody can name does not reload the list on every render. */
  const askedNames = new Set<number>();
  let deviationGeneration = 0;

  /** Device names, judge field names and participants' names, fetched only when an alert needs them. */
  async function labelsFor(list: readonly PanelDeviation[]): Promise<void> {
    const jobs: Array<Promise<unknown>> = [];
    if (disciplines === null) jobs.push(sharedApi.disciplines().then((found) => (disciplines = found)));
    for (const disciplineId of new Set(list.map((deviation) => deviation.disciplineId)))
      if (!fieldsOf.has(disciplineId))
        jobs.push(sharedApi.disciplineFields(disciplineId).then((fields) => fieldsOf.set(disciplineId, fields)));
    const unknown = list.filter((deviation) => !names.has(deviation.scoreId) && !askedNames.has(deviation.scoreId));
    if (unknown.length > 0) {
      unknown.forEach((deviation) => askedNames.add(deviation.scoreId));
      jobs.push(
        sharedApi.scores(event.id, { competitionId: competitionId ?? undefined }).then((entries) => {
          for (const entry of entries) names.set(entry.id, `${entry.firstName ?? ''} ${entry.lastName ?? ''}`.trim() || `#${entry.id}`);
        }),
      );
    }
    await Promise.allSettled(jobs);
  }

  async function renderDeviations(): Promise<void> {
    const mine = ++deviationGeneration;
    const open = [...deviations.values()];
    await labelsFor(open);
    if (mine !== deviationGeneration) return;
    if (open.length === 0) {
      deviationArea.replaceChildren(h('p', { class: 'hint', id: 'no-deviations' }, t('panel.noDeviations')));
      return;
    }
    deviationArea.replaceChildren(
      ...open.map((deviation) => {
        const discipline = disciplines?.find((candidate) => candidate.id === deviation.disciplineId);
        const fields = fieldsOf.get(deviation.disciplineId) ?? [];
        const confirm = h(
          'button',
          { type: 'button', class: 'primary confirm-deviation', 'data-action': 'confirm-deviation', disabled: !session.isHead },
          t('panel.confirm'),
        );
        confirm.addEventListener('click', () => void confirmDeviation(deviation, confirm));
        return deviationAlert(
          deviation,
          {
            name: names.get(deviation.scoreId) ?? `#${deviation.scoreId}`,
            device: discipline ? discipline.displayName || discipline.name : `#${deviation.disciplineId}`,
            judge: (fieldId) => {
              const field = fields.find((candidate) => candidate.id === fieldId);
              return field?.shortName ?? field?.name ?? `#${fieldId}`;
            },
            format: scoreFormat(discipline ?? { inputMask: null, decimals: null }),
          },
          confirm,
        );
      }),
    );
  }

  async function confirmDeviation(deviation: PanelDeviation, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    button.textContent = t('panel.confirming');
    try {
      await api.confirmDeviation({ scoreId: deviation.scoreId, disciplineId: deviation.disciplineId, attempt: deviation.attempt });
      // The resolved message follows through the outbox; the alert goes now, as the head judge expects.
      deviations.delete(deviationKey(deviation));
      deviationMessage.textContent = '';
      void renderDeviations();
      scheduleDeviationReload();
    } catch (error) {
      button.disabled = !session.isHead;
      button.textContent = t('panel.confirm');
      deviationMessage.textContent = t('panel.confirmFailed', { error: (error as Error).message });
    }
  }

  /**
   * The open deviations of the chosen competition, one page: the service filters and pages them, so
   * a live message only asks for the page again and never shows another competition's gymnasts.
   */
  async function loadDeviations(): Promise<void> {
    if (!session.isHead) {
      deviationMessage.textContent = t('panel.needsHead');
      deviations.clear();
      deviationPager.show(null);
      void renderDeviations();
      return;
    }
    if (competitionId === null) return;
    const mine = ++deviationLoads;
    try {
      const page = await api.panelDeviations({
        eventId: event.id,
        competitionId,
        limit: DEVIATION_PAGE_SIZE + 1,
        offset: deviationOffset,
      });
      if (mine !== deviationLoads) return;
      if (page.length === 0 && deviationOffset > 0) {
        // The last entry of a later page was confirmed meanwhile: show the page before.
        deviationOffset = Math.max(0, deviationOffset - DEVIATION_PAGE_SIZE);
        return loadDeviations();
      }
      deviationsMore = page.length > DEVIATION_PAGE_SIZE;
      deviations.clear();
      for (const deviation of page.slice(0, DEVIATION_PAGE_SIZE))
        deviations.set(deviationKey(deviation), { ...deviation, resolved: false });
      deviationMessage.textContent = '';
      deviationPager.show({ first: deviationOffset === 0, last: !deviationsMore, page: deviationOffset / DEVIATION_PAGE_SIZE + 1 });
    } catch (error) {
      if (mine !== deviationLoads) return;
      deviationMessage.textContent = t('panel.loadFailed', { error: (error as Error).message });
    }
    void renderDeviations();
  }

  function scheduleDeviationReload(): void {
    if (deviationTimer !== null) clearTimeout(deviationTimer);
    deviationTimer = setTimeout(() => {
      deviationTimer = null;
      void loadDeviations();
    }, RELOAD_DELAY_MS);
  }

  function scheduleReload(): void {
    if (reloadTimer !== null) clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => {
      reloadTimer = null;
      void load();
    }, RELOAD_DELAY_MS);
  }

  const live = new LiveFeed({
    onEvent: scheduleReload,
    onReleaseChanged: scheduleReload,
    onResync() {
      scheduleReload();
      scheduleDeviationReload();
    },
    onPanelDeviation: scheduleDeviationReload,
    onStatus(status) {
      liveBadge.dataset.state = status;
      liveBadge.textContent = status;
    },
  });

  async function changeRelease(scope: ReleaseScope, release: boolean): Promise<void> {
    message.textContent = release ? m('con.releasing') : m('con.reopening');
    try {
      await (release ? api.release(scope) : api.reopen(scope));
      message.textContent = '';
    } catch (error) {
      message.textContent = m(release ? 'con.releaseFailed' : 'con.reopenFailed', { error: (error as Error).message });
    }
    await load();
  }

  /**
   * Releasing a scope with scores still missing asks first and names who is missing: a release
   * freezes the scores for everyone but the head judge, so a gap should be a decision, not a slip.
   */
  function confirmRelease(scope: ReleaseScope, label: string, missing: readonly MissingEntry[], expected: number): void {
    const cancel = h('button', { type: 'button', class: 'primary', id: 'release-cancel' }, t('common.cancel'));
    const confirm = h('button', { type: 'button', class: 'danger', id: 'release-anyway' }, m('con.releaseAnyway'));
    cancel.addEventListener('click', () => releaseDialog.close());
    confirm.addEventListener('click', () => {
      releaseDialog.close();
      void changeRelease(scope, true);
    });
    releaseDialog.replaceChildren(
      h('h3', { id: 'release-confirm-title' }, m('con.releaseQuestion', { what: label })),
      h('p', {}, m('con.releaseMissing', { missing: missing.length, expected })),
      h(
        'ul',
        { class: 'missing-list', id: 'release-missing' },
        ...missing.map((entry) =>
          h(
            'li',
            {},
            entry.startNumber ? `${entry.name ?? `#${entry.scoreId}`} (${entry.startNumber})` : (entry.name ?? `#${entry.scoreId}`),
          ),
        ),
      ),
      h('p', { class: 'hint' }, m('con.releaseFreezes')),
      h('div', { class: 'actions' }, cancel, confirm),
    );
    releaseDialog.showModal();
    cancel.focus();
  }

  function releaseButton(
    scope: ReleaseScope,
    released: boolean,
    label: string,
    /** What the scope holds open, and how the question names it. */
    open: { missing: readonly MissingEntry[]; expected: number; subject: string },
  ): HTMLButtonElement {
    const button = h(
      'button',
      { type: 'button', class: released ? 'reopen' : 'release', 'data-action': released ? 'reopen' : 'release', disabled: !session.isHead },
      m(released ? 'con.reopen' : 'con.release', { what: label }),
    );
    button.addEventListener('click', () => {
      if (!released && open.missing.length > 0) confirmRelease(scope, open.subject, open.missing, open.expected);
      else void changeRelease(scope, !released);
    });
    return button;
  }

  function renderDevice(device: Device): HTMLElement {
    const scope = { competitionId: competitionId!, disciplineId: device.disciplineId };
    const name = device.disciplineName ?? m('con.device', { id: device.disciplineId });
    return h(
      'article',
      { class: 'console-device', 'data-discipline-id': device.disciplineId, 'data-released': String(device.release !== null) },
      h(
        'header',
        { class: 'device-head' },
        h('h3', {}, name, h('span', { class: 'count' }, m('con.scored', { scored: device.scored, expected: device.expected }))),
        device.release ? h('span', { class: 'released-badge' }, m('con.releasedBy', { who: device.release.releasedBy })) : null,
        releaseButton(scope, device.release !== null, m('con.deviceWord'), {
          missing: device.squads.flatMap((squad) => squad.missing),
          expected: device.expected,
          subject: name,
        }),
      ),
      // Scrolls sideways on a phone instead of widening the page.
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'data-table squads' },
          h('thead', {}, h('tr', {}, ...[...m('con.squadCols').split('|'), ''].map((label) => h('th', { scope: 'col' }, label)))),
          h(
            'tbody',
            {},
            ...device.squads.map((squad) =>
              h(
                'tr',
                {
                  'data-squad': squad.squadName,
                  'data-complete': String(squad.missing.length === 0),
                  'data-released': String(squad.release !== null),
                },
                h('th', { scope: 'row' }, squad.squadName || m('con.none')),
                h(
                  'td',
                  { class: 'number' },
                  `${squad.scored}/${squad.expected}`,
                  squad.didNotStart > 0 ? m('con.dns', { count: squad.didNotStart }) : '',
                ),
                h(
                  'td',
                  { class: 'missing' },
                  squad.missing.length === 0
                    ? m('con.complete')
                    : squad.missing.map((entry) => entry.name ?? `#${entry.scoreId}`).join(', '),
                ),
                h('td', {}, squad.release ? m('con.releasedSquad', { who: squad.release.releasedBy }) : m('con.open')),
                h(
                  'td',
                  { class: 'actions-cell' },
                  // A squad inside a released device is reopened with the device.
                  device.release === null && squad.squadName !== ''
                    ? releaseButton(
                        { ...scope, squadName: squad.squadName },
                        squad.release !== null,
                        m('con.squad', { name: squad.squadName }),
                        {
                          missing: squad.missing,
                          expected: squad.expected,
                          subject: `${m('con.squad', { name: squad.squadName })} · ${name}`,
                        },
                      )
                    : null,
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  async function showHistory(scoreId: number, name: string | null): Promise<void> {
    historyDialog.replaceChildren(h('p', {}, m('con.loading')));
    if (!historyDialog.open) historyDialog.showModal();
    try {
      const history = await api.history(scoreId);
      const close = h('button', { type: 'button', id: 'history-close' }, m('con.close'));
      close.addEventListener('click', () => historyDialog.close());
      historyDialog.replaceChildren(
        h('h3', { id: 'history-title' }, m('con.history', { name: name ?? m('con.score', { id: scoreId }) })),
        h(
          'table',
          { class: 'data-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...m('con.historyCols')
                .split('|')
                .map((label) => h('th', { scope: 'col' }, label)),
            ),
          ),
          h(
            'tbody',
            {},
            ...history.changes.map((entry) =>
              h(
                'tr',
                { class: entry.afterRelease ? 'after-release' : '' },
                h('td', {}, formatTime(entry.at)),
                h('td', {}, deviceName(entry.disciplineId)),
                h('td', {}, entry.fieldId === null ? m('con.final') : String(entry.fieldId)),
                h('td', { class: 'number' }, formatValue(entry.from, disciplineOf(entry.disciplineId))),
                h('td', { class: 'number' }, formatValue(entry.to, disciplineOf(entry.disciplineId))),
                h('td', {}, entry.actor),
                h('td', {}, entry.source),
              ),
            ),
          ),
        ),
        close,
      );
    } catch (error) {
      historyDialog.replaceChildren(h('p', {}, m('con.historyFailed', { error: (error as Error).message })));
    }
  }

  function deviceName(disciplineId: number): string {
    return (
      completeness?.devices.find((device) => device.disciplineId === disciplineId)?.disciplineName ?? m('con.device', { id: disciplineId })
    );
  }

  /** A release or reopening: the scope, the device, what happened and who did it; no history (it concerns no single score). */
  function releaseRow(change: Change): HTMLElement {
    return h(
      'tr',
      { class: 'release-entry', 'data-change-id': change.id, 'data-kind': change.kind },
      h('td', {}, formatTime(change.at)),
      h('td', {}, change.squadName ? m('con.squad', { name: change.squadName }) : m('con.allSquads')),
      h('td', {}, change.disciplineName ?? String(change.disciplineId)),
      h('td', {}, m(change.kind === 'release' ? 'con.released' : 'con.reopened')),
      h('td', {}),
      h('td', {}),
      h('td', {}),
      h('td', {}, change.actor),
      h('td', {}, change.source),
      h('td', {}),
    );
  }

  function renderLog(page: AuditPage): void {
    logBody.replaceChildren(
      ...page.changes.map((change) => {
        if (change.scoreId === null) return releaseRow(change);
        const scoreId = change.scoreId;
        const button = h('button', { type: 'button', class: 'history-open', 'data-score-id': scoreId }, m('con.historyButton'));
        button.addEventListener('click', () => void showHistory(scoreId, change.name));
        return h(
          'tr',
          { class: change.afterRelease ? 'after-release' : '', 'data-change-id': change.id, 'data-score-id': scoreId },
          h('td', {}, formatTime(change.at)),
          h('td', {}, change.name ?? `#${scoreId}`, change.squadName ? h('span', { class: 'squad' }, ` · ${change.squadName}`) : null),
          h('td', {}, change.disciplineName ?? String(change.disciplineId)),
          h('td', {}, change.fieldId === null ? m('con.final') : (change.fieldName ?? String(change.fieldId))),
          h('td', { class: 'number' }, change.attempt ?? ''),
          h('td', { class: 'number' }, formatValue(change.from, disciplineOf(change.disciplineId))),
          h('td', { class: 'number' }, formatValue(change.to, disciplineOf(change.disciplineId))),
          h('td', {}, change.actor),
          h('td', {}, change.source, change.afterRelease ? h('strong', { class: 'after-release-mark' }, m('con.afterRelease')) : null),
          h('td', { class: 'actions-cell' }, button),
        );
      }),
    );
    if (page.changes.length === 0) logBody.replaceChildren(h('tr', {}, h('td', { colspan: 10 }, m('con.noCorrections'))));
  }

  /** `since` from the time filter: today at that local time. */
  function sinceValue(): string | undefined {
    if (!sinceFilter.value) return undefined;
    const [hours, minutes] = sinceFilter.value.split(':').map(Number);
    const since = new Date();
    since.setHours(hours ?? 0, minutes ?? 0, 0, 0);
    return since.toISOString();
  }

  async function load(): Promise<void> {
    if (competitionId === null) return;
    const mine = ++generation;
    const disciplineId = Number(deviceFilter.value) || undefined;
    // Completeness needs a sign-in (any role), the log a head judge or admin: neither is asked for without.
    if (session.claims === null) {
      completeness = null;
      devicesArea.replaceChildren(h('p', { class: 'hint', id: 'completeness-sign-in' }, m('con.needsSignIn')));
      logBody.replaceChildren(h('tr', {}, h('td', { colspan: 10 }, m('con.logNeedsHead'))));
      logPager.show(null);
      return;
    }
    try {
      const [found, , log] = await Promise.all([
        api.completeness({ eventId: event.id, competitionId }),
        // The log shows values by their device's mask; the catalog is loaded once.
        disciplines === null
          ? sharedApi.disciplines().then(
              (found) => (disciplines = found),
              () => null,
            )
          : null,
        session.isHead
          ? api.audit({ eventId: event.id, competitionId, disciplineId, since: sinceValue(), before: logCursor, limit: LOG_PAGE_SIZE })
          : null,
      ]);
      if (mine !== generation) return;
      completeness = found;
      devicesArea.replaceChildren(...(found.devices.length === 0 ? [h('p', {}, m('con.noDevice'))] : found.devices.map(renderDevice)));
      const chosen = deviceFilter.value;
      deviceFilter.replaceChildren(
        h('option', { value: '' }, m('con.allDevices')),
        ...found.devices.map((device) =>
          h('option', { value: device.disciplineId }, device.disciplineName ?? m('con.device', { id: device.disciplineId })),
        ),
      );
      deviceFilter.value = chosen;
      if (log === null) {
        logBody.replaceChildren(h('tr', {}, h('td', { colspan: 10 }, m('con.logNeedsHead'))));
        logPager.show(null);
      } else {
        olderCursor = log.nextBefore;
        logPager.show({ first: newerCursors.length === 0, last: log.nextBefore === null, page: newerCursors.length + 1 });
        renderLog(log);
      }
      if (message.dataset.failed) {
        delete message.dataset.failed;
        message.textContent = '';
      }
    } catch (error) {
      if (mine === generation) {
        message.dataset.failed = 'true';
        message.textContent = m('con.failed', { error: (error as Error).message });
      }
    }
  }

  function chooseCompetition(id: number | null): void {
    competitionId = id;
    replaceQuery({ competitionId: id });
    firstLogPage();
    deviationOffset = 0;
    deviations.clear();
    void load();
    void loadDeviations();
  }

  async function start(): Promise<void> {
    try {
      competitions = await api.competitions(event.id);
    } catch (error) {
      message.textContent = m('con.competitionsFailed', { error: (error as Error).message });
      return;
    }
    competitionSelect.replaceChildren(
      ...competitions.map((competition) =>
        h('option', { value: competition.id }, competition.name ?? m('con.competition', { id: competition.id })),
      ),
    );
    const wanted = queryInteger('competitionId');
    const initial = competitions.find((competition) => competition.id === wanted)?.id ?? competitions[0]?.id ?? null;
    if (initial === null) {
      message.textContent = m('con.noCompetitions');
      return;
    }
    competitionSelect.value = String(initial);
    chooseCompetition(initial);
    live.follow(event.id);
  }

  competitionSelect.addEventListener('change', () => chooseCompetition(Number(competitionSelect.value) || null));
  const filterLog = () => {
    firstLogPage();
    void load();
  };
  deviceFilter.addEventListener('change', filterLog);
  sinceFilter.addEventListener('change', filterLog);

  const renderAccess = () => {
    accessHint.hidden = session.isHead;
    accessHint.textContent = m('con.access');
    devicesArea.querySelectorAll<HTMLButtonElement>('button[data-action]').forEach((button) => {
      button.disabled = !session.isHead;
    });
  };
  const unsubscribe = session.onChange(() => {
    renderAccess();
    void loadDeviations();
    void load();
  });
  renderAccess();
  void start();

  const element = h(
    'section',
    { class: 'panel console', 'aria-labelledby': 'console-title' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'console-title' }, m('con.title', { event: event.name })), liveBadge),
    h(
      'div',
      { class: 'pickers' },
      h('div', { class: 'picker' }, h('label', { for: 'console-competition' }, t('common.competition')), competitionSelect),
    ),
    accessHint,
    message,
    h('h3', { id: 'deviations-title' }, t('panel.deviationTitle')),
    deviationMessage,
    deviationArea,
    deviationPager.element,
    inquiries.element,
    h('h3', {}, m('con.completeness')),
    devicesArea,
    h('h3', {}, m('con.log')),
    h(
      'div',
      { class: 'pickers log-filters' },
      h('div', { class: 'picker' }, h('label', { for: 'log-device' }, t('common.device')), deviceFilter),
      h('div', { class: 'picker' }, h('label', { for: 'log-since' }, m('con.since')), sinceFilter),
    ),
    h('p', { class: 'hint' }, m('con.highlight')),
    h('div', { class: 'table-scroll' }, logTable),
    logPager.element,
    historyDialog,
    releaseDialog,
  );
  return {
    element,
    dispose() {
      if (reloadTimer !== null) clearTimeout(reloadTimer);
      if (deviationTimer !== null) clearTimeout(deviationTimer);
      deviationLoads += 1;
      generation += 1;
      unsubscribe();
      live.close();
      inquiries.dispose();
      if (historyDialog.open) historyDialog.close();
      if (releaseDialog.open) releaseDialog.close();
    },
  };
}

/** Previous / next buttons with the page number between; hidden while there is only one page. */
function pager(id: string, labels: { previous: string; next: string }, go: { previous(): void; next(): void }) {
  const previous = h('button', { type: 'button', class: 'small', 'data-action': 'previous' }, labels.previous);
  const next = h('button', { type: 'button', class: 'small', 'data-action': 'next' }, labels.next);
  const label = h('span', { class: 'page-number' });
  previous.addEventListener('click', () => go.previous());
  next.addEventListener('click', () => go.next());
  const element = h('nav', { class: 'pager', id, 'aria-label': m('con.pages'), hidden: true }, previous, label, next);
  return {
    element,
    show(state: { first: boolean; last: boolean; page: number } | null): void {
      element.hidden = state === null || (state.first && state.last);
      if (state === null) return;
      previous.disabled = state.first;
      next.disabled = state.last;
      label.textContent = m('con.page', { page: state.page });
    },
  };
}
