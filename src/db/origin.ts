/**
 * The marker a service command sets on its transaction (`SET LOCAL gym.origin = 'api'`): rows
 * written inside it already get their event from the command itself, so the legacy-write triggers
 * that read it must not add a second one. The migrations receive both names as the placeholders
 * `{{origin_setting}}` and `{{api_origin}}`, so TypeScript and SQL cannot spell them differently.
 */
export const ORIGIN_SETTING = 'gym.origin';
export const API_ORIGIN = 'api';
