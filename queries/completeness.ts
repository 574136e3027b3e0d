/**
 * What is still missing, per device (discipline) and squad of one competition. The legacy layout
 * links no discipline to a competition, so the devices are the one asked for, else every
 * discipline that holds a value (detail or jury result) of the competition's scores or has a
 * release in it, in the competition's order (its planned detail rows, as the results and the
 * boards have it; devices only a jury result or a release names come last). Every score row of
 * the competition is expected on every device (did-not-start rows are counted apart); a score is
 * scored on a device once its final (detail row of int_kp 0, or of the final field for group and
 * team rows) holds a value.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';

export interface CompletenessQuery {
  eventId: number;
  competitionId: number;
  disciplineId?: number | undefined;
  squadName?: string | undefined;
}

export interface Release {
  releasedAt: string;
  releasedBy: string;
}

export interface MissingEntry {
  scoreId: number;
  name: string | null;
  startNumber: string | null;
}

export interface SquadCompleteness {
  /** '' for score rows without a squad. */
  squadName: string;
  expected: number;
  scored: number;
  didNotStart: number;
  missing: MissingEntry[];
  /** Released for this squad or for the whole device; null when open. */
  release: Release | null;
}

export interface DeviceCompleteness {
  disciplineId: number;
  disciplineName: string | null;
  expected: number;
  scored: number;
  /** The release of the whole device (every squad), null when none. */
  release: Release | null;
  squads: SquadCompleteness[];
}

export interface Completeness {
  eventId: number;
  competitionId: number;
  devices: DeviceCompleteness[];
}

interface ScopeRow {
  competition_found: boolean;
  discipline_found: boolean;
  releases: Array<{ disciplineId: number; squadName: string; releasedAt: string; releasedBy: string }>;
}

export async function selectCompletenessScope(db: Queryable, query: CompletenessQuery): Promise<ScopeRow> {
  const { rows } = await db.query<ScopeRow>(
    `SELECT EXISTS (SELECT 1 FROM ${db.tables.wettkaempfe} WHERE int_wettkaempfeid = $2 AND int_veranstaltungenid = $1) AS competition_found,
            ($3::int IS NULL OR EXISTS (SELECT 1 FROM ${db.tables.disziplinen} WHERE int_disziplinenid = $3)) AS discipline_found,
            COALESCE((SELECT json_agg(json_build_object('disciplineId', r.discipline_id, 'squadName', r.squad_name,
                               'releasedAt', to_char(r.released_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'releasedBy', r.released_by))
                        FROM ${db.tables.svc_releases} r WHERE r.competition_id = $2), '[]'::json) AS releases`,
    [query.eventId, query.competitionId, query.disciplineId ?? null],
  );
  return rows[0]!;
}

interface EntryRow {
  discipline_id: number;
  discipline_name: string | null;
  squad: string;
  score_id: number;
  name: string | null;
  start_number: string | null;
  did_not_start: boolean;
  scored: boolean;
}

