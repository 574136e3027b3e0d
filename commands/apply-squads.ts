import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { squadsApplied } from '../outbox/events.js';
import { checkForeignParticipants, flattenAssignments, squadsCreated, type SquadAssignment } from './squads-decision.js';

export interface ApplySquadsInput {
  eventId: number;
  squads: SquadAssignment[];
  clearExisting: boolean;
}

export interface ApplySquadsResult {
  eventId: number;
  squadsCreated: number;
  participantsAssigned: number;
}

/**
 * Locks the event row (NO KEY UPDATE: competitions can still be inserted under it) so two applies
 * of one event run one after the other; interleaved, the clear of one could miss the rows the
 * other is naming and leave a mix of both. Returns the listed ids without a score row in a
 * competition of the event, or null when the event does not exist.
 */
export async function lockEventAndFindForeignParticipants(
  tx: TxClient,
  eventId: number,
  participantIds: readonly number[],
): Promise<number[] | null> {
  const { rows } = await tx.query<{ foreignIds: number[] }>(
    `SELECT ARRAY(
              SELECT listed.id FROM unnest($2::int[]) AS listed(id)
               WHERE NOT EXISTS (
                       SELECT 1 FROM ${tx.tables.wertungen} w
                         JOIN ${tx.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                        WHERE w.int_teilnehmerid = listed.id AND c.int_veranstaltungenid = e.int_veranstaltungenid)
               ORDER BY listed.id) AS "foreignIds"
       FROM ${tx.tables.veranstaltungen} e
      WHERE e.int_veranstaltungenid = $1
        FOR NO KEY UPDATE OF e`,
    [eventId, participantIds],
  );
  return rows[0]?.foreignIds ?? null;
}

/** Every score row of every competition of the event, group and team rows included (spec rule). */
export async function clearEventSquadNames(tx: TxClient, eventId: number): Promise<void> {
  await tx.query(
    `UPDATE ${tx.tables.wertungen} w SET var_riege = NULL
       FROM ${tx.tables.wettkaempfe} c
      WHERE c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1 AND w.var_riege IS NOT NULL`,
    [eventId],
  );
}

/** All squads in one statement: the pairs travel as two parallel arrays. */
export async function setSquadNames(
  tx: TxClient,
  eventId: number,
  participantIds: readonly number[],
  names: readonly string[],
): Promise<void> {
  await tx.query(
    `UPDATE ${tx.tables.wertungen} w SET var_riege = a.name
       FROM unnest($2::int[], $3::text[]) AS a(participant_id, name), ${tx.tables.wettkaempfe} c
      WHERE w.int_teilnehmerid = a.participant_id
        AND c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1`,
    [eventId, participantIds, names],
  );
}

/**
 * POST /api/squad-management/auto-assign/apply. A squad exists in the legacy layout only as the
 * name on score rows, so `squadsCreated` counts the squads that got at least one participant;
 * empty ones (the break squads of a proposal) are accepted and leave no trace.
 */
export async function applySquads(tx: TxClient, input: ApplySquadsInput): Promise<ApplySquadsResult> {
  const { participantIds, names } = flattenAssignments(input.squads);
  const foreignIds = await lockEventAndFindForeignParticipants(tx, input.eventId, participantIds);
  if (foreignIds === null) throw notFound(`event ${input.eventId} not found`);
  checkForeignParticipants(input.eventId, foreignIds);
  if (input.clearExisting) await clearEventSquadNames(tx, input.eventId);
  await setSquadNames(tx, input.eventId, participantIds, names);
  const created = squadsCreated(input.squads);
  await appendOutboxEvent(tx, squadsApplied(input.eventId, created));
  return { eventId: input.eventId, squadsCreated: created, participantsAssigned: participantIds.length };
}
