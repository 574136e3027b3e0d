import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { CollectiveScoreInput } from '../../../commands/collective-score-decision.js';
import { Id } from './common.js';
import { ScoreValue } from './scoring.js';

/** Shapes shared by the group and team score routes. */

const ComponentInputSchema = Type.Object({
  fieldId: Id({ description: 'A field of the discipline; the final field stands for finalScore' }),
  value: ScoreValue('Value of the field'),
});

export const AttemptSchema = Type.Integer({ minimum: 1, maximum: 32_767, description: 'Default 1; at most the competition int_versuche' });

/** Body properties both save routes share; each route adds its unit id and its attempt name(s). */
export const CollectiveScoreBodyProperties = {
  competitionId: Id({ description: 'A competition of the same event as the group or team' }),
  disciplineId: Id({ description: 'A discipline with a field flagged final (bol_endwert)' }),
  squadName: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 5 }), Type.Null()], {
      description: 'Squad name (1 to 5 characters); omitted or null: the squad name of the group or team',
    }),
  ),
  // 26 formula variables at most (spec limits); the headroom is for fields outside the formula.
  components: Type.Optional(Type.Array(ComponentInputSchema, { maxItems: 100 })),
  finalScore: Type.Optional(
    Type.Union([ScoreValue('Final score'), Type.Null()], {
      description: "Omitted or null: calculated from the components with the discipline's formula (field short names are its variables)",
    }),
  ),
  statusId: Type.Optional(Id({ description: 'Status id; default 1 for a new score row, unchanged for an existing one' })),
};

/** The command input from a validated body: absent and null both mean "not given". */
export function collectiveScoreInput(
  unitId: number,
  attempt: number | undefined,
  body: Static<TObject<typeof CollectiveScoreBodyProperties>>,
): CollectiveScoreInput {
  return {
    unitId,
    competitionId: body.competitionId,
    disciplineId: body.disciplineId,
    attempt: attempt ?? 1,
    squadName: body.squadName ?? null,
    statusId: body.statusId ?? null,
    components: body.components ?? [],
    finalScore: body.finalScore ?? null,
  };
}

export const ScoreComponentSchema = Type.Object({
  fieldId: Type.Integer(),
  fieldName: Type.Union([Type.String(), Type.Null()]),
  value: Type.Union([Type.Number(), Type.Null()]),
});
