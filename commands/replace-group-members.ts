/**
 * PUT /api/groups/:groupId/members: replaces the stored member list of a group with the given
 * participants, in that order. The group row is locked first, so two offices saving at once end
 * with one of the two lists whole, never a mix.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';

export async function replaceGroupMembers(tx: TxClient, groupId: number, participantIds: readonly number[]): Promise<void> {
  const unique = [...new Set(participantIds)];
  if (unique.length !== participantIds.length) throw validationFailed('body.participantIds must not name a participant twice');
  const group = await tx.query(`SELECT 1 FROM ${tx.tables.gruppen} WHERE int_gruppenid = $1 FOR UPDATE`, [groupId]);
  if (group.rowCount === 0) throw notFound(`group ${groupId} not found`);
  const known = await tx.query<{ id: number }>(
    `SELECT int_teilnehmerid AS id FROM ${tx.tables.teilnehmer} WHERE int_teilnehmerid = ANY($1::int[])`,
    [unique],
  );
  const knownIds = new Set(known.rows.map((row) => row.id));
  const missing = unique.filter((id) => !knownIds.has(id));
  if (missing.length > 0) throw validationFailed(`body.participantIds names unknown participants: ${missing.join(', ')}`);
  await tx.query(`DELETE FROM ${tx.tables.svc_group_members} WHERE group_id = $1`, [groupId]);
  if (unique.length === 0) return;
  await tx.query(
    `INSERT INTO ${tx.tables.svc_group_members} (group_id, participant_id, position)
     SELECT $1, id, ord::int FROM unnest($2::int[]) WITH ORDINALITY AS i(id, ord)`,
    [groupId, unique],
  );
}
