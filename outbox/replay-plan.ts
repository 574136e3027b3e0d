/**
 * The outbox relay's decisions, kept free of I/O so they can be unit-tested (and mutation-tested):
 * what a replay does next, and whether a read may have left rows behind it.
 */

/** What `OutboxRelay.replay` does next, from where the replay stands and where the relay's cursor is. */
export type ReplayStep =
  /** Send this event's rows with `after < seq <= upTo`. */
  | { kind: 'read'; after: number; upTo: number }
  /** The client has seen a seq this relay has not delivered yet (another instance is ahead): one pass, then decide again. */
  | { kind: 'wait-for-relay' }
  /** Everything up to the relay's cursor is sent: join the room in this same tick. */
  | { kind: 'follow' };

export function nextReplayStep(sentUpTo: number, cursor: number, waitedForRelay: boolean): ReplayStep {
  if (sentUpTo < cursor) return { kind: 'read', after: sentUpTo, upTo: cursor };
  // Waiting once is enough: a pass started after the client's last event was delivered elsewhere has read it.
  if (sentUpTo > cursor && !waitedForRelay) return { kind: 'wait-for-relay' };
  return { kind: 'follow' };
}

/** A read that returned as many rows as it asked for may have more behind it; a shorter one read everything. */
export function mayHaveMore(rowCount: number, limit: number): boolean {
  return rowCount >= limit;
}

/** How far a replay has sent after reading `seqs` (ascending) for the range up to `upTo` with `limit`. */
export function sentUpToAfterRead(seqs: readonly number[], limit: number, upTo: number): number {
  return mayHaveMore(seqs.length, limit) ? seqs[seqs.length - 1]! : upTo;
}
