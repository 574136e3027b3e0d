import '../shared/base.css';
import './office.css';
import type { EventSummary } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h, queryInteger } from '../shared/dom.js';
import { boardSetupView } from './board-setup-view.js';
import { consoleView } from './console-view.js';
import { credentialsView } from './credentials-view.js';
import { judgeSheetsView } from './judge-sheets-view.js';
import { judgesEvaluationView } from './judges-evaluation-view.js';
import { startListsView } from './start-lists-view.js';
import { participantsView } from './participants-view.js';
import { rotationsView } from './rotations-view.js';
import { languageSwitch, t } from '../shared/i18n.js';
import { groupsView } from './groups-view.js';
import { inquiryCoachView } from './inquiry-coach-view.js';
import { inquiryLogView } from './inquiry-log-view.js';
import { tInq } from '../shared/inquiries.js';
import { networkView } from './network-view.js';
import { panelsView } from './panels-view.js';
import { officeApi } from './office-api.js';
import { OfficeNav, type NavGroup, type NavPage } from './office-nav.js';
import { m } from './messages.js';
import { Session, sessionControl } from './session.js';
import { resultsView } from './results-view.js';
import { squadsView } from './squads-view.js';
import { groupScoresView, teamsView } from './teams-view.js';
import type { OfficeView, ViewContext } from './view.js';

type NavGroupKey = 'prepare' | 'competition' | 'print' | 'results' | 'network';

/** The phases of a competition day, in the order the office goes through them. */
const GROUPS: readonly NavGroup<NavGroupKey>[] = [
  { key: 'prepare', label: m('nav.prepare') },
  { key: 'competition', label: m('nav.competition') },
  { key: 'print', label: m('nav.print') },
  { key: 'results', label: m('nav.results') },
  { key: 'network', label: m('nav.network') },
];

interface ViewEntry extends NavPage<NavGroupKey> {
  needsEvent: boolean;
  create(context: ViewContext): OfficeView;
}

/** In menu order within each group. */
const VIEWS: readonly ViewEntry[] = [
  { key: 'participants', group: 'prepare', label: t('office.participants'), needsEvent: true, create: participantsView },
  { key: 'squads', group: 'prepare', label: t('office.squads'), needsEvent: true, create: squadsView },
  { key: 'groups', group: 'prepare', label: t('office.groups'), needsEvent: true, create: groupsView },
  { key: 'rotations', group: 'prepare', label: t('office.rotations'), needsEvent: true, create: rotationsView },
  { key: 'panels', group: 'prepare', label: t('office.panels'), needsEvent: false, create: panelsView },
  { key: 'credentials', group: 'prepare', label: t('office.credentials'), needsEvent: true, create: credentialsView },
  { key: 'console', group: 'competition', label: t('office.console'), needsEvent: true, create: consoleView },
  { key: 'board', group: 'competition', label: t('office.board'), needsEvent: true, create: boardSetupView },
  { key: 'teams', group: 'competition', label: t('office.teams'), needsEvent: true, create: teamsView },
  { key: 'group-scores', group: 'competition', label: t('office.groupScores'), needsEvent: true, create: groupScoresView },
  { key: 'inquiry', group: 'competition', label: tInq('inq.navCoach'), needsEvent: true, create: inquiryCoachView },
  { key: 'inquiries', group: 'competition', label: tInq('inq.navLog'), needsEvent: true, create: inquiryLogView },
  { key: 'startlists', group: 'print', label: t('office.startlists'), needsEvent: true, create: startListsView },
  { key: 'sheets', group: 'print', label: t('office.sheets'), needsEvent: true, create: judgeSheetsView },
  { key: 'results', group: 'results', label: t('office.results'), needsEvent: true, create: resultsView },
  { key: 'judges-evaluation', group: 'results', label: m('jeval.nav'), needsEvent: true, create: judgesEvaluationView },
  { key: 'network', group: 'network', label: t('office.network'), needsEvent: false, create: networkView },
];

/** The page the bare address opens. */
const HOME = VIEWS.find((view) => view.key === 'squads')!;

