import '../shared/base.css';
import './board.css';
import { api, eventScore, type DisciplineSummary, type EventSummary, type ScoreUpdatedEvent } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h, queryInteger } from '../shared/dom.js';
import { LiveFeed, type LiveStatus } from '../shared/live.js';
import { liveIndicator } from './live-indicator.js';
import { scoreFormat, type ScoreFormat } from '../shared/score-format.js';
import { AllAroundBoard } from './all-around.js';
import { fetchLiveResults } from './live-results.js';
import { applyLiveScore, rankEntries, type BoardEntry } from './ranking.js';

const HIGHLIGHT_MS = 4_000;

class Scoreboard {
  private entries: BoardEntry[] = [];
  private format: ScoreFormat = scoreFormat({ inputMask: null, decimals: null });
  private status: LiveStatus = 'connecting';
  private eventsDuringLoad: ScoreUpdatedEvent[] | null = null;
  /** Events naming someone the board did not list yet; applied (and highlighted) after the reload. */
  private unmatched: ScoreUpdatedEvent[] = [];
  private loadGeneration = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly highlighted = new Map<string, number>();
  private lastUpdate: Date | null = null;
  private feed: LiveFeed | null = null;
  private following = false;

  private readonly live = liveIndicator();
  private readonly title = h('h1', {}, 'Scoreboard');
  private readonly subtitle = h('p', { class: 'subtitle' });
  private readonly body = h('tbody');
  private readonly message = h('p', { class: 'board-message', role: 'status' });
  private readonly updated = h('p', { class: 'updated' });

  constructor(
    private readonly root: HTMLElement,
    private readonly eventId: number,
    private readonly disciplineId: number,
  ) {}

