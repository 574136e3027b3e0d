/**
 * The spectator page (/live/?eventId=): an event's rankings on a phone. It loads the snapshot
 * (GET /api/public/events/:eventId/live, cached by the server and revalidated with its ETag), then
 * follows `live-update` messages from `join-live` with the snapshot's `seq`. An update carries no
 * names and no ranks: the page marks the row it concerns and fetches the snapshot again, so every
 * rank shown is the server's. One long list that scrolls; no paging.
 *
 * A value under an open inquiry (the snapshot's `q`) carries the mark the scoreboard shows; an
 * `inquiry` update fetches the snapshot like a score does. An inquiry that lapses unconfirmed sends
 * no update, so while a mark is shown the page revalidates the snapshot every INQUIRY_RECHECK_MS.
 */
import '../shared/base.css';
import './live.css';
import { io } from 'socket.io-client';
import type { LiveCompetition, LiveEntry, LiveSnapshot } from '../../queries/spectator-snapshot.js';
import type { LiveUpdate } from '../../src/realtime/spectators.js';
import { h, queryInteger } from '../shared/dom.js';
import { lang, languageSwitch, timeOfDay } from '../shared/i18n.js';
import { tl } from './texts.js';

const FOLLOW_KEY = 'gym.live.follow.v1';
/** Updates arriving together (a rotation's saves) cost one fetch of the snapshot. */
const REFETCH_DELAY_MS = 300;
/** Long beside the written confirmation's four minutes, and a 304 while nothing changed. */
const INQUIRY_RECHECK_MS = 30_000;

interface ListRow {
  entry: LiveEntry;
  rank: number | null;
  value: number | null;
  provisional: boolean;
  /** The value, or one in the total, is under an open inquiry. */
  inquiry: boolean;
}

const inquiredTotal = (entry: LiveEntry) => entry.s.some((score) => score?.q === true);
const totalRow = (entry: LiveEntry): ListRow => ({
  entry,
  rank: entry.rank,
  value: entry.s.some(Boolean) ? entry.total : null,
  provisional: entry.p === true,
  inquiry: inquiredTotal(entry),
});

type View = { kind: 'all-around' } | { kind: 'apparatus'; index: number } | { kind: 'teams' };

const scoreText = (value: number) => value.toLocaleString(lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

function readFollowed(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(FOLLOW_KEY) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    return new Set();
  }
}

function storeFollowed(keys: Set<string>): void {
  try {
    localStorage.setItem(FOLLOW_KEY, JSON.stringify([...keys]));
  } catch {
    // Without storage following lasts as long as the page.
  }
}

class SpectatorPage {
  private snapshot: LiveSnapshot | null = null;
  private etag: string | null = null;
  private lastSeq = 0;
  private competitionIndex = 0;
  private view: View = { kind: 'all-around' };
  private query = '';
  private readonly followed = readFollowed();
  /** Participants whose value changed with the latest updates, highlighted once. */
  private readonly changed = new Set<number>();
  private refetchTimer: ReturnType<typeof setTimeout> | null = null;
  private recheckTimer: ReturnType<typeof setTimeout> | null = null;

  private readonly status = h('span', { class: 'live-status', role: 'status', 'data-state': 'connecting' }, tl('connecting'));
  private readonly heading = h('h1', {}, tl('title'));
  private readonly updated = h('span', { class: 'live-updated' });
  private readonly search = h('input', { type: 'search', class: 'live-search', placeholder: tl('search'), 'aria-label': tl('search') });
  private readonly competitionPicker = h('select', { class: 'live-competition', 'aria-label': tl('title') });
  private readonly tabs = h('nav', { class: 'live-tabs' });
  private readonly followSection = h('section', { class: 'live-following', 'aria-label': tl('following') });
  private readonly list = h('ol', { class: 'live-list live-ranking' });
  private readonly message = h('p', { class: 'live-message' });
  private readonly legend = h('p', { class: 'live-legend' });

  constructor(
    private readonly root: HTMLElement,
    private readonly eventId: number,
  ) {
    root.replaceChildren(
      h('header', { class: 'live-header' }, this.heading, h('div', { class: 'live-meta' }, this.status, this.updated, languageSwitch())),
      h('div', { class: 'live-controls' }, this.competitionPicker, this.search),
      this.tabs,
      this.followSection,
      this.message,
      this.list,
      this.legend,
    );
    this.search.addEventListener('input', () => {
      this.query = this.search.value.trim().toLocaleLowerCase(lang);
      this.render();
    });
    this.competitionPicker.addEventListener('change', () => {
      this.competitionIndex = Number(this.competitionPicker.value);
      this.view = { kind: 'all-around' };
      this.render();
    });
  }

  async start(): Promise<void> {
    await this.load();
    this.connect();
  }

