/**
 * Issue 10 item 9: the spec's limits are enforced with a 400 whose message names the field.
 * One table of requests over real HTTP, plus an audit of every route's input schemas so that a new
 * route cannot take unbounded text, a zero id or an unlimited page (the spec's comment and field
 * name limits apply to any route that ever takes them; today none does).
 */
import { describe, expect, it } from 'vitest';
import { SQUAD_CRITERIA_LIMITS } from '../../src/domain/squad-planner.js';
import { useGroupTeamServer } from '../support/fixtures.js';
import { appRoutes, expectContractError, send } from '../support/security.js';
import { adminToken } from '../support/tokens.js';

const scoring = useGroupTeamServer();

type Row = [limit: string, method: 'GET' | 'POST', path: string, body: undefined | (() => Record<string, unknown>), field: string];

const group = (change: Record<string, unknown>) => () => {
  const { event } = scoring;
  return { groupId: event.groupId, competitionId: event.groupCompetitionId, disciplineId: event.disciplineId, finalScore: 9, ...change };
};
const team = (change: Record<string, unknown>) => () => {
  const { event } = scoring;
  return { teamId: event.teamId, competitionId: event.groupCompetitionId, disciplineId: event.disciplineId, finalScore: 9, ...change };
};
const apply = (squads: unknown[]) => () => ({ eventId: scoring.event.eventId, squads });
const generate = (change: Record<string, unknown>) => () => ({ eventId: scoring.event.eventId, ...change });
const juryResult = (change: Record<string, unknown>) => () => ({
  participantId: 1,
  disciplineFieldId: scoring.event.fields.D,
  performance: 8,
  ...change,
});
const limits = SQUAD_CRITERIA_LIMITS;

