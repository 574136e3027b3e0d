import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { squadsApplied } from '../outbox/events.js';
import { checkForeignParticipants, flattenAssignments, squadsCreated, type SquadAssignment } from './squads-decision.js';

export interface ApplySquadsInput {
  eventId: number;
  squads: SquadAssignment[];
  clearExisting: boolean;
  /** Not in the spec: the clear leaves the squad names of group and team score rows as they are. */
  keepGroupAndTeamSquads?: boolean | undefined;
}

export interface ApplySquadsResult {
  eventId: number;
  squadsCreated: number;
  participantsAssigned: number;
}

export interface LockedEvent {
  /** The listed ids without a score row in a competition of the event. */
  foreignIds: number[];
  /** The squad names the event's score rows carry now (blank ones count as none). */
  squads: string[];
}

/**
 * Locks the event row (NO KEY UPDATE: competitions can still be inserted under it) so two squad
 * changes of one event run one after the other; interleaved, the clear of an apply could miss the
 * rows another is naming and leave a mix of both. Null when the event does not exist.
 */
export async function lockEventSquads(tx: TxClient, eventId: number, participantIds: readonly number[]): Promise<LockedEvent | null> {
  const { rows } = await tx.query<LockedEvent>(
    `SELECT ARRAY(
              SELECT listed.id FROM unnest($2::int[]) AS listed(id)
               WHERE NOT EXISTS (
                       SELECT 1 FROM ${tx.tables.wertungen} w
                         JOIN ${tx.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
                        WHERE w.int_teilnehmerid = listed.id AND c.int_veranstaltungenid = e.int_veranstaltungenid)
               ORDER BY listed.id) AS "foreignIds",
            ARRAY(
              SELECT DISTINCT btrim(w.var_riege) FROM ${tx.tables.wertungen} w
                JOIN ${tx.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
               WHERE c.int_veranstaltungenid = e.int_veranstaltungenid AND btrim(w.var_riege) <> ''
               ORDER BY 1) AS squads
       FROM ${tx.tables.veranstaltungen} e
      WHERE e.int_veranstaltungenid = $1
        FOR NO KEY UPDATE OF e`,
    [eventId, participantIds],
  );
  return rows[0] ?? null;
}

/** Every score row of every competition of the event (spec rule), or only the individual ones with `keepGroupAndTeam`. */
export async function clearEventSquadNames(tx: TxClient, eventId: number, keepGroupAndTeam: boolean): Promise<void> {
  await tx.query(
    `UPDATE ${tx.tables.wertungen} w SET var_riege = NULL
       FROM ${tx.tables.wettkaempfe} c
      WHERE c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1 AND w.var_riege IS NOT NULL
        AND NOT ($2 AND (w.int_gruppenid IS NOT NULL OR w.int_mannschaftenid IS NOT NULL))`,
    [eventId, keepGroupAndTeam],
  );
}

/** One record of the squad audit (`svc_squad_audit`, migration 0022). */
export async function insertSquadAudit(
  tx: TxClient,
  record: {
    eventId: number;
    actor: string | null;
    action: 'apply' | 'move' | 'create' | 'rename' | 'delete';
    squadName: string | null;
    newName: string | null;
    participantIds: readonly number[];
    rowsChanged: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO ${tx.tables.svc_squad_audit} (event_id, actor, action, squad_name, new_name, participant_ids, rows_changed)
     VALUES ($1, $2, $3, $4, $5, $6::int[], $7)`,
    [record.eventId, record.actor, record.action, record.squadName, record.newName, record.participantIds, record.rowsChanged],
  );
}

/** All squads in one statement: the pairs travel as two parallel arrays. */
export async function setSquadNames(
  tx: TxClient,
  eventId: number,
  participantIds: readonly number[],
  names: readonly string[],
): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE ${tx.tables.wertungen} w SET var_riege = a.name
       FROM unnest($2::int[], $3::text[]) AS a(participant_id, name), ${tx.tables.wettkaempfe} c
      WHERE w.int_teilnehmerid = a.participant_id
        AND c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1`,
    [eventId, participantIds, names],
  );
  return rowCount ?? 0;
}

/**
 * POST /api/squad-management/auto-assign/apply. A squad exists in the legacy layout only as the
 * name on score rows, so `squadsCreated` counts the squads that got at least one participant;
 * empty ones (the break squads of a proposal) are accepted and leave no trace.
 */
export async function applySquads(tx: TxClient, input: ApplySquadsInput, actor: string | null): Promise<ApplySquadsResult> {
  const { participantIds, names } = flattenAssignments(input.squads);
  const locked = await lockEventSquads(tx, input.eventId, participantIds);
  if (locked === null) throw notFound(`event ${input.eventId} not found`);
  checkForeignParticipants(input.eventId, locked.foreignIds);
  if (input.clearExisting) await clearEventSquadNames(tx, input.eventId, input.keepGroupAndTeamSquads === true);
  const rowsChanged = await setSquadNames(tx, input.eventId, participantIds, names);
  const created = squadsCreated(input.squads);
  await insertSquadAudit(tx, {
    eventId: input.eventId,
    actor,
    action: 'apply',
    squadName: null,
    newName: null,
    participantIds,
    rowsChanged,
  });
  await appendOutboxEvent(tx, squadsApplied(input.eventId, created));
  return { eventId: input.eventId, squadsCreated: created, participantsAssigned: participantIds.length };
}
