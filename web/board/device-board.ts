/**
 * The device scoreboard: one discipline of an event, one ranking per competition (or only the one
 * of `competitionId`), group and team scores as rows of their own, time masks ranked ascending,
 * live, and paged for a projector (./pager.ts).
 */
import {
  api,
  eventScore,
  type CompetitionSummary,
  type DisciplineSummary,
  type EventSummary,
  type ScoreUpdatedEvent,
} from '../shared/api.js';
import { h } from '../shared/dom.js';
import { decimalSeparator, t, timeOfDay } from '../shared/i18n.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { renderBoardPage } from './board-page.js';
import { InquiryMarks } from './inquiry-marks.js';
import { tInq } from '../shared/inquiries.js';
import { liveIndicator } from './live-indicator.js';
import { fetchLiveResults } from './live-results.js';
import { paceFromUrl, RowPager } from './pager.js';
import { applyLiveScore, rankEntries, tiesAnother, type BoardEntry, type BoardRule, type RankOrder } from './ranking.js';

export interface DeviceBoardTarget {
  eventId: number;
  disciplineId: number;
  /** Null: every competition of the event, each ranked on its own. */
  competitionId: number | null;
  /** `&released=only`: only scores the head judge has released; otherwise unreleased ones are marked provisional. */
  releasedOnly?: boolean;
  /** `&rotation=current`: only this squad, the one the current rotation puts on the apparatus. */
  squadName?: string;
  /** The current rotation's number, named in the header. */
  rotation?: number;
}

export class DeviceBoard {
  private entries: BoardEntry[] = [];
  private order: RankOrder = 'descending';
  /** Each competition's apparatus tie-break rule and notation, from the last snapshot. */
  private rules = new Map<number, BoardRule>();
  private format: ScoreFormat = scoreFormat({ inputMask: null, decimals: null });
  private competitions: CompetitionSummary[] = [];
  private eventsDuringLoad: ScoreUpdatedEvent[] | null = null;
  /** Events naming someone the board did not list yet; applied (and highlighted) after the reload. */
  private unmatched: ScoreUpdatedEvent[] = [];
  /** Score rows of other squads (with a squad filter): their events are dropped without a reload. */
  private otherSquads = new Set<number>();
  private loadGeneration = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly highlighted = new Map<string, number>();
  private lastUpdate: Date | null = null;
  private feed: LiveFeed | null = null;
  private following = false;
  private readonly pace = paceFromUrl();

  private readonly live = liveIndicator();
  private readonly title = h('h1', {}, t('board.title'));
  private readonly subtitle = h('p', { class: 'subtitle' });
  private readonly tables = h('div', { class: 'rankings' });
  private readonly message = h('p', { class: 'board-message', role: 'status' });
  private readonly updated = h('p', { class: 'updated' });
  private readonly legend = h('p', { class: 'legend', id: 'board-legend' });
  private readonly pageInfo = h('p', { class: 'page-info', 'aria-live': 'off' });
  private readonly pager: RowPager;
  private readonly inquiries: InquiryMarks;

  constructor(
    private readonly root: HTMLElement,
    private readonly target: DeviceBoardTarget,
    onCycle?: () => void,
  ) {
    this.pager = new RowPager(this.tables, {
      ...this.pace,
      onCycle,
      onPage: (page, pages) => {
        this.pageInfo.textContent = pages > 1 ? t('board.page', { page, pages }) : '';
      },
    });
    this.inquiries = new InquiryMarks(target.eventId, target.disciplineId, () => this.render());
  }

  async start(): Promise<void> {
    const { title, subtitle, pageInfo, message, tables, legend, updated } = this;
    renderBoardPage(this.root, { title, subtitle, live: this.live.element, pageInfo, message, tables, legend, updated });
    this.feed = new LiveFeed({
      onEvent: (event) => this.liveEvent(event),
      onStatus: (status) => this.statusChanged(status),
      onResync: () => void this.load(),
      // A release or reopen changes which scores are final (or shown at all): take the server's view.
      onReleaseChanged: () => this.scheduleReload(100),
      onInquiryUpdated: (inquiry) => this.inquiries.apply(inquiry),
      // An entry out of competition is ranked no more (or again): the server ranks.
      onParticipantsChanged: () => this.scheduleReload(100),
      // Another rule or notation: rank with the server's new one.
      onTieBreakChanged: () => this.scheduleReload(100),
    });
    await this.describe();
    await this.load();
  }

  /** Stops the live feed and the timers (rotation replaces the board). */
  dispose(): void {
    this.pager.stop();
    this.feed?.close();
    this.inquiries.dispose();
    if (this.reloadTimer !== null) clearTimeout(this.reloadTimer);
  }

