import pg from 'pg';
import type { Logger } from 'pino';
import { ResourceShortage } from './resource-shortage.js';
import type { Tables } from './tables.js';

/** The installation's table names travel with every connection (`db.tables.wertungen`). */
export interface WithTables {
  readonly tables: Tables;
}

/** A connection inside a transaction: what every command and write-path statement receives. */
export type TxClient = pg.PoolClient & WithTables;
/** The pool's connections carry its table names too. */
export type Pool = Omit<pg.Pool, 'connect'> & WithTables & { connect(): Promise<TxClient> };
/** Anything that can run one statement: the pool for plain reads, a transaction client otherwise. */
export type Queryable = (Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>) & WithTables;

/** Gives a connection opened outside a pool (a session of its own) the table names. */
export function withTables<C extends object>(client: C, tables: Tables): C & WithTables {
  return Object.assign(client, { tables });
}

// Scores are float4 (`real`) in the legacy layout; pg returns them as JS numbers already.
// COUNT(*) and bigserial ids arrive as int8 strings: parse them, they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
// Dates are calendar days (birthdays): keep them as 'YYYY-MM-DD' instead of shifting by time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export interface PoolOptions {
  connectionString: string;
  tables: Tables;
  max?: number;
  applicationName?: string;
  /** The client class the pool opens connections with (pg's own by default; the bench counts statements with a subclass). */
  clientClass?: typeof pg.Client;
  /**
   * Every transaction read-only (a public instance on a logical replica): a write there would make
   * the replica differ from the hall, or collide with a row the hall sends later and stop replication.
   */
  readOnly?: boolean;
}

// Connected clients per pool, each removed once its connection has closed (see endPool).
const openClients = new WeakMap<Pool, Set<pg.PoolClient>>();

type ConnectCallback<C> = (error: Error | undefined, client: C | undefined, done: (release?: unknown) => void) => void;

/**
 * pg's pool whose connections carry the table names: every client it hands out (through
 * `connect()` or pg-pool's own callback form, which `pool.query` uses) is given them on checkout,
 * so `connect()` returns a `TxClient` by construction.
 */
class TablesPool extends pg.Pool implements WithTables {
  /** When each checkout still waiting for a connection asked for it, oldest first (a Map keeps insertion order). */
  private readonly checkoutsWaiting = new Map<object, number>();
  /** A full disk or similar shortage its users ran into, until a write commits again (src/db/resource-shortage.ts). */
  readonly resources = new ResourceShortage();

  constructor(
    config: pg.PoolConfig,
    readonly tables: Tables,
  ) {
    super(config);
  }

  override connect(): Promise<TxClient>;
  override connect(callback: ConnectCallback<TxClient>): void;
  override connect(callback?: ConnectCallback<TxClient>): Promise<TxClient> | void {
    const checkout = {};
    this.checkoutsWaiting.set(checkout, Date.now());
    const settled = () => this.checkoutsWaiting.delete(checkout);
    if (callback) {
      super.connect((error, client, done) => {
        settled();
        callback(error, client && withTables(client, this.tables), done);
      });
      return;
    }
    return super.connect().then(
      (client) => {
        settled();
        return withTables(client, this.tables);
      },
      (error: unknown) => {
        settled();
        throw error;
      },
    );
  }

  /** Since when the longest-waiting checkout has waited (undefined: none waits). */
  oldestCheckoutWaitingSince(): number | undefined {
    for (const since of this.checkoutsWaiting.values()) return since;
    return undefined;
  }
}

