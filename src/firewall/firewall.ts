import { isFirewallServiceKey, type FirewallServiceDefinition, type FirewallServiceKey } from './services.js';

export interface ServiceStatus extends FirewallServiceDefinition {
  readonly enabled: boolean;
}

export interface ChangeResult {
  readonly service: FirewallServiceKey;
  readonly enabled: boolean;
  /** False when the service already was in the requested state and no modifying command ran. */
  readonly changed: boolean;
  readonly message: string;
}

export interface Firewall {
  readonly supported: boolean;
  readonly platform: string;
  readonly services: readonly FirewallServiceDefinition[];
  /** Informational (UI indicator); enable/disable never rely on it alone to refuse a change. */
  isAdmin(): Promise<boolean>;
  status(): Promise<ServiceStatus[]>;
  enable(service: FirewallServiceKey): Promise<ChangeResult>;
  disable(service: FirewallServiceKey): Promise<ChangeResult>;
}

export type FirewallErrorCode = 'PERMISSION_DENIED' | 'RULE_NOT_FOUND' | 'UNSUPPORTED_PLATFORM' | 'COMMAND_FAILED';

export class FirewallError extends Error {
  override readonly name = 'FirewallError';

  constructor(
    readonly code: FirewallErrorCode,
    message: string,
    readonly service?: FirewallServiceKey,
    /** Raw tool output for logs; kept out of `message` because it is not meant for API clients. */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * HTTP status and contract error code per firewall error. COMMAND_FAILED is an unexpected host
 * failure, which the contract reports as INTERNAL.
 */
export const FIREWALL_ERROR_HTTP: Readonly<Record<FirewallErrorCode, { readonly statusCode: number; readonly code: string }>> = {
  PERMISSION_DENIED: { statusCode: 403, code: 'PERMISSION_DENIED' },
  RULE_NOT_FOUND: { statusCode: 404, code: 'RULE_NOT_FOUND' },
  UNSUPPORTED_PLATFORM: { statusCode: 501, code: 'UNSUPPORTED_PLATFORM' },
  COMMAND_FAILED: { statusCode: 500, code: 'INTERNAL' },
};

/**
 * Rule names reach the host tool only through these definitions. Routes validate `:service` first;
 * an unknown key arriving here is a programming error (a missing schema), hence a TypeError.
 */
export function findServiceDefinition(services: readonly FirewallServiceDefinition[], service: unknown): FirewallServiceDefinition {
  const definition = isFirewallServiceKey(service) ? services.find((s) => s.service === service) : undefined;
  if (definition === undefined) {
    throw new TypeError(`Unknown firewall service ${JSON.stringify(service)}`);
  }
  return definition;
}
