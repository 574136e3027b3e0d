import { execFile } from 'node:child_process';
import { win32 } from 'node:path';
import { FirewallError, findServiceDefinition, type ChangeResult, type Firewall, type ServiceStatus } from './firewall.js';
import { firewallServices, type FirewallServiceDefinition, type FirewallServiceKey, type FirewallServiceOptions } from './services.js';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Resolves whenever the program ran to its exit (any exit code); rejects when it could not start or timed out. */
export type CommandRunner = (file: string, args: readonly string[]) => Promise<CommandResult>;

// netsh normally answers within a second; the first call after boot can take several.
const COMMAND_TIMEOUT_MS = 15_000;
const COMMAND_MAX_OUTPUT_BYTES = 1024 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Console tools write in the OEM code page (850 on German systems) when their output is a pipe, and in
 * UTF-8 when the console code page is 65001. Node cannot decode OEM code pages, so anything that is not
 * valid UTF-8 is read as latin1: ASCII survives either way, and only ASCII is matched below.
 */
export function decodeConsoleOutput(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  }
}

/**
 * No shell is involved: every argument is a separate argv element, so a rule name with spaces stays
 * one argument and nothing in it can be interpreted as shell syntax.
 */
export const execFileRunner: CommandRunner = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { windowsHide: true, timeout: COMMAND_TIMEOUT_MS, maxBuffer: COMMAND_MAX_OUTPUT_BYTES, encoding: 'buffer' },
      (error, stdout, stderr) => {
        const output = { stdout: decodeConsoleOutput(stdout), stderr: decodeConsoleOutput(stderr) };
        if (error === null) {
          resolve({ code: 0, ...output });
        } else if (typeof error.code === 'number' && error.killed !== true) {
          resolve({ code: error.code, ...output });
        } else {
          reject(error);
        }
      },
    );
  });

const NO_RULES_MATCH = [/No rules match the specified criteria/i, /Es gibt keine Regeln, die den angegebenen Kriterien entsprechen/i];

// Only ASCII fragments: the umlauts of the German message depend on how the output was decoded.
const REQUIRES_ELEVATION = [/requires elevation/i, /Run as administrator/i, /Rechte erforderlich/i, /Als Administrator ausf/i];

function matchesAny(text: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(text));
}

function combinedOutput(result: CommandResult): string {
  return [result.stdout.trim(), result.stderr.trim()].filter((part) => part !== '').join('\n');
}

/**
 * The label of the name line is localised ("Rule Name:", "Regelname:", ...), so any `label: value`
 * line whose value is the rule name counts; netsh has already filtered the listing by that name.
 */
function listsRule(output: string, ruleName: string): boolean {
  const wanted = ruleName.toLowerCase();
  return output.split(/\r?\n/).some((line) => /^[^:]*:\s*(.*?)\s*$/.exec(line)?.[1]?.toLowerCase() === wanted);
}

export interface WindowsFirewallOptions extends FirewallServiceOptions {
  readonly runner?: CommandRunner;
  /** Windows directory; the tools are run from its System32 folder by absolute path. */
  readonly systemRoot?: string;
}

