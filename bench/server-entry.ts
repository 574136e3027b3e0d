/**
 * The server process of `npm run bench` (forked by bench/run.ts, so load generator and scoreboards
 * never share its event loop): the real service via `startServer`, plus a bare fastify instance on
 * a second port holding the read baselines and the bench-only counters, and a third app built like
 * the service's (`buildApp`: same logger, security plugins, error handling) holding the naive write
 * route and the ceilings.
 *
 * Environment: BENCH_DATABASE_URL, BENCH_DATA_DIR, JWT_SECRET, LOG_LEVEL (as for `npm start`).
 */
import { performance } from 'node:perf_hooks';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { API_ORIGIN, ORIGIN_SETTING } from '../src/db/origin.js';
import { saveJuryResult } from '../commands/save-jury-result.js';
import { createCommandRunner } from '../commands/run-command.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { generateSquadProposals, resolveSquadCriteria } from '../src/domain/squad-planner.js';
import { DEFAULT_AGE_RULE } from '../src/domain/age.js';
import { SaveJuryResultBody } from '../src/http/schemas/scoring.js';
import { createLogger } from '../src/logger.js';
import { roomOf } from '../src/realtime/gateway.js';
import { startServer } from '../src/server.js';
import { selectScorePageKeys } from '../queries/list-scores.js';
import { selectScoringStates } from '../src/model/scoring-context.js';
import { selectCompetitionDisciplines, selectParticipantEntries, selectResultsScope } from '../queries/results.js';
import { selectSquadPlanningInput } from '../queries/squad-participants.js';

// ---------------------------------------------------------------------------------------------
// Statement counter: every round trip of the service's own connections (both pools and the
// sequencer's, which the server opens with this class), by connection role and statement, so the
// runner can tell a request's statements from the relay's background work. A subclass handed to
// startServer: nothing of pg's is patched. The LISTEN connection (pg-listen's own client) is not counted.

const statements = new Map<string, number>();
// The key of each text, made once: normalizing a 3 KB statement at every call cost the server more
// CPU per command than some of the work being measured.
const statementKeys = new Map<string, string>();
const MAX_STATEMENT_KEYS = 2_000;

function statementKey(text: string): string {
  let key = statementKeys.get(text);
  if (key === undefined) {
    key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    if (statementKeys.size < MAX_STATEMENT_KEYS) statementKeys.set(text, key);
  }
  return key;
}

class CountingClient extends pg.Client {
  private readonly role: string;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.role = (typeof config === 'object' ? config.application_name : undefined) ?? '';
  }

  // pg's query has a dozen overloads; this one passes every form through unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const first: unknown = args[0];
    const text =
      typeof first === 'string' ? first : typeof first === 'object' && first !== null ? String(Reflect.get(first, 'text') ?? '') : '';
    const key = `${this.role || 'other'}\t${statementKey(text)}`;
    statements.set(key, (statements.get(key) ?? 0) + 1);
    return Reflect.apply(super.query, this, args);
  }
}

// ---------------------------------------------------------------------------------------------

const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is required');
const config = { ...loadConfig({ ...process.env, HOST: '127.0.0.1', DATA_DIR: process.env.BENCH_DATA_DIR }), port: 0 };
const logger = createLogger(config.logLevel, false);
const running = await startServer(config, databaseUrl, logger, { clientClass: CountingClient });
// The outbox clean-up's cron (every ten minutes, on the pool's connections) would count its
// statements as a request's when it fires during a series; there is nothing 48 h old to delete.
await running.retention.stop();
const io = running.gateway.io;
const tables = running.pool.tables;

const bare = Fastify({ logger: false });
let naiveEmitted = 0;

/** The read path's floor: the same two statements as GET /api/scores, raw rows, no schema. */
bare.get('/naive/scores', async (request) => {
  const query = request.query as { eventId: string; limit: string };
  const keys = await selectScorePageKeys(running.pool, { eventId: Number(query.eventId), limit: Number(query.limit), offset: 0 });
  const rows = await selectScoringStates(
    running.pool,
    keys.score_ids.map((scoreId, index) => ({ scoreId, disciplineId: keys.discipline_ids[index] ?? null })),
  );
  return JSON.stringify({ total: keys.total, rows });
});

/** The result list's floor: the same three SELECTs as GET /api/results, raw rows, no ranking or schema. */
bare.get('/naive/results', async (request) => {
  const query = request.query as { eventId: string; competitionId: string };
  const [eventId, competitionId] = [Number(query.eventId), Number(query.competitionId)];
  const scope = await selectResultsScope(running.pool, eventId, competitionId);
  const disciplines = await selectCompetitionDisciplines(running.pool, competitionId, 'individual');
  const rows = await selectParticipantEntries(running.pool, competitionId);
  return JSON.stringify({ scope, disciplines, rows });
});