  private show(value: number): string {
    return this.format.display(value, decimalSeparator);
  }

  /** Names the event, device and competition in the header. */
  private async describe(): Promise<void> {
    const [events, disciplines, competitions] = await Promise.all([
      api.events().catch(() => [] as EventSummary[]),
      api.disciplines().catch(() => [] as DisciplineSummary[]),
      api.competitions(this.target.eventId).catch(() => [] as CompetitionSummary[]),
    ]);
    this.competitions = competitions;
    const event = events.find((candidate) => candidate.id === this.target.eventId);
    const discipline = disciplines.find((candidate) => candidate.id === this.target.disciplineId);
    if (discipline) this.format = scoreFormat(discipline);
    const competition = competitions.find((candidate) => candidate.id === this.target.competitionId);
    const { squadName, rotation } = this.target;
    this.title.textContent = [
      discipline ? discipline.displayName || discipline.name : `${t('common.device')} ${this.target.disciplineId}`,
      squadName === undefined ? null : `${t('board.squad')} ${squadName}`,
    ]
      .filter(Boolean)
      .join(' · ');
    this.subtitle.textContent = [
      rotation === undefined ? null : t('board.rotation', { rotation }),
      competition?.name,
      event?.name ?? `${t('common.event')} ${this.target.eventId}`,
    ]
      .filter(Boolean)
      .join(' · ');
    document.title = `${this.title.textContent} · ${this.subtitle.textContent}`;
  }

