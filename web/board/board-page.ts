import { h } from '../shared/dom.js';

/** The parts of a board page the device and the all-around board fill in. */
export interface BoardPageParts {
  title: HTMLElement;
  subtitle: HTMLElement;
  /** The LIVE badge (`liveIndicator().element`). */
  live: HTMLElement;
  pageInfo: HTMLElement;
  message: HTMLElement;
  tables: HTMLElement;
  /** What the marks in the table mean (e.g. the provisional "*"); empty when none is shown. */
  legend: HTMLElement;
  updated: HTMLElement;
}

/**
 * Lays out a board for the projector: header with titles, live badge and page n of m; the
 * rankings; the legend. No language switch or build badges: nobody can click on a projected
 * page, and the hall reads every pixel (the language comes with the address, `&lang=`).
 */
export function renderBoardPage(root: HTMLElement, parts: BoardPageParts): void {
  const header = h(
    'header',
    { class: 'board-header' },
    h('div', { class: 'titles' }, parts.title, parts.subtitle),
    h('div', { class: 'header-side' }, parts.live, parts.pageInfo),
  );
  document.body.dataset.projector = 'true';
  root.replaceChildren(header, h('main', {}, parts.message, parts.tables, parts.legend, parts.updated));
}