const ROWS: Row[] = [
  // Squad names: 1 to 5 characters everywhere they are written or filtered.
  [
    'squad name empty (apply)',
    'POST',
    '/api/squad-management/auto-assign/apply',
    apply([{ name: '', participantIds: [] }]),
    'body.squads.0.name',
  ],
  [
    'squad name of 6 characters (apply)',
    'POST',
    '/api/squad-management/auto-assign/apply',
    apply([{ name: 'Riege1', participantIds: [] }]),
    'body.squads.0.name',
  ],
  ['squad name of 6 characters (group)', 'POST', '/api/scores/group', group({ squadName: 'Riege1' }), 'body.squadName'],
  ['squad name empty (group)', 'POST', '/api/scores/group', group({ squadName: '' }), 'body.squadName'],
  ['squad name of 6 characters (team)', 'POST', '/api/scores/team', team({ squadName: 'Riege1' }), 'body.squadName'],
  ['squad filter of 6 characters', 'GET', '/api/scores?squadName=Riege1', undefined, 'querystring.squadName'],
  // Attempts: jury results use attempt 1 only; group and team attempts are 1..int_versuche.
  ['jury-result attempt 2', 'POST', '/api/jury-results', juryResult({ attempt: 2 }), 'body.attempt'],
  ['jury-result attempt 0', 'POST', '/api/jury-results', juryResult({ attempt: 0 }), 'body.attempt'],
  ['group attempt 0', 'POST', '/api/scores/group', group({ attemptNumber: 0 }), 'body.attemptNumber'],
  ['group attempt beyond the competition attempts', 'POST', '/api/scores/group', group({ attemptNumber: 3 }), 'attempt'],
  ['team attempt -1', 'POST', '/api/scores/team', team({ attempt: -1 }), 'body.attempt'],
  ['team attempt beyond the competition attempts', 'POST', '/api/scores/team', team({ attempt: 3 }), 'attempt'],
  // Page size: at most 1000.
  ['score page of 1001', 'GET', '/api/scores?limit=1001', undefined, 'querystring.limit'],
  ['score page of 0', 'GET', '/api/scores?limit=0', undefined, 'querystring.limit'],
  ['team score page of 1001', 'GET', '/api/scores/team?limit=1001', undefined, 'querystring.limit'],
  ['negative offset', 'GET', '/api/scores?offset=-1', undefined, 'querystring.offset'],
  // Ids are integers > 0.
  [
    'wertungenId 0 (capture)',
    'POST',
    '/api/scores/capture',
    () => ({ wertungenId: 0, fieldValues: [{ fieldId: 1, value: 1 }] }),
    'body.wertungenId',
  ],
  [
    'fieldId -1 (capture)',
    'POST',
    '/api/scores/capture',
    () => ({ wertungenId: 1, fieldValues: [{ fieldId: -1, value: 1 }] }),
    'body.fieldValues.0.fieldId',
  ],
  [
    'competitionId 0 (save-value)',
    'POST',
    '/api/scores/save-value',
    () => ({ competitionId: 0, participantId: 1, disciplineId: 1, score: 1 }),
    'body.competitionId',
  ],
  [
    'participantId 1.5 (save-value)',
    'POST',
    '/api/scores/save-value',
    () => ({ competitionId: 1, participantId: 1.5, disciplineId: 1, score: 1 }),
    'body.participantId',
  ],
  ['participantId 0 (jury result)', 'POST', '/api/jury-results', juryResult({ participantId: 0 }), 'body.participantId'],
  ['disciplineFieldId -1 (jury result)', 'POST', '/api/jury-results', juryResult({ disciplineFieldId: -1 }), 'body.disciplineFieldId'],
  ['groupId 0', 'POST', '/api/scores/group', group({ groupId: 0 }), 'body.groupId'],
  ['teamId -5', 'POST', '/api/scores/team', team({ teamId: -5 }), 'body.teamId'],
  ['component fieldId 0', 'POST', '/api/scores/group', group({ components: [{ fieldId: 0, value: 1 }] }), 'body.components.0.fieldId'],
  ['eventId 0 (generate)', 'POST', '/api/squad-management/auto-assign/generate', generate({ eventId: 0 }), 'body.eventId'],
  [
    'participant id 0 (apply)',
    'POST',
    '/api/squad-management/auto-assign/apply',
    apply([{ name: 'Rot', participantIds: [0] }]),
    'body.squads.0.participantIds.0',
  ],
  ['eventId 0 (scores)', 'GET', '/api/scores?eventId=0', undefined, 'querystring.eventId'],
  ['groupId 0 (path)', 'GET', '/api/scores/group/0', undefined, 'params.groupId'],
  ['teamId -1 (path)', 'GET', '/api/scores/team/-1', undefined, 'params.teamId'],
  ['id beyond int4', 'GET', '/api/scores/team/2147483648', undefined, 'params.teamId'],
  ['participantId 0 (jury results)', 'GET', '/api/jury-results?participantId=0&disciplineId=1', undefined, 'querystring.participantId'],
  ['disciplineId 0 (fields)', 'GET', '/api/discipline-fields?disciplineId=0', undefined, 'querystring.disciplineId'],
  ['clubId 0 (candidates)', 'GET', '/api/groups/available-participants?eventId=1&clubId=0&groupId=1', undefined, 'querystring.clubId'],
  ['eventId 0 (live results)', 'GET', '/api/live-results?eventId=0&disciplineId=1', undefined, 'querystring.eventId'],
  // Auto-assign criteria ranges.
  [
    `maxParticipantsPerSquad ${limits.maxParticipantsPerSquad.min - 1}`,
    'POST',
    '/api/squad-management/auto-assign/generate',
    generate({ maxParticipantsPerSquad: limits.maxParticipantsPerSquad.min - 1 }),
    'body.maxParticipantsPerSquad',
  ],
  [
    `maxParticipantsPerSquad ${limits.maxParticipantsPerSquad.max + 1}`,
    'POST',
    '/api/squad-management/auto-assign/generate',
    generate({ maxParticipantsPerSquad: limits.maxParticipantsPerSquad.max + 1 }),
    'body.maxParticipantsPerSquad',
  ],
  [
    `numberOfProposals ${limits.numberOfProposals.max + 1}`,
    'POST',
    '/api/squad-management/auto-assign/generate',
    generate({ numberOfProposals: limits.numberOfProposals.max + 1 }),
    'body.numberOfProposals',
  ],
  [
    `breakCount ${limits.breakCount.min - 1}`,
    'POST',
    '/api/squad-management/auto-assign/generate',
    generate({ breakCount: limits.breakCount.min - 1 }),
    'body.breakCount',
  ],
  [
    `breakCount ${limits.breakCount.max + 1}`,
    'POST',
    '/api/squad-management/auto-assign/generate',
    generate({ breakCount: limits.breakCount.max + 1 }),
    'body.breakCount',
  ],
  // Values: finite and within what a discipline can reach.
  [
    'score 1e309 (Infinity after parsing)',
    'POST',
    '/api/scores/save-value',
    () => ({ competitionId: 1, participantId: 1, disciplineId: 1, score: '__1e309__' }),
    'body.score',
  ],
  ['performance over 100,000', 'POST', '/api/jury-results', juryResult({ performance: 100_001 }), 'body.performance'],
];

