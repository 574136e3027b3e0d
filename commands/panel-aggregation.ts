/**
 * The SQL side of an E-panel judge's save (issue 21), run inside the saving command's transaction:
 * the aggregate field and the final written when the panel is complete (`decidePanel` decides),
 * and the score's standing deviation opened, kept or closed, each crossing announced once as a
 * `panel-deviation` event through the outbox.
 */
import { ACTOR_SETTING, ROLE_SETTING } from '../src/db/origin.js';
import type { TxClient } from '../src/db/pool.js';
import { panelInputFieldIds, type PanelReading } from '../src/domain/panel.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { panelDeviation } from '../outbox/events.js';
import type { DisciplineState } from '../src/model/scoring-context.js';
import { ANONYMOUS_ACTOR, panelFieldRefusal, type PanelDecision, type PanelFieldRecord } from './panel-decision.js';
import { storeFinalScore, upsertJuryResults } from './score-writes.js';

/** The aggregate (when it changed) and, with `storeFinal`, the final of a complete panel. */
export async function storePanelAggregate(
  tx: TxClient,
  state: DisciplineState,
  decision: PanelDecision,
  storeFinal: boolean,
): Promise<void> {
  if (decision.storeAggregate !== null) await upsertJuryResults(tx, state.scoreId, [decision.storeAggregate], null);
  if (storeFinal && decision.reading.complete && decision.finalScore !== null) await storeFinalScore(tx, state, decision.finalScore);
}

/**
 * Opens, keeps (with the current values) or closes the score's deviation and announces a crossing.
 * The announcement follows what the statement did, not only the decision: a read that recorded the
 * same crossing meanwhile (after a direct write, `apply-final-corrections.ts`) is not announced twice.
 */
export async function recordPanelDeviation(tx: TxClient, state: DisciplineState, decision: PanelDecision): Promise<void> {
  const { deviation, reading } = decision;
  if (deviation.kind === 'open' || (deviation.kind === 'none' && state.deviationState !== null)) {
    // Still over the tolerance ('none'): the list shows the values as they are now, without a new announcement.
    const opened = await upsertDeviation(tx, state, reading);
    if (opened) await appendOutboxEvent(tx, panelDeviation(state, reading, false));
  } else if (deviation.kind === 'close') {
    const closed = await deleteDeviation(tx, state.scoreId, state.disciplineId);
    if (closed === 'open') await appendOutboxEvent(tx, panelDeviation(state, reading, true));
  }
}

/** A new deviation is 'open'; one that stands keeps its state and gets the current values. True when it was new. */
export async function upsertDeviation(tx: TxClient, state: DisciplineState, reading: PanelReading): Promise<boolean> {
  const { rows } = await tx.query<{ inserted: boolean }>(
    `INSERT INTO ${tx.tables.svc_panel_deviations} (score_id, discipline_id, attempt, event_id, state, panel_values, spread, tolerance)
     VALUES ($1, $2, 1, $3, 'open', $4::jsonb, $5, $6)
     ON CONFLICT (score_id, discipline_id, attempt) DO UPDATE
        SET panel_values = EXCLUDED.panel_values, spread = EXCLUDED.spread, tolerance = EXCLUDED.tolerance
     RETURNING (xmax = 0) AS inserted`,
    [state.scoreId, state.disciplineId, state.eventId, JSON.stringify(reading.values), reading.spread ?? 0, reading.tolerance],
  );
  return rows[0]!.inserted;
}

/** The state the deleted deviation had; null when there was none. */
export async function deleteDeviation(tx: TxClient, scoreId: number, disciplineId: number): Promise<'open' | 'confirmed' | null> {
  const { rows } = await tx.query<{ state: 'open' | 'confirmed' }>(
    `DELETE FROM ${tx.tables.svc_panel_deviations} WHERE score_id = $1 AND discipline_id = $2 AND attempt = 1 RETURNING state`,
    [scoreId, disciplineId],
  );
  return rows[0]?.state ?? null;
}

/**
 * The panel's fields on this score (its judges' and the aggregate's): their judge by the audit
 * record and whether this transaction changed them, with the caller as the transaction records it.
 */
export async function selectPanelFieldRecords(
  tx: TxClient,
  state: DisciplineState,
  fieldIds: readonly number[],
): Promise<{ records: PanelFieldRecord[]; actor: string; role: string | null }> {
  const { rows } = await tx.query<PanelFieldRecord & { actor: string; role: string | null }>(
    `SELECT f.field_id AS "fieldId",
            (SELECT a.actor FROM ${tx.tables.svc_score_audit} a
              WHERE a.score_id = $1 AND a.discipline_id = $2 AND a.field_id = f.field_id AND a.source = 'api' AND a.kind IS NULL
                AND a.actor <> $4
              ORDER BY a.id LIMIT 1) AS judge,
            EXISTS (SELECT 1 FROM ${tx.tables.svc_score_audit} a
                     WHERE a.xact = pg_current_xact_id() AND a.score_id = $1 AND a.discipline_id = $2
                       AND COALESCE(a.field_id, 0) = f.field_id) AS changed,
            COALESCE(current_setting('${ACTOR_SETTING}', true), $4) AS actor,
            NULLIF(current_setting('${ROLE_SETTING}', true), '') AS role
       FROM unnest($3::int[]) AS f(field_id)`,
    [state.scoreId, state.disciplineId, fieldIds, ANONYMOUS_ACTOR],
  );
  return {
    records: rows.map(({ fieldId, judge, changed }) => ({ fieldId, judge, changed })),
    actor: rows[0]?.actor ?? ANONYMOUS_ACTOR,
    role: rows[0]?.role ?? null,
  };
}

/**
 * Refuses (throws) the command when it changed another judge's value or the aggregate field of the
 * score's panel (`panelFieldRefusal`); `written` are the fields the command wrote. Runs after those
 * writes and before the aggregate's own, so the transaction shows exactly what the caller changed.
 */
export async function checkPanelFields(tx: TxClient, state: DisciplineState, written: readonly number[]): Promise<void> {
  const panel = state.panel;
  if (panel === null) return;
  const fieldIds = [...panelInputFieldIds(panel), panel.aggregateFieldId];
  if (!written.some((fieldId) => fieldIds.includes(fieldId))) return;
  const { records, actor, role } = await selectPanelFieldRecords(tx, state, fieldIds);
  const refusal = panelFieldRefusal(state.scoreId, panel, { actor, role }, records);
  if (refusal !== null) throw refusal;
}
