/**
 * The network access page in Chromium (spec "Firewall access per service" and "Firewall
 * management"): on this Linux host the unsupported-platform message; with a fake Windows firewall
 * (recorded netsh output) injected into the server, the transient "checking" state, the
 * non-administrator warning with disabled buttons, and the administrator state with working
 * enable/disable and the "cannot find rule" advice. The access URLs carry QR codes of themselves.
 */
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { encode } from 'uqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIREWALL_PORTS, WindowsFirewall, type CommandRunner, type NetworkInfo } from '../../src/firewall/index.js';
import { FakeWindowsHost, NETSH } from '../support/netsh-outputs.js';
import { insertPanelDiscipline, type PanelDiscipline } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { adminToken, bearer } from '../support/tokens.js';
import { PHONE, PHONE_390, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, signIn } from './support/office.js';
import { noHorizontalOverflow } from './support/portal.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const buttonStates = (page: OpenedPage['page']) =>
  page.$$eval('#firewall-services tbody tr', (rows) =>
    rows.map((row) => [
      row.getAttribute('data-service'),
      ...Array.from(row.querySelectorAll('button')).map((button) => `${button.dataset.action}:${button.disabled ? 'off' : 'on'}`),
    ]),
  );
const ruleStates = (page: OpenedPage['page']) =>
  page.$$eval('#firewall-services tbody tr', (rows) =>
    rows.map((row) => [row.getAttribute('data-service'), row.querySelector('.rule-state')?.getAttribute('data-state')]),
  );

/** A port something listens on (a stand-alone client started by hand), and one nothing does. */
async function listeningAndClosedPorts(): Promise<{ listener: NetServer; listening: number; closed: number }> {
  const listen = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  };
  const open = await listen();
  const spare = await listen();
  await new Promise<void>((resolve) => spare.server.close(() => resolve()));
  return { listener: open.server, listening: open.port, closed: spare.port };
}

