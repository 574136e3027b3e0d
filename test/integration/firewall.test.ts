import { STATUS_CODES } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_FIREWALL_PORTS,
  FIREWALL_SERVICE_KEYS,
  WindowsFirewall,
  type CommandRunner,
  type FirewallServiceKey,
} from '../../src/firewall/index.js';
import { FakeWindowsHost, NET, NETSH, NETSH_ARGS, type Wording } from '../support/netsh-outputs.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, foreignToken, juryToken } from '../support/tokens.js';

const SERVICES = [
  { service: 'backend', name: 'Backend Server', port: 3001, ruleName: 'App Backend Server' },
  { service: 'frontend', name: 'Frontend Client', port: 5173, ruleName: 'App Frontend Client' },
  { service: 'jury', name: 'Jury Portal', port: 5174, ruleName: 'App Jury Portal' },
] as const;

const ACTIONS = ['enable', 'disable'] as const;
type Action = (typeof ACTIONS)[number];

/** Every row once per change endpoint, since both must behave alike. */
function forEachAction<T extends object>(rows: readonly T[]): (T & { action: Action })[] {
  return rows.flatMap((row) => ACTIONS.map((action) => ({ ...row, action })));
}

interface LogLine {
  level: number;
  firewall?: Record<string, unknown>;
}

const PINO_INFO = 30;
const PINO_WARN = 40;

