import { connect } from 'node:net';
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
  /** Whether something listens on the port: only then does the office offer the address as a QR code. */
  readonly answers: boolean;
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
  /** The services that answer (`answeringServices`); without it only the backend, the process that serves this. */
  readonly answering?: ReadonlySet<FirewallServiceKey>;
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
  const answering = options.answering ?? new Set<FirewallServiceKey>(['backend']);
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
        answers: answering.has(service),
      })),
    );
  return { hostname: options.hostname ?? osHostname(), interfaces, urls };
}

const PROBE_TIMEOUT_MS = 500;

/** Whether a TCP connection to the port on this machine is accepted within the timeout. */
function portAnswers(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The services that answer on this machine. The backend is the process asking, so it answers by
 * definition; the stand-alone client ports (`npm run serve:office`, `serve:web`) run only when
 * someone started them, and `npm start` alone leaves them closed.
 */
export async function answeringServices(ports: FirewallPorts, timeoutMs = PROBE_TIMEOUT_MS): Promise<ReadonlySet<FirewallServiceKey>> {
  const probed = await Promise.all(
    FIREWALL_SERVICE_KEYS.map(
      async (service) => [service, service === 'backend' || (await portAnswers(ports[service], timeoutMs))] as const,
    ),
  );
  return new Set(probed.filter(([, answers]) => answers).map(([service]) => service));
}
