/** Schemas of the individual-scoring routes (spec "Individual scores and jury results", contract 6). */
import { Type, type TSchema } from '@sinclair/typebox';
import { Id, PaginationQuery } from './common.js';
import { PanelReadingSchema } from './panel.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A score or field value: finite (JSON has no NaN) and within what any discipline can reach. */
export const ScoreValue = (description: string) => Type.Number({ minimum: -1000, maximum: 100_000, description });

export const JuryResultEntrySchema = Type.Object({
  id: Type.Integer(),
  disciplineFieldId: Type.Integer(),
  fieldName: Nullable(Type.String()),
  performance: Type.Number(),
  isFinalScore: Type.Boolean(),
  isStartingScore: Type.Boolean(),
  sortOrder: Nullable(Type.Integer()),
});

export const ScoresQuery = Type.Object({
  eventId: Type.Optional(Id({ description: 'only score rows of competitions of this event' })),
  competitionId: Type.Optional(Id({ description: 'only score rows of this competition' })),
  squadName: Type.Optional(Type.String({ maxLength: 5, description: 'squad (var_riege); empty means no filter' })),
  ...PaginationQuery,
});

export const ScoreEntrySchema = Type.Object({
  id: Type.Integer({ description: 'wertungenId' }),
  participantId: Type.Integer(),
  disciplineId: Nullable(Type.Integer({ description: 'null for a score row without any detail row yet' })),
  competitionId: Type.Integer(),
  eventId: Type.Integer(),
  score: Nullable(Type.Number({ description: 'final score from the detail row' })),
  formula: Nullable(Type.String()),
  startValue: Type.Number(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  startNumber: Nullable(Type.String()),
  clubName: Nullable(Type.String()),
  participant: Type.Object({ firstName: Nullable(Type.String()), lastName: Nullable(Type.String()) }),
  discipline: Type.Optional(Type.Object({ name: Type.String() })),
  juryResults: Type.Array(JuryResultEntrySchema),
  panel: PanelReadingSchema,
  didNotStart: Type.Boolean({
    description: 'bol_startet_nicht: the office marked the gymnast as not started; the jury portal shows them greyed, without inputs',
  }),
});

export const ScoresPageSchema = Type.Object({
  results: Type.Array(ScoreEntrySchema),
  pagination: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), hasMore: Type.Boolean() }),
});

export const CaptureBody = Type.Object({
  wertungenId: Id(),
  fieldValues: Type.Array(Type.Object({ fieldId: Id(), value: ScoreValue('field value') }), { minItems: 1, maxItems: 100 }),
});

export const CaptureReply = Type.Object({
  success: Type.Literal(true),
  wertungenId: Type.Integer(),
  finalScore: Nullable(Type.Number()),
  calculated: Type.Boolean({ description: 'the final score was calculated by the formula in this request' }),
  juryResults: Type.Array(JuryResultEntrySchema),
});

export const SaveValueBody = Type.Object({
  competitionId: Id(),
  participantId: Id({ description: 'wertungenId (as the portal sends it) or participant id' }),
  disciplineId: Id(),
  score: ScoreValue('final score'),
  expectedScore: Type.Optional(
    Type.Union([ScoreValue('the stored final score the client based this save on'), Type.Null()], {
      description:
        'optimistic check: when present and the stored final differs (null = none stored), 409 CONFLICT with `current` and nothing is written',
    }),
  ),
});

export const SaveValueReply = Type.Object({ success: Type.Literal(true), wertungenId: Type.Integer(), score: Type.Number() });

export const JuryResultsQuery = Type.Object({
  participantId: Id({ description: 'carries the wertungenId, not the participant id' }),
  disciplineId: Id(),
});

export const JuryResultsReply = Type.Object({
  results: Type.Array(
    Type.Object({ fieldId: Type.Integer(), performance: Type.Number(), isFinalScore: Type.Boolean(), sortOrder: Nullable(Type.Integer()) }),
  ),
  panel: PanelReadingSchema,
});

export const SaveJuryResultBody = Type.Object({
  participantId: Id({ description: 'carries the wertungenId' }),
  disciplineFieldId: Id(),
  performance: ScoreValue('field value'),
  attempt: Type.Optional(Type.Integer({ default: 1, description: 'only 1 is accepted' })),
  type: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, default: 0, description: '0 compulsory, 1 free' })),
  expectedPerformance: Type.Optional(
    Type.Union([ScoreValue('the stored field value the client based this save on'), Type.Null()], {
      description:
        'optimistic check: when present and the stored value differs (null = none stored), 409 CONFLICT with `current` and nothing is written',
    }),
  ),
});

export const SaveJuryResultReply = Type.Object({
  success: Type.Literal(true),
  id: Type.Integer(),
  wertungenId: Type.Integer(),
  disciplineFieldId: Type.Integer(),
  performance: Type.Number(),
  finalScore: Nullable(Type.Number({ description: 'null while the formula cannot be evaluated' })),
  panel: Type.Optional(
    Type.Object(
      { aggregate: Nullable(Type.Number()), complete: Type.Boolean() },
      { description: "Only for an E-panel judge's field: the aggregate, provisional (and not stored, nor the final) while not complete" },
    ),
  ),
});

export const DisciplineFieldsQuery = Type.Object({ disciplineId: Type.Optional(Id()) });

export const DisciplineFieldsReply = Type.Array(
  Type.Object({
    id: Type.Integer(),
    disciplineId: Type.Integer(),
    name: Nullable(Type.String()),
    shortName: Nullable(Type.String()),
    sortOrder: Nullable(Type.Integer()),
    isFinalScore: Type.Boolean(),
    isStartingScore: Type.Boolean(),
    enabled: Type.Boolean(),
    group: Nullable(Type.Integer()),
  }),
);
