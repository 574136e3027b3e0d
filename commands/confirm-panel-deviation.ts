/**
 * POST /api/panel-deviations/confirm (role head): the head judge accepts the values of a score's
 * panel although they spread more than the tolerance. The deviation stays recorded as confirmed
 * (until the values come back within the tolerance), the confirmation goes into the audit record
 * (`kind` 'panel-confirmed', the aggregate field with its value as old and new) and a
 * `panel-deviation` with `resolved: true` is announced.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { panelDeviation } from '../outbox/events.js';
import { loadDisciplineState, panelReadingOf, type DisciplineState, type WarnLogger } from '../src/model/scoring-context.js';
import { lockScoreRow } from './score-writes.js';

export interface DeviationKey {
  scoreId: number;
  disciplineId: number;
  attempt: number;
}

/** Confirming a confirmed deviation again changes nothing and announces nothing. */
export async function confirmPanelDeviation(tx: TxClient, key: DeviationKey, actor: string, log: WarnLogger): Promise<{ confirmed: true }> {
  const missing = () => notFound(`No open panel deviation of score ${key.scoreId} in discipline ${key.disciplineId}`);
  if (!(await lockScoreRow(tx, key.scoreId))) throw missing();
  const state = await loadDisciplineState(tx, key.scoreId, key.disciplineId, log);
  const reading = state === null ? null : panelReadingOf(state);
  if (state === null || reading === null || state.deviationState === null) throw missing();
  if (state.deviationState === 'confirmed') return { confirmed: true };
  await markDeviationConfirmed(tx, key, actor);
  await insertConfirmationAudit(tx, state, reading.aggregate, actor);
  await appendOutboxEvent(tx, panelDeviation(state, reading, true));
  return { confirmed: true };
}

export async function markDeviationConfirmed(tx: TxClient, key: DeviationKey, actor: string): Promise<void> {
  await tx.query(
    `UPDATE ${tx.tables.svc_panel_deviations} SET state = 'confirmed', confirmed_at = now(), confirmed_by = $4
      WHERE score_id = $1 AND discipline_id = $2 AND attempt = $3`,
    [key.scoreId, key.disciplineId, key.attempt, actor],
  );
}

/** Not a changed value: written directly, not through the audit trigger (which records changes only). */
export async function insertConfirmationAudit(
  tx: TxClient,
  state: DisciplineState,
  aggregate: number | null,
  actor: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${tx.tables.svc_score_audit}
            (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, kind)
     VALUES ($1, $2, $3, $4, $5, 1, $6, $6, 'api', $7,
             ${tx.tables.svc_scope_released}($2, $4, $8), 'panel-confirmed')`,
    [
      state.eventId,
      state.competitionId,
      state.scoreId,
      state.disciplineId,
      state.panel!.aggregateFieldId,
      aggregate,
      actor,
      state.squadName,
    ],
  );
}
