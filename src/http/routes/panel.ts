/**
 * E-panel (issue 21): a discipline's panel settings (admin), the open deviations and the head
 * judge's confirmation. The panel itself shows in the reads (`panel` in GET /api/disciplines,
 * /api/scores, /api/jury-results). Documented in the changelog.
 */
import type { AppDeps, TypedApp } from '../app-types.js';
import { confirmPanelDeviation } from '../../../commands/confirm-panel-deviation.js';
import { removePanelSettings, setPanelSettings } from '../../../commands/panel-settings.js';
import { selectOpenDeviations } from '../../../queries/panel-deviations.js';
import { selectFieldValueCounts } from '../../../queries/field-values.js';
import { HEAD_ROLES } from '../auth.js';
import { commandContext } from '../actor.js';
import { ReplacesStoredValuesBodySchema, withErrors } from '../schemas/common.js';
import {
  ConfirmReply,
  DeviationKey,
  DeviationsQuery,
  DeviationsReply,
  FieldValuesReply,
  PanelParams,
  PanelSettingsBody,
  PanelSettingsSchema,
} from '../schemas/panel.js';
import { Type } from '@sinclair/typebox';

export async function panelRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.put(
    '/api/disciplines/:disciplineId/panel',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['e-panel'],
        summary: "Set a discipline's E-panel: judge fields, aggregation, the field receiving the aggregate, tolerance",
        params: PanelParams,
        body: PanelSettingsBody,
        response: { ...withErrors({ 200: PanelSettingsSchema }, 400, 401, 403, 404, 503), 409: ReplacesStoredValuesBodySchema },
      },
    },
    async (request) => {
      const context = commandContext(request);
      const panel = await deps.commands.run(
        (tx) => setPanelSettings(tx, request.params.disciplineId, request.body, context.actor ?? 'unknown'),
        context,
      );
      const reference = panel.reference ?? null;
      return {
        ...panel,
        judgeFieldIds: [...panel.judgeFieldIds],
        reference:
          reference === null
            ? null
            : { fieldIds: [...reference.fieldIds], agreement: reference.agreement, tolerances: [...reference.tolerances] },
        missingJudge: panel.missingJudge ?? 'fewer-values',
        absentFieldIds: [...(panel.absentFieldIds ?? [])],
      };
    },
  );

  app.get(
    '/api/disciplines/:disciplineId/field-values',
    {
      schema: {
        tags: ['e-panel'],
        summary:
          'How many score rows hold a value in each field of a discipline (which field can receive an aggregate without replacing data)',
        params: PanelParams,
        response: withErrors({ 200: FieldValuesReply }, 400, 404, 503),
      },
    },
    async (request) => selectFieldValueCounts(deps.pool, request.params.disciplineId),
  );

  app.delete(
    '/api/disciplines/:disciplineId/panel',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['e-panel'],
        summary: "Remove a discipline's E-panel (its fields stay as they are)",
        params: PanelParams,
        response: withErrors({ 204: Type.Null() }, 400, 401, 403, 404, 503),
      },
    },
    async (request, reply) => {
      await deps.commands.run((tx) => removePanelSettings(tx, request.params.disciplineId), commandContext(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/panel-deviations',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['e-panel'],
        summary: 'Open (unconfirmed) E-panel deviations of an event, oldest first; by competition and paged with limit and offset',
        querystring: DeviationsQuery,
        response: withErrors({ 200: DeviationsReply }, 400, 401, 403, 503),
      },
    },
    async (request) => selectOpenDeviations(deps.pool, request.query),
  );

  app.post(
    '/api/panel-deviations/confirm',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['e-panel'],
        summary: "The head judge accepts a score's panel values over the tolerance (recorded in the audit trail)",
        body: DeviationKey,
        response: withErrors({ 200: ConfirmReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const context = commandContext(request);
      return deps.commands.run((tx) => confirmPanelDeviation(tx, request.body, context.actor ?? 'unknown', request.log), context);
    },
  );
}