  async start(): Promise<void> {
    const table = h(
      'table',
      { class: 'ranking' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'rank' }, 'Rank'), h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'club' }, 'Club'), h('th', { scope: 'col', class: 'squad' }, 'Squad'), h('th', { scope: 'col', class: 'score' }, 'Score'))),
      this.body,
    );
    const header = h('header', { class: 'board-header' }, h('div', { class: 'titles' }, this.title, this.subtitle), this.live.element);
    this.root.replaceChildren(header, h('main', {}, this.message, table, this.updated), h('footer', { class: 'board-footer' }, buildBadges(api.version)));
    this.feed = new LiveFeed({
      onEvent: (event) => this.liveEvent(event),
      onStatus: (status) => this.statusChanged(status),
      onResync: () => void this.load(),
    });
    void this.describe();
    await this.load();
  }

  /** Names the event and device in the header; the ranking does not wait for it. */
  private async describe(): Promise<void> {
    const [events, disciplines] = await Promise.all([api.events().catch(() => [] as EventSummary[]), api.disciplines().catch(() => [] as DisciplineSummary[])]);
    const event = events.find((candidate) => candidate.id === this.eventId);
    const discipline = disciplines.find((candidate) => candidate.id === this.disciplineId);
    if (discipline) {
      this.format = scoreFormat(discipline);
      this.render();
    }
    this.title.textContent = discipline ? discipline.displayName || discipline.name : `Device ${this.disciplineId}`;
    this.subtitle.textContent = event ? event.name : `Event ${this.eventId}`;
    document.title = `${this.title.textContent} · ${this.subtitle.textContent}`;
  }

  /** Initial ranking over HTTP; live events arriving meanwhile are applied again on top of it. */
  private async load(): Promise<void> {
    const generation = ++this.loadGeneration;
    this.eventsDuringLoad = [];
    try {
      const snapshot = await fetchLiveResults(this.eventId, this.disciplineId);
      if (generation !== this.loadGeneration) return;
      this.entries = snapshot.entries;
      const replay = this.eventsDuringLoad;
      const unmatched = this.unmatched;
      this.eventsDuringLoad = null;
      this.unmatched = [];
      if (!this.following) {
        // With the snapshot's seq the stream resumes right after it; without, the join's resync reloads.
        this.following = true;
        this.feed?.follow(this.eventId, snapshot.seq);
      }
      for (const event of unmatched) this.applyEvent(event, 'retry');
      for (const event of replay) this.applyEvent(event, 'replay');
      this.message.textContent = this.entries.length === 0 ? 'No scores yet.' : '';
      this.render();
    } catch (error) {
      if (generation !== this.loadGeneration) return;
      this.eventsDuringLoad = null;
      this.message.textContent = `Could not load the results: ${(error as Error).message}. Retrying…`;
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
   * unknown one again after that reload; highlighted when now known, else dropped (a field save
   * announces a score before its detail row exists, and the final save's own event follows).
   * `replay`: received during a reload, applied on top of the fresh snapshot.
   */
  private applyEvent(event: ScoreUpdatedEvent, mode: 'live' | 'retry' | 'replay'): void {
    if (event.eventId !== this.eventId || event.disciplineId !== this.disciplineId) return;
    const score = eventScore(event);
    if (score === null) return;
    const entry = applyLiveScore(this.entries, { participantId: event.participantId ?? undefined, scoreId: event.scoreId, score });
    if (!entry) {
      // A participant the snapshot did not have: only the server knows their club and squad.
      if (mode === 'live') {
        this.unmatched.push(event);
        this.scheduleReload(100);
      }
      return;
    }
    if (mode !== 'replay') {
      this.highlighted.set(entry.key, Date.now() + HIGHLIGHT_MS);
      this.lastUpdate = new Date();
      setTimeout(() => this.render(), HIGHLIGHT_MS + 50);
      this.render();
    }
  }

  private statusChanged(status: LiveStatus): void {
    this.status = status;
    this.live.show(status);
  }

  private render(): void {
    const now = Date.now();
    let changedRow: HTMLElement | null = null;
    const rows = rankEntries(this.entries).map((entry) => {
      const highlight = (this.highlighted.get(entry.key) ?? 0) > now;
      if (!highlight) this.highlighted.delete(entry.key);
      const row = h(
        'tr',
        { 'data-key': entry.key, 'data-participant-id': entry.participantId, 'data-changed': highlight },
        h('td', { class: 'rank', title: entry.outOfCompetition ? 'out of competition' : null }, entry.rank !== null ? `${entry.rank}.` : entry.outOfCompetition ? 'o.c.' : '–'),
        h('td', { class: 'name' }, entry.name),
        h('td', { class: 'club' }, entry.club),
        h('td', { class: 'squad' }, entry.squad),
        h('td', { class: 'score' }, entry.score === null ? '–' : this.format.format(entry.score)),
      );
      if (highlight) changedRow = row;
      return row;
    });
    this.body.replaceChildren(...rows);
    (changedRow as HTMLElement | null)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    this.updated.textContent = this.lastUpdate ? `Last update ${this.lastUpdate.toLocaleTimeString()}` : '';
  }
}

/** Without both ids in the address, the board asks for them once; the address can then be bookmarked. */
async function renderPicker(root: HTMLElement): Promise<void> {
  const eventSelect = h('select', { id: 'board-event', name: 'eventId', required: true });
  const deviceSelect = h('select', { id: 'board-discipline', name: 'disciplineId', required: true });
  const message = h('p', { role: 'status' }, 'Loading events and devices…');
  const form = h(
    'form',
    { class: 'board-picker', method: 'get' },
    h('h1', {}, 'Scoreboard'),
    h('label', { for: 'board-event' }, 'Event'),
    eventSelect,
    h('label', { for: 'board-discipline' }, 'Device'),
    deviceSelect,
    h('button', { type: 'submit' }, 'Show'),
    message,
  );
  root.replaceChildren(form, h('footer', { class: 'board-footer' }, buildBadges(api.version)));
  try {
    const [events, disciplines] = await Promise.all([api.events(), api.disciplines()]);
    eventSelect.replaceChildren(...events.map((event) => h('option', { value: event.id }, event.name)));
    deviceSelect.replaceChildren(...disciplines.map((discipline) => h('option', { value: discipline.id }, discipline.displayName || discipline.name)));
    message.textContent = '';
  } catch (error) {
    message.textContent = `Could not load events and devices: ${(error as Error).message}`;
  }
}

const root = document.getElementById('app');
if (root) {
  const eventId = queryInteger('eventId');
  const disciplineId = queryInteger('disciplineId');
  const competitionId = queryInteger('competitionId');
  const search = new URLSearchParams(window.location.search);
  if (search.get('view') === 'all-around' && eventId !== null && competitionId !== null) {
    void new AllAroundBoard(root, eventId, competitionId, search.get('groupBy') === 'ageClass').start();
  } else if (eventId !== null && disciplineId !== null) void new Scoreboard(root, eventId, disciplineId).start();
  else void renderPicker(root);
}
