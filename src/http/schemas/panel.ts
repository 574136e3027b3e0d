/** Schemas of the E-panel (issue 21): settings, the panel of a score in reads, deviations. */
import { Type, type TSchema } from '@sinclair/typebox';
import { DEFAULT_PANEL_TOLERANCE } from '../../domain/panel.js';
import { DEFAULT_REFERENCE_AGREEMENT } from '../../domain/reference-judges.js';
import { Id } from './common.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const PanelAggregationSchema = Type.Union([Type.Literal('trimmed-mean'), Type.Literal('mean'), Type.Literal('median')], {
  description: 'trimmed-mean: drop one highest and one lowest from four values on, mean of the rest',
});

const ToleranceStepSchema = Type.Object(
  {
    from: Type.Number({ minimum: 0, maximum: 1000, description: 'Scores from this value up (to the next row) allow `tolerance`' }),
    tolerance: Type.Number({ minimum: 0, maximum: 1000 }),
  },
  { additionalProperties: false },
);

const MissingJudgeSchema = Type.Union([Type.Literal('fewer-values'), Type.Literal('mean-of-given')], {
  description:
    "fewer-values: the panel counts the values given; mean-of-given: the mean of the given values stands in a missing judge's place",
});

const ReferenceSettingsSchema = Type.Object({
  fieldIds: Type.Array(Type.Integer(), { description: "The two reference judges' fields" }),
  agreement: Type.Number({ description: 'Largest difference between the two reference values for their mean to count' }),
  tolerances: Type.Array(ToleranceStepSchema, {
    description: 'Allowed difference between the reference score and the panel, by the reference score',
  }),
});

export const PanelSettingsSchema = Type.Object({
  judgeFieldIds: Type.Array(Type.Integer(), { description: "The judges' fields, one per judge" }),
  aggregation: PanelAggregationSchema,
  aggregateFieldId: Type.Integer({ description: 'The field that receives the aggregate; the formula uses it like any field' }),
  tolerance: Type.Number({ description: 'Maximum spread of the counted values' }),
  size: Type.Integer({ description: 'Number of judges (judgeFieldIds.length)' }),
  reference: Type.Union([ReferenceSettingsSchema, Type.Null()], { description: 'Reference judges; null: none' }),
  missingJudge: MissingJudgeSchema,
  absentFieldIds: Type.Array(Type.Integer(), { description: 'Judge fields whose value may be missing (the judge is not there)' }),
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
    reference: Type.Optional(
      Type.Union([
        Type.Object(
          {
            fieldIds: Type.Array(Id(), {
              minItems: 2,
              maxItems: 2,
              description: 'Two fields of the discipline, neither a judge field, the aggregate nor the final',
            }),
            agreement: Type.Optional(
              Type.Number({
                minimum: 0,
                maximum: 1000,
                description: `Range within which the two must agree; default ${DEFAULT_REFERENCE_AGREEMENT}`,
              }),
            ),
            tolerances: Type.Optional(
              Type.Array(ToleranceStepSchema, { minItems: 1, maxItems: 50, description: "Tolerance table; default the FIG's" }),
            ),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    missingJudge: Type.Optional(MissingJudgeSchema),
    absentFieldIds: Type.Optional(
      Type.Array(Id(), { maxItems: 20, description: 'Judge fields whose value may be missing; the missing-judge rule stands in for them' }),
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
      given: Type.Integer({ description: 'Judges whose values count ("4 of 5 judges": given of values.length)' }),
      missing: Type.Array(Type.Integer(), { description: 'Absent judges without a value, handled by the missing-judge rule' }),
      missingJudge: MissingJudgeSchema,
      substitute: Nullable(Type.Number({ description: "The value standing in each missing judge's place (mean-of-given)" })),
      panelAggregate: Nullable(Type.Number({ description: "The panel's own aggregate, before the reference judges" })),
      reference: Type.Union(
        [
          Type.Object({
            values: Type.Array(PanelValueSchema),
            mean: Nullable(Type.Number({ description: 'The reference score' })),
            agree: Type.Boolean({ description: 'The two reference values are within the agreement range' }),
            tolerance: Nullable(Type.Number({ description: 'The table’s tolerance for the reference score' })),
            difference: Nullable(Type.Number({ description: '|panelAggregate − mean|' })),
            applied: Type.Boolean({ description: 'aggregate = mean of panelAggregate and the reference score' }),
          }),
          Type.Null(),
        ],
        { description: 'The reference judges and their rule; null without reference judges' },
      ),
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
