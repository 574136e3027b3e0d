import type { Queryable } from '../src/db/pool.js';
import { DEFAULT_AGE_RULE, isAgeRule, type AgeRule } from '../src/domain/age.js';
import {
  DEFAULT_RANK_NOTATION,
  DEFAULT_TIE_BREAK,
  isRankNotation,
  isTieBreakRule,
  type RankNotation,
  type TieBreakRule,
} from '../src/domain/all-around.js';
import { DEFAULT_APPARATUS_TIE_BREAK, isApparatusTieBreak, type ApparatusTieBreak } from '../src/domain/apparatus-ranking.js';
import { SQUAD_CRITERIA_DEFAULTS, type SquadCriteria } from '../src/domain/squad-planner.js';

export interface SquadAutoAssignSetting extends SquadCriteria {
  description: string;
}

export interface ScoreCaptureSetting {
  /** Client setting of the spec: field-level jury results instead of the single legacy value. */
  useJuryResults: boolean;
}

export interface AgeRuleSetting {
  description: string;
  /** How ages are counted for age classes and squad age categories (`src/domain/age.ts`). */
  rule: AgeRule;
}

export interface CompetitionResultsSetting {
  tieBreak?: TieBreakRule;
  /** Ties on one apparatus: `shared` or `e-then-d`. */
  apparatusTieBreak?: ApparatusTieBreak;
  ageClassRanges?: string;
  rankNotation?: RankNotation;
  /** `drop-lowest`: the most scores dropped; absent: all but one. */
  maxDrops?: number;
  /** `apparatus-order`: discipline ids, compared in this order. */
  apparatusOrder?: number[];
}

export interface ResultsSetting {
  description: string;
  /** Age classes of the result lists, in the squad settings' range format. */
  ageClassRanges: string;
  /** Tie-break rule of competitions without one of their own. */
  tieBreak: TieBreakRule;
  /** Apparatus tie-break rule of competitions without one of their own (absent in settings stored before it existed). */
  apparatusTieBreak?: ApparatusTieBreak;
  /** Per competition id (as a string key): its own tie-break rule and/or age classes. */
  competitions: Record<string, CompetitionResultsSetting>;
}

export interface AppSettings {
  squadAutoAssign: SquadAutoAssignSetting;
  scoreCapture: ScoreCaptureSetting;
  ageRule: AgeRuleSetting;
  results: ResultsSetting;
}

export type AppSettingKey = keyof AppSettings;

export const APP_SETTING_DEFAULTS: Readonly<AppSettings> = Object.freeze({
  squadAutoAssign: { description: 'Default criteria that pre-fill the automatic squad assignment dialog', ...SQUAD_CRITERIA_DEFAULTS },
  scoreCapture: { useJuryResults: true },
  ageRule: {
    description:
      'Age for age classes and squad age categories: birth-year (event year minus birth year, FIG/DTB) or exact (completed years on the start date)',
    rule: DEFAULT_AGE_RULE,
  },
  results: {
    description:
      'Result lists: age classes (range format as in squadAutoAssign) and tie-break rule (none, best-device-scores, drop-lowest, apparatus-order), apparatus tie-break rule (shared, e-then-d), with per-competition overrides and rank notation',
    ageClassRanges: SQUAD_CRITERIA_DEFAULTS.ageCategoryRanges,
    tieBreak: DEFAULT_TIE_BREAK,
    apparatusTieBreak: DEFAULT_APPARATUS_TIE_BREAK,
    competitions: {},
  },
});

export function isAppSettingKey(key: string): key is AppSettingKey {
  return Object.hasOwn(APP_SETTING_DEFAULTS, key);
}

/**
 * Reads a setting, storing its defaults on first read. The defaults live here in code rather than
 * in a seeding migration so the planner's constants stay their only source. Stored keys win and
 * missing ones fall back to the defaults, so a setting stored before a criterion existed still has
 * every field. Once stored, a read is one plain SELECT. A public instance's sessions are read-only
 * (a logical replica): there a setting the hall has not stored reads as the defaults, and the
 * insert those sessions would refuse, with an error in the replica's log, is never sent.
 */
export async function readAppSetting<K extends AppSettingKey>(db: Queryable, key: K): Promise<AppSettings[K]> {
  type Row = { value: Partial<AppSettings[K]> | null };
  const defaults = APP_SETTING_DEFAULTS[key];
  const select = `SELECT value FROM ${db.tables.svc_settings} WHERE key = $1`;
  const {
    rows: [stored],
  } = await db.query<Row & { read_only: boolean }>(
    `SELECT (${select}) AS value, current_setting('transaction_read_only') = 'on' AS read_only`,
    [key],
  );
  let value = stored?.value ?? null;
  if (value === null && stored?.read_only === false) {
    // The outer SELECT's snapshot does not see the CTE's insert, hence the UNION.
    const seeded = await db.query<Row>(
      `WITH seeded AS (
         INSERT INTO ${db.tables.svc_settings} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING value
       )
       SELECT value FROM seeded
        UNION ALL
       ${select}`,
      [key, JSON.stringify(defaults)],
    );
    // No row only when a concurrent first read inserted after this statement's snapshot was taken.
    value = seeded.rows[0]?.value ?? null;
  }
  return { ...defaults, ...value };
}

/** The age rule in force; a stored value that is not a known rule counts as the default. */
export async function readAgeRule(db: Queryable): Promise<AgeRule> {
  const { rule } = await readAppSetting(db, 'ageRule');
  return isAgeRule(rule) ? rule : DEFAULT_AGE_RULE;
}

export interface CompetitionRanking {
  tieBreak: TieBreakRule;
  apparatusTieBreak: ApparatusTieBreak;
  ageClassRanges: string;
  rankNotation: RankNotation;
  maxDrops: number | null;
  apparatusOrder: number[];
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1;

/** The tie-break rules and age classes of one competition: its own entry, else the general ones. */
export function competitionRanking(setting: ResultsSetting, competitionId: number | null): CompetitionRanking {
  // null: the general rules (a ranking across competitions).
  const own =
    competitionId !== null && typeof setting.competitions === 'object' && setting.competitions !== null
      ? setting.competitions[String(competitionId)]
      : undefined;
  const tieBreak = own?.tieBreak ?? setting.tieBreak;
  const apparatusTieBreak = own?.apparatusTieBreak ?? setting.apparatusTieBreak;
  const ranges = own?.ageClassRanges ?? setting.ageClassRanges;
  const order = own?.apparatusOrder;
  return {
    tieBreak: isTieBreakRule(tieBreak) ? tieBreak : DEFAULT_TIE_BREAK,
    apparatusTieBreak: isApparatusTieBreak(apparatusTieBreak) ? apparatusTieBreak : DEFAULT_APPARATUS_TIE_BREAK,
    ageClassRanges: typeof ranges === 'string' ? ranges : APP_SETTING_DEFAULTS.results.ageClassRanges,
    rankNotation: isRankNotation(own?.rankNotation) ? own.rankNotation : DEFAULT_RANK_NOTATION,
    maxDrops: isCount(own?.maxDrops) ? own.maxDrops : null,
    apparatusOrder: Array.isArray(order) ? order.filter(isCount) : [],
  };
}
