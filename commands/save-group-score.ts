import type { TxClient } from '../src/db/pool.js';
import {
  appendCollectiveScoreEvent,
  prepareCollectiveScore,
  storedFinalScore,
  upsertDetailRows,
  upsertScoreRow,
  type StoredDetail,
} from './collective-score.js';
import { GROUP_KIND, type CollectiveScoreInput } from './collective-score-decision.js';

export interface SaveGroupScoreResult {
  scoreId: number;
  /** Every detail row written, the final-score row included, in the discipline's field order. */
  components: StoredDetail[];
}

/**
 * POST /api/scores/group: create-or-update keyed by (group, competition, discipline, attempt).
 * Components the request leaves out keep their stored rows, so a client may save field by field.
 */
export async function saveGroupScore(tx: TxClient, input: CollectiveScoreInput): Promise<SaveGroupScoreResult> {
  const prepared = await prepareCollectiveScore(tx, GROUP_KIND, input);
  const row = await upsertScoreRow(tx, prepared);
  const components = await upsertDetailRows(tx, prepared, row.scoreId);
  await appendCollectiveScoreEvent(tx, prepared, { ...row, finalScore: storedFinalScore(prepared, components) });
  return { scoreId: row.scoreId, components };
}
