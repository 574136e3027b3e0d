import type { Firewall } from './firewall.js';
import { DEFAULT_FIREWALL_PORTS, DEFAULT_RULE_PREFIX, type FirewallPorts } from './services.js';
import { UnsupportedFirewall } from './unsupported-firewall.js';
import { WindowsFirewall, type CommandRunner } from './windows-firewall.js';

export interface CreateFirewallOptions {
  readonly platform?: string;
  readonly runner?: CommandRunner;
  readonly rulePrefix?: string;
  readonly ports?: FirewallPorts;
  readonly systemRoot?: string;
}

/** Windows is the one host family the spec supports; every other platform gets the refusing variant. */
export function createFirewall(options: CreateFirewallOptions = {}): Firewall {
  const platform = options.platform ?? process.platform;
  const rulePrefix = options.rulePrefix ?? DEFAULT_RULE_PREFIX;
  const ports = options.ports ?? DEFAULT_FIREWALL_PORTS;
  if (platform === 'win32') {
    return new WindowsFirewall({ rulePrefix, ports, runner: options.runner, systemRoot: options.systemRoot });
  }
  return new UnsupportedFirewall({ platform, rulePrefix, ports });
}

export {
  FIREWALL_ERROR_HTTP,
  FirewallError,
  type ChangeResult,
  type Firewall,
  type FirewallErrorCode,
  type ServiceStatus,
} from './firewall.js';
export {
  answeringServices,
  networkInfo,
  type NetworkInfo,
  type NetworkInfoOptions,
  type NetworkInterfaceEntry,
  type ServiceUrl,
} from './network-info.js';
export {
  DEFAULT_FIREWALL_PORTS,
  DEFAULT_RULE_PREFIX,
  FIREWALL_SERVICE_KEYS,
  firewallServices,
  isFirewallServiceKey,
  type FirewallPorts,
  type FirewallServiceDefinition,
  type FirewallServiceKey,
  type FirewallServiceOptions,
} from './services.js';
export { UnsupportedFirewall, type UnsupportedFirewallOptions } from './unsupported-firewall.js';
export {
  WindowsFirewall,
  decodeConsoleOutput,
  execFileRunner,
  type CommandResult,
  type CommandRunner,
  type WindowsFirewallOptions,
} from './windows-firewall.js';