export async function selectCompletenessRows(db: Queryable, query: CompletenessQuery): Promise<EntryRow[]> {
  const { rows } = await db.query<EntryRow>(
    `WITH entries AS (
       SELECT w.int_wertungenid AS score_id, COALESCE(btrim(w.var_riege), '') AS squad,
              COALESCE(w.bol_startet_nicht, false) AS did_not_start,
              COALESCE(NULLIF(concat_ws(' ', p.var_vorname, p.var_nachname), ''), g.var_name, m.var_name) AS name,
              COALESCE(p.var_startnummer, w.int_startnummer::text) AS start_number
         FROM ${db.tables.wertungen} w
         LEFT JOIN ${db.tables.teilnehmer} p ON p.int_teilnehmerid = w.int_teilnehmerid
         LEFT JOIN ${db.tables.gruppen} g ON g.int_gruppenid = w.int_gruppenid
         LEFT JOIN ${db.tables.mannschaften} m ON m.int_mannschaftenid = w.int_mannschaftenid
        WHERE w.int_wettkaempfeid = $1 AND ($3::text IS NULL OR COALESCE(btrim(w.var_riege), '') = $3::text)
     ), planned AS (
       SELECT det.int_disziplinenid AS id, min(det.int_wertungen_detailsid) AS planned
         FROM ${db.tables.wertungen_details} det JOIN ${db.tables.wertungen} w ON w.int_wertungenid = det.int_wertungenid
        WHERE w.int_wettkaempfeid = $1
        GROUP BY det.int_disziplinenid
     ), devices AS (
       SELECT $2::int AS id WHERE $2::int IS NOT NULL
       UNION
       SELECT planned.id FROM planned WHERE $2::int IS NULL
       UNION
       SELECT f.int_disziplinenid FROM ${db.tables.jury_results} j
         JOIN ${db.tables.wertungen} w ON w.int_wertungenid = j.int_wertungenid
         JOIN ${db.tables.disziplinen_felder} f ON f.int_disziplinen_felderid = j.int_disziplinen_felderid
        WHERE $2::int IS NULL AND w.int_wettkaempfeid = $1
       UNION
       SELECT r.discipline_id FROM ${db.tables.svc_releases} r WHERE $2::int IS NULL AND r.competition_id = $1
     )
     SELECT dev.id AS discipline_id, d.var_name AS discipline_name, e.squad, e.score_id, e.name, e.start_number, e.did_not_start,
            EXISTS (SELECT 1 FROM ${db.tables.wertungen_details} det
                     WHERE det.int_wertungenid = e.score_id AND det.int_disziplinenid = dev.id AND det.rel_leistung IS NOT NULL
                       AND ${db.tables.svc_audit_detail_field}(dev.id, det.int_kp) IS NULL) AS scored
       FROM devices dev
       LEFT JOIN ${db.tables.disziplinen} d ON d.int_disziplinenid = dev.id
       LEFT JOIN planned ON planned.id = dev.id
       LEFT JOIN entries e ON true
      ORDER BY planned.planned NULLS LAST, d.var_name, dev.id, e.squad, e.name, e.score_id`,
    [query.competitionId, query.disciplineId ?? null, query.squadName ?? null],
  );
  return rows;
}

export async function loadCompleteness(db: Queryable, query: CompletenessQuery): Promise<Completeness> {
  const scope = await selectCompletenessScope(db, query);
  if (!scope.competition_found) throw notFound(`No competition ${query.competitionId} in event ${query.eventId}`);
  if (!scope.discipline_found) throw notFound(`No discipline ${query.disciplineId}`);
  const releaseOf = (disciplineId: number, squadName: string): Release | null => {
    const found = scope.releases.find((release) => release.disciplineId === disciplineId && release.squadName === squadName);
    return found ? { releasedAt: found.releasedAt, releasedBy: found.releasedBy } : null;
  };

  const devices = new Map<number, DeviceCompleteness>();
  const squads = new Map<string, SquadCompleteness>();
  for (const row of await selectCompletenessRows(db, query)) {
    let device = devices.get(row.discipline_id);
    if (!device) {
      device = {
        disciplineId: row.discipline_id,
        disciplineName: row.discipline_name,
        expected: 0,
        scored: 0,
        release: releaseOf(row.discipline_id, ''),
        squads: [],
      };
      devices.set(row.discipline_id, device);
    }
    if (row.score_id === null) continue; // a device without any score row in the competition
    const key = `${row.discipline_id}\u0000${row.squad}`;
    let squad = squads.get(key);
    if (!squad) {
      squad = {
        squadName: row.squad,
        expected: 0,
        scored: 0,
        didNotStart: 0,
        missing: [],
        release: device.release ?? releaseOf(row.discipline_id, row.squad),
      };
      squads.set(key, squad);
      device.squads.push(squad);
    }
    if (row.did_not_start) {
      squad.didNotStart += 1;
      continue;
    }
    squad.expected += 1;
    device.expected += 1;
    if (row.scored) {
      squad.scored += 1;
      device.scored += 1;
    } else {
      squad.missing.push({ scoreId: row.score_id, name: row.name, startNumber: row.start_number });
    }
  }
  return { eventId: query.eventId, competitionId: query.competitionId, devices: [...devices.values()] };
}
