import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { loadAllAroundResults, loadTeamResults, type AllAroundResults, type TeamResults } from '../../../queries/results.js';
import { AGE_RULES } from '../../domain/age.js';
import { RANK_NOTATIONS, TIE_BREAK_RULES } from '../../domain/all-around.js';
import { APPARATUS_TIE_BREAKS } from '../../domain/apparatus-ranking.js';
import { CSV_SEPARATORS, DEFAULT_CSV_SEPARATOR, toCsv, type CsvCell, type CsvSeparator } from '../../domain/csv.js';
import { Id, withErrors } from '../schemas/common.js';
import { setTieBreakSetting } from '../../../commands/tie-break-setting.js';
import { checkTieBreakInput, readTieBreakSetting } from '../../../queries/tie-break-setting.js';
import { commandContext } from '../actor.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

const ListQuery = {
  eventId: Id(),
  competitionId: Id({ description: 'A competition of the event' }),
};
const GroupBy = Type.Optional(
  Type.Literal('ageClass', { description: 'One ranking per age class (ageRule and the results setting’s ageClassRanges)' }),
);
const Separator = Type.Optional(
  Type.Union(
    CSV_SEPARATORS.map((separator) => Type.Literal(separator)),
    {
      default: DEFAULT_CSV_SEPARATOR,
      description: 'Column separator; with ; and tab numbers have a decimal comma, with , a decimal point',
    },
  ),
);

export const ApparatusTieBreakSchema = Type.Union(
  APPARATUS_TIE_BREAKS.map((rule) => Type.Literal(rule)),
  { description: 'Ties on one apparatus: shared (default), or e-then-d (higher E, then higher D, still equal shared; FIG)' },
);

const DisciplineResultSchema = Type.Object({
  disciplineId: Type.Integer(),
  score: Type.Union([Type.Number(), Type.Null()], { description: 'Final value of the best attempt; null while missing' }),
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Rank in this discipline within the class: the apparatus tie-break rule and the rank notation',
  }),
  tieBreak: Type.Union([ApparatusTieBreakSchema, Type.Null()], {
    description: 'The apparatus rule where it ranked this entry apart from an equal score on this discipline; else null',
  }),
});

const TieBreakSchema = Type.Union(TIE_BREAK_RULES.map((rule) => Type.Literal(rule)));

const RankedFields = {
  rank: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Ties share a rank (1, 1, 3, or 1, 1, 2 with rankNotation dense) unless the tie-break rule decides; null when out of competition or without any score',
  }),
  tieBreak: Type.Union([TieBreakSchema, Type.Null()], {
    description: 'The rule that ranked this entry apart from another with the same total (for printed lists); null when none did',
  }),
  scoreId: Type.Integer({ description: 'wertungenId (the lowest, should there be several)' }),
  total: Type.Number({ description: 'Sum of the disciplines’ scores, rounded to thousandths' }),
  complete: Type.Boolean({ description: 'false while a discipline of the competition has no score' }),
  outOfCompetition: Type.Boolean(),
  disciplines: Type.Array(DisciplineResultSchema),
};

const HeaderFields = {
  eventId: Type.Integer(),
  eventName: Type.String(),
  dateFrom: NullableString,
  dateTo: NullableString,
  competitionId: Type.Integer(),
  competitionName: NullableString,
  tieBreak: TieBreakSchema,
  apparatusTieBreak: ApparatusTieBreakSchema,
  rankNotation: Type.Union(
    RANK_NOTATIONS.map((notation) => Type.Literal(notation)),
    { description: 'standard: 1, 1, 3; dense: 1, 1, 2' },
  ),
  seq: Type.Integer({ description: 'Last outbox seq the list includes: join-competition with since = seq to follow it live' }),
  disciplines: Type.Array(Type.Object({ disciplineId: Type.Integer(), name: Type.String(), shortName: NullableString }), {
    description: 'The competition’s disciplines: those its score rows have detail rows for, in order of the first one',
  }),
};