  private async load(): Promise<void> {
    try {
      const response = await fetch(`/api/public/events/${this.eventId}/live`, {
        headers: this.etag ? { 'if-none-match': this.etag } : {},
        // Revalidate: the snapshot changes with every save, and a 304 is nearly free.
        cache: 'no-cache',
      });
      if (response.status === 304) return;
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.etag = response.headers.get('etag');
      this.snapshot = (await response.json()) as LiveSnapshot;
      this.lastSeq = Math.max(this.lastSeq, this.snapshot.seq);
      this.updated.textContent = tl('updated', { time: timeOfDay() });
      this.render();
      this.changed.clear();
      this.watchInquiries();
    } catch (error) {
      this.message.textContent = tl('loadFailed', { error: error instanceof Error ? error.message : String(error) });
      this.scheduleRefetch(3_000);
    }
  }

  private scheduleRefetch(delay = REFETCH_DELAY_MS): void {
    if (this.refetchTimer) return;
    this.refetchTimer = setTimeout(() => {
      this.refetchTimer = null;
      void this.load();
    }, delay);
  }

  private get anyInquiry(): boolean {
    return this.snapshot?.competitions.some((competition) => competition.gymnasts.some(inquiredTotal)) ?? false;
  }

  private watchInquiries(): void {
    if (this.recheckTimer || !this.anyInquiry) return;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = null;
      void this.load();
    }, INQUIRY_RECHECK_MS);
  }

  /** Websocket only: any instance behind a load balancer can take the connection, none needs to stick. */
  private connect(): void {
    const socket = io({ path: '/socket.io', transports: ['websocket'], reconnectionDelay: 500, reconnectionDelayMax: 5_000 });
    const setStatus = (state: 'live' | 'offline' | 'connecting') => {
      this.status.dataset.state = state;
      this.status.textContent = tl(state);
    };
    const join = () => {
      setStatus('connecting');
      socket
        .timeout(5_000)
        .emit(
          'join-live',
          { eventId: this.eventId, since: this.lastSeq },
          (error: Error | null, ack?: { ok: boolean; reload?: boolean; retryAfterMs?: number }) => {
            if (error || !ack?.ok) {
              // Too far behind to replay: the snapshot is the state, followed from its seq.
              if (ack?.reload) void this.load().then(join);
              else setTimeout(join, Math.min(ack?.retryAfterMs ?? 1_000, 10_000));
              return;
            }
            setStatus('live');
            // Whatever changed while the socket was away is in the replay; the snapshot follows it.
            this.scheduleRefetch();
          },
        );
    };
    socket.on('connect', join);
    socket.on('disconnect', () => setStatus('offline'));
    socket.on('connect_error', () => setStatus('offline'));
    socket.on('live-update', (update: LiveUpdate) => {
      if (update.seq <= this.lastSeq && update.type !== 'reload') return;
      this.lastSeq = Math.max(this.lastSeq, update.seq);
      if ((update.type === 'score' || update.type === 'inquiry') && update.pid !== undefined) this.changed.add(update.pid);
      this.scheduleRefetch();
    });
  }

  private get competition(): LiveCompetition | null {
    return this.snapshot?.competitions[this.competitionIndex] ?? this.snapshot?.competitions[0] ?? null;
  }

  private render(): void {
    const snapshot = this.snapshot;
    if (!snapshot) return;
    document.title = `${snapshot.eventName} · ${tl('title')}`;
    this.heading.textContent = snapshot.eventName;
    this.message.textContent = '';
    this.competitionPicker.replaceChildren(
      ...snapshot.competitions.map((competition, index) =>
        h('option', { value: index, selected: index === this.competitionIndex }, competition.name ?? `#${competition.id}`),
      ),
    );
    this.competitionPicker.hidden = snapshot.competitions.length < 2;
    const competition = this.competition;
    this.renderTabs(competition);
    this.renderFollowed(snapshot);
    this.renderList(competition);
    this.legend.replaceChildren(
      h('span', {}, snapshot.publish === 'all' ? tl('legendProvisional') : tl('legendReleased')),
      ...(this.anyInquiry ? [h('span', { class: 'live-legend-inquiry' }, tl('legendInquiry'))] : []),
    );
  }

  private renderTabs(competition: LiveCompetition | null): void {
    const tabs: Array<[View, string]> = [[{ kind: 'all-around' }, tl('allAround')]];
    competition?.apparatus.forEach((apparatus, index) => tabs.push([{ kind: 'apparatus', index }, apparatus.short || apparatus.name]));
    if (competition && competition.teams.length > 0) tabs.push([{ kind: 'teams' }, tl('teams')]);
    const same = (a: View, b: View) => a.kind === b.kind && (a.kind !== 'apparatus' || (b.kind === 'apparatus' && a.index === b.index));
    if (!tabs.some(([view]) => same(view, this.view))) this.view = { kind: 'all-around' };
    this.tabs.replaceChildren(
      ...tabs.map(([view, label]) => {
        const button = h('button', { type: 'button', class: 'live-tab', 'aria-pressed': same(view, this.view) ? 'true' : 'false' }, label);
        button.addEventListener('click', () => {
          this.view = view;
          this.render();
        });
        return button;
      }),
    );
  }

  /** The rows of the current view, in the server's order of that view's ranks. */
  private rows(competition: LiveCompetition): ListRow[] {
    const view = this.view;
    if (view.kind === 'apparatus') {
      return competition.gymnasts
        .flatMap((entry) => {
          const score = entry.s[view.index];
          return score ? [{ entry, rank: score.r, value: score.v, provisional: score.p === true, inquiry: score.q === true }] : [];
        })
        .sort((a, b) => (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER));
    }
    return (view.kind === 'teams' ? competition.teams : competition.gymnasts).map(totalRow);
  }

  private matches(entry: LiveEntry): boolean {
    if (this.query === '') return true;
    return [entry.name, entry.club].some((text) => text?.toLocaleLowerCase(lang).includes(this.query));
  }

  private renderList(competition: LiveCompetition | null): void {
    const rows = competition ? this.rows(competition) : [];
    const shown = rows.filter((row) => this.matches(row.entry));
    const teams = this.view.kind === 'teams';
    this.list.replaceChildren(...shown.map((row) => this.row(row, teams ? null : `${competition!.id}:${row.entry.id}`)));
    if (rows.length === 0) this.message.textContent = tl('nothing');
    else if (shown.length === 0) this.message.textContent = tl('noMatch', { query: this.search.value.trim() });
  }

  private row(row: ListRow, followKey: string | null, competitionName?: string): HTMLElement {
    const { entry } = row;
    const name = entry.name ?? tl('hiddenName');
    const followed = followKey !== null && this.followed.has(followKey);
    const star =
      followKey === null
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: 'live-follow',
              'aria-pressed': followed ? 'true' : 'false',
              'aria-label': tl(followed ? 'unfollow' : 'follow', { name }),
            },
            followed ? '★' : '☆',
          );
    star?.addEventListener('click', () => {
      if (followed) this.followed.delete(followKey!);
      else this.followed.add(followKey!);
      storeFollowed(this.followed);
      this.render();
    });
    return h(
      'li',
      {
        class: 'live-row',
        'data-id': entry.id,
        'data-changed': followKey !== null && this.changed.has(entry.id) ? 'true' : null,
        'data-hidden-name': entry.name === null ? 'true' : null,
        'data-inquiry': row.inquiry ? 'open' : null,
      },
      h('span', { class: 'live-rank' }, entry.ooc ? tl('outOfCompetition') : row.rank === null ? '–' : `${row.rank}.`),
      h(
        'span',
        { class: 'live-who' },
        h('span', { class: 'live-name' }, name),
        h('span', { class: 'live-club' }, [competitionName, entry.club].filter(Boolean).join(' · ')),
      ),
      h(
        'span',
        { class: 'live-value', title: row.provisional ? tl('provisional') : null },
        row.value === null ? '' : scoreText(row.value),
        row.provisional ? h('abbr', { class: 'live-provisional', title: tl('provisional') }, '*') : null,
        row.inquiry ? h('span', { class: 'live-inquiry', title: tl('legendInquiry') }, tl('inquiry')) : null,
      ),
      star,
    );
  }

  private renderFollowed(snapshot: LiveSnapshot): void {
    const rows = snapshot.competitions.flatMap((competition) =>
      competition.gymnasts
        .filter((entry) => this.followed.has(`${competition.id}:${entry.id}`))
        .map((entry) =>
          this.row(
            totalRow(entry),
            `${competition.id}:${entry.id}`,
            snapshot.competitions.length > 1 ? (competition.name ?? undefined) : undefined,
          ),
        ),
    );
    this.followSection.replaceChildren(
      h('h2', {}, tl('following')),
      rows.length > 0 ? h('ol', { class: 'live-list' }, ...rows) : h('p', { class: 'live-hint' }, tl('followHint')),
    );
  }
}

/** Without an event in the address (the bare address typed from a poster): the events to choose from, latest first. */
async function listEvents(host: HTMLElement): Promise<void> {
  const response = await fetch('/api/events').catch(() => null);
  if (!response?.ok) return;
  const events = (await response.json()) as Array<{ id: number; name: string }>;
  if (events.length === 0) return;
  host.append(
    h('p', {}, tl('chooseEvent')),
    h('ul', { class: 'live-events' }, ...events.map((event) => h('li', {}, h('a', { href: `?eventId=${event.id}` }, event.name)))),
  );
}

const root = document.getElementById('app')!;
const eventId = queryInteger('eventId');
if (eventId === null) {
  document.title = tl('title');
  root.replaceChildren(h('h1', {}, tl('title')), h('p', {}, tl('noEvent')), languageSwitch());
  void listEvents(root);
} else {
  void new SpectatorPage(root, eventId).start();
}