/** Squad generation's floor: the same statement and planner, plain JSON.stringify, no auth. */
bare.post('/naive/squads/generate', async (request) => {
  const { eventId, ...requested } = request.body as { eventId: number };
  const criteria = resolveSquadCriteria(requested);
  const { participants, eventStart } = await selectSquadPlanningInput(running.pool, eventId);
  const started = performance.now();
  const proposals = generateSquadProposals(participants, criteria, { referenceDate: eventStart ?? new Date(), ageRule: DEFAULT_AGE_RULE });
  const plannerMs = performance.now() - started;
  return JSON.stringify({ proposals, eventId, totalParticipants: participants.length, criteria, plannerMs });
});

// ---------------------------------------------------------------------------------------------
// The ceilings: what this stack can do at best for one write, and for one outbox command. Their pool
// marks every session as the service's own (gym.origin, as a command does per transaction), so the
// legacy triggers skip their writes as they skip the service's. Named statements: parsed and planned
// once per connection.
//
// An outbox command's event must reach the boards: after its COMMIT the minimal outbox command wakes
// the relay as a service command does (a commit notifies nobody, migration 0010). Without the wake-up
// its events would wait for the relay's one-second backstop and be numbered hundreds at a time: a
// ceiling with delivery up to a second late, cheaper than prompt delivery.

const ceilingPoolConfig: pg.PoolConfig = {
  connectionString: databaseUrl,
  max: 20,
  application_name: 'gym-competition-service',
  options: `-c ${ORIGIN_SETTING}=${API_ORIGIN}`,
};
const ceilingPool = new pg.Pool(ceilingPoolConfig);
// An idle client losing its server emits 'error' on its pool; without a listener the bench server exits.
ceilingPool.on('error', (error) => logger.warn({ err: error }, 'ceiling pool connection lost'));
let ceilingUpserts = 0;
const ceilingUpsert = (body: CeilingBody): pg.QueryConfig => ({
  name: 'ceiling-upsert',
  text: `INSERT INTO ${tables.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
    VALUES ($1, $2, $3, 1, 0)
    ON CONFLICT (int_wertungenid, int_disziplinen_felderid, int_versuch) DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung
    RETURNING int_juryresultsid AS id, rel_leistung AS value`,
  values: [body.participantId, body.disciplineFieldId, body.performance],
});
const ceilingLock = (body: CeilingBody): pg.QueryConfig => ({
  name: 'ceiling-lock',
  text: `SELECT c.int_veranstaltungenid AS event_id FROM ${tables.wertungen} w
    JOIN ${tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
    WHERE w.int_wertungenid = $1 FOR NO KEY UPDATE OF w`,
  values: [body.participantId],
});
const ceilingOutbox = (body: CeilingBody, eventId: number, value: number): pg.QueryConfig => ({
  name: 'ceiling-outbox',
  text: `INSERT INTO ${tables.svc_outbox} (topic, event_id, source, payload) VALUES ('score-updated', $1, 'api', $2) RETURNING id`,
  values: [
    eventId,
    JSON.stringify({
      scoreId: body.participantId,
      eventId,
      disciplineId: null,
      finalScore: value,
      score: value,
      timestamp: new Date().toISOString(),
    }),
  ],
});
type CeilingBody = { participantId: number; disciplineFieldId: number; performance: number };
const ceilingReply = (body: CeilingBody, stored: { id: number; value: number }, finalScore: number | null) => ({
  success: true,
  id: stored.id,
  wertungenId: body.participantId,
  disciplineFieldId: body.disciplineFieldId,
  performance: stored.value,
  finalScore,
});

// The naive route appends no event, so its commits wake no relay.
const naiveCommands = createCommandRunner(running.pool);
const serviceStack = await buildApp({ config, pool: running.pool, commands: running.commands, logger, relay: running.relay });

/**
 * The naive design without an outbox: the same command in one transaction (the runner marks it as
 * the service's own write, as the real route does), except that the outbox INSERT is kept in memory
 * instead of being sent, and the event goes to the room right after COMMIT. On the service's stack,
 * as the real route is: the comparison is of the outbox and relay against the direct emit, not of
 * the service's plugins against none.
 */