const AllAroundSchema = Type.Object({
  ...HeaderFields,
  ageRule: Type.Union(AGE_RULES.map((rule) => Type.Literal(rule))),
  groupBy: Type.Union([Type.Literal('ageClass'), Type.Null()]),
  classes: Type.Array(
    Type.Object({
      ageClass: Type.Union([Type.String(), Type.Null()], {
        description: 'e.g. 9-10, other (outside every range), unknown (no birth date); null without groupBy',
      }),
      results: Type.Array(
        Type.Object({
          ...RankedFields,
          participantId: Type.Integer(),
          firstName: NullableString,
          lastName: NullableString,
          startNumber: NullableString,
          clubName: NullableString,
          birthYear: NullableInteger,
        }),
      ),
    }),
  ),
});

const TeamResultsSchema = Type.Object({
  ...HeaderFields,
  results: Type.Array(
    Type.Object({
      ...RankedFields,
      teamId: Type.Integer(),
      name: Type.String(),
      startNumber: NullableInteger,
      clubName: NullableString,
    }),
  ),
});

const NotationSchema = Type.Union(
  RANK_NOTATIONS.map((notation) => Type.Literal(notation)),
  { description: 'standard: 1, 1, 3 (default); dense: 1, 1, 2' },
);
const MaxDropsSchema = Type.Integer({ minimum: 1, maximum: 20, description: 'drop-lowest: the most scores dropped' });
const ApparatusOrderSchema = Type.Array(Id(), {
  minItems: 1,
  maxItems: 50,
  uniqueItems: true,
  description: 'apparatus-order: discipline ids of the competition, compared in this order',
});
const TieBreakParams = Type.Object({ eventId: Id(), competitionId: Id() });
const TieBreakBody = Type.Object(
  {
    tieBreak: TieBreakSchema,
    apparatusTieBreak: Type.Optional(ApparatusTieBreakSchema),
    rankNotation: Type.Optional(NotationSchema),
    maxDrops: Type.Optional(MaxDropsSchema),
    apparatusOrder: Type.Optional(ApparatusOrderSchema),
  },
  { additionalProperties: false },
);
const TieBreakSettingSchema = Type.Object({
  competitionId: Type.Integer(),
  tieBreak: TieBreakSchema,
  apparatusTieBreak: ApparatusTieBreakSchema,
  rankNotation: NotationSchema,
  maxDrops: Type.Union([Type.Integer(), Type.Null()], { description: 'null: all but one score may be dropped' }),
  apparatusOrder: Type.Array(Type.Integer()),
});

const CsvSchema = Type.String({ description: 'text/csv; charset=utf-8, with BOM' });

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const disciplineLabel = (discipline: { shortName: string | null; name: string }) => discipline.shortName || discipline.name;

export function allAroundCsvRows(list: AllAroundResults): CsvCell[][] {
  const grouped = list.groupBy !== null;
  const header: CsvCell[] = [
    ...(grouped ? ['Age class'] : []),
    'Rank',
    'Start number',
    'Last name',
    'First name',
    'Club',
    'Birth year',
    ...list.disciplines.map(disciplineLabel),
    'Total',
    'Complete',
    'Out of competition',
    'Participant ID',
    ...list.disciplines.map((discipline) => `${disciplineLabel(discipline)} rank`),
  ];
  const rows = list.classes.flatMap((group) =>
    group.results.map((result): CsvCell[] => [
      ...(grouped ? [group.ageClass] : []),
      result.rank,
      result.startNumber,
      result.lastName,
      result.firstName,
      result.clubName,
      result.birthYear,
      ...result.disciplines.map((discipline) => discipline.score),
      result.total,
      yesNo(result.complete),
      yesNo(result.outOfCompetition),
      result.participantId,
      ...result.disciplines.map((discipline) => discipline.rank),
    ]),
  );
  return [header, ...rows];
}

export function teamCsvRows(list: TeamResults): CsvCell[][] {
  const header: CsvCell[] = [
    'Rank',
    'Start number',
    'Team',
    'Club',
    ...list.disciplines.map(disciplineLabel),
    'Total',
    'Complete',
    'Out of competition',
    'Team ID',
    ...list.disciplines.map((discipline) => `${disciplineLabel(discipline)} rank`),
  ];
  const rows = list.results.map((result): CsvCell[] => [
    result.rank,
    result.startNumber,
    result.name,
    result.clubName,
    ...result.disciplines.map((discipline) => discipline.score),
    result.total,
    yesNo(result.complete),
    yesNo(result.outOfCompetition),
    result.teamId,
    ...result.disciplines.map((discipline) => discipline.rank),
  ]);
  return [header, ...rows];
}

