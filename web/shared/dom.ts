export type Child = Node | string | number | null | undefined | false;
export type AttributeValue = string | number | boolean | null | undefined;

/**
 * Creates an element with attributes and children. `false`, `null` and `undefined` attributes are
 * left off, so optional ARIA states read naturally at the call site.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, AttributeValue> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(
    ...children
      .filter((child): child is Node | string | number => child !== null && child !== undefined && child !== false)
      .map((child) => (typeof child === 'number' ? String(child) : child)),
  );
  return element;
}

/** Reads a positive integer query parameter; anything else counts as absent. */
export function queryInteger(name: string, search: string = window.location.search): number | null {
  const raw = new URLSearchParams(search).get(name);
  return raw !== null && /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** Keeps the page's query string in step with a selection, so a reload or a shared link restores it. */
export function replaceQuery(values: Record<string, number | null>): void {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(values)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, String(value));
  }
  window.history.replaceState(null, '', url);
}
