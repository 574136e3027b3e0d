import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Variables a child must not inherit from the developer's shell or CI: each test sets what it means.
const SERVICE_VARIABLES = ['DATABASE_URL', 'TEST_DATABASE_URL', 'PORT', 'HOST', 'JWT_SECRET', 'TABLE_PREFIX', 'LOG_LEVEL', 'AUTH_MODE', 'OUTBOX_RETENTION_HOURS', 'DATA_DIR'];

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
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
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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
      reject(new Error(`process ${running.child.pid} did not exit within ${timeoutMs} ms; output:\n${running.stdout()}${running.stderr()}`));
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

/** Runs a TypeScript script to completion. */
export async function runScript(script: string, args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<ScriptResult> {
  const running = startScript(script, args, env);
  const status = await exited(running, timeoutMs);
  return { ...status, stdout: running.stdout(), stderr: running.stderr() };
}
