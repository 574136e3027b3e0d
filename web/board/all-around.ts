/**
 * All-around board (`/board/?eventId=&competitionId=&view=all-around[&groupBy=ageClass]`): the
 * competition's all-around ranking from `GET /api/results`, kept live by `score-updated` events,
 * never by polling. A total depends on best attempts, every device and the tie-break rule, so an
 * event of the competition makes the board fetch the ranking again (one request, set-wise on the
 * server) instead of recomputing it here; events arriving during a fetch are folded into one more
 * fetch afterwards. The list it loads carries `seq`, so the feed resumes right after it.
 */
import type { AllAroundResult, AllAroundResults } from '../../queries/results.js';
import { api, getJson, type DisciplineSummary, type ScoreUpdatedEvent } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { decimalSeparator, t, timeOfDay } from '../shared/i18n.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { renderBoardPage } from './board-page.js';
import { liveIndicator } from './live-indicator.js';
import { paceFromUrl, RowPager } from './pager.js';

const HIGHLIGHT_MS = 4_000;
const RETRY_MS = 3_000;
const DEFAULT_DECIMALS = 3;

const ageClassTitle = (ageClass: string | null) =>
  ageClass === null
    ? null
    : ageClass === 'other'
      ? t('board.ageOther')
      : ageClass === 'unknown'
        ? t('board.ageUnknown')
        : t('board.ageClass', { range: ageClass });

export class AllAroundBoard {
  private list: AllAroundResults | null = null;
  private formats = new Map<number, ScoreFormat>();
  private decimals = new Map<number, number>();
  private feed: LiveFeed | null = null;
  private following = false;
  private loading = false;
  private loadAgain = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly highlighted = new Map<number, number>();

  private readonly live = liveIndicator();
  private readonly title = h('h1', {}, t('board.allAround'));
  private readonly subtitle = h('p', { class: 'subtitle' });
  private readonly message = h('p', { class: 'board-message', role: 'status' });
  private readonly tables = h('div', { class: 'all-around', id: 'all-around' });
  private readonly updated = h('p', { class: 'updated' });
  private readonly legend = h('p', { class: 'legend' });
  private readonly pageInfo = h('p', { class: 'page-info', 'aria-live': 'off' });
  // The device board's projector paging: as many rows as fit, a changed row's page held a while.
  private readonly pager = new RowPager(this.tables, {
    ...paceFromUrl(),
    onPage: (page, pages) => {
      this.pageInfo.textContent = pages > 1 ? t('board.page', { page, pages }) : '';
    },
  });

  constructor(
    private readonly root: HTMLElement,
    private readonly eventId: number,
    private readonly competitionId: number,
    private readonly byAgeClass: boolean,
  ) {}

  async start(): Promise<void> {
    const { title, subtitle, pageInfo, message, tables, legend, updated } = this;
    renderBoardPage(this.root, { title, subtitle, live: this.live.element, pageInfo, message, tables, legend, updated });
    this.feed = new LiveFeed({
      onEvent: (event) => this.liveEvent(event),
      onStatus: (status) => this.statusChanged(status),
      onResync: () => void this.load(),
      onTieBreakChanged: (event) => {
        if (event.competitionId === this.competitionId) void this.load();
      },
    });
    void api
      .disciplines()
      .then((catalog) => this.useCatalog(catalog))
      .catch(() => undefined);
    await this.load();
  }

  private useCatalog(catalog: readonly DisciplineSummary[]): void {
    this.formats = new Map(catalog.map((discipline) => [discipline.id, scoreFormat(discipline)]));
    this.decimals = new Map(catalog.map((discipline) => [discipline.id, discipline.decimals ?? DEFAULT_DECIMALS]));
    this.render();
  }

  private liveEvent(event: ScoreUpdatedEvent): void {
    // Events without a competition (older payloads) may concern this one too.
    if (event.eventId !== this.eventId || (event.competitionId !== undefined && event.competitionId !== this.competitionId)) return;
    void this.load();
  }

