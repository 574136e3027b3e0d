import type { NetworkInfo, ServiceUrl } from '../../src/firewall/network-info.js';
import { FIREWALL_SERVICE_KEYS, SERVICE_NAMES, type FirewallServiceKey } from '../../src/firewall/services.js';
import { api as sharedApi, HttpError } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { m } from './messages.js';
import type { OfficeView, ViewContext } from './view.js';
import type { FirewallStatus } from './office-api.js';
import { qrCode } from './qr.js';
import { spectatorAccessEntries } from './spectator-setup.js';

/**
 * The page each service's address should open: the backend serves every page and judges scan for
 * the portal; the stand-alone ports serve their own page under the same path.
 */
const PAGE_OF_SERVICE: Readonly<Record<FirewallServiceKey, { path: string; label: string }>> = {
  backend: { path: 'jury/', label: m('net.jury') },
  frontend: { path: 'office/', label: m('net.office') },
  jury: { path: 'jury/', label: m('net.jury') },
};

/** How a stand-alone client service is started, for the note where its port does not answer. */
const STAND_ALONE_COMMAND: Readonly<Record<FirewallServiceKey, string>> = {
  backend: 'npm start',
  frontend: 'npm run serve:office',
  jury: 'npm run serve:web',
};

interface EJudgeSeat {
  disciplineId: number;
  fieldId: number;
  device: string;
  judge: string;
}

type Indicator = 'checking' | 'admin' | 'not-admin' | 'unsupported' | 'error';

/**
 * Network access page (spec "Firewall access per service" and "Firewall management"): the three
 * services, their rule state with the transient "checking" display state, enable and disable, the
 * administrator indicator, and the addresses other devices use to reach them: a QR code only for a
 * service that answers (the stand-alone client ports are closed unless started), and one per
 * E-judge seat of an E-panel device.
 */