export function createPool(options: PoolOptions, logger: Logger): Pool {
  const pool = new TablesPool(
    {
      connectionString: options.connectionString,
      max: options.max ?? 20,
      application_name: options.applicationName ?? 'gym-competition-service',
      // A request must fail fast with 503 while the database restarts instead of queueing forever.
      connectionTimeoutMillis: 3_000,
      // Connections stay open through a quiet spell. Closed after 30 s idle, they were all opened
      // again by the first saves after a break (a new backend each, every named statement parsed
      // and planned anew): ten saves at once took 55-67 ms instead of 5-11 (docs/decisions.md).
      idleTimeoutMillis: 0,
      statement_timeout: 15_000,
      query_timeout: 20_000,
      // A command's statements that do not wait on each other's answers share a round trip
      // (withTransaction): BEGIN and the first statements, the last statement and COMMIT.
      pipeline: true,
      ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
      ...(options.clientClass === undefined ? {} : { Client: options.clientClass }),
    },
    options.tables,
  );
  // An idle client losing its server emits 'error' on the pool; without a listener Node exits.
  // pg attaches the whole client to this error; logging it would dump the connection state.
  pool.on('error', (error: Error & { code?: string }) =>
    logger.warn({ err: { message: error.message, code: error.code } }, 'idle database connection lost'),
  );
  const clients = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    // pg-pool listens for errors only on idle clients. A checked-out one whose session the server
    // ends between two statements (a restart, pg_terminate_backend) emits 'error' with nobody
    // listening, and Node exits. With this listener its next statement fails instead (503), and
    // the pool discards it on release because it is no longer queryable.
    client.on('error', (error) => logger.debug({ err: error }, 'database connection lost'));
    clients.add(client);
    client.once('end', () => clients.delete(client));
  });
  openClients.set(pool, clients);
  return pool;
}

/**
 * `pool.end()` resolves as soon as the pool has let go of its clients, before their connections
 * are closed. Whoever stops the database server next (the embedded one on shutdown) must wait for
 * the close, or the server terminates sessions that are still open and every client logs an error.
 */
export async function endPool(pool: Pool): Promise<void> {
  const closing = [...(openClients.get(pool) ?? [])].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
  await pool.end();
  await Promise.all(closing);
}

/**
 * How long a request may have waited for a connection before health calls the pool exhausted. At an
 * ordinary peak (20 portals saving at once, the retries after a restart) requests queue for
 * milliseconds, and a health check that said `degraded` then would page the office for nothing.
 */
export const POOL_WAIT_DEGRADED_MS = 1_000;

/**
 * `saturated`: every connection is in use and requests queue for one, which a peak does for
 * milliseconds; `exhausted`: one of them has waited POOL_WAIT_DEGRADED_MS already.
 */
export function poolPressure(pool: Pool, now: number = Date.now()): 'ok' | 'saturated' | 'exhausted' {
  if (pool.waitingCount === 0 || pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10)) return 'ok';
  const waitingSince = pool instanceof TablesPool ? pool.oldestCheckoutWaitingSince() : undefined;
  return waitingSince !== undefined && now - waitingSince >= POOL_WAIT_DEGRADED_MS ? 'exhausted' : 'saturated';
}

/** The resource shortage the pool's users report and its commits end; null for a pool not made by createPool. */
export function resourceShortageOf(pool: Pool): ResourceShortage | null {
  return pool instanceof TablesPool ? pool.resources : null;
}

/** Thrown when the request's client went away: nobody is left to answer. */
export class RequestAbortedError extends Error {
  readonly code = 'REQUEST_ABORTED';
  constructor() {
    super('the client went away before the answer');
    this.name = 'RequestAbortedError';
  }
}

/**
 * Asks the server to cancel what `client` is running now, over a separate cancel connection (the
 * protocol's CancelRequest, which takes no pool slot). The running statement then fails with
 * 57014 and the transaction rolls back.
 */
function cancelRunningQuery(pool: Pool, client: TxClient): void {
  const target = client as TxClient & { activeQuery?: unknown };
  if (!target.activeQuery) return;
  const canceller = new pg.Client(pool.options) as pg.Client & {
    cancel(client: TxClient, query: unknown): void;
    connection: { on(event: string, listener: () => void): void; end(): void };
  };
  canceller.connection.on('error', () => undefined);
  canceller.cancel(client, target.activeQuery);
}

/**
 * The client with its `query` replaced: the same connection, the same session, another way to send.
 * Whatever else a caller reaches through it is the client's own.
 */
