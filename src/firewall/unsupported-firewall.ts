import { FirewallError, findServiceDefinition, type ChangeResult, type Firewall, type ServiceStatus } from './firewall.js';
import { firewallServices, type FirewallServiceDefinition, type FirewallServiceKey, type FirewallServiceOptions } from './services.js';

export interface UnsupportedFirewallOptions extends FirewallServiceOptions {
  readonly platform: string;
  /** Effective user id; injectable so tests do not depend on who runs them. */
  readonly euid?: () => number | undefined;
}

/**
 * Hosts other than Windows: status stays readable (everything disabled) so the UI can render, and
 * changes are refused. `isAdmin` still reports root honestly, since the status body shows it.
 */
export class UnsupportedFirewall implements Firewall {
  readonly supported = false;
  readonly platform: string;
  readonly services: readonly FirewallServiceDefinition[];
  readonly #euid: () => number | undefined;

  constructor(options: UnsupportedFirewallOptions) {
    this.platform = options.platform;
    this.services = firewallServices(options);
    this.#euid = options.euid ?? (() => process.geteuid?.());
  }

  async isAdmin(): Promise<boolean> {
    return this.#euid() === 0;
  }

  async status(): Promise<ServiceStatus[]> {
    return this.services.map((definition) => ({ ...definition, enabled: false }));
  }

  async enable(service: FirewallServiceKey): Promise<ChangeResult> {
    throw this.#unsupported(service);
  }

  async disable(service: FirewallServiceKey): Promise<ChangeResult> {
    throw this.#unsupported(service);
  }

  #unsupported(service: FirewallServiceKey): FirewallError {
    const definition = findServiceDefinition(this.services, service);
    return new FirewallError(
      'UNSUPPORTED_PLATFORM',
      `Firewall management is only supported on Windows; this server runs on ${this.platform}.`,
      definition.service,
    );
  }
}