export class WindowsFirewall implements Firewall {
  readonly supported = true;
  readonly platform = 'win32';
  readonly services: readonly FirewallServiceDefinition[];
  readonly #runner: CommandRunner;
  readonly #netsh: string;
  readonly #net: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: WindowsFirewallOptions) {
    this.services = firewallServices(options);
    this.#runner = options.runner ?? execFileRunner;
    // A bare "netsh" would be searched in the working directory first; an elevated server must not
    // run whatever netsh.exe happens to lie there.
    const system32 = win32.join(options.systemRoot ?? process.env['SystemRoot'] ?? 'C:\\Windows', 'System32');
    this.#netsh = win32.join(system32, 'netsh.exe');
    this.#net = win32.join(system32, 'net.exe');
  }

  /**
   * `net session` lists the server's SMB sessions, which only an elevated administrator may do, so its
   * exit code answers "elevated?" without PowerShell and without depending on the UI language. It
   * reports false when the Server service is stopped; that only affects the indicator, because
   * enable/disable let netsh itself decide.
   */
  async isAdmin(): Promise<boolean> {
    try {
      const result = await this.#runner(this.#net, ['session']);
      return result.code === 0;
    } catch {
      return false;
    }
  }

  async status(): Promise<ServiceStatus[]> {
    return Promise.all(this.services.map(async (definition) => ({ ...definition, enabled: await this.#ruleExists(definition) })));
  }

  async enable(service: FirewallServiceKey): Promise<ChangeResult> {
    const definition = findServiceDefinition(this.services, service);
    return this.#exclusive(async () => {
      if (await this.#ruleExists(definition)) {
        return {
          service: definition.service,
          enabled: true,
          changed: false,
          message: `${definition.name} is already enabled: rule "${definition.ruleName}" exists, nothing was changed.`,
        };
      }
      const result = await this.#netshCommand(definition, [
        'advfirewall',
        'firewall',
        'add',
        'rule',
        `name=${definition.ruleName}`,
        'dir=in',
        'action=allow',
        `protocol=${definition.protocol}`,
        `localport=${definition.port}`,
        'profile=private,public,domain',
        'enable=yes',
      ]);
      await this.#assertChanged(definition, result, 'create');
      return {
        service: definition.service,
        enabled: true,
        changed: true,
        message: `${definition.name} (${definition.protocol} ${definition.port}) is now reachable from the network: inbound allow rule "${definition.ruleName}" created.`,
      };
    });
  }

  /**
   * Deletes by name only: status is decided by name, so whatever rule makes a service show as enabled
   * (also one created for a port configured earlier, or a duplicate) is what disabling removes.
   */
  async disable(service: FirewallServiceKey): Promise<ChangeResult> {
    const definition = findServiceDefinition(this.services, service);
    return this.#exclusive(async () => {
      if (!(await this.#ruleExists(definition))) {
        return {
          service: definition.service,
          enabled: false,
          changed: false,
          message: `${definition.name} is already disabled: no rule "${definition.ruleName}" exists, nothing was changed.`,
        };
      }
      const result = await this.#netshCommand(definition, ['advfirewall', 'firewall', 'delete', 'rule', `name=${definition.ruleName}`]);
      await this.#assertChanged(definition, result, 'delete');
      return {
        service: definition.service,
        enabled: false,
        changed: true,
        message: `${definition.name} (${definition.protocol} ${definition.port}) is no longer reachable from the network: rule "${definition.ruleName}" deleted.`,
      };
    });
  }

  // Serialises changes so two concurrent enables cannot both see "absent" and create duplicate rules.
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #ruleExists(definition: FirewallServiceDefinition): Promise<boolean> {
    const result = await this.#netshCommand(definition, ['advfirewall', 'firewall', 'show', 'rule', `name=${definition.ruleName}`]);
    const output = combinedOutput(result);
    if (result.code === 0 && listsRule(output, definition.ruleName)) return true;
    if (matchesAny(output, NO_RULES_MATCH)) return false;
    throw new FirewallError(
      'COMMAND_FAILED',
      `Could not read the firewall rule "${definition.ruleName}" (netsh exit code ${result.code}).`,
      definition.service,
      output,
    );
  }

  async #netshCommand(definition: FirewallServiceDefinition, args: readonly string[]): Promise<CommandResult> {
    try {
      return await this.#runner(this.#netsh, args);
    } catch (error) {
      throw new FirewallError(
        'COMMAND_FAILED',
        `Could not run netsh for the firewall rule "${definition.ruleName}".`,
        definition.service,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  async #assertChanged(definition: FirewallServiceDefinition, result: CommandResult, action: 'create' | 'delete'): Promise<void> {
    const output = combinedOutput(result);
    const elevationRefused = matchesAny(output, REQUIRES_ELEVATION);
    if (result.code === 0 && !elevationRefused) return;
    if (action === 'delete' && matchesAny(output, NO_RULES_MATCH)) {
      throw new FirewallError(
        'RULE_NOT_FOUND',
        `The firewall rule "${definition.ruleName}" was not found. Refresh the status and try again.`,
        definition.service,
        output,
      );
    }
    // Other UI languages word the elevation refusal differently; the exit code of `net session` does not.
    if (elevationRefused || !(await this.isAdmin())) {
      throw new FirewallError(
        'PERMISSION_DENIED',
        `Changing the firewall requires administrator rights: start the server with "Run as administrator". ${definition.name} was not changed.`,
        definition.service,
        output,
      );
    }
    throw new FirewallError(
      'COMMAND_FAILED',
      `netsh could not ${action} the firewall rule "${definition.ruleName}" (exit code ${result.code}).`,
      definition.service,
      output,
    );
  }
}