  /** Initial ranking over HTTP; live events arriving meanwhile are applied again on top of it. */
  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    this.eventsDuringLoad = [];
    try {
      const [snapshot] = await Promise.all([
        fetchLiveResults(this.target.eventId, this.target.disciplineId, this.target.competitionId, this.target.releasedOnly === true),
        this.inquiries.load(),
      ]);
      if (generation !== this.loadGeneration) return;
      const { squadName } = this.target;
      const inSquad = (entry: BoardEntry) => squadName === undefined || entry.squad === squadName;
      this.entries = snapshot.entries.filter(inSquad);
      this.otherSquads = new Set(
        snapshot.entries.filter((entry) => !inSquad(entry) && entry.wertungenId !== null).map((entry) => entry.wertungenId!),
      );
      this.order = snapshot.order;
      this.rules = snapshot.rules;
      const replay = this.eventsDuringLoad;
      const unmatched = this.unmatched;
      this.eventsDuringLoad = null;
      this.unmatched = [];
      if (!this.following) {
        // With the snapshot's seq the stream resumes right after it; without, the join's resync reloads.
        this.following = true;
        this.feed?.follow(this.target.eventId, snapshot.seq);
      }
      for (const event of unmatched) this.applyEvent(event, 'retry');
      for (const event of replay) this.applyEvent(event, 'replay');
      this.message.textContent = this.entries.length === 0 ? t('board.noScores') : '';
      this.render();
    } catch (error) {
      if (generation !== this.loadGeneration) return;
      this.eventsDuringLoad = null;
      this.message.textContent = t('board.loadFailed', { error: (error as Error).message });
      this.scheduleReload(3_000);
    }
  }

  private scheduleReload(delayMs: number): void {
    if (this.reloadTimer !== null) return;
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.load();
    }, delayMs);
  }

  private liveEvent(event: ScoreUpdatedEvent): void {
    this.eventsDuringLoad?.push(event);
    this.applyEvent(event, 'live');
  }

  /**
   * `live`: just received; highlighted, and an unknown participant triggers a reload. `retry`: an
   * unknown one again after that reload; highlighted when now known, else dropped. `replay`:
   * received during a reload, applied on top of the fresh snapshot.
   */
  private applyEvent(event: ScoreUpdatedEvent, mode: 'live' | 'retry' | 'replay'): void {
    if (event.eventId !== this.target.eventId || event.disciplineId !== this.target.disciplineId) return;
    if (this.target.competitionId !== null && typeof event.competitionId === 'number' && event.competitionId !== this.target.competitionId)
      return;
    if (this.target.squadName !== undefined && (this.otherSquads.has(event.scoreId) || this.otherSquad(event))) return;
    const score = eventScore(event);
    if (score === null) return;
    if (this.target.releasedOnly && event.released === false) return;
    const entry = applyLiveScore(this.entries, { participantId: event.participantId ?? undefined, scoreId: event.scoreId, score });
    if (!entry) {
      // Somebody the snapshot did not have: only the server knows their club and squad.
      if (mode === 'live') {
        this.unmatched.push(event);
        this.scheduleReload(100);
      }
      return;
    }
    if (typeof event.released === 'boolean') entry.released = event.released;
    // The event carries no E and D: for a tie, where they decide, the server's ranking brings them.
    if (mode === 'live' && this.rules.get(entry.competitionId ?? -1)?.rule === 'e-then-d' && tiesAnother(this.entries, entry))
      this.scheduleReload(100);
    if (mode !== 'replay') {
      this.highlighted.set(entry.key, Date.now() + this.pace.holdMs);
      this.lastUpdate = new Date();
      setTimeout(() => this.render(), this.pace.holdMs + 50);
      this.render(entry.key);
    }
  }

  /** Events that name their squad are dropped by it; the others by the score row the snapshot placed. */
  private otherSquad(event: ScoreUpdatedEvent): boolean {
    const squadName = 'squadName' in event ? event.squadName : null;
    return typeof squadName === 'string' && squadName !== this.target.squadName;
  }

  private statusChanged(status: LiveStatus): void {
    this.live.show(status);
  }

  /** One table per competition (the API ranks across them; each is ranked again on its own here). */
  private render(changedKey: string | null = null): void {
    const now = Date.now();
    let changedRow: HTMLElement | null = null;
    const groups = new Map<number | null, BoardEntry[]>();
    for (const entry of this.entries) {
      const key = this.target.competitionId ?? entry.competitionId;
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    const order = [...groups.keys()].sort((a, b) => this.competitionIndex(a) - this.competitionIndex(b));
    const tables = order.map((competitionId) => {
      const rows = rankEntries(groups.get(competitionId)!, this.order, this.rules.get(competitionId ?? -1)).map((entry) => {
        const highlight = (this.highlighted.get(entry.key) ?? 0) > now;
        const provisional = !this.target.releasedOnly && entry.released === false;
        if (!highlight) this.highlighted.delete(entry.key);
        const row = h(
          'tr',
          { 'data-key': entry.key, 'data-participant-id': entry.participantId, 'data-kind': entry.kind, 'data-changed': highlight },
          h('td', { class: 'rank' }, entry.rank !== null ? `${entry.rank}.` : entry.outOfCompetition ? t('board.oc') : '–'),
          h(
            'td',
            { class: 'name' },
            entry.name,
            // In the name's cell: the score's column is sized for the score alone.
            entry.wertungenId !== null && this.inquiries.has(entry.wertungenId)
              ? h('span', { class: 'inquiry-mark', 'data-inquiry': 'open' }, tInq('inq.boardMark'))
              : null,
          ),
          h('td', { class: 'club' }, entry.club),
          h('td', { class: 'squad' }, entry.squad),
          h(
            'td',
            { class: 'score', 'data-provisional': String(provisional), title: provisional ? t('board.provisional') : null },
            entry.score === null ? '–' : this.show(entry.score),
          ),
        );
        if (highlight && entry.key === changedKey) changedRow = row;
        return row;
      });
      const name = this.competitions.find((competition) => competition.id === competitionId)?.name;
      const caption = this.target.competitionId === null && groups.size > 1 && name ? h('caption', {}, name) : null;
      return h(
        'table',
        { class: 'ranking', 'data-competition-id': competitionId },
        caption,
        h('colgroup', {}, ...['rank', 'name', 'club', 'squad', 'score'].map((name) => h('col', { class: name }))),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col', class: 'rank' }, t('board.rank')),
            h('th', { scope: 'col' }, t('board.name')),
            h('th', { scope: 'col', class: 'club' }, t('board.club')),
            h('th', { scope: 'col', class: 'squad' }, t('board.squad')),
            h('th', { scope: 'col', class: 'score' }, this.order === 'ascending' ? t('board.time') : t('board.score')),
          ),
        ),
        h('tbody', {}, ...rows),
      );
    });
    this.tables.replaceChildren(...tables);
    // The mark is explained while any score on the board carries it.
    this.legend.textContent = [
      !this.target.releasedOnly && this.entries.some((entry) => entry.score !== null && entry.released === false)
        ? t('board.provisionalLegend')
        : '',
      this.entries.some((entry) => entry.wertungenId !== null && this.inquiries.has(entry.wertungenId)) ? tInq('inq.boardLegend') : '',
    ]
      .filter(Boolean)
      .join(' · ');
    this.pager.refresh(changedRow);
    this.updated.textContent = this.lastUpdate ? t('board.lastUpdate', { time: timeOfDay(this.lastUpdate) }) : '';
  }

  private competitionIndex(id: number | null): number {
    const index = this.competitions.findIndex((competition) => competition.id === id);
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  }
}
