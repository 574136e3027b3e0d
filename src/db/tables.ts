/**
 * Table names carry the installation's prefix (the legacy program's prefix differs per site).
 * The prefix is validated by the config as a plain identifier before it is set here, which is
 * what makes splicing it into SQL text safe; values always travel as `$n` parameters.
 */
let prefix = 'app_';

export function setTablePrefix(value: string): void {
  prefix = value;
}

export function tablePrefix(): string {
  return prefix;
}

/** `t('wertungen')` → `app_wertungen` for the configured prefix. */
export function t(name: string): string {
  return prefix + name;
}

/** The LISTEN/NOTIFY channel of the outbox; the migrations receive it as `{{outbox_channel}}`. */
export function outboxChannel(prefix: string): string {
  return `${prefix}svc_outbox`;
}
