/** What the office shell (`main.ts`) hands to each of its views, and what a view gives back. */
import type { EventSummary } from '../shared/api.js';
import type { OfficeApi } from './office-api.js';
import type { Session } from './session.js';

export interface ViewContext {
  api: OfficeApi;
  session: Session;
  /** Null only for views that do not need an event (network access). */
  event: EventSummary | null;
}

export interface OfficeView {
  element: HTMLElement;
  /** Drops subscriptions and timers when another view replaces this one. */
  dispose?(): void;
}
