import { createServer, type AddressInfo } from 'node:net';
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  answeringServices,
  createFirewall,
  decodeConsoleOutput,
  execFileRunner,
  FIREWALL_ERROR_HTTP,
  FIREWALL_SERVICE_KEYS,
  FirewallError,
  firewallServices,
  isFirewallServiceKey,
  networkInfo,
  UnsupportedFirewall,
  WindowsFirewall,
  type CommandRunner,
  type Firewall,
  type FirewallServiceKey,
} from '../../src/firewall/index.js';
import {
  asConsoleBytes,
  FakeWindowsHost,
  NET,
  NET_SESSION_ADMIN,
  NETSH,
  NETSH_ARGS,
  OUTPUT,
  type Wording,
} from '../support/netsh-outputs.js';

function windowsFirewall(host: FakeWindowsHost, rulePrefix = 'App'): Firewall {
  return createFirewall({ platform: 'win32', runner: host.runner, rulePrefix, systemRoot: 'C:\\Windows' });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function firewallError(promise: Promise<unknown>): Promise<FirewallError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(FirewallError);
  return error as FirewallError;
}

async function enabledMap(firewall: Firewall): Promise<Record<string, boolean>> {
  return Object.fromEntries((await firewall.status()).map((s) => [s.service, s.enabled]));
}

// ---------------------------------------------------------------------------------------------

describe('firewall service definitions', () => {
  it('defines the three services with ports, protocol and prefixed rule names', () => {
    expect(FIREWALL_SERVICE_KEYS).toEqual(['backend', 'frontend', 'jury']);
    expect(firewallServices({ rulePrefix: 'App', ports: { backend: 3001, frontend: 5173, jury: 5174 } })).toEqual([
      { service: 'backend', name: 'Backend Server', port: 3001, protocol: 'TCP', ruleName: 'App Backend Server' },
      { service: 'frontend', name: 'Frontend Client', port: 5173, protocol: 'TCP', ruleName: 'App Frontend Client' },
      { service: 'jury', name: 'Jury Portal', port: 5174, protocol: 'TCP', ruleName: 'App Jury Portal' },
    ]);
  });

  it('takes the prefix and the ports from the configuration', () => {
    const services = firewallServices({ rulePrefix: 'Turnfest-2025', ports: { backend: 8080, frontend: 8081, jury: 8082 } });
    expect(services.map((s) => [s.ruleName, s.port])).toEqual([
      ['Turnfest-2025 Backend Server', 8080],
      ['Turnfest-2025 Frontend Client', 8081],
      ['Turnfest-2025 Jury Portal', 8082],
    ]);
  });

  it.each(['', ' App', 'App ', 'A"pp', 'App=1', 'all:', 'Gerät', 'x'.repeat(65), 'a\nb'])('rejects the rule prefix %j', (rulePrefix) => {
    expect(() => firewallServices({ rulePrefix, ports: { backend: 3001, frontend: 5173, jury: 5174 } })).toThrow(RangeError);
  });

  it.each([0, 65_536, 3001.5, Number.NaN])('rejects the port %d', (port) => {
    expect(() => firewallServices({ rulePrefix: 'App', ports: { backend: 3001, frontend: port, jury: 5174 } })).toThrow(/frontend/);
  });

  it('recognises exactly the three keys', () => {
    expect(FIREWALL_SERVICE_KEYS.every(isFirewallServiceKey)).toBe(true);
    for (const value of ['Backend', 'ssh', '', 'backend ', 3001, null, undefined, 'toString']) {
      expect(isFirewallServiceKey(value)).toBe(false);
    }
  });
});

