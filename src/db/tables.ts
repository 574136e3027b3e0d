/**
 * Table names carry the installation's prefix (the legacy program's prefix differs per site). A
 * `Tables` object is built once from the configured prefix and handed down: the pool and every
 * transaction client carry it (`db.tables.wertungen`), so every statement function reads the
 * names from what it already receives and nothing depends on a module-global setting. The prefix
 * is checked here as a plain lowercase identifier, which is what makes splicing the names into
 * SQL text safe; values always travel as `$n` parameters.
 */

/** Every database object the service names in SQL (tables, the outbox sequence and trigger, functions). */
export const TABLE_NAMES = [
  // legacy layout (0001)
  'veranstaltungen',
  'wettkaempfe',
  'disziplinen',
  'disziplinen_felder',
  'formeln',
  'teilnehmer',
  'vereine',
  'gruppen',
  'mannschaften',
  'wertungen',
  'wertungen_details',
  'jury_results',
  'status',
  'bereiche',
  'sport',
  // the service's own (svc_)
  'svc_migrations',
  'svc_outbox',
  'svc_outbox_seq',
  'svc_outbox_notify',
  'svc_settings',
  'svc_group_members',
  'svc_releases',
  'svc_score_audit',
  'svc_panel_settings',
  'svc_panel_deviations',
  'svc_squad_audit',
  'svc_rotation_plans',
  'svc_rotations',
  'svc_rotation_slots',
  'svc_judge_credentials',
  'svc_spectator_settings',
  'svc_spectator_hidden',
  'svc_inquiry_settings',
  'svc_inquiries',
  // functions the service calls from its own SQL
  'svc_scope_released',
  'svc_audit_detail_field',
  'svc_limit_desktop_role',
  'svc_legacy_score_event',
] as const;

export type TableName = (typeof TABLE_NAMES)[number];

export type Tables = { readonly [Name in TableName]: string } & {
  readonly prefix: string;
  /** The LISTEN/NOTIFY channel of the outbox; the migrations receive it as `{{outbox_channel}}`. */
  readonly outboxChannel: string;
};

/** The config checks TABLE_PREFIX against this too, so a bad prefix is refused at start. */
export const TABLE_PREFIX_PATTERN = /^[a-z][a-z0-9_]{0,19}$/;

/** `createTables('app_').wertungen` → `app_wertungen`. */
export function createTables(prefix: string): Tables {
  if (!TABLE_PREFIX_PATTERN.test(prefix)) throw new Error(`table prefix must be a plain lowercase identifier, got "${prefix}"`);
  const names = Object.fromEntries(TABLE_NAMES.map((name) => [name, prefix + name])) as { [Name in TableName]: string };
  return Object.freeze({ ...names, prefix, outboxChannel: `${prefix}svc_outbox` });
}

/**
 * A statement text built once per installation. A save's statements are a kilobyte of text each;
 * built anew at every call, each was a new string that the prepared-statement lookup (a Map keyed
 * by the text) hashed in full again, on every statement of every save.
 */
export function sqlPerInstallation(build: (tables: Tables) => string): (tables: Tables) => string {
  const texts = new WeakMap<Tables, string>();
  return (tables) => {
    let text = texts.get(tables);
    if (text === undefined) texts.set(tables, (text = build(tables)));
    return text;
  };
}
