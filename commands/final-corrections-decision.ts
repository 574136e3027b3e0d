/**
 * The rules of writing back the corrections a read found (calculation rules 5 and 6), decided
 * without a database: the order the rows are locked in, and which calculated finals another writer
 * got in first. The SQL is in `apply-final-corrections.ts`.
 */
import type { PendingCorrection, WrittenCorrection } from '../src/model/scoring-context.js';

/** Sorted by score and field, so two readers correcting overlapping pages lock rows in the same order. */
export function inLockOrder(corrections: readonly PendingCorrection[]): PendingCorrection[] {
  return [...corrections].sort((a, b) => a.scoreId - b.scoreId || a.correction.fieldId - b.correction.fieldId);
}

/**
 * The calculated finals the statement did not insert (`written` lacks them): a concurrent reader or
 * writer inserted that final first, so the stored one has to be read back.
 */
export function lostCalculations(corrections: readonly PendingCorrection[], written: readonly WrittenCorrection[]): PendingCorrection[] {
  const inserted = new Set(written.filter((row) => row.kind === 'calculate').map((row) => `${row.score_id}:${row.field_id}`));
  return corrections.filter((item) => item.correction.kind === 'calculate' && !inserted.has(`${item.scoreId}:${item.correction.fieldId}`));
}
