import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/db/embedded.js';
import { waitFor } from './server.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Variables a child must not inherit from the developer's shell or CI: each test sets what it means.
const SERVICE_VARIABLES = [
  'DATABASE_URL',
  'TEST_DATABASE_URL',
  'PORT',
  'HOST',
  'JWT_SECRET',
  'TABLE_PREFIX',
  'LOG_LEVEL',
  'AUTH_MODE',
  'OUTBOX_RETENTION_HOURS',
  'DATA_DIR',
  'EMBEDDED_DB_HOST',
  'EMBEDDED_DB_PORT',
];

export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete base[name];
  return { ...base, ...env };
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningScript {
  child: ChildProcess;
  /** Settles once the process has exited and its output is complete. */
  closed: Promise<ExitStatus>;
  stdout(): string;
  stderr(): string;
}

/**
 * Starts a TypeScript entry point the way `npm start` / `npm run <script>` do (tsx), but as one
 * node process, so signals sent to `child.pid` reach the program itself and not an npm wrapper.
 */
export function startScript(script: string, args: string[], env: Record<string, string>): RunningScript {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: PROJECT_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<ExitStatus>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { child, closed, stdout: () => stdout, stderr: () => stderr };
}

/** The exit status; kills the process (SIGKILL) and rejects when it has not exited within `timeoutMs`. */
export async function exited(running: RunningScript, timeoutMs: number): Promise<ExitStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      running.child.kill('SIGKILL');
      reject(
        new Error(`process ${running.child.pid} did not exit within ${timeoutMs} ms; output:\n${running.stdout()}${running.stderr()}`),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([running.closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ScriptResult extends ExitStatus {
  stdout: string;
  stderr: string;
}

/**
 * Without DATABASE_URL a program starts the embedded server on EMBEDDED_DB_PORT, 5432 by default:
 * a test's own goes to a free port, so runs beside a service or other runs do not collide.
 */
async function withEmbeddedPort(env: Record<string, string>): Promise<Record<string, string>> {
  return env.DATABASE_URL || env.EMBEDDED_DB_PORT ? env : { ...env, EMBEDDED_DB_PORT: String(await freePort()) };
}

/** Runs a TypeScript script to completion. */
export async function runScript(script: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<ScriptResult> {
  const running = startScript(script, args, await withEmbeddedPort(env));
  const status = await exited(running, timeoutMs);
  return { ...status, stdout: running.stdout(), stderr: running.stderr() };
}

export interface ServiceProcess extends RunningScript {
  url: string;
  port: number;
}

const isRunning = (running: RunningScript) => running.child.exitCode === null && running.child.signalCode === null;

/**
 * The service as `npm start` runs it (src/main.ts), on `port` (a free one by default) and
 * 127.0.0.1, resolved once health answers 200. A start that exits fails with the process output;
 * one that does not get healthy in time is killed, so no caller is left with a stray process.
 */
export async function startService(
  env: Record<string, string>,
  options: { port?: number; timeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const running = startScript('src/main.ts', [], { HOST: '127.0.0.1', ...(await withEmbeddedPort(env)), PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (!isRunning(running))
          throw new Error(
            `the service exited with ${running.child.exitCode ?? running.child.signalCode}:\n${running.stdout()}${running.stderr()}`,
          );
        return fetch(`${url}/api/system/health`).then(
          (response) => response.status === 200,
          () => false,
        );
      },
      { timeoutMs: options.timeoutMs ?? 60_000, message: `health 200 from the service on port ${port}` },
    );
  } catch (error) {
    await killIfRunning(running);
    throw error;
  }
  return { ...running, url, port };
}

/** SIGKILL unless it has exited already; for afterAll, where a failed test may have left it running. */
export async function killIfRunning(running: RunningScript): Promise<void> {
  if (isRunning(running)) running.child.kill('SIGKILL');
  await running.closed;
}

/**
 * Processes of an embedded cluster: the postmaster names its data directory on the command line,
 * its backends and helpers work in it. What a test checks is gone after a stop.
 */
export function processesOfCluster(clusterDir: string): Array<{ pid: number; command: string }> {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const cwd = readlinkSync(`/proc/${pid}/cwd`);
        return command.includes(clusterDir) || cwd === clusterDir ? [{ pid: Number(pid), command: command.join(' ').trim() }] : [];
      } catch {
        return [];
      }
    });
}

/** For afterAll: a fast shutdown of whatever still runs on the cluster, SIGKILL when it does not go. */
export async function stopClusterProcesses(clusterDir: string): Promise<void> {
  const postmasters = () => processesOfCluster(clusterDir).filter(({ command }) => command.includes(clusterDir));
  for (const { pid } of postmasters()) process.kill(pid, 'SIGINT');
  await waitFor(() => processesOfCluster(clusterDir).length === 0, { timeoutMs: 15_000 }).catch(() =>
    processesOfCluster(clusterDir).forEach(({ pid }) => process.kill(pid, 'SIGKILL')),
  );
}