describe('Windows firewall: exact netsh commands', () => {
  const expected = [
    { service: 'backend', ruleName: 'App Backend Server', port: '3001' },
    { service: 'frontend', ruleName: 'App Frontend Client', port: '5173' },
    { service: 'jury', ruleName: 'App Jury Portal', port: '5174' },
  ] as const;

  it.each(expected)('enable $service: show, then add with one argv element per option', async (row) => {
    const host = new FakeWindowsHost();
    host.admin = true;
    await windowsFirewall(host).enable(row.service);
    expect(host.calls).toEqual([
      { file: NETSH, args: NETSH_ARGS.show(row.ruleName) },
      { file: NETSH, args: NETSH_ARGS.add(row.ruleName, Number(row.port)) },
    ]);
  });

  it.each(expected)('disable $service: show, then delete by name', async (row) => {
    const host = new FakeWindowsHost();
    host.admin = true;
    host.rules.set(row.ruleName, Number(row.port));
    await windowsFirewall(host).disable(row.service);
    expect(host.calls).toEqual([
      { file: NETSH, args: NETSH_ARGS.show(row.ruleName) },
      { file: NETSH, args: NETSH_ARGS.delete(row.ruleName) },
    ]);
  });

  it('status shows each rule by name and nothing else', async () => {
    const host = new FakeWindowsHost();
    await windowsFirewall(host).status();
    expect(host.calls).toEqual(expected.map((row) => ({ file: NETSH, args: NETSH_ARGS.show(row.ruleName) })));
  });

  it('isAdmin runs `net session` from System32', async () => {
    const host = new FakeWindowsHost();
    await windowsFirewall(host).isAdmin();
    expect(host.calls).toEqual([{ file: NET, args: ['session'] }]);
  });

  it('uses the configured prefix in every command', async () => {
    const host = new FakeWindowsHost();
    host.admin = true;
    await windowsFirewall(host, 'Turnfest').enable('jury');
    expect(host.calls.map((c) => c.args[4])).toEqual(['name=Turnfest Jury Portal', 'name=Turnfest Jury Portal']);
  });

  it.each(['ssh', 'Backend', 'backend" & calc', '__proto__', 'toString'])(
    'rejects the service key %j before running any command',
    async (key) => {
      const host = new FakeWindowsHost();
      host.admin = true;
      const firewall = windowsFirewall(host);
      expect(await rejection(firewall.enable(key as FirewallServiceKey))).toBeInstanceOf(TypeError);
      expect(await rejection(firewall.disable(key as FirewallServiceKey))).toBeInstanceOf(TypeError);
      expect(host.calls).toEqual([]);
    },
  );
});

