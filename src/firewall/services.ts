/** Keys accepted as `:service`; a tuple so routes can build `Type.Union(FIREWALL_SERVICE_KEYS.map(k => Type.Literal(k)))`. */
export const FIREWALL_SERVICE_KEYS = ['backend', 'frontend', 'jury'] as const;

export type FirewallServiceKey = (typeof FIREWALL_SERVICE_KEYS)[number];

export type FirewallPorts = Readonly<Record<FirewallServiceKey, number>>;

export interface FirewallServiceDefinition {
  readonly service: FirewallServiceKey;
  readonly name: string;
  readonly port: number;
  readonly protocol: 'TCP';
  readonly ruleName: string;
}

export interface FirewallServiceOptions {
  readonly rulePrefix: string;
  readonly ports: FirewallPorts;
}

export const DEFAULT_RULE_PREFIX = 'App';

export const DEFAULT_FIREWALL_PORTS: FirewallPorts = Object.freeze({
  backend: 3001,
  frontend: 5173,
  jury: 5174,
});

export const SERVICE_NAMES: Readonly<Record<FirewallServiceKey, string>> = {
  backend: 'Backend Server',
  frontend: 'Frontend Client',
  jury: 'Jury Portal',
};

/*
 * The prefix ends up inside a netsh `name=` argument and is matched against netsh output, which
 * arrives in the OEM code page. Plain ASCII without quotes, `=` or `:` keeps the argument unambiguous
 * and the match independent of the code page.
 */
const RULE_PREFIX_PATTERN = /^[A-Za-z0-9._()-](?:[A-Za-z0-9 ._()-]{0,62}[A-Za-z0-9._()-])?$/;

export function isValidRulePrefix(rulePrefix: string): boolean {
  return RULE_PREFIX_PATTERN.test(rulePrefix);
}

export function isFirewallServiceKey(value: unknown): value is FirewallServiceKey {
  return typeof value === 'string' && (FIREWALL_SERVICE_KEYS as readonly string[]).includes(value);
}

/** Throws on a bad prefix or port so a misconfiguration fails at start-up, not at the first click. */
export function firewallServices(options: FirewallServiceOptions): readonly FirewallServiceDefinition[] {
  const { rulePrefix, ports } = options;
  if (!isValidRulePrefix(rulePrefix)) {
    throw new RangeError(
      `Invalid firewall rule prefix ${JSON.stringify(rulePrefix)}: use 1 to 64 ASCII letters, digits, spaces or . _ ( ) -, not starting or ending with a space`,
    );
  }
  return Object.freeze(
    FIREWALL_SERVICE_KEYS.map((service) => {
      const port = ports[service];
      if (!Number.isInteger(port) || port < 1 || port > 65_535) {
        throw new RangeError(`Invalid firewall port for ${service}: ${String(port)} (expected an integer 1 to 65535)`);
      }
      const name = SERVICE_NAMES[service];
      return Object.freeze({ service, name, port, protocol: 'TCP' as const, ruleName: `${rulePrefix} ${name}` });
    }),
  );
}
