/**
 * E-panel shapes as the service sends them (issue 21, "E-panel API" in the coordination notes):
 * a discipline's panel settings, a score's panel state in the reads, and the `panel-deviation`
 * message. Shared by the jury portal and the office console.
 */

export type Aggregation = 'trimmed-mean' | 'mean' | 'median';

export const AGGREGATIONS: readonly Aggregation[] = ['trimmed-mean', 'mean', 'median'];

/** `GET /api/disciplines` entry's `panel`, and the answer of `PUT /api/disciplines/:id/panel`. */
export interface PanelSettings {
  judgeFieldIds: number[];
  aggregation: Aggregation;
  aggregateFieldId: number;
  tolerance: number;
  /** Number of judges (= judgeFieldIds.length). */
  size: number;
}

export interface JudgeValue {
  fieldId: number;
  value: number | null;
}

/** A score's panel in `GET /api/scores` entries and the `GET /api/jury-results` answer. */
export interface PanelState {
  values: JudgeValue[];
  aggregate: number | null;
  /** Every judge has a value: before that, the aggregate and the final are provisional. */
  complete: boolean;
  spread: number | null;
  tolerance: number;
  /** spread > tolerance and not confirmed by the head judge. */
  deviation: boolean;
  confirmed: boolean;
}

/** The `panel-deviation` message; `GET /api/panel-deviations` lists the open ones without `seq`. */
export interface PanelDeviation {
  scoreId: number;
  disciplineId: number;
  attempt: number;
  values: JudgeValue[];
  spread: number;
  tolerance: number;
  resolved: boolean;
  seq?: number;
  eventId?: number;
}

/** What a `score-updated` message of a judge's save adds: the recomputed aggregate and whether it is final. */
export interface PanelProgress {
  aggregate: number | null;
  complete: boolean;
}

/** One open deviation per score, device and attempt. */
export const deviationKey = (deviation: Pick<PanelDeviation, 'scoreId' | 'disciplineId' | 'attempt'>) =>
  `${deviation.scoreId}:${deviation.disciplineId}:${deviation.attempt}`;

/** Reads `panel` off a read or a message that may come from a service without panels. */
export function panelOf<T extends PanelState | PanelSettings | PanelProgress>(value: object | null | undefined): T | null {
  const panel = (value as { panel?: unknown } | null | undefined)?.panel;
  return panel && typeof panel === 'object' ? (panel as T) : null;
}

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