describe.each<Wording>(['en', 'de-cp850', 'de-utf8'])('Windows firewall state table (%s output)', (wording) => {
  it('disabled -> enable with administrator rights -> enabled, success message', async () => {
    const host = new FakeWindowsHost(wording);
    host.admin = true;
    const firewall = windowsFirewall(host);
    expect(await firewall.enable('backend')).toEqual({
      service: 'backend',
      enabled: true,
      changed: true,
      message: expect.stringContaining('App Backend Server'),
    });
    expect(host.rules).toEqual(new Map([['App Backend Server', 3001]]));
    expect(await enabledMap(firewall)).toEqual({ backend: true, frontend: false, jury: false });
  });

  it('disabled -> enable without administrator rights -> PERMISSION_DENIED, still disabled', async () => {
    const host = new FakeWindowsHost(wording);
    const firewall = windowsFirewall(host);
    const error = await firewallError(firewall.enable('frontend'));
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.service).toBe('frontend');
    expect(error.message).toMatch(/administrator/i);
    expect(host.rules.size).toBe(0);
    expect(host.calls.filter((c) => c.file === NET)).toEqual([]);
    expect(await enabledMap(firewall)).toEqual({ backend: false, frontend: false, jury: false });
  });

  it('enabled -> disable with administrator rights -> disabled', async () => {
    const host = new FakeWindowsHost(wording);
    host.admin = true;
    host.rules.set('App Jury Portal', 5174);
    const firewall = windowsFirewall(host);
    expect(await firewall.disable('jury')).toEqual({
      service: 'jury',
      enabled: false,
      changed: true,
      message: expect.stringContaining('App Jury Portal'),
    });
    expect(host.rules.size).toBe(0);
    expect(host.calls.filter((c) => c.file === NET)).toEqual([]);
    expect(await enabledMap(firewall)).toEqual({ backend: false, frontend: false, jury: false });
  });

  it('enabled -> disable without administrator rights -> PERMISSION_DENIED, still enabled', async () => {
    const host = new FakeWindowsHost(wording);
    host.rules.set('App Jury Portal', 5174);
    const firewall = windowsFirewall(host);
    expect((await firewallError(firewall.disable('jury'))).code).toBe('PERMISSION_DENIED');
    expect(host.rules).toEqual(new Map([['App Jury Portal', 5174]]));
    expect(host.calls.filter((c) => c.file === NET)).toEqual([]);
    expect(await enabledMap(firewall)).toEqual({ backend: false, frontend: false, jury: true });
  });

  it('status is read-only and works without administrator rights', async () => {
    const host = new FakeWindowsHost(wording);
    host.rules.set('App Backend Server', 3001);
    host.rules.set('App Jury Portal', 5174);
    const firewall = windowsFirewall(host);
    expect(await firewall.isAdmin()).toBe(false);
    expect(await firewall.status()).toEqual([
      { service: 'backend', name: 'Backend Server', port: 3001, protocol: 'TCP', ruleName: 'App Backend Server', enabled: true },
      { service: 'frontend', name: 'Frontend Client', port: 5173, protocol: 'TCP', ruleName: 'App Frontend Client', enabled: false },
      { service: 'jury', name: 'Jury Portal', port: 5174, protocol: 'TCP', ruleName: 'App Jury Portal', enabled: true },
    ]);
    expect(host.modifyingCalls()).toEqual([]);
  });

  it('enable when already enabled -> changed:false and no add command', async () => {
    const host = new FakeWindowsHost(wording);
    host.rules.set('App Backend Server', 3001);
    const result = await windowsFirewall(host).enable('backend');
    expect(result).toEqual({ service: 'backend', enabled: true, changed: false, message: expect.stringMatching(/already enabled/) });
    expect(host.modifyingCalls()).toEqual([]);
  });

  it('disable when already disabled -> changed:false and no delete command', async () => {
    const host = new FakeWindowsHost(wording);
    const result = await windowsFirewall(host).disable('frontend');
    expect(result).toEqual({ service: 'frontend', enabled: false, changed: false, message: expect.stringMatching(/already disabled/) });
    expect(host.modifyingCalls()).toEqual([]);
  });

  it('disable of a rule that vanished after the check -> RULE_NOT_FOUND advising a refresh', async () => {
    const host = new FakeWindowsHost(wording);
    host.admin = true;
    host.rules.set('App Backend Server', 3001);
    const { runner } = host;
    const racing: CommandRunner = async (file, args) => {
      if (args[2] === 'delete') host.rules.clear();
      return runner(file, args);
    };
    const firewall = createFirewall({ platform: 'win32', runner: racing, systemRoot: 'C:\\Windows' });
    const error = await firewallError(firewall.disable('backend'));
    expect(error.code).toBe('RULE_NOT_FOUND');
    expect(error.message).toMatch(/refresh the status/i);
    expect(error.message).toContain('App Backend Server');
  });
});

