import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { withErrors } from '../schemas/common.js';
import { poolPressure } from '../../db/pool.js';
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
  uptimeSeconds: Type.Number(),
  eventsDelivered: Type.Integer({
    description: 'outbox events (score-updated, squads-applied) this instance has emitted to rooms since it started',
  }),
  relaySeq: Type.Integer({ description: 'last outbox seq this instance has delivered' }),
  sequencer: Type.Boolean({ description: 'this instance numbers the outbox (exactly one instance per database does)' }),
});

export async function systemRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const pkg = readPackageInfo();
  const build = readBuildInfo(process.cwd());

  app.get(
    '/api/system/version',
    { schema: { tags: ['system'], summary: 'Service version and build information', response: withErrors({ 200: VersionSchema }) } },
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
      const healthy = databaseUp && !exhausted && relay.state === 'listening';
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        database: databaseUp ? 'up' : 'down',
        relay: relay.state,
        pool: exhausted ? 'exhausted' : 'ok',
        uptimeSeconds: Math.round(process.uptime()),
        eventsDelivered: relay.delivered,
        relaySeq: relay.cursor,
        sequencer: relay.sequencer,
      });
    },
  );
}
