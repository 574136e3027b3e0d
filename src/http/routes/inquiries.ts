/**
 * Inquiries on a shown D value (FIG Technical Regulations Art. 8.5; docs/decisions.md
 * "Inquiries"). A coach files and confirms from the office's coach view with their name; the head
 * judge may record both for a coach with a head or admin token. A judge's token is refused (403):
 * judges do not inquire. Decisions need the head or admin role. No body carries a time: every step
 * is stamped by the database server, and an unknown key (a client's `filedAt`) is a 400.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppDeps, TypedApp } from '../app-types.js';
import { confirmInquiry, decideInquiry, fileInquiry, refuseWithdrawal, storeInquiryDeadlines } from '../../../commands/inquiries.js';
import { listInquiries, listInquiryCandidates, selectInquiryDeadlines } from '../../../queries/inquiries.js';
import { commandContext } from '../actor.js';
import { HEAD_ROLES, requireTokenWhenStrict, type TokenClaims } from '../auth.js';
import { Id, withErrors } from '../schemas/common.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const Time = (description: string) => Type.String({ description: `ISO 8601, the server's clock: ${description}` });
const NullableTime = (description: string) => Type.Union([Time(description), Type.Null()]);
const PersonName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });

const InquirySchema = Type.Object({
  id: Type.Integer(),
  eventId: Type.Integer(),
  competitionId: Type.Integer(),
  scoreId: Type.Integer(),
  disciplineId: Type.Integer(),
  disciplineName: NullableString,
  fieldId: Type.Integer({ description: 'The D field (start-value field of the apparatus)' }),
  firstName: NullableString,
  lastName: NullableString,
  startNumber: NullableString,
  clubName: NullableString,
  coach: Type.String(),
  recordedBy: Type.Union([Type.String(), Type.Null()], { description: 'The head judge who recorded it for the coach' }),
  state: Type.Union(
    (['filed', 'confirmed', 'lapsed', 'upheld', 'rejected'] as const).map((state) => Type.Literal(state)),
    { description: 'lapsed: not confirmed in writing by writtenDeadline' },
  ),
  shownAt: Time('when the score was shown'),
  filedAt: Time('the verbal inquiry'),
  verbalDeadline: NullableTime('null: due before the next gymnast’s score on the apparatus was shown'),
  writtenDeadline: Time('the written confirmation was due by then'),
  confirmedAt: NullableTime('the written confirmation'),
  confirmedBy: NullableString,
  decidedAt: NullableTime('the head judge’s decision'),
  decidedBy: NullableString,
  decision: Type.Union([Type.Literal('upheld'), Type.Literal('rejected'), Type.Null()]),
  dBefore: NullableNumber,
  dAfter: NullableNumber,
  finalBefore: NullableNumber,
  finalAfter: NullableNumber,
  note: NullableString,
});

const DeadlinesSchema = Type.Object({
  competitionId: Type.Integer(),
  lastGymnastSeconds: Type.Integer({ description: 'The last gymnast of a rotation files within this long of the score being shown' }),
  writtenSeconds: Type.Integer({ description: 'The written confirmation follows within this long of the verbal inquiry' }),
  stored: Type.Boolean({ description: 'false: the FIG defaults (60 s, 240 s)' }),
});

const Seconds = Type.Integer({ minimum: 1, maximum: 3600 });
const InquiryParams = Type.Object({ inquiryId: Id() });

const claimsOf = (request: FastifyRequest) => (request.user as TokenClaims | undefined | null) ?? null;

export async function inquiriesRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  // A coach has no token; in strict mode the head judge records for the coach.
  const coachOrHead = requireTokenWhenStrict(app, deps.config.authMode, [...HEAD_ROLES]);

  app.get(
    '/api/events/:eventId/inquiries',
    {
      schema: {
        tags: ['inquiries'],
        summary: 'The inquiries of an event, oldest first, with every step’s server time (coach page, console, board, printed log)',
        params: Type.Object({ eventId: Id() }),
        response: withErrors(
          { 200: Type.Object({ eventId: Type.Integer(), now: Time('when this answer was made'), inquiries: Type.Array(InquirySchema) }) },
          400,
          503,
        ),
      },
    },
    async (request) => listInquiries(deps.pool, request.params.eventId),
  );

  app.get(
    '/api/events/:eventId/inquiry-candidates',
    {
      schema: {
        tags: ['inquiries'],
        summary: 'The most recently shown scores of one apparatus, newest first: whom a coach can inquire about',
        params: Type.Object({ eventId: Id() }),
        querystring: Type.Object({ disciplineId: Id() }, { additionalProperties: false }),
        response: withErrors(
          {
            200: Type.Object({
              eventId: Type.Integer(),
              disciplineId: Type.Integer(),
              now: Time('when this answer was made'),
              scores: Type.Array(
                Type.Object({
                  scoreId: Type.Integer(),
                  competitionId: Type.Integer(),
                  firstName: NullableString,
                  lastName: NullableString,
                  startNumber: NullableString,
                  clubName: NullableString,
                  finalScore: NullableNumber,
                  shownAt: Time('the score was shown'),
                  nextShownAt: NullableTime('another gymnast’s score was shown after it: an inquiry is late from then'),
                  verbalDeadline: NullableTime('the last gymnast of a rotation: the verbal inquiry is due by then'),
                  inquiryId: Type.Union([Type.Integer(), Type.Null()]),
                }),
              ),
            }),
          },
          400,
          404,
          503,
        ),
      },
    },
    async (request) => listInquiryCandidates(deps.pool, request.params.eventId, request.query.disciplineId),
  );

  app.post(
    '/api/events/:eventId/inquiries',
    {
      onRequest: coachOrHead,
      schema: {
        tags: ['inquiries'],
        summary: 'File a (verbal) inquiry on a shown D value; refused with 409 and the times when late',
        params: Type.Object({ eventId: Id() }),
        body: Type.Object(
          {
            scoreId: Id({ description: 'wertungenId of the gymnast' }),
            disciplineId: Id({ description: 'The apparatus' }),
            coach: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'The coach who inquires' }),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 201: InquirySchema }, 400, 401, 403, 404, 409, 503),
      },
    },
    async (request, reply) => {
      const claims = claimsOf(request);
      const context = commandContext(request);
      const inquiry = await deps.commands.run(
        (tx) =>
          fileInquiry(
            tx,
            { eventId: request.params.eventId, ...request.body, coach: request.body.coach.trim(), recordedBy: claims?.sub ?? null },
            request.log,
          ),
        context,
      );
      return reply.code(201).send(inquiry);
    },
  );

  app.post(
    '/api/inquiries/:inquiryId/confirmation',
    {
      onRequest: coachOrHead,
      schema: {
        tags: ['inquiries'],
        summary: 'Confirm an inquiry in writing; refused with 409 and the times after the written deadline',
        params: InquiryParams,
        body: Type.Object(
          { coach: Type.Optional({ ...PersonName, description: 'Who signs; default the coach who filed' }) },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: InquirySchema }, 400, 401, 403, 404, 409, 503),
      },
    },
    async (request) => {
      const context = commandContext(request);
      const by = claimsOf(request)?.sub ?? request.body.coach?.trim() ?? null;
      return deps.commands.run((tx) => confirmInquiry(tx, request.params.inquiryId, by), context);
    },
  );

  app.post(
    '/api/inquiries/:inquiryId/decision',
    {
      onRequest: app.requireRole(...HEAD_ROLES),
      schema: {
        tags: ['inquiries'],
        summary: 'The head judge decides a confirmed inquiry once: upheld writes newD through the score path, rejected keeps the score',
        security: [{ bearer: [] }],
        params: InquiryParams,
        body: Type.Object(
          {
            decision: Type.Union([Type.Literal('upheld'), Type.Literal('rejected')]),
            newD: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'The D value after the review; only when upheld' })),
            note: Type.Optional(Type.String({ maxLength: 300 })),
          },
          { additionalProperties: false },
        ),
        response: withErrors({ 200: InquirySchema }, 400, 401, 403, 404, 409, 503),
      },
    },
    async (request) => {
      const context = commandContext(request);
      return deps.commands.run(
        (tx) =>
          decideInquiry(tx, { inquiryId: request.params.inquiryId, ...request.body, decidedBy: context.actor ?? 'unknown' }, request.log),
        context,
      );
    },
  );

  app.delete(
    '/api/inquiries/:inquiryId',
    {
      onRequest: coachOrHead,
      schema: {
        tags: ['inquiries'],
        summary: 'Always refused (409): an inquiry cannot be withdrawn',
        params: InquiryParams,
        response: withErrors({}, 400, 401, 403, 404, 409, 503),
      },
    },
    async (request) => deps.commands.run((tx) => refuseWithdrawal(tx, request.params.inquiryId), commandContext(request)),
  );

  const DeadlinesParams = Type.Object({ eventId: Id(), competitionId: Id() });
  app.get(
    '/api/events/:eventId/competitions/:competitionId/inquiry-deadlines',
    {
      schema: {
        tags: ['inquiries'],
        summary: 'The inquiry deadlines of a competition (FIG defaults unless stored)',
        params: DeadlinesParams,
        response: withErrors({ 200: DeadlinesSchema }, 400, 404, 503),
      },
    },
    async (request) => selectInquiryDeadlines(deps.pool, request.params.eventId, request.params.competitionId),
  );

  app.put(
    '/api/events/:eventId/competitions/:competitionId/inquiry-deadlines',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['inquiries'],
        summary: 'Set the inquiry deadlines of a competition (admin)',
        security: [{ bearer: [] }],
        params: DeadlinesParams,
        body: Type.Object({ lastGymnastSeconds: Seconds, writtenSeconds: Seconds }, { additionalProperties: false }),
        response: withErrors({ 200: DeadlinesSchema }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const context = commandContext(request);
      const stored = await deps.commands.run(
        (tx) => storeInquiryDeadlines(tx, { ...request.params, deadlines: request.body, by: context.actor ?? 'unknown' }),
        context,
      );
      return { competitionId: request.params.competitionId, ...stored, stored: true };
    },
  );
}