describe('Windows firewall: failures outside the recorded wording', () => {
  it('maps an elevation refusal in another language to PERMISSION_DENIED via `net session`', async () => {
    const runner: CommandRunner = async (file, args) => {
      if (file === NET) return { code: 2, stdout: '', stderr: 'Erreur système 5.\r\n\r\nAccès refusé.\r\n' };
      if (args[2] === 'show') return { code: 1, stdout: '\r\nNo rules match the specified criteria.\r\n', stderr: '' };
      return { code: 1, stdout: "L'opération demandée nécessite une élévation.\r\n", stderr: '' };
    };
    const firewall = createFirewall({ platform: 'win32', runner, systemRoot: 'C:\\Windows' });
    expect((await firewallError(firewall.enable('backend'))).code).toBe('PERMISSION_DENIED');
  });

  it('reports COMMAND_FAILED with the netsh output as detail when an administrator still fails', async () => {
    const runner: CommandRunner = async (file, args) => {
      if (file === NET) return { code: 0, stdout: NET_SESSION_ADMIN, stderr: '' };
      if (args[2] === 'show') return { code: 1, stdout: '\r\nNo rules match the specified criteria.\r\n', stderr: '' };
      return { code: 1, stdout: 'An error occurred while attempting to contact the Windows Firewall service.\r\n', stderr: '' };
    };
    const error = await firewallError(createFirewall({ platform: 'win32', runner }).enable('jury'));
    expect(error.code).toBe('COMMAND_FAILED');
    expect(error.detail).toContain('Windows Firewall service');
    expect(error.message).not.toContain('Windows Firewall service');
  });

  it('reports COMMAND_FAILED when the status output is not recognised', async () => {
    const runner: CommandRunner = async () => ({ code: 1, stdout: 'The following command was not found: advfirewall.\r\n', stderr: '' });
    const error = await firewallError(createFirewall({ platform: 'win32', runner }).status());
    expect(error.code).toBe('COMMAND_FAILED');
  });

  it('reports COMMAND_FAILED when netsh cannot be started or times out', async () => {
    const runner: CommandRunner = async () => {
      throw Object.assign(new Error('spawnSync netsh.exe ETIMEDOUT'), { killed: true });
    };
    const firewall = createFirewall({ platform: 'win32', runner });
    expect((await firewallError(firewall.status())).code).toBe('COMMAND_FAILED');
    expect((await firewallError(firewall.enable('backend'))).code).toBe('COMMAND_FAILED');
  });

  it('reports isAdmin false when `net session` cannot run', async () => {
    const runner: CommandRunner = async () => {
      throw new Error('spawn net.exe ENOENT');
    };
    expect(await createFirewall({ platform: 'win32', runner }).isAdmin()).toBe(false);
  });

  it('serialises concurrent changes so a rule is created once', async () => {
    const host = new FakeWindowsHost();
    host.admin = true;
    const firewall = windowsFirewall(host);
    const results = await Promise.all([firewall.enable('backend'), firewall.enable('backend')]);
    expect(results.map((r) => r.changed)).toEqual([true, false]);
    expect(host.modifyingCalls()).toHaveLength(1);
  });

  it('keeps working after a failed change', async () => {
    const host = new FakeWindowsHost();
    const firewall = windowsFirewall(host);
    await firewallError(firewall.enable('backend'));
    host.admin = true;
    expect((await firewall.enable('backend')).changed).toBe(true);
  });
});

describe('unsupported platforms', () => {
  const refusingRunner: CommandRunner = async (file) => {
    throw new Error(`no command may run on this platform, got ${file}`);
  };

  it.each(['linux', 'darwin', 'freebsd'])('%s: status readable, everything disabled, changes refused', async (platform) => {
    const firewall = createFirewall({ platform, runner: refusingRunner });
    expect(firewall).toBeInstanceOf(UnsupportedFirewall);
    expect(firewall.supported).toBe(false);
    expect(firewall.platform).toBe(platform);
    const status = await firewall.status();
    expect(status.map((s) => [s.service, s.ruleName, s.port, s.enabled])).toEqual([
      ['backend', 'App Backend Server', 3001, false],
      ['frontend', 'App Frontend Client', 5173, false],
      ['jury', 'App Jury Portal', 5174, false],
    ]);
    for (const service of FIREWALL_SERVICE_KEYS) {
      for (const change of [firewall.enable(service), firewall.disable(service)]) {
        const error = await firewallError(change);
        expect(error.code).toBe('UNSUPPORTED_PLATFORM');
        expect(error.message).toContain('Windows');
        expect(error.message).toContain(platform);
      }
    }
  });

  it('reports isAdmin from the effective user id', async () => {
    const ports = { backend: 3001, frontend: 5173, jury: 5174 };
    expect(await new UnsupportedFirewall({ platform: 'linux', rulePrefix: 'App', ports, euid: () => 0 }).isAdmin()).toBe(true);
    expect(await new UnsupportedFirewall({ platform: 'linux', rulePrefix: 'App', ports, euid: () => 1000 }).isAdmin()).toBe(false);
    expect(await new UnsupportedFirewall({ platform: 'aix', rulePrefix: 'App', ports, euid: () => undefined }).isAdmin()).toBe(false);
    expect(await createFirewall({ platform: 'linux' }).isAdmin()).toBe(process.geteuid?.() === 0);
  });

  it('still rejects unknown service keys as a programming error', async () => {
    expect(await rejection(createFirewall({ platform: 'linux' }).enable('ssh' as FirewallServiceKey))).toBeInstanceOf(TypeError);
  });

  it('chooses the Windows implementation only for win32', () => {
    expect(createFirewall({ platform: 'win32', runner: refusingRunner })).toBeInstanceOf(WindowsFirewall);
    expect(createFirewall({ platform: 'win32', runner: refusingRunner }).supported).toBe(true);
  });
});

