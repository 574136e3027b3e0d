/**
 * The judges' evaluation after a competition (issue 47): for every E-panel judge field (and
 * reference judge field), how far the judge's values lay from the panel's own aggregate. Measured
 * against the aggregate before the reference judges (what the judge's colleagues gave) on complete
 * panels only; "outside tolerance" uses the panel's reference tolerance table, else the FIG's, at the
 * aggregate. Decision in docs/decisions.md ("Judges' evaluation").
 */
import { roundToDecimals } from './input-mask.js';
import { panelInputFieldIds, readPanel, type PanelSettings } from './panel.js';
import { FIG_REFERENCE_TOLERANCES, toleranceFor } from './reference-judges.js';

/** How many of a judge's largest deviations the evaluation lists. */
export const LARGEST_DEVIATIONS = 3;

export interface EvaluatedRoutine {
  readonly scoreId: number;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly startNumber: string | null;
  readonly clubName: string | null;
  /** In `panelInputFieldIds` order; null: no value. */
  readonly values: ReadonlyArray<number | null>;
}

export interface EvaluatedPanel {
  readonly disciplineId: number;
  readonly disciplineName: string;
  readonly settings: PanelSettings;
  readonly decimals: number;
  readonly fieldNames: ReadonlyMap<number, string | null>;
  readonly routines: readonly EvaluatedRoutine[];
}

export interface JudgeDeviation {
  scoreId: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  value: number;
  aggregate: number;
  /** value − aggregate. */
  deviation: number;
  tolerance: number | null;
  outside: boolean;
}

export interface JudgeEvaluation {
  disciplineId: number;
  disciplineName: string;
  fieldId: number;
  fieldName: string | null;
  role: 'judge' | 'reference';
  routines: number;
  /** Mean of value − aggregate: below 0 the judge was stricter than the panel. Null without routines. */
  meanDeviation: number | null;
  /** Mean of |value − aggregate|. */
  meanAbsoluteDeviation: number | null;
  outsideTolerance: number;
  /** The largest |deviation| first, at most LARGEST_DEVIATIONS. */
  largest: JudgeDeviation[];
}

const round = (value: number) => roundToDecimals(value, 4);

export function evaluateJudges(panels: readonly EvaluatedPanel[]): JudgeEvaluation[] {
  return panels.flatMap((panel) => {
    const inputs = panelInputFieldIds(panel.settings);
    const tolerances = panel.settings.reference?.tolerances ?? FIG_REFERENCE_TOLERANCES;
    const deviations = new Map<number, JudgeDeviation[]>(inputs.map((fieldId) => [fieldId, []]));
    for (const routine of panel.routines) {
      const valueOf = (fieldId: number) => routine.values[inputs.indexOf(fieldId)] ?? null;
      const reading = readPanel(panel.settings, valueOf, panel.decimals, false);
      if (!reading.complete || reading.panelAggregate === null) continue;
      const aggregate = reading.panelAggregate;
      const tolerance = toleranceFor(aggregate, tolerances);
      for (const fieldId of inputs) {
        const value = valueOf(fieldId);
        if (value === null) continue;
        const deviation = round(value - aggregate);
        const { scoreId, firstName, lastName, startNumber, clubName } = routine;
        deviations.get(fieldId)!.push({
          scoreId,
          firstName,
          lastName,
          startNumber,
          clubName,
          value,
          aggregate,
          deviation,
          tolerance,
          outside: tolerance !== null && Math.abs(deviation) > tolerance + 1e-9,
        });
      }
    }
    return inputs.map((fieldId) => {
      const list = deviations.get(fieldId)!;
      const sum = (pick: (item: JudgeDeviation) => number) => list.reduce((total, item) => total + pick(item), 0);
      return {
        disciplineId: panel.disciplineId,
        disciplineName: panel.disciplineName,
        fieldId,
        fieldName: panel.fieldNames.get(fieldId) ?? null,
        role: panel.settings.judgeFieldIds.includes(fieldId) ? ('judge' as const) : ('reference' as const),
        routines: list.length,
        meanDeviation: list.length === 0 ? null : round(sum((item) => item.deviation) / list.length),
        meanAbsoluteDeviation: list.length === 0 ? null : round(sum((item) => Math.abs(item.deviation)) / list.length),
        outsideTolerance: list.filter((item) => item.outside).length,
        largest: [...list]
          .sort((a, b) => Math.abs(b.deviation) - Math.abs(a.deviation) || a.scoreId - b.scoreId)
          .slice(0, LARGEST_DEVIATIONS),
      };
    });
  });
}
