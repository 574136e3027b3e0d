/**
 * The spectator page's reads and the office's privacy settings for it.
 *
 * Routes a public read-only instance serves carry `config: { publicRead: true }`.
 *
 * The snapshot is built once per event, relay cursor and settings version, and kept in memory as
 * its JSON text with an ETag: a thousand phones loading the page after the same save cost one
 * build, and a phone that has it already gets 304. Filing and deciding an inquiry are outbox events
 * too, so they move the cursor and the key. A build is kept at most SNAPSHOT_MAX_AGE_MS, since the
 * desktop program's deletes change the lists without an event, and not past the moment an inquiry
 * it marks lapses unconfirmed, which no event announces. The build is kept gzipped
 * too and sent so to every client that accepts it: 300 gymnasts on four apparatus are 43 KB of JSON
 * and 2.4 KB gzipped.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { commandContext } from '../actor.js';
import { Id, withErrors } from '../schemas/common.js';
import { validationFailed } from '../../domain/errors.js';
import { SpectatorHub } from '../../realtime/spectators.js';
import { buildLiveSnapshot } from '../../../queries/spectator-snapshot.js';
import { readSpectatorSettings } from '../../../queries/spectator-settings.js';
import { PUBLISH_MODES } from '../../model/spectator-privacy.js';
import { setSpectatorSettings } from '../../../commands/spectator-settings.js';
import { notFound } from '../../domain/errors.js';

export const SNAPSHOT_MAX_AGE_MS = 10_000;
/** Phones and proxies may reuse a snapshot this long without asking; the page asks anew after each live update. */
export const SNAPSHOT_CACHE_CONTROL = 'public, max-age=2';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const EventParams = Type.Object({ eventId: Id() });
const PublishSchema = Type.Union(
  PUBLISH_MODES.map((mode) => Type.Literal(mode)),
  { description: 'released: only scores of released devices; all: every score, unreleased ones marked provisional' },
);

const SettingsBody = Type.Object(
  {
    publish: PublishSchema,
    hiddenParticipantIds: Type.Array(Id(), {
      maxItems: 10_000,
      uniqueItems: true,
      description: 'Participants of the event shown without name and start number; replaces the flags of the event’s participants',
    }),
  },
  { additionalProperties: false },
);

const SettingsSchema = Type.Object({
  eventId: Type.Integer(),
  publish: PublishSchema,
  hiddenParticipantIds: Type.Array(Type.Integer()),
  participants: Type.Array(
    Type.Object({
      participantId: Type.Integer(),
      firstName: NullableString,
      lastName: NullableString,
      clubName: NullableString,
      hidden: Type.Boolean(),
    }),
  ),
});

const ScoreSchema = Type.Object({
  v: Type.Number({ description: 'value' }),
  r: Type.Union([Type.Integer(), Type.Null()], { description: 'rank on the apparatus' }),
  p: Type.Optional(Type.Literal(true, { description: 'provisional: the device is not released' })),
  q: Type.Optional(
    Type.Literal(true, { description: 'under inquiry: a coach’s inquiry on the value is open (filed or confirmed, not decided)' }),
  ),
});
const EntrySchema = Type.Object({
  id: Type.Integer({ description: 'participant id (gymnasts) or team id (teams)' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'null: not to be published' }),
  club: NullableString,
  no: Type.Union([Type.String(), Type.Null()], { description: 'start number' }),
  rank: NullableInteger,
  total: Type.Number(),
  done: Type.Boolean({ description: 'every apparatus has a value' }),
  ooc: Type.Boolean({ description: 'out of competition' }),
  s: Type.Array(Type.Union([ScoreSchema, Type.Null()]), { description: 'per apparatus, in the order of the list’s apparatus' }),
  p: Type.Optional(Type.Literal(true, { description: 'some value in the total is provisional' })),
});
const ApparatusSchema = Type.Object({ id: Type.Integer(), name: Type.String(), short: NullableString });
const SnapshotSchema = Type.Object({
  eventId: Type.Integer(),
  eventName: Type.String(),
  seq: Type.Integer({ description: 'join-live with since = seq to follow the snapshot live' }),
  publish: PublishSchema,
  competitions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: NullableString,
      apparatus: Type.Array(ApparatusSchema),
      gymnasts: Type.Array(EntrySchema, { description: 'all-around ranking; the apparatus ranks are in s[].r' }),
      teamApparatus: Type.Array(ApparatusSchema),
      teams: Type.Array(EntrySchema),
    }),
  ),
});