function change(server: TestServer, action: Action, service: string, token: string | null = adminToken): Promise<Response> {
  return fetch(`${server.url}/api/firewall/${action}/${service}`, {
    method: 'POST',
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

function errorBody(status: number, code: string, message: RegExp): unknown {
  return { statusCode: status, error: STATUS_CODES[status], code, message: expect.stringMatching(message) };
}

async function getJson(server: TestServer, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json() };
}

describe('firewall over HTTP on a (replayed) Windows host', () => {
  let server: TestServer;
  let host: FakeWindowsHost;
  // Indirection so each test gets a fresh host (or a racing one) behind the one server.
  let runner: CommandRunner;
  const logs: LogLine[] = [];

  beforeAll(async () => {
    const firewall = new WindowsFirewall({
      rulePrefix: 'App',
      ports: DEFAULT_FIREWALL_PORTS,
      systemRoot: 'C:\\Windows',
      runner: (file, args) => runner(file, args),
    });
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
    server = await startTestServer({ firewall, logger });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function useHost(wording: Wording = 'en'): void {
    host = new FakeWindowsHost(wording);
    runner = host.runner;
    logs.length = 0;
  }
  beforeEach(() => useHost());

  function firewallLogs(): LogLine[] {
    return logs.filter((line) => line.firewall !== undefined).map(({ level, firewall }) => ({ level, firewall }));
  }

  describe('status', () => {
    it('answers without a token, read-only, reporting missing administrator rights', async () => {
      host.rules.set('App Backend Server', 3001);
      host.rules.set('App Jury Portal', 5174);
      const { status, body } = await getJson(server, '/api/firewall/status');
      expect(status).toBe(200);
      expect(body).toEqual({
        supported: true,
        platform: 'win32',
        isAdmin: false,
        services: SERVICES.map((s) => ({ ...s, protocol: 'TCP', enabled: s.service !== 'frontend' })),
      });
      expect(host.modifyingCalls()).toEqual([]);
      expect(host.calls).toEqual(
        expect.arrayContaining([
          { file: NET, args: ['session'] },
          ...SERVICES.map((s) => ({ file: NETSH, args: NETSH_ARGS.show(s.ruleName) })),
        ]),
      );
      expect(host.calls).toHaveLength(4);
    });

    it('reports administrator rights from the exit code of `net session`', async () => {
      host.admin = true;
      expect((await getJson(server, '/api/firewall/status')).body.isAdmin).toBe(true);
    });

    it('answers 500 INTERNAL without the raw tool output when netsh cannot run', async () => {
      runner = async (file) => {
        if (file === NET) return { code: 0, stdout: '', stderr: '' };
        throw new Error('spawn C:\\Windows\\System32\\netsh.exe ENOENT');
      };
      const { status, body } = await getJson(server, '/api/firewall/status');
      expect(status).toBe(500);
      expect(body).toMatchObject({ statusCode: 500, code: 'INTERNAL' });
      expect(body.message).not.toContain('ENOENT');
    });
  });

  // The spec's state table, plus the "already in that state" answers; `before` lists enabled services.
  const STATE_TABLE: {
    row: string;
    admin: boolean;
    before: FirewallServiceKey[];
    action: Action;
    service: FirewallServiceKey;
    status: number;
    code?: string;
    message: RegExp;
    after: FirewallServiceKey[];
    /** No add/delete may even be attempted. */
    untouched?: true;
  }[] = [
    {
      row: 'disabled -> enable with administrator rights -> enabled',
      admin: true,
      before: [],
      action: 'enable',
      service: 'backend',
      status: 200,
      message: /inbound allow rule "App Backend Server" created/,
      after: ['backend'],
    },
    {
      row: 'disabled -> enable without administrator rights -> PERMISSION_DENIED, still disabled',
      admin: false,
      before: [],
      action: 'enable',
      service: 'frontend',
      status: 403,
      code: 'PERMISSION_DENIED',
      message: /administrator rights.*Frontend Client was not changed/,
      after: [],
    },
    {
      row: 'enabled -> disable with administrator rights -> disabled',
      admin: true,
      before: ['jury'],
      action: 'disable',
      service: 'jury',
      status: 200,
      message: /rule "App Jury Portal" deleted/,
      after: [],
    },
    {
      row: 'enabled -> disable without administrator rights -> PERMISSION_DENIED, still enabled',
      admin: false,
      before: ['jury'],
      action: 'disable',
      service: 'jury',
      status: 403,
      code: 'PERMISSION_DENIED',
      message: /administrator rights.*Jury Portal was not changed/,
      after: ['jury'],
    },
    {
      row: 'enabled -> enable -> already enabled, nothing changed',
      admin: true,
      before: ['backend'],
      action: 'enable',
      service: 'backend',
      status: 200,
      message: /already enabled.*nothing was changed/,
      after: ['backend'],
      untouched: true,
    },
    {
      row: 'disabled -> disable -> already disabled, nothing changed',
      admin: true,
      before: [],
      action: 'disable',
      service: 'frontend',
      status: 200,
      message: /already disabled.*nothing was changed/,
      after: [],
      untouched: true,
    },
  ];

  function rulesOf(services: readonly FirewallServiceKey[]): Map<string, number> {
    return new Map(SERVICES.filter((s) => services.includes(s.service)).map((s) => [s.ruleName, s.port]));
  }

  describe.each<Wording>(['en', 'de-cp850'])('state table (%s netsh output)', (wording) => {
    beforeEach(() => useHost(wording));

    it.each(STATE_TABLE)('$row', async (row) => {
      host.admin = row.admin;
      for (const [name, port] of rulesOf(row.before)) host.rules.set(name, port);
      const response = await change(server, row.action, row.service);
      expect(response.status).toBe(row.status);
      expect(await response.json()).toEqual(
        row.code === undefined
          ? { success: true, service: row.service, enabled: row.after.includes(row.service), message: expect.stringMatching(row.message) }
          : errorBody(row.status, row.code, row.message),
      );
      expect(host.rules).toEqual(rulesOf(row.after));
      if (row.untouched) expect(host.modifyingCalls()).toEqual([]);
      const { body } = await getJson(server, '/api/firewall/status');
      expect(body.isAdmin).toBe(row.admin);
      expect(body.services.filter((s: { enabled: boolean }) => s.enabled).map((s: { service: string }) => s.service)).toEqual(row.after);
    });

    it('any -> status -> unchanged, also without administrator rights', async () => {
      host.rules.set('App Frontend Client', 5173);
      const before = new Map(host.rules);
      const { status, body } = await getJson(server, '/api/firewall/status');
      expect(status).toBe(200);
      expect(body.isAdmin).toBe(false);
      expect(host.rules).toEqual(before);
      expect(host.modifyingCalls()).toEqual([]);
    });

    it('disable of a rule that vanished after the check -> 404 RULE_NOT_FOUND advising a refresh', async () => {
      host.admin = true;
      host.rules.set('App Backend Server', 3001);
      runner = async (file, args) => {
        if (args[2] === 'delete') host.rules.clear();
        return host.runner(file, args);
      };
      const response = await change(server, 'disable', 'backend');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(errorBody(404, 'RULE_NOT_FOUND', /refresh the status/i));
    });
  });

  describe('exact netsh commands per service', () => {
    it.each(SERVICES)('enable $service: show, then add with one argv element per option', async (row) => {
      host.admin = true;
      expect((await change(server, 'enable', row.service)).status).toBe(200);
      expect(host.calls).toEqual([
        { file: NETSH, args: NETSH_ARGS.show(row.ruleName) },
        { file: NETSH, args: NETSH_ARGS.add(row.ruleName, row.port) },
      ]);
    });

    it.each(SERVICES)('disable $service: show, then delete by name', async (row) => {
      host.admin = true;
      host.rules.set(row.ruleName, row.port);
      expect((await change(server, 'disable', row.service)).status).toBe(200);
      expect(host.calls).toEqual([
        { file: NETSH, args: NETSH_ARGS.show(row.ruleName) },
        { file: NETSH, args: NETSH_ARGS.delete(row.ruleName) },
      ]);
    });
  });

  describe('service validation', () => {
    const invalid = [
      'ssh',
      'Backend',
      'backend;calc',
      encodeURIComponent('backend;calc'),
      encodeURIComponent('backend" name=all'),
      encodeURIComponent('backend '),
      encodeURIComponent('backend\nfrontend'),
      '__proto__',
      'toString',
    ];

    it.each(forEachAction(invalid.map((service) => ({ service }))))(
      '$action $service -> 400 VALIDATION_FAILED and no command ran',
      async ({ action, service }) => {
        host.admin = true;
        const response = await change(server, action, service);
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual(errorBody(400, 'VALIDATION_FAILED', /params\.service/));
        expect(host.calls).toEqual([]);
      },
    );
  });

  describe('authentication', () => {
    const cases: { label: string; token: string | null; status: number; code: string }[] = [
      { label: 'without a token', token: null, status: 401, code: 'UNAUTHORIZED' },
      { label: 'with a token signed by another key', token: foreignToken, status: 401, code: 'UNAUTHORIZED' },
      { label: 'with a malformed token', token: 'not.a.jwt', status: 401, code: 'UNAUTHORIZED' },
      { label: 'with role jury', token: juryToken, status: 403, code: 'FORBIDDEN' },
    ];

    it.each(forEachAction(cases))(
      '$action $label -> $status $code, before validation, no command ran',
      async ({ action, token, status, code }) => {
        host.admin = true;
        for (const service of ['backend', 'backend;calc']) {
          const response = await change(server, action, service, token);
          expect(response.status).toBe(status);
          expect(await response.json()).toMatchObject({ statusCode: status, code });
        }
        expect(host.calls).toEqual([]);
      },
    );

    it('accepts an admin token issued by the app itself', async () => {
      host.admin = true;
      const token = server.app.jwt.sign({ sub: 'lead', role: 'admin' }, { expiresIn: '1h' });
      expect((await change(server, 'enable', 'jury', token)).status).toBe(200);
    });
  });

  describe('audit log', () => {
    it('logs who enabled what and the result', async () => {
      host.admin = true;
      await change(server, 'enable', 'backend');
      await change(server, 'enable', 'backend');
      expect(firewallLogs()).toEqual([
        { level: PINO_INFO, firewall: { who: 'anna', action: 'enable', service: 'backend', result: 'changed', enabled: true } },
        { level: PINO_INFO, firewall: { who: 'anna', action: 'enable', service: 'backend', result: 'unchanged', enabled: true } },
      ]);
    });

    it('logs a refused change at warn level with the code and the raw netsh output', async () => {
      host.rules.set('App Frontend Client', 5173);
      await change(server, 'disable', 'frontend');
      expect(firewallLogs()).toEqual([
        {
          level: PINO_WARN,
          firewall: {
            who: 'anna',
            action: 'disable',
            service: 'frontend',
            result: 'refused',
            code: 'PERMISSION_DENIED',
            detail: expect.stringContaining('requires elevation'),
          },
        },
      ]);
    });

    it('does not log rejected requests as firewall changes', async () => {
      await change(server, 'enable', 'backend', juryToken);
      await change(server, 'enable', 'backend;calc');
      expect(firewallLogs()).toEqual([]);
    });
  });
});

describe('firewall over HTTP on this (unsupported) host', () => {
  let server: TestServer;
  // Non-default configuration, so the test shows that prefix and ports come from the config.
  const ports = { backend: 3001, frontend: 8081, jury: 8082 };

  beforeAll(async () => {
    server = await startTestServer({ env: { RULE_PREFIX: 'Turnfest', FRONTEND_PORT: '8081', JURY_PORT: '8082' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reports status as unsupported with every service disabled', async () => {
    const { status, body } = await getJson(server, '/api/firewall/status');
    expect(status).toBe(200);
    expect(body).toEqual({
      supported: false,
      platform: process.platform,
      isAdmin: process.geteuid?.() === 0,
      services: SERVICES.map((s) => ({
        service: s.service,
        name: s.name,
        port: ports[s.service],
        protocol: 'TCP',
        ruleName: `Turnfest ${s.name}`,
        enabled: false,
      })),
    });
  });

  it.each(forEachAction(FIREWALL_SERVICE_KEYS.map((service) => ({ service }))))(
    '$action $service -> 501 UNSUPPORTED_PLATFORM',
    async ({ action, service }) => {
      const response = await change(server, action, service);
      expect(response.status).toBe(501);
      expect(await response.json()).toEqual(errorBody(501, 'UNSUPPORTED_PLATFORM', /only supported on Windows/));
    },
  );

  it('still checks the token first', async () => {
    expect((await change(server, 'enable', 'backend', null)).status).toBe(401);
  });

  it('lists the local addresses and access URLs for the reachable ones, with the configured ports', async () => {
    const { status, body } = await getJson(server, '/api/firewall/network-info');
    expect(status).toBe(200);
    expect(body.hostname).toBe(hostname());
    expect(body.interfaces).toContainEqual({ name: expect.any(String), address: '127.0.0.1', family: 'IPv4', internal: true });
    const local = Object.entries(networkInterfaces()).flatMap(([name, list]) =>
      (list ?? []).map(({ address, family, internal }) => ({ name, address, family, internal })),
    );
    expect(body.interfaces).toEqual(local);

    const reachable = local.filter((a) => !a.internal && !/^fe[89ab]/i.test(a.address));
    expect(body.urls).toHaveLength(reachable.length * FIREWALL_SERVICE_KEYS.length);
    for (const entry of body.urls) {
      expect(reachable).toContainEqual(expect.objectContaining({ name: entry.interface, address: entry.address }));
      expect(entry.port).toBe(ports[entry.service as FirewallServiceKey]);
      expect(new URL(entry.url).port).toBe(String(entry.port));
      // Nothing listens on the client ports here; the backend is the process that answers.
      expect(entry.answers).toBe(entry.service === 'backend');
    }
    expect(body.urls.some((u: { address: string }) => u.address === '127.0.0.1' || u.address === '::1')).toBe(false);
  });
});
