import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { replaceGroupMembers } from '../../../commands/replace-group-members.js';
import { ANONYMOUS } from '../../../commands/run-command.js';
import { withClientGone } from '../client-gone.js';
import { commandContext } from '../actor.js';
import { saveGroupScore } from '../../../commands/save-group-score.js';
import { selectGroupMembers } from '../../../queries/group-members.js';
import { selectCandidates } from '../../../queries/available-participants.js';
import { getGroupScores } from '../../../queries/group-scores.js';
import { notFound } from '../../domain/errors.js';
import { Id, withErrors } from '../schemas/common.js';
import { AttemptSchema, CollectiveScoreBodyProperties, collectiveScoreInput, ScoreComponentSchema } from '../schemas/collective-scores.js';

const SaveGroupScoreBodySchema = Type.Object({
  groupId: Id(),
  ...CollectiveScoreBodyProperties,
  competitionId: Id({ description: 'A group competition (bol_gruppe) of the same event as the group' }),
  attemptNumber: Type.Optional(AttemptSchema),
});

const SaveGroupScoreResponseSchema = Type.Object({
  success: Type.Literal(true),
  scoreId: Type.Integer(),
  components: Type.Array(Type.Object({ id: Type.Integer(), fieldId: Type.Integer(), value: Type.Number() }), {
    description: 'Every detail row written, the final-score row included',
  }),
});

const GroupScoresQuerySchema = Type.Object({
  competitionId: Type.Optional(Id()),
  disciplineId: Type.Optional(Id()),
  includeComponents: Type.Boolean({ default: true }),
});

const GroupScoresResponseSchema = Type.Object({
  success: Type.Literal(true),
  group: Type.Object({ id: Type.Integer(), name: Type.String(), startNumber: Type.Union([Type.Integer(), Type.Null()]) }),
  scores: Type.Array(
    Type.Object({
      id: Type.Integer(),
      competitionId: Type.Integer(),
      disciplineId: Type.Integer(),
      disciplineName: Type.String(),
      attemptNumber: Type.Integer(),
      finalScore: Type.Union([Type.Number(), Type.Null()]),
      statusId: Type.Integer(),
      components: Type.Optional(Type.Array(ScoreComponentSchema, { description: 'Without the final field' })),
    }),
  ),
});

const CandidatesQuerySchema = Type.Object({
  eventId: Id(),
  clubId: Id({ description: 'The club of the group; used when hideOtherClubs is true' }),
  groupId: Id({ description: 'Required by the spec; members already in the group are removed by the client' }),
  hidePlanned: Type.Boolean({ default: false }),
  hideOtherClubs: Type.Boolean({ default: false }),
});

const CandidatesResponseSchema = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.Integer(),
      firstName: Type.Union([Type.String(), Type.Null()]),
      lastName: Type.Union([Type.String(), Type.Null()]),
      startNumber: Type.Union([Type.String(), Type.Null()]),
      clubId: Type.Union([Type.Integer(), Type.Null()]),
      clubName: Type.Union([Type.String(), Type.Null()]),
      gender: Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other')]),
      birthDate: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()]),
    }),
  ),
  total: Type.Integer(),
});

const NullableText = Type.Union([Type.String(), Type.Null()]);

const GroupMembersReplySchema = Type.Object({
  groupId: Type.Integer(),
  members: Type.Array(
    Type.Object({
      id: Type.Integer({ description: 'participant id' }),
      firstName: NullableText,
      lastName: NullableText,
      startNumber: NullableText,
      clubName: NullableText,
    }),
    { description: 'In the order the office stored them' },
  ),
});

const GroupMembersBodySchema = Type.Object({
  participantIds: Type.Array(Id(), { maxItems: 500, description: 'The whole member list, in order; replaces the stored one' }),
});

export async function groupsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const { pool } = deps;

  async function membersReply(groupId: number) {
    const members = await selectGroupMembers(pool, groupId);
    if (members === null) throw notFound(`group ${groupId} not found`);
    return { groupId, members };
  }

  app.get(
    '/api/groups/:groupId/members',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['groups'],
        summary: 'Members of a group as the office stored them (service table; the legacy layout has none)',
        security: [{ bearer: [] }],
        params: Type.Object({ groupId: Id() }),
        response: withErrors({ 200: GroupMembersReplySchema }, 400, 401, 403, 404),
      },
    },
    async (request) => membersReply(request.params.groupId),
  );

  app.put(
    '/api/groups/:groupId/members',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['groups'],
        summary: 'Replace the member list of a group; answers the list as stored',
        security: [{ bearer: [] }],
        params: Type.Object({ groupId: Id() }),
        body: GroupMembersBodySchema,
        response: withErrors({ 200: GroupMembersReplySchema }, 400, 401, 403, 404),
      },
    },
    async (request) => {
      await deps.commands.run(
        (tx) => replaceGroupMembers(tx, request.params.groupId, request.body.participantIds),
        withClientGone(ANONYMOUS, request),
      );
      return membersReply(request.params.groupId);
    },
  );

  app.post(
    '/api/scores/group',
    {
      onRequest: app.requireScoreWriter,
      schema: {
        tags: ['groups'],
        summary: 'Create or update the score of a group for one discipline and attempt',
        body: SaveGroupScoreBodySchema,
        response: withErrors({ 200: SaveGroupScoreResponseSchema }, 400, 401, 403, 404, 409),
      },
    },
    async (request) => {
      const { body } = request;
      const result = await deps.commands.run(
        (tx) => saveGroupScore(tx, collectiveScoreInput(body.groupId, body.attemptNumber, body)),
        commandContext(request),
      );
      return { success: true as const, ...result };
    },
  );

  app.get(
    '/api/scores/group/:groupId',
    {
      schema: {
        tags: ['groups'],
        summary: 'Scores of a group, one entry per competition, discipline and attempt',
        params: Type.Object({ groupId: Id() }),
        querystring: GroupScoresQuerySchema,
        response: withErrors({ 200: GroupScoresResponseSchema }, 400, 404),
      },
    },
    async (request) => {
      const found = await getGroupScores(pool, request.params.groupId, request.query);
      if (!found) throw notFound(`group ${request.params.groupId} not found`);
      return { success: true as const, ...found };
    },
  );

  app.get(
    '/api/groups/available-participants',
    {
      schema: {
        tags: ['groups'],
        summary: 'Candidates for filling a group (participants of type Gruppe of the event)',
        querystring: CandidatesQuerySchema,
        response: withErrors({ 200: CandidatesResponseSchema }, 400),
      },
    },
    async (request) => {
      const results = await selectCandidates(pool, request.query);
      return { results, total: results.length };
    },
  );
}
