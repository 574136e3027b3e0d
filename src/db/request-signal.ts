import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The abort signal of the HTTP request a piece of work serves: it fires when the client went away
 * before its answer was sent. The HTTP layer runs each request inside `runWithRequestSignal`, and
 * `withTransaction` reads it, so a command whose client is gone stops waiting and gives its
 * connection back instead of holding it until a timeout. Outside a request there is none.
 */
const storage = new AsyncLocalStorage<AbortSignal>();

export const runWithRequestSignal = <T>(signal: AbortSignal, work: () => T): T => storage.run(signal, work);

export const currentRequestSignal = (): AbortSignal | undefined => storage.getStore();
