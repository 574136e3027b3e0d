/**
 * Judge credentials (issue 45, admin): one per apparatus of an event, or per E-judge field. The
 * answer to issuing carries the token once (it is not stored) and the portal address that opens
 * preselected; the token travels in the address's fragment, which browsers never send to a server,
 * so it stays out of access logs and proxies.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, TypedApp } from '../app-types.js';
import { issueJudgeCredential, revokeJudgeCredential } from '../../../commands/judge-credentials.js';
import { listJudgeCredentials } from '../../../queries/judge-credentials.js';
import type { JudgeCredential } from '../../model/judge-credential.js';
import { commandContext } from '../actor.js';
import { signJudgeToken } from '../auth.js';
import { Id, withErrors } from '../schemas/common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const CredentialReply = Type.Object({
  id: Type.Integer(),
  eventId: Type.Integer(),
  competitionId: Nullable(Type.Integer()),
  disciplineId: Type.Integer(),
  disciplineName: Nullable(Type.String()),
  fieldId: Nullable(Type.Integer({ description: 'The E-judge field; null: the whole apparatus' })),
  judgeName: Type.String({ description: 'The token’s subject: the name the audit records' }),
  issuedAt: Type.String(),
  issuedBy: Type.String(),
  expiresAt: Type.String({ description: 'The end of the competition day' }),
  revokedAt: Nullable(Type.String()),
  revokedBy: Nullable(Type.String()),
  active: Type.Boolean({ description: 'Neither revoked nor expired' }),
  squadName: Nullable(Type.String({ description: 'The squad on the apparatus now (first rotation while none started)' })),
});

const IssuedReply = Type.Object({
  credential: CredentialReply,
  token: Type.String({ description: 'Bearer token, role jury, limited to the credential’s scope; shown only here' }),
  portalUrl: Type.String({ description: 'The jury portal preselected, the token in the fragment (#token=)' }),
});

const IssueBody = Type.Object(
  {
    disciplineId: Id({ description: 'The apparatus' }),
    fieldId: Type.Optional(Id({ description: 'An E-judge field of the apparatus: the token writes that field only' })),
    competitionId: Type.Optional(Id({ description: 'The competition the portal opens; default: the event’s first' })),
    judgeName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default: the apparatus (and field) name' })),
    day: Type.Optional(
      Type.String({
        format: 'date',
        maxLength: 10,
        description: 'Competition day (YYYY-MM-DD) at whose end it expires; default: today, or the event’s first day',
      }),
    ),
  },
  { additionalProperties: false },
);

const EventParams = Type.Object({ eventId: Id() });

/** The portal address a QR code carries: same origin as the request that issued it. */
function portalUrl(request: FastifyRequest, credential: JudgeCredential, token: string): string {
  const query = new URLSearchParams({ eventId: String(credential.eventId) });
  if (credential.competitionId !== null) query.set('competitionId', String(credential.competitionId));
  query.set('disciplineId', String(credential.disciplineId));
  if (credential.squadName !== null) query.set('squad', credential.squadName);
  if (credential.fieldId !== null) query.set('field', String(credential.fieldId));
  return `${request.protocol}://${request.host}/jury/?${query.toString()}#${new URLSearchParams({ token }).toString()}`;
}

export async function judgeCredentialsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const url = '/api/events/:eventId/judge-credentials';

  app.get(
    url,
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['judge credentials'],
        summary: 'The judge credentials of an event, revoked and expired ones included (admin)',
        security: [{ bearer: [] }],
        params: EventParams,
        response: withErrors({ 200: Type.Array(CredentialReply) }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => listJudgeCredentials(deps.pool, request.params.eventId),
  );

  app.post(
    url,
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['judge credentials'],
        summary: 'Issue a judge credential for an apparatus (or one E-judge field of it), valid to the end of the competition day (admin)',
        security: [{ bearer: [] }],
        params: EventParams,
        body: IssueBody,
        response: withErrors({ 201: IssuedReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request, reply) => {
      const context = commandContext(request);
      const credential = await deps.commands.run(
        (tx) => issueJudgeCredential(tx, { eventId: request.params.eventId, ...request.body }, context.actor ?? 'admin'),
        context,
      );
      const scope = {
        credentialId: credential.id,
        eventId: credential.eventId,
        disciplineId: credential.disciplineId,
        fieldId: credential.fieldId,
      };
      const token = signJudgeToken(app, credential.judgeName, scope, credential.expiresAt);
      return reply.status(201).send({ credential, token, portalUrl: portalUrl(request, credential, token) });
    },
  );

  app.delete(
    `${url}/:id`,
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['judge credentials'],
        summary: 'Revoke a judge credential: its token is refused (401) from now on (admin)',
        security: [{ bearer: [] }],
        params: Type.Object({ eventId: Id(), id: Id() }),
        response: withErrors({ 200: CredentialReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const context = commandContext(request);
      return deps.commands.run(
        (tx) => revokeJudgeCredential(tx, request.params.eventId, request.params.id, context.actor ?? 'admin'),
        context,
      );
    },
  );
}
