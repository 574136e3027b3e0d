/**
 * A save as the jury portal queues it: the shape the queue (`save-queue.ts`) works on and the
 * store (`queue-store.ts`) keeps, in a module of its own so neither has to import the other.
 */

export type SaveStep =
  /** Load workflow step 4: create the score row (save-value with the participant id and score 0). */
  | { kind: 'create' }
  /** A jury result: a field value, or the final score into the final field. */
  | { kind: 'field'; fieldId: number; value: number }
  /** The final score into the detail value (save-value with the wertungenId). */
  | { kind: 'detail' };

export interface NewSave {
  eventId: number;
  disciplineId: number;
  competitionId: number;
  participantId: number;
  participantKey: string;
  /** Who this is, for messages while the participant list may not be loaded. */
  label: string;
  wertungenId: number | null;
  /** The values as typed, so a waiting participant shows what is still to be sent. */
  values: { fieldId: number; value: number }[];
  finalFieldId: number | null;
  /**
   * Null: an E-panel judge's own field (issue 21). The service computes the panel's aggregate and
   * the final in the same transaction, so the job sends that one field and nothing else.
   */
  finalScore: number | null;
  /**
   * The stored values the judge's form was based on (issue 17): each step sends its optimistic
   * check, and the server answers 409 when someone else changed the value meanwhile. Absent (an
   * older job, or a knowing overwrite): no check.
   */
  expected?: ExpectedValues | undefined;
}

export interface ExpectedValues {
  /** Stored value per field id; null = none was stored. */
  fields: Record<string, number | null>;
  /** The stored final score (detail value); null = none was stored. */
  final: number | null;
}

/** A queued save: what the judge entered, turned into steps, plus how far the server has acknowledged them. */
export interface SaveJob extends Omit<NewSave, 'finalFieldId'> {
  id: string;
  createdAt: string;
  steps: SaveStep[];
  /** Index of the first step not yet acknowledged by the server. */
  next: number;
  attempts: number;
  lastError: string | null;
}
