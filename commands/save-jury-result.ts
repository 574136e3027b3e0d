/**
 * POST /api/jury-results: one field value of a score, insert-or-update keyed by (wertungenId,
 * field, attempt 1), plus event 1 of `score-updated` with the score the formula gives now.
 *
 * A field of an E-panel's judge (issue 21) also recomputes the panel in the same transaction: the
 * aggregate field and the final are stored once every judge has a value, the event carries
 * `panel: { aggregate, complete }` (provisional while incomplete), and a crossing of the tolerance
 * is announced as `panel-deviation` after the score's event.
 *
 * The score row names no discipline, so the field's own discipline is the one this value
 * belongs to. No detail row is required: the portal saves field values before the final score
 * (rule 7), and save-value creates the detail row then.
 */
import { panelInputFieldIds } from '../src/domain/panel.js';
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { juryResultScoreUpdated } from '../outbox/events.js';
import { calculatedScoreOf, loadDisciplineState, loadFieldDisciplineState, type WarnLogger } from '../src/model/scoring-context.js';
import { checkExpectedPerformance, checkJuryResultAttempt } from './individual-score-decision.js';
import { decidePanel } from './panel-decision.js';
import { checkPanelFields, recordPanelDeviation, storePanelAggregate } from './panel-aggregation.js';
import { lockScoreRowAndUpsertJuryResult, selectJuryResultValue, upsertJuryResults, type FieldValue } from './score-writes.js';

export interface SaveJuryResultInput {
  /** Carries the wertungenId (spec). */
  participantId: number;
  disciplineFieldId: number;
  performance: number;
  attempt: number;
  /** 0 compulsory (Pflicht), 1 free (Kuer); stored in int_kp. */
  type: 0 | 1;
  /** Optimistic check: the stored value the client based this save on (null = none); absent = no check. */
  expectedPerformance?: number | null | undefined;
}

export interface SaveJuryResultReply {
  success: true;
  id: number;
  wertungenId: number;
  disciplineFieldId: number;
  performance: number;
  finalScore: number | null;
  /** Present for a save of an E-panel judge's field: the aggregate, provisional while not complete. */
  panel?: { aggregate: number | null; complete: boolean };
}

export async function saveJuryResult(tx: TxClient, input: SaveJuryResultInput, log: WarnLogger): Promise<SaveJuryResultReply> {
  checkJuryResultAttempt(input.attempt);
  const scoreId = input.participantId;
  const fieldValue = { fieldId: input.disciplineFieldId, value: input.performance };
  const writing = lockScoreRowAndUpsertJuryResult(tx, scoreId, fieldValue, input.type, input.expectedPerformance);
  // Sent behind the write, in its round trip; used when the write stored the value (else read anew).
  const stateAfterWrite = loadFieldDisciplineState(tx, scoreId, input.disciplineFieldId, log);
  const written = await writing;
  if (!written.found) throw notFound(`No score with wertungenId ${scoreId} (participantId carries the wertungenId)`);
  const disciplineId = written.disciplineId;
  if (disciplineId === null) throw notFound(`No discipline field ${input.disciplineFieldId}`);
  const stored = written.stored ?? (await writeAfterCheck(tx, scoreId, fieldValue, input));
  if (written.stored?.inserted) checkExpectedPerformance(input.disciplineFieldId, input.expectedPerformance, null);

  const state = (written.stored ? await stateAfterWrite : await loadDisciplineState(tx, scoreId, disciplineId, log))!;
  await checkPanelFields(tx, state, [input.disciplineFieldId]);
  const panel = state.panel !== null && panelInputFieldIds(state.panel).includes(input.disciplineFieldId) ? decidePanel(state) : null;
  const reply = {
    success: true as const,
    id: stored.id,
    wertungenId: scoreId,
    disciplineFieldId: input.disciplineFieldId,
    performance: stored.value,
  };
  if (panel === null) {
    const finalScore = calculatedScoreOf(state);
    void appendOutboxEvent(tx, juryResultScoreUpdated(state, finalScore));
    return { ...reply, finalScore };
  }
  await storePanelAggregate(tx, state, panel, true);
  await appendOutboxEvent(tx, juryResultScoreUpdated(state, panel.finalScore, panel.reading));
  await recordPanelDeviation(tx, state, panel);
  return { ...reply, finalScore: panel.finalScore, panel: { aggregate: panel.reading.aggregate, complete: panel.reading.complete } };
}

/**
 * The stored value was not the expected one as a float4, so the statement left it alone: the check's
 * own rule decides on the value as it stands under the score's lock. It throws unless the two differ
 * by rounding only; then the value is written after all.
 */
async function writeAfterCheck(tx: TxClient, scoreId: number, fieldValue: FieldValue, input: SaveJuryResultInput) {
  checkExpectedPerformance(
    input.disciplineFieldId,
    input.expectedPerformance,
    await selectJuryResultValue(tx, scoreId, input.disciplineFieldId),
  );
  const [stored] = await upsertJuryResults(tx, scoreId, [fieldValue], input.type);
  return stored!;
}
