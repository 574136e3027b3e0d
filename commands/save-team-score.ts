import type { TxClient } from '../src/db/pool.js';
import {
  appendCollectiveScoreEvent,
  prepareCollectiveScore,
  storedFinalScore,
  upsertDetailRows,
  upsertScoreRow,
} from './collective-score.js';
import { TEAM_KIND, type CollectiveScoreInput } from './collective-score-decision.js';

export interface SaveTeamScoreResult {
  scoreId: number;
  finalScore: number;
}

export async function deleteTeamDetailRows(tx: TxClient, scoreId: number, disciplineId: number, attempt: number): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.wertungen_details} WHERE int_wertungenid = $1 AND int_disziplinenid = $2 AND int_versuch = $3`, [
    scoreId,
    disciplineId,
    attempt,
  ]);
}

/**
 * POST /api/scores/team: the spec's replace semantics, so a field left out of a re-save loses its
 * stored value instead of keeping a stale one next to the new final score.
 */
export async function saveTeamScore(tx: TxClient, input: CollectiveScoreInput): Promise<SaveTeamScoreResult> {
  const prepared = await prepareCollectiveScore(tx, TEAM_KIND, input);
  const row = await upsertScoreRow(tx, prepared);
  await deleteTeamDetailRows(tx, row.scoreId, input.disciplineId, input.attempt);
  const details = await upsertDetailRows(tx, prepared, row.scoreId);
  const finalScore = storedFinalScore(prepared, details);
  await appendCollectiveScoreEvent(tx, prepared, { ...row, finalScore });
  return { scoreId: row.scoreId, finalScore };
}
