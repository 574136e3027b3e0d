/**
 * POST /api/scores/capture: several field values of one score at once, the final score
 * calculated when the request does not carry it, and the detail value updated (event 2).
 *
 * The discipline is the one the fields belong to: every fieldId must exist and all must belong to
 * the same discipline (the score row itself names none), else 400 and nothing is written.
 * "Final field without a value" is read as "not in this request": a capture that changes the
 * inputs recalculates the final; when the formula gives no finite result the stored final and
 * detail stay as they are (rule 5), since copying the jury final into the detail would run rule 6
 * the wrong way round.
 *
 * Judge fields of an E-panel (issue 21) recompute the panel first: a complete panel's aggregate is
 * written before the final is calculated, and a crossing of the tolerance is announced after the
 * score's event, as save-jury-result does.
 */
import { panelInputFieldIds } from '../src/domain/panel.js';
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import {
  calculatedScoreOf,
  finalFieldOfState,
  juryResultEntries,
  loadDisciplineState,
  type JuryResultEntry,
  type WarnLogger,
} from '../src/model/scoring-context.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { captureFinal, checkDistinctFields, disciplineOfFields } from './individual-score-decision.js';
import { checkPanelFields, recordPanelDeviation, storePanelAggregate } from './panel-aggregation.js';
import { decidePanel } from './panel-decision.js';
import { lockScoreRowWithFields, scoreValueEvent, storeFinalScore, upsertJuryResults, type FieldValue } from './score-writes.js';

export interface CaptureScoreInput {
  wertungenId: number;
  fieldValues: FieldValue[];
}

export interface CaptureScoreReply {
  success: true;
  wertungenId: number;
  finalScore: number | null;
  calculated: boolean;
  juryResults: JuryResultEntry[];
}

export async function captureScore(tx: TxClient, input: CaptureScoreInput, log: WarnLogger): Promise<CaptureScoreReply> {
  const fieldIds = input.fieldValues.map((item) => item.fieldId);
  checkDistinctFields(fieldIds);
  const scoreId = input.wertungenId;
  const locked = await lockScoreRowWithFields(tx, scoreId, fieldIds);
  if (!locked.found) throw notFound(`No score with wertungenId ${scoreId}`);
  const disciplineId = disciplineOfFields(fieldIds, locked.fieldDisciplines);

  await upsertJuryResults(tx, scoreId, input.fieldValues, null);
  let captured = (await loadDisciplineState(tx, scoreId, disciplineId, log))!;
  await checkPanelFields(tx, captured, fieldIds);
  const judges = captured.panel === null ? [] : panelInputFieldIds(captured.panel);
  const panel = fieldIds.some((fieldId) => judges.includes(fieldId)) ? decidePanel(captured) : null;
  if (panel?.storeAggregate) {
    // The judges' values decide the aggregate field (also over a value this capture sent for it).
    await storePanelAggregate(tx, captured, panel, false);
    captured = (await loadDisciplineState(tx, scoreId, disciplineId, log))!;
  }
  const final = captureFinal(finalFieldOfState(captured)?.fieldId ?? null, input.fieldValues, () => calculatedScoreOf(captured));
  if (final.value !== null) await storeFinalScore(tx, captured, final.value);

  const stored = (await loadDisciplineState(tx, scoreId, disciplineId, log))!;
  if (panel === null) void appendOutboxEvent(tx, scoreValueEvent(stored));
  else {
    await appendOutboxEvent(tx, scoreValueEvent(stored));
    await recordPanelDeviation(tx, captured, panel);
  }
  return {
    success: true,
    wertungenId: scoreId,
    finalScore: stored.detailValue,
    calculated: final.calculated,
    juryResults: juryResultEntries(stored),
  };
}
