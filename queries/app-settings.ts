import type { Queryable } from '../src/db/pool.js';
import { t } from '../src/db/tables.js';
import { SQUAD_CRITERIA_DEFAULTS, type SquadCriteria } from '../src/domain/squad-planner.js';

export interface SquadAutoAssignSetting extends SquadCriteria {
  description: string;
}

export interface ScoreCaptureSetting {
  /** Client setting of the spec: field-level jury results instead of the single legacy value. */
  useJuryResults: boolean;
}

export interface AppSettings {
  squadAutoAssign: SquadAutoAssignSetting;
  scoreCapture: ScoreCaptureSetting;
}

export type AppSettingKey = keyof AppSettings;

export const APP_SETTING_DEFAULTS: Readonly<AppSettings> = Object.freeze({
  squadAutoAssign: { description: 'Default criteria that pre-fill the automatic squad assignment dialog', ...SQUAD_CRITERIA_DEFAULTS },
  scoreCapture: { useJuryResults: true },
});

export function isAppSettingKey(key: string): key is AppSettingKey {
  return Object.hasOwn(APP_SETTING_DEFAULTS, key);
}

/**
 * Reads a setting, storing its defaults on first read. The defaults live here in code rather than
 * in a seeding migration so the planner's constants stay their only source. Both branches run in
 * one statement: the outer SELECT's snapshot does not see the CTE's insert, hence the UNION.
 * Stored keys win and missing ones fall back to the defaults, so a setting stored before a
 * criterion existed still has every field.
 */
export async function readAppSetting<K extends AppSettingKey>(db: Queryable, key: K): Promise<AppSettings[K]> {
  const defaults = APP_SETTING_DEFAULTS[key];
  const { rows } = await db.query<{ value: Partial<AppSettings[K]> }>(
    `WITH seeded AS (
       INSERT INTO ${t('svc_settings')} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value
     )
     SELECT value FROM seeded
      UNION ALL
     SELECT value FROM ${t('svc_settings')} WHERE key = $1`,
    [key, JSON.stringify(defaults)],
  );
  // No row only when a concurrent first read inserted after this statement's snapshot was taken.
  return { ...defaults, ...rows[0]?.value };
}
