/**
 * The service's advisory lock keys, all in one place: any fixed 64-bit key works as long as every
 * instance sharing a database uses the same one, and no two purposes share one: two that did would
 * hold each other up. (Per-row locks keyed by a hashed text,
 * as save-value's, take `hashtextextended(..., 0)` of their own text and do not come from here.)
 */

/** Session-level, around applying the migrations, so two instances starting together do not race. */
export const MIGRATION_LOCK_KEY = 7_310_482_611;

/** Session-level, held by the one instance per database whose sequencer numbers outbox rows. */
export const SEQUENCER_LOCK_KEY = 7_310_482_612;

/** Transaction-level: held by one instance's outbox clean-up at a time, released by its commit. */
export const RETENTION_LOCK_KEY = 7_310_482_614;

/**
 * Transaction-level, the first of two keys (`pg_advisory_xact_lock(class, competitionId)`; two-key
 * locks never meet the one-key ones above): an API write into a competition takes it shared before
 * it reads whether its scope is released, a release or reopen of a device of that competition
 * exclusive (migration 0020), so a write either commits before the release or sees it.
 */
export const RELEASE_SCOPE_LOCK_CLASS = 731_048_261;
