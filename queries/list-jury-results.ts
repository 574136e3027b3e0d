/** GET /api/jury-results: the saved field values of one score in one discipline (attempt 1). */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import type { PanelReading } from '../src/domain/panel.js';
import { juryResultEntries, loadDisciplineState, panelReadingOf, type WarnLogger } from '../src/model/scoring-context.js';

export interface ListJuryResultsInput {
  /** Carries the wertungenId (spec), not the participant id. */
  participantId: number;
  disciplineId: number;
}

export interface JuryResultListing {
  results: Array<{ fieldId: number; performance: number; isFinalScore: boolean; sortOrder: number | null }>;
  /** The discipline's E-panel for this score; null without one. */
  panel: PanelReading | null;
}

export async function listJuryResults(db: Queryable, input: ListJuryResultsInput, log: WarnLogger): Promise<JuryResultListing> {
  const state = await loadDisciplineState(db, input.participantId, input.disciplineId, log);
  if (state === null) {
    throw notFound(
      `No score with wertungenId ${input.participantId} or no discipline ${input.disciplineId} (participantId carries the wertungenId)`,
    );
  }
  return {
    results: juryResultEntries(state).map((entry) => ({
      fieldId: entry.disciplineFieldId,
      performance: entry.performance,
      isFinalScore: entry.isFinalScore,
      sortOrder: entry.sortOrder,
    })),
    panel: panelReadingOf(state),
  };
}