const EVENT_STORAGE_KEY = 'gym.office.eventId.v1';

function viewFromUrl(): ViewEntry {
  const key = new URLSearchParams(window.location.search).get('view');
  return VIEWS.find((view) => view.key === key) ?? HOME;
}

/**
 * The competition office (the spec's Frontend Client): one page, its views switched in place.
 * The view and the event live in the query string, so a reload or a bookmark returns to them.
 */
class OfficeApp {
  private readonly session = new Session();
  private readonly api = officeApi(this.session);
  private events: EventSummary[] = [];
  private eventId: number | null = null;
  private entry: ViewEntry = HOME;
  private view: OfficeView | null = null;
  private readonly nav = new OfficeNav({
    label: m('nav.label'),
    groups: GROUPS,
    pages: VIEWS,
    href: (entry) => this.href(entry),
    open: (entry) => this.mount(entry),
  });
  private readonly eventSelect = h('select', { id: 'event-select', name: 'eventId' });
  private readonly eventPicker = h('div', { class: 'picker' }, h('label', { for: 'event-select' }, t('common.event')), this.eventSelect);
  private readonly message = h('p', { class: 'page-message', role: 'status' });
  private readonly outlet = h('div', { class: 'view-outlet' });

  constructor(private readonly root: HTMLElement) {}

  async start(): Promise<void> {
    const header = h(
      'header',
      { class: 'topbar' },
      h('h1', {}, t('office.title')),
      sessionControl(this.session),
      languageSwitch(),
      buildBadges(this.api.version),
    );
    this.root.replaceChildren(
      header,
      this.nav.element,
      h('main', {}, h('div', { class: 'pickers' }, this.eventPicker), this.message, this.outlet),
    );
    this.eventSelect.addEventListener('change', () => this.chooseEvent(Number(this.eventSelect.value) || null));
    window.addEventListener('popstate', () => {
      this.eventId = this.knownEvent(queryInteger('eventId')) ?? this.eventId;
      this.mount(viewFromUrl());
    });
    void this.session.revalidate();
    try {
      this.events = await this.api.events();
    } catch (error) {
      this.message.textContent = m('events.failed', { error: (error as Error).message });
    }
    this.eventSelect.replaceChildren(...this.events.map((event) => h('option', { value: event.id }, event.name)));
    this.eventId =
      this.knownEvent(queryInteger('eventId')) ??
      this.knownEvent(Number(localStorage.getItem(EVENT_STORAGE_KEY))) ??
      this.events[0]?.id ??
      null;
    this.mount(viewFromUrl());
  }

  private knownEvent(id: number | null): number | null {
    return id !== null && this.events.some((event) => event.id === id) ? id : null;
  }

  private href(entry: ViewEntry): string {
    const search = new URLSearchParams({ view: entry.key });
    if (this.eventId !== null) search.set('eventId', String(this.eventId));
    return `?${search}`;
  }

  private chooseEvent(eventId: number | null): void {
    this.eventId = eventId;
    try {
      if (eventId !== null) localStorage.setItem(EVENT_STORAGE_KEY, String(eventId));
    } catch {
      // Only a convenience for the next visit.
    }
    window.history.replaceState(null, '', this.href(this.entry));
    this.mount(this.entry);
  }

  private mount(entry: ViewEntry): void {
    this.view?.dispose?.();
    this.view = null;
    this.entry = entry;
    this.nav.show(entry);
    document.title = `${entry.label} · ${t('office.title')}`;
    this.eventPicker.hidden = !entry.needsEvent;
    this.eventSelect.value = this.eventId === null ? '' : String(this.eventId);
    const event = this.events.find((candidate) => candidate.id === this.eventId) ?? null;
    if (entry.needsEvent && event === null) {
      if (this.events.length === 0 && !this.message.textContent) this.message.textContent = t('common.noEvents');
      this.outlet.replaceChildren();
      return;
    }
    this.view = entry.create({ api: this.api, session: this.session, event });
    this.outlet.replaceChildren(this.view.element);
  }
}

const root = document.getElementById('app');
if (root) void new OfficeApp(root).start();