describe('error mapping for the routes', () => {
  it('maps each firewall error code to the contract status and code', () => {
    expect(FIREWALL_ERROR_HTTP).toEqual({
      PERMISSION_DENIED: { statusCode: 403, code: 'PERMISSION_DENIED' },
      RULE_NOT_FOUND: { statusCode: 404, code: 'RULE_NOT_FOUND' },
      UNSUPPORTED_PLATFORM: { statusCode: 501, code: 'UNSUPPORTED_PLATFORM' },
      COMMAND_FAILED: { statusCode: 500, code: 'INTERNAL' },
    });
  });
});

describe('console output decoding', () => {
  it('keeps UTF-8 output intact', () => {
    expect(decodeConsoleOutput(Buffer.from('Für höhere Rechte', 'utf8'))).toBe('Für höhere Rechte');
  });

  it('reads OEM code page output leniently, keeping the ASCII that is matched', () => {
    const decoded = decodeConsoleOutput(asConsoleBytes(OUTPUT.de.requiresElevation, 'de-cp850'));
    expect(decoded).toContain('Rechte erforderlich (Als Administrator ausf');
    expect(decoded).not.toContain('\uFFFD');
  });
});

describe('default command runner (execFile, no shell)', () => {
  const script = 'process.stdout.write(JSON.stringify(process.argv.slice(1))); process.exit(Number(process.argv[1]))';

  it('passes every argument verbatim as one argv element and returns the exit code', async () => {
    const args = ['3', 'name=App Backend Server', 'a & echo pwned', '$(id)', '"quoted"'];
    const result = await execFileRunner(process.execPath, ['-e', script, ...args]);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual(args);
  });

  it('resolves exit code 0 on success', async () => {
    expect(await execFileRunner(process.execPath, ['-e', script, '0'])).toEqual({ code: 0, stdout: '["0"]', stderr: '' });
  });

  it('rejects when the program cannot be started', async () => {
    expect(await rejection(execFileRunner('/nonexistent/netsh.exe', []))).toMatchObject({ code: 'ENOENT' });
  });
});

