/**
 * The processes `npm run bench` starts, and the promise to stop every one of them: on success, on
 * an error, and on Ctrl-C / SIGTERM. Stops run last-started first (server before database).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOverShutdownSignals } from '../src/system/shutdown-signals.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

type Stop = { name: string; run: () => Promise<void> };
const stops: Stop[] = [];
let stopping: Promise<void> | null = null;

/** Registers how to stop something just started; runs in reverse order of registration. */
export function onStop(name: string, run: () => Promise<void>): void {
  stops.push({ name, run });
}

function withDeadline(promise: Promise<void>, ms: number, what: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      console.error(`bench: ${what} did not stop within ${ms / 1000} s; going on`);
      resolve();
    }, ms);
    promise.then(
      () => (clearTimeout(timer), resolve()),
      (error: unknown) => (clearTimeout(timer), console.error(`bench: stopping ${what} failed:`, error), resolve()),
    );
  });
}

export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    while (stops.length > 0) {
      const stop = stops.pop()!;
      await withDeadline(stop.run(), 30_000, stop.name);
    }
  })();
  return stopping;
}

/** Ctrl-C and SIGTERM stop everything that was started, then exit with the signal's code. */
export function installSignalHandlers(): void {
  takeOverShutdownSignals((signal) => {
    console.error(`\nbench: ${signal}, stopping servers and database`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

export interface Child<Message> {
  process: ChildProcess;
  /** The next message `accept` takes; fails when the child exits first. */
  next<T extends Message>(accept: (message: Message) => message is T, timeoutMs?: number): Promise<T>;
  send(message: unknown): void;
  /** Resolves once the child has exited. */
  exited: Promise<number | null>;
}

/**
 * Forks `bench/<script>` under tsx. With `logFile`, its stdout and stderr go there (the service logs
 * JSON lines; a pipe the runner did not read would stall it).
 */
export function forkChild<Message>(
  script: string,
  options: { env?: NodeJS.ProcessEnv; execArgv?: string[]; logFile?: string } = {},
): Child<Message> {
  const logFd = options.logFile ? openSync(options.logFile, 'a') : null;
  const child = fork(path.join(benchDir, script), [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env },
    stdio: logFd === null ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', logFd, logFd, 'ipc'],
  });
  if (logFd !== null) closeSync(logFd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const inbox: Message[] = [];
  let waiter: ((message: Message) => void) | null = null;
  child.on('message', (message) => {
    if (waiter) waiter(message as Message);
    else inbox.push(message as Message);
  });
  return {
    process: child,
    exited,
    send: (message) => child.send(message as never),
    next<T extends Message>(accept: (message: Message) => message is T, timeoutMs = 120_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const failure = (message: Message) =>
          (message as { type?: string; message?: string }).type === 'error'
            ? new Error(`${script}: ${(message as { message?: string }).message}`)
            : null;
        const queued = inbox.findIndex((message) => accept(message) || failure(message) !== null);
        if (queued >= 0) {
          const [message] = inbox.splice(queued, 1) as [Message];
          const error = failure(message);
          return error ? reject(error) : resolve(message as T);
        }
        const timer = setTimeout(() => (cleanup(), reject(new Error(`${script}: no answer within ${timeoutMs / 1000} s`))), timeoutMs);
        const onExit = (code: number | null) => (cleanup(), reject(new Error(`${script} exited (code ${code}) before answering`)));
        const cleanup = () => {
          clearTimeout(timer);
          waiter = null;
          child.off('exit', onExit);
        };
        waiter = (message) => {
          const error = failure(message);
          if (error) return (cleanup(), reject(error));
          if (!accept(message)) return void inbox.push(message);
          cleanup();
          resolve(message);
        };
        child.once('exit', onExit);
      });
    },
  };
}

/** Asks a child to stop (IPC, then SIGTERM), and kills it when it does not within the grace time. */
export async function stopChild(child: Child<unknown>, graceMs = 20_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  if (child.process.connected) child.send({ type: 'stop' });
  else child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}
