import Fastify, { type FastifyInstance, type FastifyBaseLogger, type RawServerDefault, type RawRequestDefaultExpression, type RawReplyDefaultExpression } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import type { Firewall } from './firewall/index.js';
import { contractClientErrorHandler, contractFrameworkErrors, installErrorHandling, refuseRequestsWhileClosing } from './http/errors.js';
import { registerAuth } from './http/auth.js';
import { registerSecurity } from './http/security.js';
import { ErrorBodySchema } from './http/schemas/common.js';
import { routeModules } from './http/routes/index.js';
import { readPackageInfo } from './system/package-info.js';

export interface RelayStatus {
  state: 'starting' | 'listening' | 'reconnecting' | 'stopped';
  delivered: number;
  /** Last `seq` this instance has delivered: everything up to it has gone out to the rooms. */
  cursor: number;
  /** Whether this instance currently numbers the outbox (exactly one per database does). */
  sequencer: boolean;
}

/** Everything the HTTP layer needs from the composition root; tests build it the same way. */
export interface AppDeps {
  config: Config;
  pool: Pool;
  logger: Logger;
  relay: { status(): RelayStatus };
  /** Host firewall; absent means the one `createFirewall` picks for this OS from the config. */
  firewall?: Firewall;
}

export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export const BODY_LIMIT_BYTES = 256 * 1024;

function buildAjv(options: AjvOptions): Ajv {
  // strictNumbers: JSON.parse turns 1e309 into Infinity, which is otherwise a valid unbounded number.
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, strictNumbers: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

export async function buildApp(deps: AppDeps): Promise<TypedApp> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    clientErrorHandler: contractClientErrorHandler,
    frameworkErrors: contractFrameworkErrors,
    // Replaced by refuseRequestsWhileClosing, which answers with the contract's body.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Query strings and path params are text and need coercion; JSON bodies must not be coerced,
  // or `true` would silently become the score 1.
  const textAjv = buildAjv({ coerceTypes: 'array' });
  const bodyAjv = buildAjv({ coerceTypes: false });
  for (const ajv of [textAjv, bodyAjv]) ajv.addSchema(ErrorBodySchema);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  app.addSchema(ErrorBodySchema);
  installErrorHandling(app);
  refuseRequestsWhileClosing(app);
  await registerAuth(app, { secret: deps.config.jwtSecret, mode: deps.config.authMode });
  await registerSecurity(app, deps.config);

  const pkg = readPackageInfo();
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Gymnastics competition service', description: pkg.description, version: pkg.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  for (const register of routeModules) await register(app, deps);
  return app;
}
