import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { AGE_RULES } from '../../domain/age.js';
import { RANK_NOTATIONS, TIE_BREAK_RULES } from '../../domain/all-around.js';
import { APPARATUS_TIE_BREAKS } from '../../domain/apparatus-ranking.js';
import { APP_SETTING_DEFAULTS, isAppSettingKey, readAppSetting } from '../../../queries/app-settings.js';
import { notFound } from '../../domain/errors.js';
import { withErrors } from '../schemas/common.js';
import { SquadCriteriaSchema } from '../schemas/squads.js';

const SquadAutoAssignSettingSchema = Type.Composite([Type.Object({ description: Type.String() }), SquadCriteriaSchema], {
  description: 'squadAutoAssign: the defaults that pre-fill the auto-assign dialog',
});

const ScoreCaptureSettingSchema = Type.Object(
  { useJuryResults: Type.Boolean() },
  { description: 'scoreCapture: field-level jury results (true) or the single legacy value' },
);

const AgeRuleSchema = Type.Union(AGE_RULES.map((rule) => Type.Literal(rule)));
const TieBreakSchema = Type.Union(TIE_BREAK_RULES.map((rule) => Type.Literal(rule)));
const ApparatusTieBreakSchema = Type.Union(APPARATUS_TIE_BREAKS.map((rule) => Type.Literal(rule)));

const AgeRuleSettingSchema = Type.Object(
  { description: Type.String(), rule: AgeRuleSchema },
  {
    description:
      'ageRule: birth-year (default; event year minus birth year) or exact (completed years on the start date), for result lists and squads',
  },
);

const ResultsSettingSchema = Type.Object(
  {
    description: Type.String(),
    ageClassRanges: Type.String({ description: 'age classes, e.g. 6-8,9-10; outside every range: other, no birth date: unknown' }),
    tieBreak: TieBreakSchema,
    apparatusTieBreak: Type.Optional(ApparatusTieBreakSchema),
    competitions: Type.Record(
      Type.String(),
      Type.Object({
        tieBreak: Type.Optional(TieBreakSchema),
        apparatusTieBreak: Type.Optional(ApparatusTieBreakSchema),
        ageClassRanges: Type.Optional(Type.String()),
        rankNotation: Type.Optional(Type.Union(RANK_NOTATIONS.map((notation) => Type.Literal(notation)))),
        maxDrops: Type.Optional(Type.Integer()),
        apparatusOrder: Type.Optional(Type.Array(Type.Integer())),
      }),
      {
        description:
          'per competition id: its own tieBreak (with maxDrops, apparatusOrder), apparatusTieBreak, rankNotation and/or ageClassRanges; written by PUT /api/events/:eventId/competitions/:competitionId/tie-break',
      },
    ),
  },
  { description: 'results: age classes and tie-break rule of the result lists' },
);

const AppSettingResponseSchema = Type.Object({
  key: Type.String(),
  value: Type.Union([SquadAutoAssignSettingSchema, ScoreCaptureSettingSchema, AgeRuleSettingSchema, ResultsSettingSchema]),
});

export async function appSettingsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/app-settings/:key',
    {
      schema: {
        tags: ['settings'],
        summary: `One application setting; keys: ${Object.keys(APP_SETTING_DEFAULTS).join(', ')}`,
        // A plain string, not the union of keys: an unknown key is a missing resource (404), not a malformed request.
        params: Type.Object({ key: Type.String({ maxLength: 100 }) }),
        response: withErrors({ 200: AppSettingResponseSchema }, 400, 404),
      },
    },
    async (request) => {
      const { key } = request.params;
      if (!isAppSettingKey(key)) throw notFound(`app setting ${key} not found`);
      return { key, value: await readAppSetting(deps.pool, key) };
    },
  );
}
