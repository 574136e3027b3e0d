/**
 * A judge credential as the API shows it (issue 45), read by the commands that issue and revoke
 * one and by the list query, from the same SQL.
 */
import type { Tables } from '../db/tables.js';

export interface JudgeCredential {
  id: number;
  eventId: number;
  competitionId: number | null;
  disciplineId: number;
  disciplineName: string | null;
  /** The E-judge field the credential is limited to; null: the whole apparatus. */
  fieldId: number | null;
  judgeName: string;
  issuedAt: string;
  issuedBy: string;
  expiresAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  /** Not revoked and not expired. */
  active: boolean;
  /** The squad on the apparatus in the current rotation (the first while none started), null without a plan. */
  squadName: string | null;
}

const isoUtc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The JSON of credential row `k` (table alias), for a SELECT or RETURNING list. */
export function judgeCredentialJson(tables: Tables, k: string): string {
  return `json_build_object(
    'id', ${k}.id, 'eventId', ${k}.event_id, 'competitionId', ${k}.competition_id, 'disciplineId', ${k}.discipline_id,
    'disciplineName', (SELECT COALESCE(d.var_anzeigename, d.var_name) FROM ${tables.disziplinen} d WHERE d.int_disziplinenid = ${k}.discipline_id),
    'fieldId', ${k}.field_id, 'judgeName', ${k}.judge_name, 'issuedAt', ${isoUtc(`${k}.issued_at`)}, 'issuedBy', ${k}.issued_by,
    'expiresAt', ${isoUtc(`${k}.expires_at`)}, 'revokedAt', ${isoUtc(`${k}.revoked_at`)}, 'revokedBy', ${k}.revoked_by,
    'active', ${k}.revoked_at IS NULL AND ${k}.expires_at > now(),
    'squadName', (SELECT s.squad_name
                    FROM ${tables.svc_rotation_slots} s
                    LEFT JOIN ${tables.svc_rotation_plans} p ON p.event_id = s.event_id
                   WHERE s.event_id = ${k}.event_id AND s.discipline_id = ${k}.discipline_id
                   ORDER BY s.rotation = p.current_rotation DESC NULLS LAST, s.rotation LIMIT 1))`;
}
