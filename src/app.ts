import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Ajv, type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import type { AppDeps, TypedApp } from './http/app-types.js';
import { contractClientErrorHandler, contractFrameworkErrors, installErrorHandling, refuseRequestsWhileClosing } from './http/errors.js';
import { registerAuth } from './http/auth.js';
import { judgeCredentialActive } from '../queries/judge-credentials.js';
import { registerClientGone } from './http/client-gone.js';
import { registerSecurity } from './http/security.js';
import { registerPublicMode } from './http/public-mode.js';
import { ErrorBodySchema } from './http/schemas/common.js';
import { routeModules } from './http/routes/index.js';
import { resourceShortageOf } from './db/pool.js';
import { readPackageInfo } from './system/package-info.js';

export const BODY_LIMIT_BYTES = 256 * 1024;

function buildAjv(options: AjvOptions): Ajv {
  // strictNumbers: JSON.parse turns 1e309 into Infinity, which is otherwise a valid unbounded number.
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, strictNumbers: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Fastify's per-request lines ("incoming request", "request completed") at debug: at info, every
 * save and poll of a competition day would fill the terminal. Failed requests keep their level.
 */
class RequestLinesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
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
    // A client trickling its body or headers would otherwise hold a connection (and the memory of
    // what it sent so far) forever; Node answers 408 through contractClientErrorHandler.
    requestTimeout: deps.config.timeouts.requestMs,
    // Node checks the two timeouts only this often (30 s by default), which would double them.
    http: { connectionsCheckingInterval: Math.min(1_000, deps.config.timeouts.headersMs) },
    logController: new RequestLinesAtDebug(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = deps.config.timeouts.headersMs;

  // Query strings and path params are text and need coercion; JSON bodies must not be coerced,
  // or `true` would silently become the score 1.
  const textAjv = buildAjv({ coerceTypes: 'array' });
  const bodyAjv = buildAjv({ coerceTypes: false });
  for (const ajv of [textAjv, bodyAjv]) ajv.addSchema(ErrorBodySchema);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  app.addSchema(ErrorBodySchema);
  registerClientGone(app);
  installErrorHandling(app);
  // A request that ran into a full disk (or similar) is what health reports as the shortage.
  app.addHook('onError', async (_request, _reply, error) => void resourceShortageOf(deps.pool)?.record(error));
  refuseRequestsWhileClosing(app);
  registerPublicMode(app, deps.config.serviceMode);
  await registerAuth(app, {
    secret: deps.config.jwtSecret,
    mode: deps.config.authMode,
    judgeCredentialActive: (credentialId) => judgeCredentialActive(deps.pool, credentialId),
  });
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
