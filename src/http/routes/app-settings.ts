import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../../app.js';
import { APP_SETTING_DEFAULTS, isAppSettingKey, readAppSetting } from '../../../queries/app-settings.js';
import { notFound } from '../errors.js';
import { withErrors } from '../schemas/common.js';
import { SquadCriteriaSchema } from '../schemas/squads.js';

const SquadAutoAssignSettingSchema = Type.Composite([Type.Object({ description: Type.String() }), SquadCriteriaSchema], {
  description: 'squadAutoAssign: the defaults that pre-fill the auto-assign dialog',
});

const ScoreCaptureSettingSchema = Type.Object(
  { useJuryResults: Type.Boolean() },
  { description: 'scoreCapture: field-level jury results (true) or the single legacy value' },
);

const AppSettingResponseSchema = Type.Object({
  key: Type.String(),
  value: Type.Union([SquadAutoAssignSettingSchema, ScoreCaptureSettingSchema]),
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
