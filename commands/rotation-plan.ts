/**
 * PUT /api/events/:eventId/rotation-plan and POST /api/events/:eventId/rotations/current (issue 45):
 * store an event's rotation plan as a whole, and start one of its rotations. A plan is checked
 * against the event's apparatus and squads before anything is written; a start appends one
 * `rotation-changed` event, none when the rotation already is the current one.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { delayMinutes, rotationPlanProblems, type Rotation } from '../src/domain/rotation-plan.js';
import { selectRotationScope } from '../src/model/rotation-scope.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { rotationChanged } from '../outbox/events.js';

export async function replaceRotationPlan(tx: TxClient, eventId: number, rotations: readonly Rotation[], actor: string): Promise<void> {
  const scope = await selectRotationScope(tx, eventId);
  if (!scope.eventFound) throw notFound(`No event ${eventId}`);
  const problems = rotationPlanProblems(rotations, { disciplineIds: scope.disciplines.map((d) => d.id), squadNames: scope.squadNames });
  if (problems.length > 0) throw validationFailed(problems.join('; '));
  const slots = rotations.flatMap((rotation) => rotation.slots.map((slot) => ({ rotation: rotation.rotation, ...slot })));
  // The current rotation stays current while the new plan still has it.
  await tx.query(
    `INSERT INTO ${tx.tables.svc_rotation_plans} AS p (event_id, updated_by) VALUES ($1, $2)
     ON CONFLICT (event_id) DO UPDATE
        SET updated_at = now(), updated_by = EXCLUDED.updated_by,
            current_rotation = CASE WHEN p.current_rotation = ANY ($3::int[]) THEN p.current_rotation END,
            current_started_at = CASE WHEN p.current_rotation = ANY ($3::int[]) THEN p.current_started_at END,
            current_started_by = CASE WHEN p.current_rotation = ANY ($3::int[]) THEN p.current_started_by END`,
    [eventId, actor, rotations.map((rotation) => rotation.rotation)],
  );
  await tx.query(`DELETE FROM ${tx.tables.svc_rotations} WHERE event_id = $1`, [eventId]);
  await tx.query(
    `INSERT INTO ${tx.tables.svc_rotations} (event_id, rotation, planned_start)
     SELECT $1, rotation, planned_start FROM unnest($2::int[], $3::timestamptz[]) AS r (rotation, planned_start)`,
    [eventId, rotations.map((rotation) => rotation.rotation), rotations.map((rotation) => rotation.plannedStart)],
  );
  await tx.query(
    `INSERT INTO ${tx.tables.svc_rotation_slots} (event_id, rotation, discipline_id, squad_name, judges)
     SELECT $1, s.rotation, s.discipline_id, s.squad_name, ARRAY(SELECT json_array_elements_text(s.judges))
       FROM unnest($2::int[], $3::int[], $4::text[], $5::json[]) AS s (rotation, discipline_id, squad_name, judges)`,
    [
      eventId,
      slots.map((slot) => slot.rotation),
      slots.map((slot) => slot.disciplineId),
      slots.map((slot) => slot.squadName),
      slots.map((slot) => JSON.stringify(slot.judges)),
    ],
  );
}

interface StartRow {
  previous: number | null;
  planned_start: string | null;
  started_at: string;
  apparatus: Array<{ disciplineId: number; squadName: string }> | null;
}

/** False when the rotation already was the current one: nothing changed, no event. */
export async function startRotation(tx: TxClient, eventId: number, rotation: number, actor: string): Promise<boolean> {
  // FOR UPDATE: two offices starting at once are ordered, and the second sees the first's start.
  const { rows } = await tx.query<StartRow>(
    `SELECT p.current_rotation AS previous,
            to_char(r.planned_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS planned_start,
            to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
            (SELECT json_agg(json_build_object('disciplineId', s.discipline_id, 'squadName', s.squad_name) ORDER BY s.discipline_id)
               FROM ${tx.tables.svc_rotation_slots} s WHERE s.event_id = p.event_id AND s.rotation = $2) AS apparatus
       FROM ${tx.tables.svc_rotation_plans} p
       LEFT JOIN ${tx.tables.svc_rotations} r ON r.event_id = p.event_id AND r.rotation = $2
      WHERE p.event_id = $1
        FOR UPDATE OF p`,
    [eventId, rotation],
  );
  const row = rows[0];
  if (row === undefined) throw notFound(`Event ${eventId} has no rotation plan`);
  if (row.planned_start === null) throw validationFailed(`body.rotation: event ${eventId} plans no rotation ${rotation}`);
  if (row.previous === rotation) return false;
  await tx.query(
    `UPDATE ${tx.tables.svc_rotation_plans} SET current_rotation = $2, current_started_at = $3, current_started_by = $4 WHERE event_id = $1`,
    [eventId, rotation, row.started_at, actor],
  );
  await appendOutboxEvent(
    tx,
    rotationChanged({
      eventId,
      rotation,
      previousRotation: row.previous,
      plannedStart: row.planned_start,
      startedAt: row.started_at,
      delayMinutes: delayMinutes(row.planned_start, row.started_at),
      apparatus: row.apparatus ?? [],
      by: actor,
    }),
  );
  return true;
}
