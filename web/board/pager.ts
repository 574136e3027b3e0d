/**
 * Projector paging (issue 17, point 7), for every board: shows as many table rows as fit the
 * screen, turns to the next page at a readable pace, and jumps to a changed row's page and keeps it
 * there a while. Rows are the `tbody tr` of the tables inside `container`; a table with no row on
 * the page is hidden with its caption. Pace and hold are in docs/decisions.md.
 */
export interface PagerOptions {
  /** How long a page stays (ms). */
  pageMs: number;
  /** How long a changed row's page stays (ms). */
  holdMs: number;
  /** Called after the last page was shown its full time (a full pass), e.g. to rotate boards. */
  onCycle?(): void;
  /** Shows "page n of m"; null hides it. */
  onPage?(page: number, pages: number): void;
}

/** Kept free under the last row, so it never touches the screen's edge. */
const BOTTOM_MARGIN_PX = 12;

/** Page timing of the scoreboards; `?pace=` (seconds per page) overrides the page time. */
export const PAGE_MS = 8_000;
export const HOLD_MS = 12_000;

export function paceFromUrl(search: string = window.location.search): { pageMs: number; holdMs: number } {
  const pace = Number(new URLSearchParams(search).get('pace'));
  return Number.isFinite(pace) && pace > 0
    ? { pageMs: pace * 1000, holdMs: Math.max(pace * 1000, Math.min(HOLD_MS, pace * 1500)) }
    : { pageMs: PAGE_MS, holdMs: HOLD_MS };
}

export class RowPager {
  private page = 0;
  /** Index of each page's first row; one page of everything while the rows fit the screen. */
  private breaks: number[] = [0];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private holdUntil = 0;
  private stopped = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: PagerOptions,
  ) {
    window.addEventListener('resize', () => this.refresh());
  }

  private rows(): HTMLElement[] {
    return Array.from(this.container.querySelectorAll<HTMLElement>('tbody tr'));
  }

  /** The room below the rows: the window's bottom less what follows the tables (legend, last update). */
  private bottom(): number {
    let below = 0;
    for (let node = this.container.nextElementSibling; node; node = node.nextElementSibling) below += node.getBoundingClientRect().height;
    return window.innerHeight - below - BOTTOM_MARGIN_PX;
  }

  /**
   * Page breaks from the heights measured with every row shown: a page takes rows while they fit,
   * and a table starting on it adds what stands above its first row (the gap, caption, header).
   */
  private measureBreaks(rows: HTMLElement[], room: number): number[] {
    // What stands above each table's first row: the gap to what precedes it, its caption, its header.
    const above = new Map<Element, number>();
    let previousBottom = this.container.getBoundingClientRect().top;
    for (const table of Array.from(this.container.querySelectorAll<HTMLTableElement>('table'))) {
      const first = table.tBodies[0]?.rows[0];
      if (first) above.set(table, first.getBoundingClientRect().top - previousBottom);
      previousBottom = table.getBoundingClientRect().bottom;
    }
    const breaks = [0];
    let used = 0;
    let tableOfPage: Element | null = null;
    rows.forEach((row, index) => {
      const table = row.closest('table');
      const head = table === null ? 0 : (above.get(table) ?? 0);
      const height = row.getBoundingClientRect().height;
      if (index > 0 && used + (table === tableOfPage ? 0 : head) + height > room) {
        // A table continued on the next page shows its caption and header again.
        breaks.push(index);
        used = head + height;
      } else used += (table === tableOfPage ? 0 : head) + height;
      tableOfPage = table;
    });
    return breaks;
  }

  /** After the rows were rendered again: measure, keep the current page (or the held row's), show it. */
  refresh(focusRow: HTMLElement | null = null): void {
    if (this.stopped) return;
    const rows = this.rows();
    for (const row of rows) row.hidden = false;
    for (const table of Array.from(this.container.querySelectorAll<HTMLElement>('table'))) table.hidden = false;
    const bottom = this.bottom();
    const top = this.container.getBoundingClientRect().top;
    this.breaks =
      rows.length === 0 || this.container.getBoundingClientRect().bottom <= bottom ? [0] : this.measureBreaks(rows, bottom - top);
    if (focusRow) {
      const index = rows.indexOf(focusRow);
      if (index >= 0) {
        this.page = this.pageOf(index);
        this.holdUntil = Date.now() + this.options.holdMs;
      }
    }
    this.page = Math.min(this.page, this.breaks.length - 1);
    this.show(rows);
    this.schedule();
  }

  private pageOf(index: number): number {
    let page = 0;
    while (page + 1 < this.breaks.length && this.breaks[page + 1]! <= index) page += 1;
    return page;
  }

  private show(rows: HTMLElement[]): void {
    const from = this.breaks[this.page] ?? 0;
    const to = this.breaks[this.page + 1] ?? rows.length;
    rows.forEach((row, index) => {
      row.hidden = index < from || index >= to;
    });
    for (const table of Array.from(this.container.querySelectorAll<HTMLElement>('table'))) {
      table.hidden = !Array.from(table.querySelectorAll<HTMLElement>('tbody tr')).some((row) => !row.hidden);
    }
    const pages = this.breaks.length;
    this.container.dataset.page = String(this.page + 1);
    this.container.dataset.pages = String(pages);
    this.options.onPage?.(this.page + 1, pages);
  }

  private schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = Math.max(this.options.pageMs, this.holdUntil - Date.now());
    this.timer = setTimeout(() => this.turn(), wait);
  }

  private turn(): void {
    this.timer = null;
    if (this.stopped) return;
    const rows = this.rows();
    const pages = this.breaks.length;
    const wrapped = this.page + 1 >= pages;
    this.page = wrapped ? 0 : this.page + 1;
    if (pages > 1) this.show(rows);
    if (wrapped) this.options.onCycle?.();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
