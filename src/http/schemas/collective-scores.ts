import { Type } from '@sinclair/typebox';
import { Id } from './common.js';

/** Shapes shared by the group and team score routes. */

export const ComponentInputSchema = Type.Object({
  fieldId: Id({ description: 'A field of the discipline; the final field stands for finalScore' }),
  value: Type.Number(),
});

// 26 formula variables at most (spec limits); the headroom is for fields outside the formula.
export const ComponentsInputSchema = Type.Array(ComponentInputSchema, { maxItems: 100 });

export const AttemptSchema = Type.Integer({ minimum: 1, maximum: 32_767, description: 'At most the competition int_versuche' });

export const SquadNameInputSchema = Type.Union([Type.String({ minLength: 1, maxLength: 5 }), Type.Null()], {
  description: 'Squad name (1 to 5 characters); omitted or null: the squad name of the group or team',
});

export const FinalScoreInputSchema = Type.Union([Type.Number(), Type.Null()], {
  description: "Omitted or null: calculated from the components with the discipline's formula (field short names are its variables)",
});

export const StatusIdInputSchema = Id({ description: 'Status id; default 1 for a new score row, unchanged for an existing one' });

export const ScoreComponentSchema = Type.Object({
  fieldId: Type.Integer(),
  fieldName: Type.Union([Type.String(), Type.Null()]),
  value: Type.Union([Type.Number(), Type.Null()]),
});
