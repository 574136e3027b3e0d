/**
 * Participants in the office (admin): the event's entries, a late entry, the did-not-start and
 * out-of-competition flags of an entry, and an import of registrations from a CSV or XLSX file
 * (preview first, which writes nothing; then the import, which enters the rows without problems
 * and leaves what exists as it is).
 */
import { Type, type Static } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { enterRegistrations } from '../../../commands/enter-registrations.js';
import { setEntryFlags } from '../../../commands/entry-flags.js';
import { listParticipantEntries } from '../../../queries/participants.js';
import { notFound, validationFailed } from '../../domain/errors.js';
import {
  guessMapping,
  readRegistrations,
  REGISTRATION_FIELDS,
  REGISTRATION_LIMITS,
  type ColumnMapping,
  type RegistrationRow,
} from '../../domain/registrations.js';
import { selectRegistrationContext, selectRegistrationMatches, type RegistrationContext } from '../../model/registration-match.js';
import { commandContext } from '../actor.js';
import { readRegistrationFile } from '../registration-file.js';
import { Id, withErrors } from '../schemas/common.js';

/** A file of 2 MB, base64-encoded in the JSON body. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const UPLOAD_BODY_LIMIT = Math.ceil((MAX_FILE_BYTES * 4) / 3) + 64 * 1024;

const EventParams = Type.Object({ eventId: Id() });
const EntryParams = Type.Object({ eventId: Id(), scoreId: Id({ description: 'The entry: an individual score row (wertungenId)' }) });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const EntrySchema = Type.Object({
  scoreId: Type.Integer(),
  participantId: Type.Integer(),
  competitionId: Type.Integer(),
  competitionName: Nullable(Type.String()),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  birthDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  gender: Nullable(Type.Integer({ description: '1 male, 2 female' })),
  startNumber: Nullable(Type.String()),
  clubId: Nullable(Type.Integer()),
  clubName: Nullable(Type.String()),
  squadName: Nullable(Type.String()),
  didNotStart: Type.Boolean({ description: 'bol_startet_nicht' }),
  outOfCompetition: Type.Boolean({ description: 'bol_ak' }),
});

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });
const LateEntryBody = Type.Object(
  {
    competitionId: Id({ description: 'A competition of the event' }),
    firstName: Type.String({ minLength: 1, maxLength: REGISTRATION_LIMITS.name }),
    lastName: Type.String({ minLength: 1, maxLength: REGISTRATION_LIMITS.name }),
    birthDate: Type.Optional(Text(20, 'DD.MM.YYYY or YYYY-MM-DD; empty: unknown')),
    gender: Type.Optional(Text(20, 'm/w (male/female, 1/2); empty: unknown')),
    clubName: Type.Optional(Text(REGISTRATION_LIMITS.club, 'Matched by name (any case); a new name creates the club')),
    startNumber: Type.Optional(Text(REGISTRATION_LIMITS.startNumber, "Empty: the next after the event's highest")),
    squadName: Type.Optional(Text(REGISTRATION_LIMITS.squad, 'var_riege')),
  },
  { additionalProperties: false },
);
const LateEntryReply = Type.Object({
  eventId: Type.Integer(),
  participantId: Type.Integer(),
  scoreId: Type.Integer(),
  created: Type.Boolean({ description: 'false: the gymnast was entered in this competition already; nothing changed' }),
});

const FlagsBody = Type.Object(
  {
    didNotStart: Type.Optional(Type.Boolean({ description: 'bol_startet_nicht' })),
    outOfCompetition: Type.Optional(Type.Boolean({ description: 'bol_ak' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
const FlagsReply = Type.Object({
  scoreId: Type.Integer(),
  participantId: Type.Integer(),
  didNotStart: Type.Boolean(),
  outOfCompetition: Type.Boolean(),
  changed: Type.Boolean({ description: 'false: the flags already were so; nothing written' }),
});

const MappingSchema = Type.Object(
  Object.fromEntries(REGISTRATION_FIELDS.map((field) => [field, Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 200 })))])),
  { additionalProperties: false, description: 'Column (0-based) per field; null or missing: not in the file' },
);
const ImportBody = Type.Object(
  {
    content: Type.String({ minLength: 1, maxLength: UPLOAD_BODY_LIMIT, contentEncoding: 'base64', description: 'The CSV or XLSX file' }),
    mapping: Type.Optional(MappingSchema),
    defaultCompetitionId: Type.Optional(Id({ description: "For rows without a competition; default: the event's only one" })),
  },
  { additionalProperties: false },
);
type ImportRequest = Static<typeof ImportBody>;

const ProblemSchema = Type.Union(
  ['missing-name', 'unknown-competition', 'bad-birth-date', 'bad-gender', 'too-long', 'formula', 'duplicate'].map((code) =>
    Type.Literal(code),
  ),
);
const MappingReply = Type.Object(Object.fromEntries(REGISTRATION_FIELDS.map((field) => [field, Type.Optional(Type.Integer())])));
const PreviewReply = Type.Object({
  eventId: Type.Integer(),
  headers: Type.Array(Type.String()),
  guessedMapping: MappingReply,
  mapping: MappingReply,
  rows: Type.Array(
    Type.Object({
      line: Type.Integer({ description: 'Line of the file; 1 is the header' }),
      firstName: Type.String(),
      lastName: Type.String(),
      birthDate: Nullable(Type.String()),
      gender: Nullable(Type.Integer()),
      clubName: Nullable(Type.String()),
      competitionId: Nullable(Type.Integer()),
      startNumber: Nullable(Type.String()),
      squadName: Nullable(Type.String()),
      problems: Type.Array(ProblemSchema),
      status: Type.Union([Type.Literal('new'), Type.Literal('new-entry'), Type.Literal('unchanged'), Type.Literal('skipped')], {
        description:
          'new: gymnast and entry are created; new-entry: the gymnast exists, the entry is created; unchanged: entered already; skipped: has problems',
      }),
    }),
  ),
  counts: Type.Object({ new: Type.Integer(), newEntry: Type.Integer(), unchanged: Type.Integer(), skipped: Type.Integer() }),
});
const ImportReply = Type.Object({
  eventId: Type.Integer(),
  clubsCreated: Type.Integer(),
  participantsCreated: Type.Integer(),
  entriesCreated: Type.Integer(),
  unchanged: Type.Integer(),
  skipped: Type.Integer({ description: 'Rows with problems, not imported' }),
});

async function eventContext(deps: AppDeps, eventId: number): Promise<RegistrationContext> {
  const context = await selectRegistrationContext(deps.pool, eventId);
  if (!context.eventFound) throw notFound(`No event ${eventId}`);
  return context;
}

/** The explicit mapping (nulls dropped), else the header's guess. */
function usedMapping(body: ImportRequest, guessed: ColumnMapping): ColumnMapping {
  if (!body.mapping) return guessed;
  return Object.fromEntries(Object.entries(body.mapping).filter(([, column]) => typeof column === 'number')) as ColumnMapping;
}