export function networkView(context: ViewContext): OfficeView {
  const { api, session } = context;
  let status: FirewallStatus | null = null;
  let checking = false;
  let busy = false;
  let generation = 0;

  const indicator = h('div', { class: 'indicator', id: 'admin-indicator', 'data-state': 'checking', role: 'status' });
  const tokenHint = h('p', { class: 'hint', id: 'firewall-token-hint', hidden: true });
  const outcome = h('div', { class: 'outcome', id: 'firewall-outcome', role: 'alert', hidden: true });
  const rows = h('tbody');
  const refresh = h('button', { type: 'button', id: 'firewall-refresh' }, m('net.refresh'));
  refresh.addEventListener('click', () => void loadStatus());
  const addresses = h('div', { class: 'addresses', id: 'access-addresses' }, h('p', { class: 'view-message' }, m('net.loadingAddresses')));

  function renderIndicator(): void {
    let state: Indicator;
    let text: string;
    if (checking && status === null) {
      [state, text] = ['checking', m('net.checkingStatus')];
    } else if (status === null) {
      [state, text] = ['error', m('net.statusUnread')];
    } else if (!status.supported) {
      [state, text] = ['unsupported', m('net.unsupported', { platform: status.platform })];
    } else if (status.isAdmin) {
      [state, text] = ['admin', m('net.admin')];
    } else {
      [state, text] = ['not-admin', m('net.notAdmin')];
    }
    indicator.dataset.state = state;
    indicator.textContent = text;
    tokenHint.hidden = session.isAdmin || !status?.supported;
    tokenHint.textContent = m('net.signIn');
  }

  function renderRows(): void {
    const services =
      status?.services ??
      FIREWALL_SERVICE_KEYS.map((service) => ({ service, name: SERVICE_NAMES[service], port: null, ruleName: '', enabled: false }));
    const changeAllowed = !checking && !busy && status !== null && status.supported && status.isAdmin && session.isAdmin;
    rows.replaceChildren(
      ...services.map((service) => {
        const state = checking
          ? 'checking'
          : status === null
            ? 'unknown'
            : !status.supported
              ? 'unsupported'
              : service.enabled
                ? 'enabled'
                : 'disabled';
        const stateText: Record<string, string> = {
          checking: m('net.checking'),
          unknown: m('net.unknown'),
          unsupported: m('net.notManaged'),
          enabled: m('net.enabled'),
          disabled: m('net.disabled'),
        };
        const button = (action: 'enable' | 'disable') => {
          const element = h(
            'button',
            {
              type: 'button',
              class: action === 'enable' ? 'small primary' : 'small',
              'data-action': action,
              disabled: !changeAllowed || (action === 'enable') === service.enabled,
              'aria-label': m(action === 'enable' ? 'net.enableLabel' : 'net.disableLabel', { name: service.name }),
            },
            action === 'enable' ? m('net.enable') : m('net.disable'),
          );
          element.addEventListener('click', () => void change(action, service.service, service.name, service.ruleName));
          return element;
        };
        return h(
          'tr',
          { 'data-service': service.service },
          h('th', { scope: 'row' }, service.name),
          h('td', {}, service.port === null ? '' : `TCP ${service.port}`),
          h('td', { class: 'rule-name' }, service.ruleName),
          h('td', {}, h('span', { class: 'rule-state', 'data-state': state }, stateText[state])),
          h('td', { class: 'actions-cell' }, button('enable'), button('disable')),
        );
      }),
    );
  }

  function render(): void {
    renderIndicator();
    renderRows();
    refresh.disabled = checking;
  }

  function showOutcome(kind: 'success' | 'error', content: Array<Node | string>): void {
    outcome.hidden = false;
    outcome.dataset.kind = kind;
    outcome.replaceChildren(...content);
  }

  async function loadStatus(): Promise<void> {
    const mine = ++generation;
    checking = true;
    render();
    try {
      const loaded = await api.firewallStatus();
      if (mine !== generation) return;
      status = loaded;
    } catch (error) {
      if (mine !== generation) return;
      status = null;
      showOutcome('error', [m('net.readFailed', { error: (error as Error).message })]);
    }
    checking = false;
    render();
  }

  async function change(action: 'enable' | 'disable', service: FirewallServiceKey, name: string, ruleName: string): Promise<void> {
    busy = true;
    outcome.hidden = true;
    render();
    try {
      const result = await api.changeFirewall(action, service);
      showOutcome('success', [`✓ ${result.message}`]);
      busy = false;
      await loadStatus();
      return;
    } catch (error) {
      const code = error instanceof HttpError ? error.code : '';
      if (code === 'RULE_NOT_FOUND') {
        const again = h('button', { type: 'button', class: 'small', id: 'outcome-refresh' }, m('net.refresh'));
        again.addEventListener('click', () => void loadStatus());
        showOutcome('error', [m('net.ruleNotFound', { rule: ruleName, name, error: (error as Error).message }), again]);
      } else if (code === 'PERMISSION_DENIED') {
        showOutcome('error', [m('net.permission', { error: (error as Error).message })]);
      } else {
        showOutcome('error', [m('net.notChanged', { error: (error as Error).message })]);
      }
    }
    // A refused change leaves every rule as it was; the advice above says when to look again.
    busy = false;
    render();
  }

  /** The address of one service: a QR code when it answers, else why there is none (scanning it would open nothing). */
  function serviceEntry(entry: ServiceUrl): HTMLElement {
    const page = PAGE_OF_SERVICE[entry.service];
    const target = `${entry.url}${page.path}`;
    const caption = [h('strong', {}, SERVICE_NAMES[entry.service]), ` · ${page.label}`, h('br')];
    if (!entry.answers) {
      return h(
        'li',
        { class: 'access-url silent', 'data-service': entry.service, 'data-answers': 'false' },
        h('p', {}, ...caption, m('net.notListening', { port: entry.port, command: STAND_ALONE_COMMAND[entry.service] })),
      );
    }
    return h(
      'li',
      { class: 'access-url', 'data-service': entry.service, 'data-url': target, 'data-answers': 'true' },
      h('figure', {}, qrCode(target, m('net.qr', { target })), h('figcaption', {}, ...caption, h('a', { href: target }, target))),
    );
  }

  /** One portal link per E-judge seat of every E-panel device, opening the portal on that judge's field. */
  function eJudgeEntries(backend: ServiceUrl, seats: readonly EJudgeSeat[]): HTMLElement[] {
    if (seats.length === 0) return [];
    return [
      h('h5', {}, m('net.eJudges')),
      h(
        'ul',
        { class: 'access-urls e-judges' },
        ...seats.map((seat) => {
          const target = `${backend.url}jury/?${new URLSearchParams({ disciplineId: String(seat.disciplineId), field: String(seat.fieldId) })}`;
          return h(
            'li',
            { class: 'access-url e-judge-url', 'data-url': target },
            h(
              'figure',
              {},
              qrCode(target, m('net.qr', { target })),
              h('figcaption', {}, h('strong', {}, `${seat.device} · ${seat.judge}`), h('br'), h('a', { href: target }, target)),
            ),
          );
        }),
      ),
    ];
  }

  function renderAddresses(info: NetworkInfo, seats: readonly EJudgeSeat[]): void {
    const byAddress = new Map<string, ServiceUrl[]>();
    for (const url of info.urls) {
      const key = `${url.interface}\u0000${url.address}`;
      byAddress.set(key, [...(byAddress.get(key) ?? []), url]);
    }
    if (byAddress.size === 0) {
      addresses.replaceChildren(h('p', { class: 'view-message' }, m('net.noAddress', { host: info.hostname })));
      return;
    }
    addresses.replaceChildren(
      h('p', { class: 'hint' }, m('net.scan', { host: info.hostname })),
      ...[...byAddress.values()].map((urls) => {
        const backend = urls.find((entry) => entry.service === 'backend');
        return h(
          'article',
          { class: 'interface', 'data-interface': urls[0]!.interface },
          h('h4', {}, `${urls[0]!.interface} · ${urls[0]!.address}`),
          h('ul', { class: 'access-urls' }, ...urls.map(serviceEntry), ...spectatorAccessEntries(urls, context.event)),
          ...(backend?.answers ? eJudgeEntries(backend, seats) : []),
        );
      }),
    );
  }

  /** The E-judge seats, named by device and field; none when the catalog cannot be read (the addresses still show). */
  async function eJudgeSeats(): Promise<EJudgeSeat[]> {
    try {
      const panelDevices = (await sharedApi.disciplines()).filter((discipline) => (discipline.panel?.judgeFieldIds.length ?? 0) > 0);
      const fields = await Promise.all(panelDevices.map((discipline) => sharedApi.disciplineFields(discipline.id)));
      return panelDevices.flatMap((discipline, index) =>
        discipline.panel!.judgeFieldIds.map((fieldId) => {
          const field = fields[index]!.find((candidate) => candidate.id === fieldId);
          return {
            disciplineId: discipline.id,
            fieldId,
            device: discipline.displayName || discipline.name,
            judge: field?.shortName ?? field?.name ?? `#${fieldId}`,
          };
        }),
      );
    } catch {
      return [];
    }
  }

  Promise.all([api.networkInfo(), eJudgeSeats()]).then(
    ([info, seats]) => renderAddresses(info, seats),
    (error: unknown) => {
      addresses.replaceChildren(h('p', { class: 'view-message' }, m('net.addressesFailed', { error: (error as Error).message })));
    },
  );
  const unsubscribe = session.onChange(render);
  void loadStatus();

  const element = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'network-title' },
    h('div', { class: 'panel-head' }, h('h2', { id: 'network-title' }, m('net.title')), refresh),
    indicator,
    tokenHint,
    outcome,
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data-table services', id: 'firewall-services', 'aria-label': m('net.rulesLabel') },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, m('net.service')),
            h('th', { scope: 'col' }, m('net.port')),
            h('th', { scope: 'col' }, m('net.rule')),
            h('th', { scope: 'col' }, m('net.state')),
            h('th', { scope: 'col' }, m('net.change')),
          ),
        ),
        rows,
      ),
    ),
    h('h3', { id: 'access-title' }, m('net.addresses')),
    addresses,
  );
  return { element, dispose: unsubscribe };
}
