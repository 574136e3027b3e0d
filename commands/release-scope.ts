/**
 * POST/DELETE /api/releases: the head judge releases a device (discipline) of a competition, for
 * every squad or one squad, and reopens it. While released, API writes into the scope are refused
 * by the audit trigger unless the caller is head or admin (migration 0008); desktop writes are
 * stored and flagged. A `release-changed` event tells consoles and scoreboards.
 *
 * The change takes the competition's release lock exclusively (migration 0020): API writes into the
 * competition hold it shared from their release check to their commit, so a write in flight commits
 * before the release does, and one that comes later waits for it and then sees it.
 */
import type { TxClient } from '../src/db/pool.js';
import { RELEASE_SCOPE_LOCK_CLASS } from '../src/db/advisory-locks.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { releaseChanged } from '../outbox/events.js';
import { eventOfReleaseScope, releaseStateOf, type ReleaseScope, type ReleaseState } from './release-decision.js';

export type { ReleaseScope, ReleaseState } from './release-decision.js';

interface ScopeRow {
  event_id: number | null;
  discipline_found: boolean;
}

/** Also takes the competition's release lock, exclusive, until the commit. */
export async function lockReleaseScope(tx: TxClient, scope: ReleaseScope): Promise<ScopeRow> {
  const { rows } = await tx.query<ScopeRow>(
    `SELECT (SELECT int_veranstaltungenid FROM ${tx.tables.wettkaempfe} WHERE int_wettkaempfeid = $1) AS event_id,
            EXISTS (SELECT 1 FROM ${tx.tables.disziplinen} WHERE int_disziplinenid = $2) AS discipline_found
       FROM (SELECT pg_advisory_xact_lock($3, $1)) AS locked`,
    [scope.competitionId, scope.disciplineId, RELEASE_SCOPE_LOCK_CLASS],
  );
  return rows[0]!;
}

export async function insertRelease(tx: TxClient, scope: ReleaseScope, actor: string): Promise<void> {
  await tx.query(
    `INSERT INTO ${tx.tables.svc_releases} (competition_id, discipline_id, squad_name, released_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (competition_id, discipline_id, squad_name) DO NOTHING`,
    [scope.competitionId, scope.disciplineId, scope.squadName ?? '', actor],
  );
}

export async function deleteRelease(tx: TxClient, scope: ReleaseScope): Promise<void> {
  await tx.query(`DELETE FROM ${tx.tables.svc_releases} WHERE competition_id = $1 AND discipline_id = $2 AND squad_name = $3`, [
    scope.competitionId,
    scope.disciplineId,
    scope.squadName ?? '',
  ]);
}

/** The effective state: the scope's own release, else (for a squad) its device's. */
export async function selectReleaseState(tx: TxClient, scope: ReleaseScope): Promise<ReleaseState> {
  const { rows } = await tx.query<{ released_at: string | null; released_by: string | null }>(
    `SELECT to_char(r.released_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS released_at, r.released_by
       FROM ${tx.tables.svc_releases} r
      WHERE r.competition_id = $1 AND r.discipline_id = $2 AND r.squad_name IN ('', $3)
      ORDER BY r.squad_name DESC LIMIT 1`,
    [scope.competitionId, scope.disciplineId, scope.squadName ?? ''],
  );
  const row = rows[0];
  return releaseStateOf(scope, row === undefined ? null : { releasedAt: row.released_at, releasedBy: row.released_by });
}

export async function changeRelease(tx: TxClient, scope: ReleaseScope, release: boolean, actor: string): Promise<ReleaseState> {
  const found = await lockReleaseScope(tx, scope);
  const eventId = eventOfReleaseScope(scope, { eventId: found.event_id, disciplineFound: found.discipline_found });
  if (release) await insertRelease(tx, scope, actor);
  else await deleteRelease(tx, scope);
  const state = await selectReleaseState(tx, scope);
  await appendOutboxEvent(tx, releaseChanged(eventId, state, actor));
  return state;
}
