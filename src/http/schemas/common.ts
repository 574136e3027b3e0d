import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorBodySchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
  },
  { $id: 'ErrorBody', description: 'Contract section 3 error body' },
);

/** The 409 of an optimistic check (`expectedScore`, `expectedPerformance`): the error body plus `current`. */
export const StaleValueBodySchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
    // Optional: the other 409s of a score write (a released scope, a concurrent change) carry none.
    current: Type.Optional(
      Type.Union([Type.Number(), Type.Null()], {
        description: 'the value stored now (null when none is stored); only when the expected value was stale',
      }),
    ),
  },
  { description: 'Contract section 3 error body plus the stored value' },
);

/** The 409 of a write that would replace stored values: the error body plus how many. */
export const ReplacesStoredValuesBodySchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
    // Optional: a 409 of the same route for another reason (a concurrent change) carries none.
    replaced: Type.Optional(Type.Integer({ description: 'how many stored values the request would replace; send it back to confirm' })),
  },
  { description: 'Contract section 3 error body plus the number of values that would be replaced' },
);

/** Positive database id (spec: identifiers are integers; contract: ids > 0). */
export const Id = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, ...options });

/** Response map with the shared error body for each listed 4xx/5xx status. */
export function withErrors<T extends Record<number, TSchema>>(success: T, ...statuses: number[]) {
  const errors: Record<number, TSchema> = {};
  for (const status of [...statuses, 500]) errors[status] = Type.Ref(ErrorBodySchema);
  return { ...success, ...errors };
}

export const PaginationQuery = {
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
};
