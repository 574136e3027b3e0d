/**
 * E-panel shapes on the web (issue 21): the service's own types (type-only imports, erased from
 * the bundle) under the names the pages use, and the bookkeeping of open deviations that the jury
 * portal and the office console share.
 */
import type { PanelSummary } from '../../outbox/events.js';
import type { PanelDeviation as DeviationPayload, PanelReading, PanelSettings } from '../../src/domain/panel.js';

export { DEFAULT_PANEL_TOLERANCE, PANEL_AGGREGATIONS, type PanelAggregation } from '../../src/domain/panel.js';
export type { PanelSettings };

/** A score's panel in `GET /api/scores` entries and the `GET /api/jury-results` answer. */
export type PanelState = PanelReading;

/** What a `score-updated` message of a judge's save adds: the aggregate and whether it is final. */
export type PanelProgress = PanelSummary;

/** The `panel-deviation` message (`seq` as delivered); `GET /api/panel-deviations` lists them without it. */
export type PanelDeviation = DeviationPayload & { seq?: number; eventId?: number };

/** One open deviation per score, device and attempt. */
export const deviationKey = (deviation: Pick<PanelDeviation, 'scoreId' | 'disciplineId' | 'attempt'>) =>
  `${deviation.scoreId}:${deviation.disciplineId}:${deviation.attempt}`;

/**
 * Keeps the open deviations as messages arrive: `resolved: false` opens (or refreshes) one,
 * `resolved: true` closes it. Returns whether anything changed.
 */
export function applyDeviation(open: Map<string, PanelDeviation>, message: PanelDeviation): boolean {
  const key = deviationKey(message);
  if (message.resolved) return open.delete(key);
  open.set(key, message);
  return true;
}

/** The open deviation a score's panel state shows (reads after a reload), in the message's shape. */
export function deviationFromState(scoreId: number, disciplineId: number, state: PanelState | null, attempt = 1): PanelDeviation | null {
  if (!state?.deviation) return null;
  return { scoreId, disciplineId, attempt, values: state.values, spread: state.spread ?? 0, tolerance: state.tolerance, resolved: false };
}