serviceStack.post('/naive/jury-results', { schema: { body: SaveJuryResultBody } }, async (request) => {
  const body = request.body as { participantId: number; disciplineFieldId: number; performance: number; attempt?: number; type?: number };
  const input = {
    participantId: body.participantId,
    disciplineFieldId: body.disciplineFieldId,
    performance: body.performance,
    attempt: body.attempt ?? 1,
    type: body.type === 1 ? (1 as const) : (0 as const),
  };
  let event: { eventId: number; payload: Record<string, unknown> } | null = null;
  const outboxInsert = `INSERT INTO ${tables.svc_outbox}`;
  const reply = await naiveCommands.run((tx) => {
    const direct = new Proxy(tx, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return (text: unknown, values?: unknown[]) => {
          if (typeof text === 'string' && text.includes(outboxInsert) && values) {
            event = { eventId: values[1] as number, payload: JSON.parse(values[2] as string) as Record<string, unknown> };
            return Promise.resolve({ rows: [{ id: 0 }], rowCount: 1 });
          }
          return target.query(text as string, values);
        };
      },
    });
    return saveJuryResult(direct, input, request.log);
  });
  const committed = event as { eventId: number; payload: Record<string, unknown> } | null;
  if (committed) {
    io.to(roomOf(committed.eventId)).emit('score-updated', { ...committed.payload, source: 'naive' });
    naiveEmitted += 1;
  }
  return reply;
});

/** Ceiling 1: one named upsert, autocommit. */
serviceStack.post('/ceiling/upsert', { schema: { body: SaveJuryResultBody } }, async (request) => {
  const body = request.body as CeilingBody;
  const { rows } = await ceilingPool.query<{ id: number; value: number }>(ceilingUpsert(body));
  ceilingUpserts += 1;
  return ceilingReply(body, rows[0]!, null);
});

/** Runs a ceiling command on a connection of `pool`, rolled back when it throws. */
async function onCeilingConnection<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Ceiling 2: the minimal outbox command — BEGIN, lock the score row, upsert, outbox insert, COMMIT —
 * on the service's fastify stack and, to show what that stack costs, on the bare fastify instance.
 */
async function minimalOutboxCommand(request: FastifyRequest, reply: FastifyReply) {
  const body = request.body as CeilingBody;
  return onCeilingConnection(ceilingPool, async (client) => {
    await client.query('BEGIN');
    const locked = await client.query<{ event_id: number }>(ceilingLock(body));
    if (locked.rowCount !== 1) {
      await client.query('ROLLBACK');
      return reply.code(404).send({ error: 'not found' });
    }
    const { rows } = await client.query<{ id: number; value: number }>(ceilingUpsert(body));
    const stored = rows[0]!;
    await client.query(ceilingOutbox(body, locked.rows[0]!.event_id, stored.value));
    await client.query('COMMIT');
    running.relay.commandCommitted();
    return ceilingReply(body, stored, stored.value);
  });
}
serviceStack.post('/ceiling/outbox-command', { schema: { body: SaveJuryResultBody } }, minimalOutboxCommand);
bare.post('/ceiling/outbox-command', minimalOutboxCommand);

await serviceStack.listen({ port: 0, host: '127.0.0.1' });
const serviceStackAddress = serviceStack.server.address();
const serviceStackPort = typeof serviceStackAddress === 'object' && serviceStackAddress ? serviceStackAddress.port : 0;

bare.get('/bench/stats', async (request) => {
  if ((request.query as { gc?: string }).gc === '1') {
    // Twice: the first pass can leave objects that only the second finds unreachable (finalizers).
    globalThis.gc?.();
    globalThis.gc?.();
  }
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    memory: {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
    },
    statements: Object.fromEntries(statements),
    naiveEmitted,
    ceilingUpserts,
    relay: running.relay.status(),
    sockets: io.engine.clientsCount,
  };
});

bare.post('/bench/reset-counters', async () => {
  statements.clear();
  naiveEmitted = 0;
  ceilingUpserts = 0;
  return { ok: true };
});

await bare.listen({ port: 0, host: '127.0.0.1' });
const bareAddress = bare.server.address();
const barePort = typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0;

let stopping: Promise<void> | null = null;
function stop(code: number): Promise<void> {
  stopping ??= (async () => {
    const forced = setTimeout(() => process.exit(code || 1), 15_000);
    forced.unref();
    try {
      await bare.close();
      await serviceStack.close();
      await ceilingPool.end();
      await running.close();
    } finally {
      // process.exit (not a hard kill) is what lets --cpu-prof write its profile.
      process.exit(code);
    }
  })();
  return stopping;
}

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'stop') void stop(0);
});
// The runner went away (crash, SIGKILL): never outlive it.
process.on('disconnect', () => void stop(0));
process.on('SIGINT', () => void stop(130));
process.on('SIGTERM', () => void stop(143));

process.send?.({
  type: 'ready',
  url: running.url,
  bareUrl: `http://127.0.0.1:${barePort}`,
  serviceStackUrl: `http://127.0.0.1:${serviceStackPort}`,
});