describe('office: network access on this (Linux) host', () => {
  let server: TestServer;
  let office: OpenedPage;
  let ports: Awaited<ReturnType<typeof listeningAndClosedPorts>>;
  let panel: PanelDiscipline;

  beforeAll(async () => {
    ports = await listeningAndClosedPorts();
    server = await startTestServer({ env: { FRONTEND_PORT: String(ports.listening), JURY_PORT: String(ports.closed) } });
    panel = await insertPanelDiscipline(server.pool, { name: 'Sprung', judges: 3 });
    const settings = await fetch(`${server.url}/api/disciplines/${panel.id}/panel`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...bearer(adminToken) },
      body: JSON.stringify({ judgeFieldIds: panel.judges, aggregation: 'median', aggregateFieldId: panel.aggregate, tolerance: 0.5 }),
    });
    expect(settings.status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => ports?.listener.close(() => resolve()));
  });

  it('says firewall management is for Windows only and disables every change, also for an admin', async () => {
    office = await openPage(browser, officeUrl(server.url, 'network'));
    await signIn(office.page, adminToken);
    await office.page.locator('#admin-indicator[data-state="unsupported"]').waitFor();
    expect(await office.page.textContent('#admin-indicator')).toContain('only when the server runs on Windows; this server runs on linux');
    expect(await ruleStates(office.page)).toEqual([
      ['backend', 'unsupported'],
      ['frontend', 'unsupported'],
      ['jury', 'unsupported'],
    ]);
    expect(await buttonStates(office.page)).toEqual([
      ['backend', 'enable:off', 'disable:off'],
      ['frontend', 'enable:off', 'disable:off'],
      ['jury', 'enable:off', 'disable:off'],
    ]);
    expect(await office.page.isVisible('#event-select')).toBe(false);
  });

  it('lists an access URL per service and address, a QR code of exactly that URL only where the service answers', async () => {
    const info = (await (await fetch(`${server.url}/api/firewall/network-info`)).json()) as NetworkInfo;
    expect(new Set(info.urls.map((entry) => `${entry.service}:${entry.answers}`))).toEqual(
      info.urls.length === 0 ? new Set() : new Set(['backend:true', 'frontend:true', 'jury:false']),
    );
    const expected = info.urls
      .filter((entry) => entry.answers)
      .map((entry) => `${entry.url}${entry.service === 'frontend' ? 'office/' : 'jury/'}`);
    if (expected.length === 0) {
      await office.page.locator('#access-addresses', { hasText: 'no address other devices can reach' }).waitFor();
      return;
    }
    await office.page.locator('.access-url').first().waitFor();
    // The closed port is named with how to start it, and has no code: scanning it would open nothing.
    const silent = office.page.locator('.access-url[data-service="jury"]').first();
    expect(await silent.locator('svg.qr').count()).toBe(0);
    expect(await silent.textContent()).toContain(`Nothing answers on port ${ports.closed}`);
    const shown = await office.page.$$eval('.access-url[data-answers="true"]', (items) =>
      items.map((item) => ({
        url: item.getAttribute('data-url'),
        link: item.querySelector('a')?.getAttribute('href'),
        qr: item.querySelector('svg.qr')?.getAttribute('data-qr-text'),
      })),
    );
    expect(shown).toEqual(expected.map((url) => ({ url, link: url, qr: url })));
    // The drawn modules are the encoder's matrix of that URL, quiet zone included.
    const first = expected[0]!;
    const path = await office.page.getAttribute(`.access-url[data-url="${first}"] svg.qr path`, 'd');
    const { data } = encode(first, { ecc: 'M', border: 4 });
    const dark = data.flatMap((row, y) => row.flatMap((isDark, x) => (isDark ? [`M${x} ${y}h1v1h-1z`] : []))).join('');
    expect(path).toBe(dark);
    await saveScreenshot(office.page, 'office-network-unsupported');
    expect(office.errors).toEqual([]);
  });

  it('gives every E-judge seat of an E-panel device a portal link with its QR code', async () => {
    const info = (await (await fetch(`${server.url}/api/firewall/network-info`)).json()) as NetworkInfo;
    const backends = info.urls.filter((entry) => entry.service === 'backend');
    if (backends.length === 0) return;
    await office.page.locator('.e-judge-url').first().waitFor();
    const links = await office.page.$$eval('.e-judge-url', (items) =>
      items.map((item) => ({
        url: item.getAttribute('data-url'),
        qr: item.querySelector('svg.qr')?.getAttribute('data-qr-text'),
        label: item.querySelector('strong')?.textContent,
      })),
    );
    const expected = backends.flatMap((backend) =>
      panel.judges.map((fieldId, index) => {
        const url = `${backend.url}jury/?disciplineId=${panel.id}&field=${fieldId}`;
        return { url, qr: url, label: `Sprung · E${index + 1}` };
      }),
    );
    expect(links).toEqual(expected);
    await office.page.setViewportSize({ width: 1366, height: 768 });
    await saveScreenshot(office.page, 'office-network-e-judges-1366');
    const phone = await openPage(browser, officeUrl(server.url, 'network'), PHONE_390);
    await phone.page.locator('.e-judge-url').first().waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-network-e-judges-390');
    await phone.page.close();
  });
});

