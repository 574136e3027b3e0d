import type pg from 'pg';

/**
 * Every SQL text the service's pool sends while `work` runs (the server runs in the test process).
 * Each client the pool hands out meanwhile (`pool.query` included) gets a recording `query` of its
 * own, removed afterwards: nothing global is patched, and the relay's and LISTEN connections,
 * which are not pool clients, are not counted.
 */
export async function captureStatements<T>(pool: pg.Pool, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const recording = new Set<pg.PoolClient>();
  const onAcquire = (client: pg.PoolClient) => {
    if (recording.has(client)) return;
    recording.add(client);
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      if (typeof text === 'string') statements.push(text);
      return original(...args);
    };
  };
  pool.on('acquire', onAcquire);
  try {
    return { result: await work(), statements };
  } finally {
    pool.off('acquire', onAcquire);
    // The own property goes; the client's query is pg's again.
    for (const client of recording) delete (client as unknown as { query?: unknown }).query;
  }
}
