/**
 * The squad page's edits by hand (admin): move a gymnast to another squad (or none), create a squad
 * with its first gymnasts, rename and delete a squad. A squad lives only as the name on score rows,
 * so each edit is one UPDATE of the event's rows under the event's lock (as an apply takes it), and
 * one record in the squad audit.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { insertSquadAudit, lockEventSquads } from './apply-squads.js';
import { decideSquadEdit, type SquadEdit, type SquadUpdate } from './squads-decision.js';

export interface SquadEditResult {
  eventId: number;
  action: SquadEdit['action'];
  /** The squad the edit named (rename, delete) or gave (move, create); null: moved out of every squad. */
  squadName: string | null;
  /** Score rows whose squad name changed. */
  rowsChanged: number;
}

/** A gymnast's every score row in the event, or every row naming the squad (blank-padded names included). */
async function updateSquadNames(tx: TxClient, eventId: number, update: SquadUpdate): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE ${tx.tables.wertungen} w SET var_riege = $4
       FROM ${tx.tables.wettkaempfe} c
      WHERE c.int_wettkaempfeid = w.int_wettkaempfeid AND c.int_veranstaltungenid = $1
        AND (w.int_teilnehmerid = ANY($2::int[]) OR btrim(w.var_riege) = $3)
        AND w.var_riege IS DISTINCT FROM $4`,
    [eventId, update.participantIds, update.squad, update.to],
  );
  return rowCount ?? 0;
}

export async function editSquads(tx: TxClient, eventId: number, edit: SquadEdit, actor: string | null): Promise<SquadEditResult> {
  const listed = edit.action === 'move' ? [edit.participantId] : edit.action === 'create' ? edit.participantIds : [];
  const locked = await lockEventSquads(tx, eventId, listed);
  if (locked === null) throw notFound(`event ${eventId} not found`);
  const update = decideSquadEdit(edit, eventId, locked);
  const rowsChanged = await updateSquadNames(tx, eventId, update);
  const renamed = edit.action === 'rename';
  await insertSquadAudit(tx, {
    eventId,
    actor,
    action: edit.action,
    squadName: renamed || edit.action === 'delete' ? update.squad : null,
    newName: update.to,
    participantIds: update.participantIds,
    rowsChanged,
  });
  return { eventId, action: edit.action, squadName: renamed ? update.to : (update.squad ?? update.to), rowsChanged };
}
