// Shared by the unit and the HTTP tests so both replay the very same recorded host output.
import { decodeConsoleOutput, type CommandResult, type CommandRunner } from '../../src/firewall/index.js';

export const NETSH = 'C:\\Windows\\System32\\netsh.exe';
export const NET = 'C:\\Windows\\System32\\net.exe';

/** The exact argument arrays netsh must receive, written out once for the unit and the HTTP tests. */
export const NETSH_ARGS = {
  show: (ruleName: string) => ['advfirewall', 'firewall', 'show', 'rule', `name=${ruleName}`],
  add: (ruleName: string, port: number) => [
    'advfirewall',
    'firewall',
    'add',
    'rule',
    `name=${ruleName}`,
    'dir=in',
    'action=allow',
    'protocol=TCP',
    `localport=${port}`,
    'profile=private,public,domain',
    'enable=yes',
  ],
  delete: (ruleName: string) => ['advfirewall', 'firewall', 'delete', 'rule', `name=${ruleName}`],
};

// ---------------------------------------------------------------------------------------------
// Recorded host output. netsh writes CRLF and, into a pipe, the OEM code page (850 on German
// Windows); `Wording` says how the bytes are produced before they go through the real decoder.
// ---------------------------------------------------------------------------------------------

export type Wording = 'en' | 'de-cp850' | 'de-utf8';

const CP850: Readonly<Record<string, number>> = { ä: 0x84, ö: 0x94, ü: 0x81, Ä: 0x8e, Ö: 0x99, Ü: 0x9a, ß: 0xe1 };

export function asConsoleBytes(text: string, wording: Wording): Buffer {
  if (wording !== 'de-cp850') return Buffer.from(text, 'utf8');
  return Buffer.from([...text].map((ch) => CP850[ch] ?? ch.charCodeAt(0)));
}

function recorded(wording: Wording, text: string): string {
  return decodeConsoleOutput(asConsoleBytes(text, wording));
}

export const OUTPUT = {
  en: {
    showRule: (name: string, port: number) =>
      '\r\n' +
      `Rule Name:                            ${name}\r\n` +
      '----------------------------------------------------------------------\r\n' +
      'Enabled:                              Yes\r\n' +
      'Direction:                            In\r\n' +
      'Profiles:                             Domain,Private,Public\r\n' +
      'Grouping:                             \r\n' +
      'LocalIP:                              Any\r\n' +
      'RemoteIP:                             Any\r\n' +
      'Protocol:                             TCP\r\n' +
      `LocalPort:                            ${port}\r\n` +
      'RemotePort:                           Any\r\n' +
      'Edge traversal:                       No\r\n' +
      'Action:                               Allow\r\n' +
      'Ok.\r\n\r\n',
    noRulesMatch: '\r\nNo rules match the specified criteria.\r\n\r\n',
    requiresElevation: 'The requested operation requires elevation (Run as administrator).\r\n\r\n',
    ok: 'Ok.\r\n\r\n',
    deleted: '\r\nDeleted 1 rule(s).\r\nOk.\r\n\r\n',
  },
  de: {
    showRule: (name: string, port: number) =>
      '\r\n' +
      `Regelname:                            ${name}\r\n` +
      '----------------------------------------------------------------------\r\n' +
      'Aktiviert:                            Ja\r\n' +
      'Richtung:                             Eingehend\r\n' +
      'Profile:                              Domäne,Privat,Öffentlich\r\n' +
      'Gruppierung:                          \r\n' +
      'Lokale IP:                            Beliebig\r\n' +
      'Remote-IP:                            Beliebig\r\n' +
      'Protokoll:                            TCP\r\n' +
      `Lokaler Port:                         ${port}\r\n` +
      'Remoteport:                           Beliebig\r\n' +
      'Edgeausnahme:                         Nein\r\n' +
      'Aktion:                               Zulassen\r\n' +
      'OK.\r\n\r\n',
    noRulesMatch: '\r\nEs gibt keine Regeln, die den angegebenen Kriterien entsprechen.\r\n\r\n',
    requiresElevation: 'Für den angeforderten Vorgang sind höhere Rechte erforderlich (Als Administrator ausführen).\r\n\r\n',
    ok: 'OK.\r\n\r\n',
    deleted: '\r\n1 Regel(n) gelöscht.\r\nOK.\r\n\r\n',
  },
} as const;

export const NET_SESSION_ADMIN = 'Es sind keine Einträge in der Liste.\r\n\r\n';
export const NET_SESSION_DENIED = 'System error 5 has occurred.\r\n\r\nAccess is denied.\r\n\r\n';

export interface Call {
  readonly file: string;
  readonly args: readonly string[];
}

/** A Windows host whose firewall holds rules by name; answers with the recorded output above. */
export class FakeWindowsHost {
  readonly calls: Call[] = [];
  readonly rules = new Map<string, number>();
  admin = false;

  constructor(private readonly wording: Wording = 'en') {}

  readonly runner: CommandRunner = async (file, args) => {
    this.calls.push({ file, args: [...args] });
    if (file === NET && args.join(' ') === 'session') {
      return this.admin ? this.#result(0, NET_SESSION_ADMIN) : this.#result(2, '', NET_SESSION_DENIED);
    }
    if (file !== NETSH || args.slice(0, 2).join(' ') !== 'advfirewall firewall' || args[3] !== 'rule') {
      throw new Error(`unexpected command ${file} ${JSON.stringify(args)}`);
    }
    const name = args[4]?.replace(/^name=/, '') ?? '';
    const text = OUTPUT[this.wording === 'en' ? 'en' : 'de'];
    const port = this.rules.get(name);
    switch (args[2]) {
      case 'show':
        return port === undefined ? this.#result(1, text.noRulesMatch) : this.#result(0, text.showRule(name, port));
      case 'add':
        if (!this.admin) return this.#result(1, text.requiresElevation);
        this.rules.set(name, Number(args.find((a) => a.startsWith('localport='))?.slice('localport='.length)));
        return this.#result(0, text.ok);
      case 'delete':
        if (!this.admin) return this.#result(1, text.requiresElevation);
        if (port === undefined) return this.#result(1, text.noRulesMatch);
        this.rules.delete(name);
        return this.#result(0, text.deleted);
      default:
        throw new Error(`unexpected netsh verb ${String(args[2])}`);
    }
  };

  modifyingCalls(): Call[] {
    return this.calls.filter((c) => c.file === NETSH && (c.args[2] === 'add' || c.args[2] === 'delete'));
  }

  #result(code: number, stdout: string, stderr = ''): CommandResult {
    return { code, stdout: recorded(this.wording, stdout), stderr: recorded(this.wording, stderr) };
  }
}