describe('office: network access with a (fake) Windows firewall', () => {
  let server: TestServer;
  let host: FakeWindowsHost;
  let office: OpenedPage;
  /** While set, `netsh ... show rule` waits for it: the page must show "checking" meanwhile. */
  let gate: Promise<void> | null = null;
  /** A rule that vanishes between the existence check and the delete, as when someone removes it by hand. */
  let vanishing: string | null = null;

  beforeAll(async () => {
    host = new FakeWindowsHost('en');
    const runner: CommandRunner = async (file, args) => {
      if (file === NETSH && args[2] === 'show' && gate) await gate;
      if (file === NETSH && args[2] === 'delete' && vanishing && args[4] === `name=${vanishing}`) host.rules.delete(vanishing);
      return host.runner(file, args);
    };
    const firewall = new WindowsFirewall({ rulePrefix: 'App', ports: DEFAULT_FIREWALL_PORTS, systemRoot: 'C:\\Windows', runner });
    server = await startTestServer({ firewall });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('shows "checking" while the status loads, then the warning banner and disabled buttons without administrator rights', async () => {
    host.rules.set('App Backend Server', 3001);
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    office = await openPage(browser, officeUrl(server.url, 'network'));
    await signIn(office.page, adminToken);
    await office.page.locator('#admin-indicator[data-state="checking"]').waitFor();
    expect(await ruleStates(office.page)).toEqual([
      ['backend', 'checking'],
      ['frontend', 'checking'],
      ['jury', 'checking'],
    ]);
    expect(await office.page.isDisabled('#firewall-refresh')).toBe(true);
    await saveScreenshot(office.page, 'office-network-checking');
    gate = null;
    open();

    await office.page.locator('#admin-indicator[data-state="not-admin"]').waitFor();
    expect(await office.page.textContent('#admin-indicator')).toContain('does not run with administrator rights');
    expect(await ruleStates(office.page)).toEqual([
      ['backend', 'enabled'],
      ['frontend', 'disabled'],
      ['jury', 'disabled'],
    ]);
    expect(await buttonStates(office.page)).toEqual([
      ['backend', 'enable:off', 'disable:off'],
      ['frontend', 'enable:off', 'disable:off'],
      ['jury', 'enable:off', 'disable:off'],
    ]);
    expect(await office.page.textContent('#firewall-services tr[data-service="jury"] .rule-name')).toBe('App Jury Portal');
    await saveScreenshot(office.page, 'office-network-not-admin');
    expect(host.modifyingCalls()).toEqual([]);
  });

  it('shows the positive indicator with administrator rights; enable and disable change the rules', async () => {
    host.admin = true;
    await office.page.click('#firewall-refresh');
    await office.page.locator('#admin-indicator[data-state="admin"]').waitFor();
    expect(await office.page.textContent('#admin-indicator')).toContain('runs with administrator rights');
    expect(await buttonStates(office.page)).toEqual([
      ['backend', 'enable:off', 'disable:on'],
      ['frontend', 'enable:on', 'disable:off'],
      ['jury', 'enable:on', 'disable:off'],
    ]);
    await saveScreenshot(office.page, 'office-network-admin');

    await office.page.click('#firewall-services tr[data-service="jury"] button[data-action="enable"]');
    await office.page.locator('#firewall-outcome[data-kind="success"]').waitFor();
    await office.page.locator('#firewall-services tr[data-service="jury"] .rule-state[data-state="enabled"]').waitFor();
    expect(host.rules.get('App Jury Portal')).toBe(5174);

    // Keyboard: the disable button of the backend row, reached by focus and pressed with Enter.
    await office.page.focus('#firewall-services tr[data-service="backend"] button[data-action="disable"]');
    await office.page.keyboard.press('Enter');
    await office.page.locator('#firewall-services tr[data-service="backend"] .rule-state[data-state="disabled"]').waitFor();
    expect(host.rules.has('App Backend Server')).toBe(false);
    expect(await office.page.textContent('#firewall-outcome')).toContain('Backend Server');
  });

  it('advises refreshing when the firewall cannot find the rule', async () => {
    vanishing = 'App Jury Portal';
    await office.page.click('#firewall-services tr[data-service="jury"] button[data-action="disable"]');
    await office.page.locator('#firewall-outcome[data-kind="error"]').waitFor();
    const text = await office.page.textContent('#firewall-outcome');
    expect(text).toContain('cannot find the rule "App Jury Portal"');
    expect(text).toContain('refresh the status');
    vanishing = null;
    await office.page.click('#outcome-refresh');
    await office.page.locator('#firewall-services tr[data-service="jury"] .rule-state[data-state="disabled"]').waitFor();
    await saveScreenshot(office.page, 'office-network-rule-not-found');
    expect(office.errors).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const phone = await openPage(browser, officeUrl(server.url, 'network'), PHONE);
    await phone.page.locator('#admin-indicator[data-state="admin"]').waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-network-phone');
    await phone.context.close();
  });
});
