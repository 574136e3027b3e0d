import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { withErrors } from '../schemas/common.js';
import { poolPressure, resourceShortageOf } from '../../db/pool.js';
import {
  RESOURCE_CONDITION_TEXT,
  RESOURCE_CONDITIONS,
  RESOURCE_SHORTAGE_HOLD_MS,
  type ResourceShortageState,
} from '../../db/resource-shortage.js';
import { readBuildInfo } from '../../system/build-info.js';
import { readPackageInfo } from '../../system/package-info.js';

const BuildSchema = Type.Object({
  gitHash: Type.String(),
  gitBranch: Type.String(),
  gitCommitDate: Type.String(),
  buildTimestamp: Type.String(),
  buildDate: Type.String(),
});

const VersionSchema = Type.Object({
  version: Type.String(),
  name: Type.String(),
  description: Type.String(),
  build: BuildSchema,
  environment: Type.String(),
  nodeVersion: Type.String(),
});

const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  relay: Type.String({ description: 'listening, reconnecting, starting or stopped' }),
  pool: Type.Union([Type.Literal('ok'), Type.Literal('exhausted')], {
    description: 'exhausted: every database connection is in use and requests queue for one',
  }),
  resources: Type.Union([Type.Literal('ok'), ...RESOURCE_CONDITIONS.map((condition) => Type.Literal(condition))], {
    description:
      'ok, or the shortage requests ran into (PostgreSQL class 53: a full disk, no memory, no connection slot, a limit): it lasts until a write commits again and ten seconds have passed since the last such error',
  }),
  reason: Type.Optional(Type.String({ description: 'Only when degraded: what is wrong, in words' })),
  uptimeSeconds: Type.Number(),
  eventsDelivered: Type.Integer({
    description: 'outbox events (score-updated, squads-applied) this instance has emitted to rooms since it started',
  }),
  relaySeq: Type.Integer({ description: 'last outbox seq this instance has delivered' }),
  sequencer: Type.Boolean({ description: 'this instance numbers the outbox (exactly one instance per database does)' }),
  mode: Type.Union([Type.Literal('hall'), Type.Literal('public')], {
    description: 'public: a read-only instance on a logical replica of the hall (SERVICE_MODE), serving the public reads only',
  }),
});

/** What health says is wrong; empty when nothing is. */
function degradedReasons(state: {
  databaseUp: boolean;
  exhausted: boolean;
  relay: string;
  shortage: ResourceShortageState | null;
}): string[] {
  const reasons: string[] = [];
  if (!state.databaseUp) reasons.push('the database does not answer');
  if (state.exhausted) reasons.push('every database connection has been in use for over a second');
  if (state.relay !== 'listening') reasons.push(`the outbox relay is ${state.relay}`);
  const { shortage } = state;
  if (shortage !== null) {
    reasons.push(
      `${RESOURCE_CONDITION_TEXT[shortage.condition]} (SQLSTATE ${shortage.sqlState}): ${shortage.errors} request(s) failed since ${shortage.since}, the last at ${shortage.lastAt}; ` +
        `this ends once a write succeeds again, ${RESOURCE_SHORTAGE_HOLD_MS / 1000} s after the last failure at the earliest`,
    );
  }
  return reasons;
}

export async function systemRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const pkg = readPackageInfo();
  const build = readBuildInfo(process.cwd());

  app.get(
    '/api/system/version',
    {
      config: { publicRead: true },
      schema: { tags: ['system'], summary: 'Service version and build information', response: withErrors({ 200: VersionSchema }) },
    },
    async () => ({
      version: pkg.version,
      name: pkg.name,
      description: pkg.description,
      build,
      environment: process.env.NODE_ENV || 'production',
      nodeVersion: process.version,
    }),
  );

  app.get(
    '/api/system/health',
    {
      config: { publicRead: true },
      schema: {
        tags: ['system'],
        summary: 'Health of the database and the outbox relay',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      // A saturated pool is itself the answer: a probe would only queue behind the requests that
      // hold every connection, and the database is reachable (something holds them). It is degraded
      // only once a request has waited for a connection for a second (src/db/pool.ts).
      const pressure = poolPressure(deps.pool);
      const exhausted = pressure === 'exhausted';
      const databaseUp =
        pressure !== 'ok' ||
        (await deps.pool
          .query('SELECT 1')
          .then(() => true)
          .catch(() => false));
      const relay = deps.relay.status();
      const shortage = resourceShortageOf(deps.pool)?.current() ?? null;
      const reasons = degradedReasons({ databaseUp, exhausted, relay: relay.state, shortage });
      const healthy = reasons.length === 0;
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        database: databaseUp ? 'up' : 'down',
        relay: relay.state,
        pool: exhausted ? 'exhausted' : 'ok',
        resources: shortage?.condition ?? 'ok',
        ...(healthy ? {} : { reason: reasons.join('; ') }),
        uptimeSeconds: Math.round(process.uptime()),
        eventsDelivered: relay.delivered,
        relaySeq: relay.cursor,
        sequencer: relay.sequencer,
        mode: deps.config.serviceMode,
      });
    },
  );
}
