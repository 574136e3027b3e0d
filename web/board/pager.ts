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
  private perPage = Number.POSITIVE_INFINITY;
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

  /** After the rows were rendered again: measure, keep the current page (or the held row's), show it. */
  refresh(focusRow: HTMLElement | null = null): void {
    if (this.stopped) return;
    const rows = this.rows();
    for (const row of rows) row.hidden = false;
    for (const table of Array.from(this.container.querySelectorAll<HTMLElement>('table'))) table.hidden = false;
    const first = rows[0];
    const available = window.innerHeight - this.container.getBoundingClientRect().top - 48;
    if (!first || this.container.getBoundingClientRect().height <= available) {
      this.perPage = Number.POSITIVE_INFINITY;
      this.page = 0;
      this.options.onPage?.(1, 1);
      this.schedule();
      return;
    }
    const rowHeight = first.getBoundingClientRect().height || 1;
    // Each table on a page also shows its header and caption: reserve room for two of them.
    const header = this.container.querySelector('thead')?.getBoundingClientRect().height ?? rowHeight;
    const caption = this.container.querySelector('caption')?.getBoundingClientRect().height ?? 0;
    this.perPage = Math.max(3, Math.floor((available - 2 * (header + caption)) / rowHeight));
    const pages = this.pages(rows.length);
    if (focusRow) {
      const index = rows.indexOf(focusRow);
      if (index >= 0) {
        this.page = Math.floor(index / this.perPage);
        this.holdUntil = Date.now() + this.options.holdMs;
      }
    }
    this.page = Math.min(this.page, pages - 1);
    this.show(rows);
    this.schedule();
  }

  private pages(count: number): number {
    return Number.isFinite(this.perPage) ? Math.max(1, Math.ceil(count / this.perPage)) : 1;
  }

  private show(rows: HTMLElement[]): void {
    rows.forEach((row, index) => {
      row.hidden = Math.floor(index / this.perPage) !== this.page;
    });
    for (const table of Array.from(this.container.querySelectorAll<HTMLElement>('table'))) {
      table.hidden = !Array.from(table.querySelectorAll<HTMLElement>('tbody tr')).some((row) => !row.hidden);
    }
    this.container.dataset.page = String(this.page + 1);
    this.container.dataset.pages = String(this.pages(rows.length));
    this.options.onPage?.(this.page + 1, this.pages(rows.length));
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
    const pages = this.pages(rows.length);
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
