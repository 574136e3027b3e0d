/**
 * PUT /api/groups/:groupId/members: replaces the stored member list of a group with the given
 * participants, in that order. The group row is locked first, so two offices saving at once end
 * with one of the two lists whole, never a mix. A member is a participant of the group's event
 * entered as a group member (`var_typ` Gruppe), as the candidate list offers them.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { GROUP_PARTICIPANT_TYPE } from '../src/model/participant-types.js';

interface RequestedParticipant {
  id: number;
  ofGroupEvent: boolean;
  groupEntry: boolean;
}

/** Why the list cannot be stored, naming the offending ids; null when it can. */
export function memberListProblem(requested: readonly number[], found: readonly RequestedParticipant[]): string | null {
  const byId = new Map(found.map((participant) => [participant.id, participant]));
  const offending = (test: (participant: RequestedParticipant | undefined) => boolean) => requested.filter((id) => test(byId.get(id)));
  const unknown = offending((participant) => participant === undefined);
  if (unknown.length > 0) return `body.participantIds names unknown participants: ${unknown.join(', ')}`;
  const otherEvent = offending((participant) => !participant!.ofGroupEvent);
  if (otherEvent.length > 0) return `body.participantIds names participants of another event than the group's: ${otherEvent.join(', ')}`;
  const notEntries = offending((participant) => !participant!.groupEntry);
  if (notEntries.length > 0)
    return `body.participantIds names participants not entered as group members (var_typ ${GROUP_PARTICIPANT_TYPE}): ${notEntries.join(', ')}`;
  return null;
}

export async function replaceGroupMembers(tx: TxClient, groupId: number, participantIds: readonly number[]): Promise<void> {
  const unique = [...new Set(participantIds)];
  if (unique.length !== participantIds.length) throw validationFailed('body.participantIds must not name a participant twice');
  const group = await tx.query(`SELECT 1 FROM ${tx.tables.gruppen} WHERE int_gruppenid = $1 FOR UPDATE`, [groupId]);
  if (group.rowCount === 0) throw notFound(`group ${groupId} not found`);
  const found = await tx.query<RequestedParticipant>(
    `SELECT p.int_teilnehmerid AS id, p.int_eventid IS NOT DISTINCT FROM g.int_veranstaltungenid AS "ofGroupEvent",
            p.var_typ IS NOT DISTINCT FROM $3 AS "groupEntry"
       FROM ${tx.tables.teilnehmer} p, ${tx.tables.gruppen} g
      WHERE p.int_teilnehmerid = ANY($1::int[]) AND g.int_gruppenid = $2`,
    [unique, groupId, GROUP_PARTICIPANT_TYPE],
  );
  const problem = memberListProblem(unique, found.rows);
  if (problem !== null) throw validationFailed(problem);
  await tx.query(`DELETE FROM ${tx.tables.svc_group_members} WHERE group_id = $1`, [groupId]);
  if (unique.length === 0) return;
  await tx.query(
    `INSERT INTO ${tx.tables.svc_group_members} (group_id, participant_id, position)
     SELECT $1, id, ord::int FROM unnest($2::int[]) WITH ORDINALITY AS i(id, ord)`,
    [groupId, unique],
  );
}
