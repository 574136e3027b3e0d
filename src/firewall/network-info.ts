import { hostname as osHostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { DEFAULT_FIREWALL_PORTS, FIREWALL_SERVICE_KEYS, type FirewallPorts, type FirewallServiceKey } from './services.js';

export interface NetworkInterfaceEntry {
  readonly name: string;
  readonly address: string;
  readonly family: 'IPv4' | 'IPv6';
  readonly internal: boolean;
}

export interface ServiceUrl {
  readonly service: FirewallServiceKey;
  readonly port: number;
  readonly interface: string;
  readonly address: string;
  readonly url: string;
}

export interface NetworkInfo {
  readonly hostname: string;
  readonly interfaces: NetworkInterfaceEntry[];
  readonly urls: ServiceUrl[];
}

export interface NetworkInfoOptions {
  readonly hostname?: string;
  readonly interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>;
  readonly ports?: FirewallPorts;
}

/**
 * A link-local address (fe80::/10) only works together with a zone id, and that zone names an
 * interface of the machine that connects, not of this server; browsers do not accept zone ids in
 * URLs either. Such addresses are listed as interfaces but get no URL.
 */
function isLinkLocalIPv6(address: string): boolean {
  return /^fe[89ab][0-9a-f]:/i.test(address);
}

function serviceUrl(family: 'IPv4' | 'IPv6', address: string, port: number): string {
  const host = family === 'IPv6' ? `[${address}]` : address;
  return `http://${host}:${port}/`;
}

/** Every local address, plus one URL per service for each address another device can reach. */
export function networkInfo(options: NetworkInfoOptions = {}): NetworkInfo {
  const ports = options.ports ?? DEFAULT_FIREWALL_PORTS;
  const interfaces: NetworkInterfaceEntry[] = Object.entries(options.interfaces ?? networkInterfaces()).flatMap(([name, addresses]) =>
    (addresses ?? []).map(({ address, family, internal }) => ({ name, address, family, internal })),
  );
  const urls: ServiceUrl[] = interfaces
    .filter((entry) => !entry.internal && !(entry.family === 'IPv6' && isLinkLocalIPv6(entry.address)))
    .flatMap((entry) =>
      FIREWALL_SERVICE_KEYS.map((service) => ({
        service,
        port: ports[service],
        interface: entry.name,
        address: entry.address,
        url: serviceUrl(entry.family, entry.address, ports[service]),
      })),
    );
  return { hostname: options.hostname ?? osHostname(), interfaces, urls };
}