  /** One fetch at a time; a request for another while one runs makes exactly one more afterwards. */
  private async load(): Promise<void> {
    if (this.loading) {
      this.loadAgain = true;
      return;
    }
    this.loading = true;
    try {
      const previous = this.list;
      const list = await getJson<AllAroundResults>('/api/results', {
        eventId: this.eventId,
        competitionId: this.competitionId,
        groupBy: this.byAgeClass ? 'ageClass' : undefined,
      });
      this.list = list;
      if (previous) this.markChanges(previous, list);
      if (!this.following) {
        this.following = true;
        this.feed?.follow(this.eventId, list.seq);
      }
      this.title.textContent = list.competitionName ?? t('board.allAround');
      this.subtitle.textContent = `${list.eventName} · ${t('board.allAround')}`;
      document.title = `${this.title.textContent} · ${list.eventName}`;
      this.message.textContent = list.classes.every((group) => group.results.length === 0) ? t('board.noScores') : '';
      this.render();
    } catch (error) {
      this.message.textContent = t('board.loadFailed', { error: (error as Error).message });
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        void this.load();
      }, RETRY_MS);
    } finally {
      this.loading = false;
    }
    if (this.loadAgain) {
      this.loadAgain = false;
      await this.load();
    }
  }

  private markChanges(previous: AllAroundResults, next: AllAroundResults): void {
    const key = (result: AllAroundResult) => `${result.total}|${result.disciplines.map((discipline) => discipline.score).join(',')}`;
    const before = new Map(
      previous.classes.flatMap((group) => group.results.map((result) => [result.participantId, key(result)] as const)),
    );
    const until = Date.now() + HIGHLIGHT_MS;
    let changed = false;
    for (const result of next.classes.flatMap((group) => group.results)) {
      if (before.get(result.participantId) !== key(result)) {
        this.highlighted.set(result.participantId, until);
        changed = true;
      }
    }
    if (changed) {
      this.updated.textContent = t('board.lastUpdate', { time: timeOfDay() });
      setTimeout(() => this.render(), HIGHLIGHT_MS + 50);
    }
  }

  private statusChanged(status: LiveStatus): void {
    this.live.show(status);
  }

  private score(disciplineId: number, value: number | null): string {
    if (value === null) return '–';
    return this.formats.get(disciplineId)?.display(value, decimalSeparator) ?? this.number(value, DEFAULT_DECIMALS);
  }

  private number(value: number, decimals: number): string {
    return value.toFixed(decimals).replace('.', decimalSeparator);
  }

  private render(): void {
    const list = this.list;
    if (!list) return;
    const now = Date.now();
    // A time mask makes no sense for a sum: the total gets the most decimals any device shows.
    const totalDecimals = Math.max(
      0,
      ...list.disciplines.map((discipline) => this.decimals.get(discipline.disciplineId) ?? DEFAULT_DECIMALS),
    );
    let changedRow: HTMLElement | null = null;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col', class: 'rank' }, t('board.rank')),
      h('th', { scope: 'col' }, t('board.name')),
      h('th', { scope: 'col', class: 'club' }, t('board.club')),
      ...list.disciplines.map((discipline) =>
        h('th', { scope: 'col', class: 'score device', title: discipline.name }, discipline.shortName || discipline.name),
      ),
      h('th', { scope: 'col', class: 'score' }, t('board.total')),
    );
    const columns = h(
      'colgroup',
      {},
      ...['rank', 'name', 'club', ...list.disciplines.map(() => 'device'), 'score'].map((name) => h('col', { class: name })),
    );
    const sections = list.classes.map((group) => {
      const rows = group.results.map((result) => {
        const highlight = (this.highlighted.get(result.participantId) ?? 0) > now;
        if (!highlight) this.highlighted.delete(result.participantId);
        const row = h(
          'tr',
          {
            'data-participant-id': result.participantId,
            'data-total': result.total,
            'data-changed': highlight,
            class: result.complete ? null : 'incomplete',
          },
          h('td', { class: 'rank' }, result.rank !== null ? `${result.rank}.` : result.outOfCompetition ? t('board.oc') : '–'),
          h('td', { class: 'name' }, `${result.firstName ?? ''} ${result.lastName ?? ''}`.trim()),
          h('td', { class: 'club' }, result.clubName ?? ''),
          ...result.disciplines.map((discipline) =>
            h('td', { class: 'score device' }, this.score(discipline.disciplineId, discipline.score)),
          ),
          h('td', { class: 'score total' }, this.number(result.total, totalDecimals)),
        );
        if (highlight) changedRow = row;
        return row;
      });
      const title = ageClassTitle(group.ageClass);
      // A caption, so the pager hides it together with its table when none of its rows is on the page.
      return h(
        'table',
        { class: 'ranking' },
        title ? h('caption', {}, title) : null,
        columns.cloneNode(true),
        h('thead', {}, head.cloneNode(true)),
        h('tbody', {}, ...rows),
      );
    });
    this.tables.replaceChildren(...sections);
    this.pager.refresh(changedRow);
  }
}
