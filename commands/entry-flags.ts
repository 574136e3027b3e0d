/**
 * Did not start (`bol_startet_nicht`) and out of competition (`bol_ak`) of one individual score row,
 * set from the office (admin) in the legacy columns the desktop program reads. A change is audited
 * and announced (`participants-changed`), so boards re-rank; setting a flag to what it is changes
 * nothing and announces nothing.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { participantsChanged } from '../outbox/events.js';
import { insertParticipantAudit } from './enter-registrations.js';

export interface EntryFlags {
  didNotStart?: boolean | undefined;
  outOfCompetition?: boolean | undefined;
}

export interface EntryFlagsResult {
  scoreId: number;
  participantId: number;
  didNotStart: boolean;
  outOfCompetition: boolean;
  changed: boolean;
}

interface FlagRow {
  participant_id: number;
  old_dns: boolean;
  old_ak: boolean;
  did_not_start: boolean;
  out_of_competition: boolean;
}

/** Updates only when a flag differs; answers the row's flags before and after. */
async function updateFlags(tx: TxClient, eventId: number, scoreId: number, flags: EntryFlags): Promise<FlagRow | null> {
  const { rows } = await tx.query<FlagRow>(
    `WITH target AS (
       SELECT w.int_wertungenid, w.int_teilnehmerid, COALESCE(w.bol_startet_nicht, false) AS old_dns, COALESCE(w.bol_ak, false) AS old_ak
         FROM ${tx.tables.wertungen} w JOIN ${tx.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
        WHERE w.int_wertungenid = $2 AND c.int_veranstaltungenid = $1 AND w.int_teilnehmerid IS NOT NULL
          FOR UPDATE OF w
     ), updated AS (
       UPDATE ${tx.tables.wertungen} w
          SET bol_startet_nicht = COALESCE($3, t.old_dns), bol_ak = COALESCE($4, t.old_ak)
         FROM target t
        WHERE w.int_wertungenid = t.int_wertungenid
          AND (COALESCE($3, t.old_dns) IS DISTINCT FROM w.bol_startet_nicht OR COALESCE($4, t.old_ak) IS DISTINCT FROM w.bol_ak)
       RETURNING w.int_wertungenid
     )
     SELECT t.int_teilnehmerid AS participant_id, t.old_dns, t.old_ak,
            COALESCE($3, t.old_dns) AS did_not_start, COALESCE($4, t.old_ak) AS out_of_competition
       FROM target t`,
    [eventId, scoreId, flags.didNotStart ?? null, flags.outOfCompetition ?? null],
  );
  return rows[0] ?? null;
}

export async function setEntryFlags(
  tx: TxClient,
  eventId: number,
  scoreId: number,
  flags: EntryFlags,
  actor: string,
): Promise<EntryFlagsResult> {
  const row = await updateFlags(tx, eventId, scoreId, flags);
  if (row === null) throw notFound(`No individual score row ${scoreId} in event ${eventId}`);
  const changes = [
    ...(row.did_not_start !== row.old_dns ? [{ action: 'did-not-start' as const, value: row.did_not_start }] : []),
    ...(row.out_of_competition !== row.old_ak ? [{ action: 'out-of-competition' as const, value: row.out_of_competition }] : []),
  ];
  for (const change of changes)
    await insertParticipantAudit(tx, {
      eventId,
      actor,
      action: change.action,
      participantIds: [row.participant_id],
      scoreIds: [scoreId],
      details: { value: change.value },
    });
  if (changes.length > 0) void appendOutboxEvent(tx, participantsChanged({ eventId, change: 'flags', scoreIds: [scoreId], by: actor }));
  return {
    scoreId,
    participantId: row.participant_id,
    didNotStart: row.did_not_start,
    outOfCompetition: row.out_of_competition,
    changed: changes.length > 0,
  };
}
