/**
 * The marker a service command sets on its transaction (`SET LOCAL gym.origin = 'api'`): rows
 * written inside it already get their event from the command itself, so the legacy-write triggers
 * that read it must not add a second one. The migrations receive both names as the placeholders
 * `{{origin_setting}}` and `{{api_origin}}`, so TypeScript and SQL cannot spell them differently.
 */
export const ORIGIN_SETTING = 'gym.origin';
export const API_ORIGIN = 'api';
/**
 * Who a service command acts for and with which role (`SET LOCAL` like the origin marker): the
 * audit trigger of migration 0008 records the actor and refuses writes into a released scope unless
 * the role may make them. The migrations receive them as `{{actor_setting}}` and `{{role_setting}}`.
 */
export const ACTOR_SETTING = 'gym.actor';
export const ROLE_SETTING = 'gym.role';

/**
 * Set by the outbox sequencer on its own session to `quiet` while no other instance listens: its
 * numbering then sends no NOTIFY (migration 0014). The migrations receive it as
 * `{{numbered_notify_setting}}`.
 */
export const NUMBERED_NOTIFY_SETTING = 'gym.numbered_notify';

/**
 * The outbox topic of a legacy write's capture (migration 0016): the sequencer applies captures and
 * never numbers one as such. The migrations receive it as `{{legacy_capture_topic}}`.
 */
export const LEGACY_CAPTURE_TOPIC = 'legacy-score';

/**
 * The embedded server's login for the desktop program (`npm run db:info`). Migration 0020 limits
 * it to the legacy tables; the migrations receive it as `{{desktop_role}}`.
 */
export const DESKTOP_ROLE = 'desktop';