describe('network info', () => {
  it('describes the real machine', () => {
    const info = networkInfo();
    expect(info.hostname).toBe(hostname());
    const flattened = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
      (list ?? []).map((a) => ({ name, address: a.address, family: a.family, internal: a.internal })),
    );
    expect(info.interfaces).toEqual(flattened);
    const reachable = flattened.filter((a) => !a.internal && !/^fe[89ab]/i.test(a.address));
    expect(info.urls).toHaveLength(reachable.length * 3);
    for (const entry of info.urls) {
      const url = new URL(entry.url);
      expect(url.protocol).toBe('http:');
      expect(url.port).toBe(String(entry.port));
      expect(url.pathname).toBe('/');
      expect(flattened.find((a) => a.address === entry.address)?.internal).toBe(false);
    }
  });

  it('lists all addresses and gives URLs for reachable ones only', () => {
    const interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = {
      lo: [
        { address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' },
        {
          address: '::1',
          netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
          family: 'IPv6',
          mac: '00:00:00:00:00:00',
          internal: true,
          cidr: '::1/128',
          scopeid: 0,
        },
      ],
      Ethernet: [
        {
          address: '192.168.1.20',
          netmask: '255.255.255.0',
          family: 'IPv4',
          mac: '02:00:00:00:00:01',
          internal: false,
          cidr: '192.168.1.20/24',
        },
        {
          address: 'fd00::20',
          netmask: 'ffff:ffff:ffff:ffff::',
          family: 'IPv6',
          mac: '02:00:00:00:00:01',
          internal: false,
          cidr: 'fd00::20/64',
          scopeid: 0,
        },
        {
          address: 'fe80::1',
          netmask: 'ffff:ffff:ffff:ffff::',
          family: 'IPv6',
          mac: '02:00:00:00:00:01',
          internal: false,
          cidr: 'fe80::1/64',
          scopeid: 7,
        },
      ],
      empty: undefined,
    };
    const info = networkInfo({
      hostname: 'GYM-PC',
      interfaces,
      ports: { backend: 3001, frontend: 5173, jury: 5174 },
      answering: new Set(['backend', 'jury'] as const),
    });
    expect(info.hostname).toBe('GYM-PC');
    expect(info.interfaces).toEqual([
      { name: 'lo', address: '127.0.0.1', family: 'IPv4', internal: true },
      { name: 'lo', address: '::1', family: 'IPv6', internal: true },
      { name: 'Ethernet', address: '192.168.1.20', family: 'IPv4', internal: false },
      { name: 'Ethernet', address: 'fd00::20', family: 'IPv6', internal: false },
      { name: 'Ethernet', address: 'fe80::1', family: 'IPv6', internal: false },
    ]);
    expect(info.urls).toEqual([
      { service: 'backend', port: 3001, interface: 'Ethernet', address: '192.168.1.20', url: 'http://192.168.1.20:3001/', answers: true },
      { service: 'frontend', port: 5173, interface: 'Ethernet', address: '192.168.1.20', url: 'http://192.168.1.20:5173/', answers: false },
      { service: 'jury', port: 5174, interface: 'Ethernet', address: '192.168.1.20', url: 'http://192.168.1.20:5174/', answers: true },
      { service: 'backend', port: 3001, interface: 'Ethernet', address: 'fd00::20', url: 'http://[fd00::20]:3001/', answers: true },
      { service: 'frontend', port: 5173, interface: 'Ethernet', address: 'fd00::20', url: 'http://[fd00::20]:5173/', answers: false },
      { service: 'jury', port: 5174, interface: 'Ethernet', address: 'fd00::20', url: 'http://[fd00::20]:5174/', answers: true },
    ]);
    for (const { url } of info.urls) expect(new URL(url).href).toBe(url);
  });

  it('uses configured ports', () => {
    const info = networkInfo({
      interfaces: {
        eth0: [
          { address: '10.0.0.5', netmask: '255.0.0.0', family: 'IPv4', mac: '02:00:00:00:00:02', internal: false, cidr: '10.0.0.5/8' },
        ],
      },
      ports: { backend: 8080, frontend: 8081, jury: 8082 },
    });
    expect(info.urls.map((u) => u.url)).toEqual(['http://10.0.0.5:8080/', 'http://10.0.0.5:8081/', 'http://10.0.0.5:8082/']);
    // Without a probe only the backend, the process that answers this, is said to answer.
    expect(info.urls.map((u) => u.answers)).toEqual([true, false, false]);
  });

  it('probes the client ports: a listening port answers, a closed one does not, the backend always', async () => {
    const listening = createServer();
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const answering = await answeringServices({
        backend: closedPort,
        frontend: (listening.address() as AddressInfo).port,
        jury: closedPort,
      });
      expect([...answering].sort()).toEqual(['backend', 'frontend']);
    } finally {
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    }
  });
});
