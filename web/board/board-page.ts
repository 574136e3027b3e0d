import { api } from '../shared/api.js';
import { buildBadges } from '../shared/build-badges.js';
import { h } from '../shared/dom.js';
import { languageSwitch } from '../shared/i18n.js';

/** The parts of a board page the device and the all-around board fill in. */
export interface BoardPageParts {
  title: HTMLElement;
  subtitle: HTMLElement;
  /** The LIVE badge (`liveIndicator().element`). */
  live: HTMLElement;
  pageInfo: HTMLElement;
  message: HTMLElement;
  tables: HTMLElement;
  updated: HTMLElement;
}

/** Lays out a board: header with titles, live badge and page n of m; the rankings; footer with language switch and build. */
export function renderBoardPage(root: HTMLElement, parts: BoardPageParts): void {
  const header = h(
    'header',
    { class: 'board-header' },
    h('div', { class: 'titles' }, parts.title, parts.subtitle),
    h('div', { class: 'header-side' }, parts.live, parts.pageInfo),
  );
  root.replaceChildren(
    header,
    h('main', {}, parts.message, parts.tables, parts.updated),
    h('footer', { class: 'board-footer' }, languageSwitch(), buildBadges(api.version)),
  );
}
