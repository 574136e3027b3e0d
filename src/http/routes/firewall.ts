import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, TypedApp } from '../app-types.js';
import {
  createFirewall,
  FIREWALL_ERROR_HTTP,
  FIREWALL_SERVICE_KEYS,
  FirewallError,
  answeringServices,
  networkInfo,
  type ChangeResult,
  type Firewall,
  type FirewallServiceKey,
} from '../../firewall/index.js';
import { AppError, type ErrorCode } from '../errors.js';
import { withErrors } from '../schemas/common.js';

// The literal union is the only thing that stands between `:service` and a netsh argument, so
// anything else (`backend;calc`, `backend" name=all`) is a 400 before any command runs.
const ServiceKeySchema = Type.Union(
  FIREWALL_SERVICE_KEYS.map((key) => Type.Literal(key)),
  { description: 'backend (Backend Server), frontend (Frontend Client) or jury (Jury Portal)' },
);

const ServiceParamsSchema = Type.Object({ service: ServiceKeySchema });

const ServiceStatusSchema = Type.Object({
  service: ServiceKeySchema,
  name: Type.String(),
  port: Type.Integer(),
  protocol: Type.Literal('TCP'),
  ruleName: Type.String(),
  enabled: Type.Boolean({ description: 'an inbound allow rule with ruleName exists' }),
});

const StatusSchema = Type.Object({
  supported: Type.Boolean({ description: 'false on a host OS other than Windows' }),
  platform: Type.String(),
  isAdmin: Type.Boolean({ description: 'the server process holds host administrator rights' }),
  services: Type.Array(ServiceStatusSchema),
});

const ChangeSchema = Type.Object({
  success: Type.Literal(true),
  service: ServiceKeySchema,
  enabled: Type.Boolean(),
  message: Type.String(),
});

const NetworkInfoSchema = Type.Object({
  hostname: Type.String(),
  interfaces: Type.Array(
    Type.Object({
      name: Type.String(),
      address: Type.String(),
      family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
      internal: Type.Boolean(),
    }),
  ),
  urls: Type.Array(
    Type.Object({
      service: ServiceKeySchema,
      port: Type.Integer(),
      interface: Type.String(),
      address: Type.String(),
      url: Type.String(),
      answers: Type.Boolean({
        description: 'Something listens on the port (the backend always): only then is the address worth a QR code',
      }),
    }),
  ),
});

type ChangeAction = 'enable' | 'disable';

/** The table's codes are contract codes (asserted by the firewall unit test), hence the cast. */
function toAppError(error: FirewallError): AppError {
  const { statusCode, code } = FIREWALL_ERROR_HTTP[error.code];
  return new AppError(statusCode, code as ErrorCode, error.message);
}

export async function firewallRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const { config } = deps;
  const firewall: Firewall = deps.firewall ?? createFirewall({ rulePrefix: config.rulePrefix, ports: config.servicePorts });

  app.get(
    '/api/firewall/status',
    {
      schema: {
        tags: ['firewall'],
        summary: 'Whether each service is reachable from the network; read-only, needs no administrator rights',
        response: withErrors({ 200: StatusSchema }),
      },
    },
    async () => {
      try {
        const [isAdmin, services] = await Promise.all([firewall.isAdmin(), firewall.status()]);
        return { supported: firewall.supported, platform: firewall.platform, isAdmin, services };
      } catch (error) {
        throw error instanceof FirewallError ? toAppError(error) : error;
      }
    },
  );

  /** Audit trail: every attempt is logged with the token subject, whether or not it changed anything. */
  async function change(request: FastifyRequest, action: ChangeAction, service: FirewallServiceKey): Promise<ChangeResult> {
    const who = request.user.sub;
    try {
      const result = await (action === 'enable' ? firewall.enable(service) : firewall.disable(service));
      request.log.info(
        { firewall: { who, action, service, result: result.changed ? 'changed' : 'unchanged', enabled: result.enabled } },
        result.message,
      );
      return result;
    } catch (error) {
      const code = error instanceof FirewallError ? error.code : 'UNEXPECTED';
      // The raw netsh output goes to the log only; the client gets the curated message.
      const detail = error instanceof FirewallError ? error.detail : undefined;
      request.log.warn({ firewall: { who, action, service, result: 'refused', code, detail } }, `firewall ${action} ${service} failed`);
      throw error instanceof FirewallError ? toAppError(error) : error;
    }
  }

  for (const action of ['enable', 'disable'] as const) {
    app.post(
      `/api/firewall/${action}/:service`,
      {
        // onRequest rather than preHandler: a caller without the admin role learns 401/403, not
        // whether its `:service` would have been valid.
        onRequest: app.requireRole('admin'),
        schema: {
          tags: ['firewall'],
          summary:
            action === 'enable'
              ? 'Create the inbound TCP allow rule for the service port (admin token and host administrator rights)'
              : 'Delete the rule of the service (admin token and host administrator rights)',
          security: [{ bearer: [] }],
          params: ServiceParamsSchema,
          response: withErrors({ 200: ChangeSchema }, 400, 401, 403, 404, 501),
        },
      },
      async (request) => {
        const result = await change(request, action, request.params.service);
        return { success: true as const, service: result.service, enabled: result.enabled, message: result.message };
      },
    );
  }

  app.get(
    '/api/firewall/network-info',
    {
      schema: {
        tags: ['firewall'],
        summary:
          'Every local address and one access URL per service for each address reachable from the network, with whether the service answers',
        response: withErrors({ 200: NetworkInfoSchema }),
      },
    },
    async () => networkInfo({ ports: config.servicePorts, answering: await answeringServices(config.servicePorts) }),
  );
}