export function withQuery(client: TxClient, query: TxClient['query']): TxClient {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Marks a statement's promise as one its caller awaits later (or never): sent now, pipelined behind
 * what was sent before it. A rejection is then not unhandled; whoever awaits it still gets it, and
 * `withTransaction` does not commit past it.
 */
export function inFlight<T>(sent: Promise<T>): Promise<T> {
  sent.catch(() => undefined);
  return sent;
}

type Corkable = { cork(): void; uncork(): void };
const corkedUntilNextTick = new WeakSet<Corkable>();

/**
 * Holds the connection's socket writes until the current turn of the event loop has run its
 * microtasks, so that statements sent together leave in one system call. pg writes every statement
 * on its own (one `writev` for a statement's Parse/Bind/Execute/Sync, one `write` for BEGIN and
 * COMMIT): six calls per jury-results save without this, two with it. Server CPU per save went
 * 0.46 / 0.44 → 0.41 / 0.43 ms in alternating bench runs (docs/performance.md, "Statements pipelined").
 * A statement sent in a later turn starts a new batch, so nothing waits for a later turn.
 */
function sendTogetherThisTurn(client: TxClient): void {
  const socket = (client as TxClient & { connection?: { stream?: Partial<Corkable> } }).connection?.stream;
  if (typeof socket?.cork !== 'function' || typeof socket.uncork !== 'function') return;
  const stream = socket as Corkable;
  if (corkedUntilNextTick.has(stream)) return;
  stream.cork();
  corkedUntilNextTick.add(stream);
  process.nextTick(() => {
    corkedUntilNextTick.delete(stream);
    stream.uncork();
  });
}

/** The first failure of `statements` in the order they were sent; undefined when all succeeded. */
async function firstFailure(statements: readonly Promise<unknown>[]): Promise<{ reason: unknown } | undefined> {
  return (await Promise.allSettled(statements)).find((outcome) => outcome.status === 'rejected');
}

/** PostgreSQL's answer to every statement after one that failed in the transaction. */
const isAfterFailure = (error: unknown) => (error as { code?: unknown } | null)?.code === '25P02';

/**
 * Runs `work` in one transaction: commit when it resolves, roll back when it throws.
 *
 * The pool's connections pipeline (pg's `pipeline` mode): a statement goes on the wire when it is
 * issued, not when the one before it has answered. BEGIN and `settings` (one statement of
 * `set_config(..., true)`, local to the transaction) travel with the first statements of `work`,
 * and a statement `work` issues without awaiting it (`inFlight`) travels with the COMMIT. The server
 * runs them in the order sent. Once one fails, every later one of the transaction fails and the
 * COMMIT becomes a rollback; the commit counts only when BEGIN, the settings and every statement
 * issued through `tx` succeeded, else the first failure is thrown. (No statement's failure may be
 * caught and carried on from: there are no savepoints.)
 *
 * When `signal` fires (the HTTP client of the request went away), the running statement is
 * cancelled and the connection goes back to the pool at once.
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (tx: TxClient) => Promise<T>,
  settings?: pg.QueryConfig,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) throw new RequestAbortedError();
  const client = await pool.connect();
  const onAbort = () => cancelRunningQuery(pool, client);
  signal?.addEventListener('abort', onAbort, { once: true });
  const sent: Promise<unknown>[] = [];
  try {
    if (signal?.aborted) throw new RequestAbortedError();
    sendTogetherThisTurn(client);
    // BEGIN is a statement of its own: a BEGIN that failed to parse would leave the statements sent
    // behind it to commit one by one.
    sent.push(inFlight(client.query('BEGIN')));
    if (settings) sent.push(inFlight(client.query(settings)));
    const recording = ((...args: Parameters<TxClient['query']>) => {
      sendTogetherThisTurn(client);
      const statement = (client.query as (...args: unknown[]) => unknown)(...args);
      if (statement instanceof Promise) sent.push(inFlight(statement));
      return statement;
    }) as TxClient['query'];
    const result = await work(withQuery(client, recording));
    sendTogetherThisTurn(client);
    const commit = inFlight(client.query('COMMIT'));
    const failed = await firstFailure(sent);
    if (failed) throw failed.reason;
    const { command } = await commit;
    if (command !== 'COMMIT') throw new Error(`the transaction ended in ${command}, not COMMIT`);
    resourceShortageOf(pool)?.committed();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    // A statement awaited after one left in flight failed only because that one did: report the cause.
    throw (isAfterFailure(error) ? (await firstFailure(sent))?.reason : undefined) ?? error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    client.release();
  }
}
