/** GET /api/groups/:groupId/members: the members the office stored for a group, in its order. */
import type { Queryable } from '../src/db/pool.js';

export interface GroupMember {
  id: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
}

/** Null when the group does not exist. */
export async function selectGroupMembers(db: Queryable, groupId: number): Promise<GroupMember[] | null> {
  const { rows } = await db.query<GroupMember & { group_found: boolean }>(
    `SELECT g.found AS group_found, p.int_teilnehmerid AS id, p.var_vorname AS "firstName", p.var_nachname AS "lastName",
            p.var_startnummer AS "startNumber", v.var_name AS "clubName"
       FROM (SELECT EXISTS (SELECT 1 FROM ${db.tables.gruppen} WHERE int_gruppenid = $1) AS found) g
       LEFT JOIN ${db.tables.svc_group_members} m ON m.group_id = $1
       LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = m.participant_id
       LEFT JOIN ${db.tables.vereine} v ON v.int_vereineid = p.int_vereineid
      ORDER BY m.position, m.participant_id`,
    [groupId],
  );
  if (!rows[0]?.group_found) return null;
  return rows
    .filter((row) => row.id !== null)
    .map(({ id, firstName, lastName, startNumber, clubName }) => ({ id, firstName, lastName, startNumber, clubName }));
}
