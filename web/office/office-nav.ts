/**
 * The office's navigation: one row of groups named after the phases of a competition day, each a
 * disclosure button with a small menu of its pages (the WAI-ARIA disclosure navigation pattern); a
 * group of one page is a plain link. Every page link stays in the DOM with its `href` and
 * `data-view`, so a link opens in a new tab and the address still names the page.
 */
import { h } from '../shared/dom.js';

export interface NavGroup<G extends string> {
  key: G;
  label: string;
}

export interface NavPage<G extends string> {
  key: string;
  label: string;
  group: G;
}

export interface NavOptions<G extends string, P extends NavPage<G>> {
  label: string;
  groups: readonly NavGroup<G>[];
  pages: readonly P[];
  href(page: P): string;
  /** A plain click: the page is shown in place (the address is already pushed). */
  open(page: P): void;
}

interface RenderedGroup {
  item: HTMLLIElement;
  /** The top-row control: the disclosure button, or the link of a group of one page. */
  control: HTMLElement;
  /** The menu of a disclosure group; null for a group of one page. */
  menu: HTMLUListElement | null;
}

export class OfficeNav<G extends string, P extends NavPage<G>> {
  readonly element: HTMLElement;
  private readonly row = h('ul', { class: 'nav-groups' });
  private readonly groups: RenderedGroup[] = [];
  private readonly links = new Map<P, HTMLAnchorElement>();
  private readonly groupOf = new Map<P, RenderedGroup>();

  constructor(private readonly options: NavOptions<G, P>) {
    this.element = h('nav', { class: 'office-nav', 'aria-label': options.label });
    for (const group of options.groups) {
      const pages = options.pages.filter((page) => page.group === group.key);
      if (pages.length === 0) continue;
      const rendered = pages.length === 1 ? this.single(group, pages[0]!) : this.disclosure(group, pages);
      for (const page of pages) this.groupOf.set(page, rendered);
      this.groups.push(rendered);
      this.row.append(rendered.item);
    }
    this.element.append(this.row);
    // A click anywhere else closes an open menu, as a menu of a desktop program does.
    document.addEventListener('pointerdown', (event) => {
      if (!this.element.contains(event.target as Node)) this.closeAll();
    });
  }

  /** Marks the shown page and its group, refreshes the addresses (the event is part of them), closes the menus. */
  show(active: P): void {
    const hadFocus = this.element.contains(document.activeElement);
    for (const [page, link] of this.links) {
      link.href = this.options.href(page);
      if (page === active) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    const current = this.groupOf.get(active);
    for (const group of this.groups) group.item.classList.toggle('current', group === current);
    this.closeAll();
    // On a phone the row may scroll sideways; the current group stays in sight.
    if (current && this.row.scrollWidth > this.row.clientWidth) this.row.scrollLeft = current.item.offsetLeft - this.row.clientWidth / 3;
    // The chosen link is now in a closed menu: its group keeps the keyboard where it was.
    if (hadFocus) current?.control.focus();
  }

  private link(page: P, text: string): HTMLAnchorElement {
    const link = h('a', { href: this.options.href(page), 'data-view': page.key }, text);
    link.addEventListener('click', (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      window.history.pushState(null, '', this.options.href(page));
      this.options.open(page);
    });
    this.links.set(page, link);
    return link;
  }

  private single(group: NavGroup<G>, page: P): RenderedGroup {
    const link = this.link(page, group.label);
    link.classList.add('nav-top');
    const rendered: RenderedGroup = { item: h('li', {}, link), control: link, menu: null };
    link.addEventListener('keydown', (event) => this.rowKey(event, rendered));
    return rendered;
  }

  private disclosure(group: NavGroup<G>, pages: readonly P[]): RenderedGroup {
    const menuId = `nav-menu-${group.key}`;
    const button = h('button', { type: 'button', class: 'nav-top', 'aria-expanded': 'false', 'aria-controls': menuId }, group.label);
    const menu = h('ul', { class: 'nav-menu', id: menuId, hidden: true }, ...pages.map((page) => h('li', {}, this.link(page, page.label))));
    const item = h('li', { class: 'nav-group' }, button, menu);
    const rendered: RenderedGroup = { item, control: button, menu };
    button.addEventListener('click', () => this.setOpen(rendered, menu.hidden));
    button.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        this.setOpen(rendered, true);
        this.menuLinks(rendered)
          .at(event.key === 'ArrowDown' ? 0 : -1)
          ?.focus();
      } else this.rowKey(event, rendered);
    });
    menu.addEventListener('keydown', (event) => this.menuKey(event, rendered));
    // Tabbing out of the group closes its menu, so no open menu is left behind the focus.
    item.addEventListener('focusout', (event) => {
      if (!item.contains(event.relatedTarget as Node | null)) this.setOpen(rendered, false);
    });
    return rendered;
  }

  /** Keys on a top-row control: left and right (Home, End) move along the row, Escape closes. */
  private rowKey(event: KeyboardEvent, group: RenderedGroup): void {
    const index = this.groups.indexOf(group);
    const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: this.groups.length - 1 }[event.key];
    if (target !== undefined) {
      event.preventDefault();
      this.setOpen(group, false);
      this.groups[(target + this.groups.length) % this.groups.length]!.control.focus();
    } else if (event.key === 'Escape') this.setOpen(group, false);
  }

  /** Keys inside an open menu: up and down (Home, End) move between its links, Escape returns to the button. */
  private menuKey(event: KeyboardEvent, group: RenderedGroup): void {
    const links = this.menuLinks(group);
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    const target = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: links.length - 1 }[event.key];
    if (target !== undefined) {
      event.preventDefault();
      links[(target + links.length) % links.length]!.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      this.setOpen(group, false);
      group.control.focus();
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') this.rowKey(event, group);
  }

  private menuLinks(group: RenderedGroup): HTMLAnchorElement[] {
    return group.menu ? Array.from(group.menu.querySelectorAll('a')) : [];
  }

  private setOpen(group: RenderedGroup, open: boolean): void {
    if (!group.menu) return;
    if (open) for (const other of this.groups) if (other !== group) this.setOpen(other, false);
    group.menu.hidden = !open;
    group.control.setAttribute('aria-expanded', String(open));
  }

  private closeAll(): void {
    for (const group of this.groups) this.setOpen(group, false);
  }
}
