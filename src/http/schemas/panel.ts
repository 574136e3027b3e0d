/** Schemas of the E-panel (issue 21): settings, the panel of a score in reads, deviations. */
import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PANEL_TOLERANCE } from '../../domain/panel.js';
import { Id } from './common.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PanelAggregationSchema = Type.Union([Type.Literal('trimmed-mean'), Type.Literal('mean'), Type.Literal('median')], {
  description: 'trimmed-mean: drop one highest and one lowest from four values on, mean of the rest',
});

export const PanelSettingsSchema = Type.Object({
  judgeFieldIds: Type.Array(Type.Integer(), { description: "The judges' fields, one per judge" }),
  aggregation: PanelAggregationSchema,
  aggregateFieldId: Type.Integer({ description: 'The field that receives the aggregate; the formula uses it like any field' }),
  tolerance: Type.Number({ description: 'Maximum spread of the counted values' }),
  size: Type.Integer({ description: 'Number of judges (judgeFieldIds.length)' }),
});

export const NullablePanelSettings = Type.Union([PanelSettingsSchema, Type.Null()], {
  description: 'The E-panel of the discipline; null when it has none',
});

export const PanelSettingsBody = Type.Object(
  {
    judgeFieldIds: Type.Array(Id(), { minItems: 2, maxItems: 20, description: 'Fields of the discipline, distinct, not the final' }),
    aggregation: PanelAggregationSchema,
    aggregateFieldId: Id({ description: 'A field of the discipline, not a judge field, not the final' }),
    tolerance: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1000, description: `Maximum spread of the counted values; default ${DEFAULT_PANEL_TOLERANCE}` }),
    ),
    replaceStoredValues: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_147_483_647,
        description:
          "How many stored values of the aggregate field the user agreed to replace (the 409's `replaced`); " +
          'needed when any stored value is not what the panel computes',
      }),
    ),
  },
  { additionalProperties: false },
);

export const FieldValuesReply = Type.Object({
  disciplineId: Type.Integer(),
  fields: Type.Array(
    Type.Object({
      fieldId: Type.Integer(),
      storedValues: Type.Integer({ description: 'Score rows holding a value in this field (attempt 1)' }),
    }),
    { description: 'Every field of the discipline, in its sort order' },
  ),
});

export const PanelParams = Type.Object({ disciplineId: Id() });

const PanelValueSchema = Type.Object({ fieldId: Type.Integer(), value: Nullable(Type.Number()) });

export const PanelReadingSchema = Type.Union(
  [
    Type.Object({
      values: Type.Array(PanelValueSchema, { description: "Each judge's value, in the order of the settings' judgeFieldIds" }),
      aggregate: Nullable(Type.Number({ description: 'Provisional while complete is false' })),
      complete: Type.Boolean({ description: 'Every judge has a value' }),
      spread: Nullable(Type.Number({ description: 'Highest minus lowest counted value' })),
      tolerance: Type.Number(),
      deviation: Type.Boolean({ description: 'spread > tolerance on a complete panel, not confirmed by the head judge' }),
      confirmed: Type.Boolean({ description: 'The head judge confirmed the values over the tolerance' }),
    }),
    Type.Null(),
  ],
  { description: 'The E-panel of this score; null when the discipline has none' },
);

export const DeviationKey = Type.Object(
  { scoreId: Id(), disciplineId: Id(), attempt: Type.Integer({ minimum: 1, maximum: 1, description: 'only attempt 1 is used' }) },
  { additionalProperties: false },
);

export const ConfirmReply = Type.Object({ confirmed: Type.Literal(true) });

export const DeviationsQuery = Type.Object({
  eventId: Id(),
  competitionId: Type.Optional(Id({ description: "Only the deviations of this competition's scores" })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 500,
      description: 'At most this many (default: all); ask one more to learn whether a next page exists',
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Skip this many, in the same order' })),
});

export const DeviationsReply = Type.Array(
  Type.Object({
    scoreId: Type.Integer(),
    disciplineId: Type.Integer(),
    attempt: Type.Integer(),
    values: Type.Array(PanelValueSchema),
    spread: Type.Number(),
    tolerance: Type.Number(),
    resolved: Type.Literal(false),
  }),
);