export async function resultsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const cursor = () => deps.relay.status().cursor;
  const csvReply = (
    reply: { header(name: string, value: string): unknown },
    name: string,
    rows: CsvCell[][],
    separator: CsvSeparator | undefined,
  ) => {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${name}.csv"`);
    return toCsv(rows, separator ?? DEFAULT_CSV_SEPARATOR);
  };

  app.get(
    '/api/results',
    {
      schema: {
        tags: ['results'],
        summary: 'All-around results of one competition, optionally one ranking per age class',
        description:
          'Total = sum of the best attempt’s final value per discipline of the competition. Ties share a rank (1, 1, 3); the tie-break rule and rank notation per competition come from the app setting results, written by PUT /api/events/:eventId/competitions/:competitionId/tie-break. Age classes follow the ageRule app setting.',
        querystring: Type.Object({ ...ListQuery, groupBy: GroupBy }),
        response: withErrors({ 200: AllAroundSchema }, 400, 404),
      },
    },
    async (request) => loadAllAroundResults(deps.pool, request.query, cursor),
  );

  app.get(
    '/api/results.csv',
    {
      schema: {
        tags: ['results'],
        summary: 'GET /api/results as CSV (UTF-8 with BOM, ; by default) for spreadsheet programs',
        querystring: Type.Object({ ...ListQuery, groupBy: GroupBy, separator: Separator }),
        response: withErrors({ 200: CsvSchema }, 400, 404),
      },
    },
    async (request, reply) => {
      const list = await loadAllAroundResults(deps.pool, request.query, cursor);
      return csvReply(reply, `results-${list.eventId}-${list.competitionId}`, allAroundCsvRows(list), request.query.separator);
    },
  );

  app.get(
    '/api/events/:eventId/competitions/:competitionId/tie-break',
    {
      schema: {
        tags: ['results'],
        summary: "A competition's tie-break rule and rank notation (its own, else the general one of the app setting results)",
        params: TieBreakParams,
        response: withErrors({ 200: TieBreakSettingSchema }, 400, 404),
      },
    },
    async (request) => readTieBreakSetting(deps.pool, request.params.eventId, request.params.competitionId),
  );

  app.put(
    '/api/events/:eventId/competitions/:competitionId/tie-break',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['results'],
        summary:
          "Set a competition's tie-break rule (none, best-device-scores, drop-lowest with maxDrops, apparatus-order with apparatusOrder), apparatus tie-break rule (shared, e-then-d) and rank notation; appends tie-break-changed",
        params: TieBreakParams,
        body: TieBreakBody,
        response: withErrors({ 200: TieBreakSettingSchema }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId, competitionId } = request.params;
      await checkTieBreakInput(deps.pool, eventId, competitionId, request.body);
      const context = commandContext(request);
      await deps.commands.run(
        (tx) => setTieBreakSetting(tx, { eventId, competitionId, by: context.actor ?? 'unknown' }, request.body),
        context,
      );
      return readTieBreakSetting(deps.pool, eventId, competitionId);
    },
  );

  app.get(
    '/api/results/teams',
    {
      schema: {
        tags: ['results'],
        summary: 'Team results of one competition: team score rows ranked by their total over the disciplines',
        querystring: Type.Object(ListQuery),
        response: withErrors({ 200: TeamResultsSchema }, 400, 404),
      },
    },
    async (request) => loadTeamResults(deps.pool, request.query, cursor),
  );

  app.get(
    '/api/results/teams.csv',
    {
      schema: {
        tags: ['results'],
        summary: 'GET /api/results/teams as CSV (UTF-8 with BOM, ; by default)',
        querystring: Type.Object({ ...ListQuery, separator: Separator }),
        response: withErrors({ 200: CsvSchema }, 400, 404),
      },
    },
    async (request, reply) => {
      const list = await loadTeamResults(deps.pool, request.query, cursor);
      return csvReply(reply, `team-results-${list.eventId}-${list.competitionId}`, teamCsvRows(list), request.query.separator);
    },
  );
}