describe('spec limits over HTTP', () => {
  it.each(ROWS)('refuses %s with 400 naming the field', async (_limit, method, path, body, field) => {
    // JSON.stringify cannot write 1e309, which the server's parser turns into Infinity.
    const raw = body === undefined ? undefined : JSON.stringify(body()).replace('"__1e309__"', '1e309');
    const answer = await send(`${scoring.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(raw === undefined ? {} : { 'content-type': 'application/json' }) },
      body: raw,
    });
    const error = expectContractError(answer, 400, 'VALIDATION_FAILED');
    expect(String(error.message)).toContain(field);
  });

  it.each([
    ['a squad filter of 5 characters', '/api/scores?squadName=Riege'],
    ['a page of 1000', '/api/scores?limit=1000'],
    ['a team score page of 1000', '/api/scores/team?limit=1000'],
  ])('accepts %s (the limit itself)', async (_case, path) => {
    expect((await send(`${scoring.server.url}${path}`)).status).toBe(200);
  });
});

type Schema = {
  type?: string;
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

/** Every property of a route's params, query and body with its path, unions and array items included. */
function propertiesOf(schema: Schema | undefined, path: string): Array<{ path: string; name: string; schema: Schema }> {
  if (!schema) return [];
  const found: Array<{ path: string; name: string; schema: Schema }> = [];
  for (const branch of schema.anyOf ?? []) found.push(...propertiesOf(branch, path));
  if (schema.items) found.push(...propertiesOf(schema.items, `${path}[]`));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push({ path: `${path}.${name}`, name, schema: property }, ...propertiesOf(property, `${path}.${name}`));
  }
  return found;
}

function inputProperties(): Array<{ route: string; path: string; name: string; schema: Schema }> {
  return appRoutes(scoring.server.app).flatMap((route) =>
    (['params', 'querystring', 'body'] as const).flatMap((part) =>
      propertiesOf(route.schema?.[part] as Schema | undefined, part).map((property) => ({
        route: `${route.method} ${route.url}`,
        ...property,
      })),
    ),
  );
}

const leaves = (property: { schema: Schema }): Schema[] => (property.schema.anyOf ? property.schema.anyOf : [property.schema]);

describe('input schema audit over every route', () => {
  it('bounds every text input, and squad names, comments and field names to the spec lengths', () => {
    const problems: string[] = [];
    for (const property of inputProperties()) {
      // A literal (one of a union of allowed words) is bounded by what it is.
      for (const leaf of leaves(property).filter((schema) => schema.type === 'string' && schema.const === undefined)) {
        const at = `${property.route} ${property.path}`;
        if (leaf.maxLength === undefined) problems.push(`${at} has no maxLength`);
        if (/squad/i.test(property.path) && /name$/i.test(property.name) && (leaf.maxLength ?? Infinity) > 5)
          problems.push(`${at}: squad names have at most 5 characters`);
        if (/comment/i.test(property.name) && (leaf.maxLength ?? Infinity) > 150)
          problems.push(`${at}: comments have at most 150 characters`);
        if (/^(fieldName|name)$/.test(property.name) && /field/i.test(property.route) && (leaf.maxLength ?? Infinity) > 50)
          problems.push(`${at}: field names have at most 50 characters`);
        if (/shortName/.test(property.name) && (leaf.maxLength ?? Infinity) > 10)
          problems.push(`${at}: field short names have at most 10 characters`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('requires every id to be an integer > 0 and every page size to be at most 1000', () => {
    const problems: string[] = [];
    const ids = inputProperties().filter((property) => /(Id|Ids|^id)$/.test(property.name));
    expect(ids.length).toBeGreaterThan(10);
    for (const property of ids) {
      const schema = property.schema.type === 'array' ? property.schema.items! : property.schema;
      if (schema.type !== 'integer' || (schema.minimum ?? -Infinity) < 1) problems.push(`${property.route} ${property.path}`);
    }
    for (const property of inputProperties().filter((entry) => entry.name === 'limit')) {
      if ((property.schema.maximum ?? Infinity) > 1000) problems.push(`${property.route} ${property.path} allows pages over 1000`);
    }
    expect(problems).toEqual([]);
  });
});