interface CachedSnapshot {
  key: string;
  /** When the build is no longer served: its age limit, or an inquiry it marks lapsing. */
  staleAt: number;
  ready: Promise<{ body: string; gzipped: Buffer; etag: string }>;
}

export async function spectatorRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  const cursor = () => deps.relay.status().cursor;
  const hub = deps.spectators ?? new SpectatorHub(deps.pool, cursor);
  const snapshots = new Map<number, CachedSnapshot>();

  const snapshotOf = async (eventId: number) => {
    const privacy = await hub.privacy(eventId);
    if (!privacy) throw notFound(`No event ${eventId}`);
    // Read before the build, never after (see projections/live-results.ts).
    const seq = cursor();
    const key = `${seq}:${hub.version(eventId)}`;
    const cached = snapshots.get(eventId);
    if (cached && cached.key === key && Date.now() < cached.staleAt) return cached.ready;
    const entry: CachedSnapshot = {
      key,
      staleAt: Date.now() + SNAPSHOT_MAX_AGE_MS,
      ready: buildLiveSnapshot(deps.pool, eventId, seq, privacy).then(({ snapshot, staleAt }) => {
        if (staleAt !== null) entry.staleAt = Math.min(entry.staleAt, staleAt.getTime());
        const body = JSON.stringify(snapshot);
        return { body, gzipped: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      }),
    };
    const { ready } = entry;
    snapshots.set(eventId, entry);
    // A failed build is not kept: the next request tries again.
    ready.catch(() => {
      if (snapshots.get(eventId)?.ready === ready) snapshots.delete(eventId);
    });
    return ready;
  };

  app.get(
    '/api/public/events/:eventId/live',
    {
      config: { publicRead: true },
      schema: {
        tags: ['spectators'],
        summary: 'The spectator page’s snapshot of an event: competitions with all-around, apparatus and team rankings',
        description:
          'Under the event’s privacy settings: publish released shows released values only (ranked without the others), all marks unreleased values provisional (p); participants not to be published have name and start number null. No birth dates. ETag and Cache-Control; If-None-Match answers 304. Follow it with the Socket.IO message join-live {eventId, since: seq}.',
        params: EventParams,
        response: withErrors({ 200: SnapshotSchema, 304: Type.Null({ description: 'If-None-Match matched' }) }, 400, 404),
      },
    },
    async (request, reply) => {
      const { body, gzipped, etag } = await snapshotOf(request.params.eventId);
      reply.header('etag', etag).header('cache-control', SNAPSHOT_CACHE_CONTROL).header('vary', 'accept-encoding');
      const asked = request.headers['if-none-match'];
      if (asked !== undefined && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send(null);
      reply.type('application/json; charset=utf-8');
      if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(gzipped);
      // Already JSON: fastify sends a string with a JSON content type as it is.
      return reply.send(body);
    },
  );

  app.get(
    '/api/events/:eventId/spectator-settings',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['spectators'],
        summary: 'What the spectator page publishes of an event, and the event’s participants with their not-published flag',
        params: EventParams,
        response: withErrors({ 200: SettingsSchema }, 400, 401, 403, 404),
      },
    },
    async (request) => readSpectatorSettings(deps.pool, request.params.eventId),
  );

  app.put(
    '/api/events/:eventId/spectator-settings',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['spectators'],
        summary: 'Set what the spectator page publishes of an event (released or all) and which participants it shows without a name',
        params: EventParams,
        body: SettingsBody,
        response: withErrors({ 200: SettingsSchema }, 400, 401, 403, 404, 503),
      },
    },
    async (request) => {
      const { eventId } = request.params;
      const before = await readSpectatorSettings(deps.pool, eventId);
      const known = new Set(before.participants.map((participant) => participant.participantId));
      const foreign = request.body.hiddenParticipantIds.filter((id) => !known.has(id));
      if (foreign.length > 0) throw validationFailed(`Not participants of event ${eventId}: ${foreign.slice(0, 10).join(', ')}`);
      const context = commandContext(request);
      await deps.commands.run((tx) => setSpectatorSettings(tx, eventId, request.body, context.actor), context);
      await hub.changed(eventId);
      return readSpectatorSettings(deps.pool, eventId);
    },
  );
}
