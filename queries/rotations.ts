/**
 * Reads of an event's rotation plan (issue 45): the plan as stored, and the current rotation with
 * each apparatus' progress and the delay against the planned start. One statement each.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { delayMinutes, type Rotation } from '../src/domain/rotation-plan.js';

const isoUtc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface RotationPlan {
  eventId: number;
  rotations: Rotation[];
  currentRotation: number | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

interface PlanRow {
  event_found: boolean;
  rotations: Rotation[];
  current_rotation: number | null;
  current_started_at: string | null;
  updated_at: string | null;
  updated_by: string | null;
}

async function selectPlanRow(db: Queryable, eventId: number): Promise<PlanRow> {
  const { rows } = await db.query<PlanRow>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.veranstaltungen} WHERE int_veranstaltungenid = $1) AS event_found,
            COALESCE((SELECT json_agg(json_build_object(
                               'rotation', r.rotation, 'plannedStart', ${isoUtc('r.planned_start')},
                               'slots', COALESCE((SELECT json_agg(json_build_object('disciplineId', s.discipline_id, 'squadName', s.squad_name,
                                                                                    'judges', to_json(s.judges)) ORDER BY s.discipline_id)
                                                    FROM ${db.tables.svc_rotation_slots} s
                                                   WHERE s.event_id = r.event_id AND s.rotation = r.rotation), '[]'::json))
                               ORDER BY r.rotation)
                        FROM ${db.tables.svc_rotations} r WHERE r.event_id = $1), '[]'::json) AS rotations,
            p.current_rotation, ${isoUtc('p.current_started_at')} AS current_started_at,
            ${isoUtc('p.updated_at')} AS updated_at, p.updated_by
       FROM (SELECT 1) AS one
       LEFT JOIN ${db.tables.svc_rotation_plans} p ON p.event_id = $1`,
    [eventId],
  );
  const row = rows[0]!;
  if (!row.event_found) throw notFound(`No event ${eventId}`);
  return row;
}

/** The stored plan; an event without one has no rotations. */
export async function loadRotationPlan(db: Queryable, eventId: number): Promise<RotationPlan> {
  const row = await selectPlanRow(db, eventId);
  return {
    eventId,
    rotations: row.rotations,
    currentRotation: row.current_rotation,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

export interface ApparatusProgress {
  disciplineId: number;
  disciplineName: string | null;
  squadName: string;
  judges: string[];
  /** The squad's score rows in the event's competitions, did-not-start rows excepted. */
  expected: number;
  /** Of those, the ones whose final on this apparatus holds a value. */
  scored: number;
}

export interface CurrentRotation {
  eventId: number;
  /** Null while no rotation has been started. */
  current: null | {
    rotation: number;
    plannedStart: string;
    startedAt: string;
    delayMinutes: number;
    apparatus: ApparatusProgress[];
  };
  /** The rotations after the current one (all while none started) with their start shifted by the delay. */
  upcoming: Array<{ rotation: number; plannedStart: string; expectedStart: string }>;
}

interface ProgressRow {
  discipline_id: number;
  discipline_name: string | null;
  squad_name: string;
  judges: string[];
  expected: number;
  scored: number;
}

async function selectApparatusProgress(db: Queryable, eventId: number, rotation: number): Promise<ProgressRow[]> {
  const { rows } = await db.query<ProgressRow>(
    `SELECT s.discipline_id, COALESCE(d.var_anzeigename, d.var_name) AS discipline_name, s.squad_name, s.judges,
            count(w.int_wertungenid)::int AS expected,
            count(w.int_wertungenid) FILTER (WHERE EXISTS (
              SELECT 1 FROM ${db.tables.wertungen_details} det
               WHERE det.int_wertungenid = w.int_wertungenid AND det.int_disziplinenid = s.discipline_id AND det.rel_leistung IS NOT NULL
                 AND ${db.tables.svc_audit_detail_field}(s.discipline_id, det.int_kp) IS NULL))::int AS scored
       FROM ${db.tables.svc_rotation_slots} s
       LEFT JOIN ${db.tables.disziplinen} d ON d.int_disziplinenid = s.discipline_id
       LEFT JOIN ${db.tables.wettkaempfe} c ON c.int_veranstaltungenid = s.event_id
       LEFT JOIN ${db.tables.wertungen} w
              ON w.int_wettkaempfeid = c.int_wettkaempfeid AND btrim(w.var_riege) = s.squad_name AND NOT COALESCE(w.bol_startet_nicht, false)
      WHERE s.event_id = $1 AND s.rotation = $2
      GROUP BY s.discipline_id, d.var_anzeigename, d.var_name, s.squad_name, s.judges
      ORDER BY s.discipline_id`,
    [eventId, rotation],
  );
  return rows;
}

export async function loadCurrentRotation(db: Queryable, eventId: number): Promise<CurrentRotation> {
  const plan = await selectPlanRow(db, eventId);
  const currentIndex = plan.rotations.findIndex((rotation) => rotation.rotation === plan.current_rotation);
  const started = currentIndex >= 0 && plan.current_started_at !== null ? plan.current_started_at : null;
  const delay = started === null ? 0 : delayMinutes(plan.rotations[currentIndex]!.plannedStart, started);
  const upcoming = plan.rotations.slice(currentIndex + 1).map((rotation) => ({
    rotation: rotation.rotation,
    plannedStart: rotation.plannedStart,
    expectedStart: new Date(Date.parse(rotation.plannedStart) + delay * 60_000).toISOString(),
  }));
  if (started === null) return { eventId, current: null, upcoming };
  const rotation = plan.rotations[currentIndex]!;
  const progress = await selectApparatusProgress(db, eventId, rotation.rotation);
  return {
    eventId,
    current: {
      rotation: rotation.rotation,
      plannedStart: rotation.plannedStart,
      startedAt: started,
      delayMinutes: delay,
      apparatus: progress.map((row) => ({
        disciplineId: row.discipline_id,
        disciplineName: row.discipline_name,
        squadName: row.squad_name,
        judges: row.judges,
        expected: row.expected,
        scored: row.scored,
      })),
    },
    upcoming,
  };
}