async function readUpload(deps: AppDeps, eventId: number, body: ImportRequest) {
  const context = await eventContext(deps, eventId);
  if (Buffer.byteLength(body.content, 'base64') > MAX_FILE_BYTES) throw validationFailed('body.content: the file is larger than 2 MB');
  const defaultCompetitionId = body.defaultCompetitionId ?? (context.competitions.length === 1 ? context.competitions[0]!.id : null);
  if (defaultCompetitionId !== null && !context.competitions.some((competition) => competition.id === defaultCompetitionId))
    throw validationFailed(`body.defaultCompetitionId: ${defaultCompetitionId} is not a competition of event ${eventId}`);
  const cells = await readRegistrationFile(body.content);
  const headers = (cells[0] ?? []).map((header) => header.trim());
  const guessedMapping = guessMapping(headers);
  const mapping = usedMapping(body, guessedMapping);
  const rows = readRegistrations(cells, mapping, { competitions: context.competitions, defaultCompetitionId });
  return { headers, guessedMapping, mapping, rows };
}

const accepted = (rows: readonly RegistrationRow[]) => rows.filter((row) => row.problems.length === 0);

export async function participantsRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const admin = app.requireRole('admin');
  const security = [{ bearer: [] }];

  app.get(
    '/api/events/:eventId/participants',
    {
      onRequest: admin,
      schema: {
        tags: ['participants'],
        summary: 'Every individual entry (score row) of the event with gymnast, club, competition, squad and flags (admin)',
        security,
        params: EventParams,
        response: withErrors({ 200: Type.Object({ eventId: Type.Integer(), entries: Type.Array(EntrySchema) }) }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => ({ eventId: request.params.eventId, entries: await listParticipantEntries(deps.pool, request.params.eventId) }),
  );

  app.post(
    '/api/events/:eventId/participants',
    {
      onRequest: admin,
      schema: {
        tags: ['participants'],
        summary:
          'Late entry (admin): the gymnast (matched by name, birth date and club, else created) gets a score row in the competition; entering the same again changes nothing',
        security,
        params: EventParams,
        body: LateEntryBody,
        response: withErrors({ 200: LateEntryReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const body = request.body;
      const context = await eventContext(deps, eventId);
      if (!context.competitions.some((competition) => competition.id === body.competitionId))
        throw validationFailed(`body.competitionId: ${body.competitionId} is not a competition of event ${eventId}`);
      // The fields read as one row of an import, so both take the same checks.
      const fields = ['firstName', 'lastName', 'birthDate', 'gender', 'club', 'startNumber', 'squad'] as const;
      const values = [body.firstName, body.lastName, body.birthDate, body.gender, body.clubName, body.startNumber, body.squadName];
      const [row] = readRegistrations(
        [[...fields], values.map((value) => value ?? '')],
        Object.fromEntries(fields.map((field, index) => [field, index])),
        { competitions: context.competitions, defaultCompetitionId: body.competitionId },
      );
      if (!row || row.problems.length > 0) throw validationFailed(`body: ${(row?.problems ?? ['missing-name']).join(', ')}`);
      const command = commandContext(request);
      const entered = await deps.commands.run(
        (tx) => enterRegistrations(tx, eventId, [row.registration], 'late-entry', command.actor ?? 'admin'),
        command,
      );
      const entry = entered.entries[0]!;
      return { eventId, participantId: entry.participantId, scoreId: entry.scoreId, created: entry.created };
    },
  );

  app.patch(
    '/api/events/:eventId/entries/:scoreId',
    {
      onRequest: admin,
      schema: {
        tags: ['participants'],
        summary: 'Did not start (bol_startet_nicht) and out of competition (bol_ak) of an entry (admin); audited, boards follow',
        security,
        params: EntryParams,
        body: FlagsBody,
        response: withErrors({ 200: FlagsReply }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId, scoreId } = request.params;
      const command = commandContext(request);
      return deps.commands.run((tx) => setEntryFlags(tx, eventId, scoreId, request.body, command.actor ?? 'admin'), command);
    },
  );

  app.post(
    '/api/events/:eventId/registrations/preview',
    {
      onRequest: admin,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags: ['participants'],
        summary:
          'Reads a CSV or XLSX file of registrations (admin): the headers, the guessed column mapping, and each row with its problems and what an import would do. Writes nothing',
        security,
        params: EventParams,
        body: ImportBody,
        response: withErrors({ 200: PreviewReply }, 400, 401, 403, 404, 413, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const { headers, guessedMapping, mapping, rows } = await readUpload(deps, eventId, request.body);
      const good = accepted(rows);
      const matches = await selectRegistrationMatches(
        deps.pool,
        eventId,
        good.map((row) => row.registration),
      );
      const matchOf = new Map(good.map((row, index) => [row, matches[index]!]));
      const previewRows = rows.map((row) => {
        const match = matchOf.get(row);
        const status = !match ? 'skipped' : match.scoreId !== null ? 'unchanged' : match.participantId !== null ? 'new-entry' : 'new';
        return { line: row.line, ...row.registration, problems: row.problems, status } as const;
      });
      const count = (status: string) => previewRows.filter((row) => row.status === status).length;
      return {
        eventId,
        headers,
        guessedMapping,
        mapping,
        rows: previewRows,
        counts: { new: count('new'), newEntry: count('new-entry'), unchanged: count('unchanged'), skipped: count('skipped') },
      };
    },
  );

  app.post(
    '/api/events/:eventId/registrations/import',
    {
      onRequest: admin,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags: ['participants'],
        summary:
          'Imports the rows of a registrations file that have no problems (admin), with the same reading as the preview; what exists already is left as it is, so importing a file twice changes nothing',
        security,
        params: EventParams,
        body: ImportBody,
        response: withErrors({ 200: ImportReply }, 400, 401, 403, 404, 413, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const { rows } = await readUpload(deps, eventId, request.body);
      const good = accepted(rows);
      const command = commandContext(request);
      const entered =
        good.length === 0
          ? { clubsCreated: 0, participantsCreated: 0, entriesCreated: 0, unchanged: 0 }
          : await deps.commands.run(
              (tx) =>
                enterRegistrations(
                  tx,
                  eventId,
                  good.map((row) => row.registration),
                  'import',
                  command.actor ?? 'admin',
                ),
              command,
            );
      return {
        eventId,
        clubsCreated: entered.clubsCreated,
        participantsCreated: entered.participantsCreated,
        entriesCreated: entered.entriesCreated,
        unchanged: entered.unchanged,
        skipped: rows.length - good.length,
      };
    },
  );
}
