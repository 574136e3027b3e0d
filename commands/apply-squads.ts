import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { squadsApplied } from '../outbox/events.js';

export interface SquadAssignment {
  name: string;
  participantIds: number[];
}

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

/** How many offending ids a refusal names; the rest would only lengthen the message. */
const LISTED_IDS = 10;

/**
 * Checks what the schema cannot: names unique and not padded with blanks (" A" and "A" would look
 * alike on the squad page), every participant in one squad only. Returns the flat assignment.
 */
export function flattenAssignments(squads: readonly SquadAssignment[]): { participantIds: number[]; names: string[] } {
  const squadOfName = new Map<string, number>();
  const squadOfParticipant = new Map<number, number>();
  const participantIds: number[] = [];
  const names: string[] = [];
  squads.forEach((squad, index) => {
    if (squad.name.trim() !== squad.name) {
      throw validationFailed(`body.squads.${index}.name must not start or end with whitespace`);
    }
    const sameName = squadOfName.get(squad.name);
    if (sameName !== undefined) {
      throw validationFailed(`body.squads.${index}.name "${squad.name}" is already used by body.squads.${sameName}`);
    }
    squadOfName.set(squad.name, index);
    for (const participantId of squad.participantIds) {
      const other = squadOfParticipant.get(participantId);
      if (other !== undefined) {
        throw validationFailed(
          `body.squads.${index}.participantIds: participant ${participantId} is already listed in body.squads.${other}`,
        );
      }
      squadOfParticipant.set(participantId, index);
      participantIds.push(participantId);
      names.push(squad.name);
    }
  });
  return { participantIds, names };
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
  if (foreignIds.length > 0) {
    const listed = foreignIds.slice(0, LISTED_IDS).join(', ') + (foreignIds.length > LISTED_IDS ? ', ...' : '');
    throw validationFailed(`body.squads: participants without a score row in event ${input.eventId}: ${listed}`);
  }
  if (input.clearExisting) await clearEventSquadNames(tx, input.eventId);
  await setSquadNames(tx, input.eventId, participantIds, names);
  const squadsCreated = input.squads.filter((squad) => squad.participantIds.length > 0).length;
  await appendOutboxEvent(tx, squadsApplied(input.eventId, squadsCreated));
  return { eventId: input.eventId, squadsCreated, participantsAssigned: participantIds.length };
}
