/**
 * The spectator page's live channel: `join-live {eventId, since?}` puts a socket into the room
 * `live:<eventId>`, which gets `live-update` messages derived from the event's outbox events by
 * `toLiveUpdate` under the event's privacy settings.
 *
 * A live update carries ids and values, never a name: the page takes names from its snapshot, which
 * already leaves out those not to be published, so a name cannot slip out through an event whose
 * payload has no participant id (a jury result's). Each event is filtered once for its room, with
 * the settings kept here in memory; nothing runs per spectator. The settings are read when a
 * spectator joins an event, and read again, behind the delivery that finds them older than
 * PRIVACY_REFRESH_MS, so a change made on another instance (or replicated to this one) takes effect
 * within that time; a change through this instance's route takes effect at once.
 */
import type { OutboxDelivery, OutboxRelay } from '../../outbox/relay.js';
import type { Channel } from './channel.js';
import type { Queryable } from '../db/pool.js';
import { readSpectatorPrivacy } from '../../queries/spectator-settings.js';
import type { SpectatorPrivacy } from '../model/spectator-privacy.js';

export const liveRoomOf = (eventId: number) => `live:${eventId}`;
export const LIVE_TOPIC = 'live-update';
export const PRIVACY_REFRESH_MS = 10_000;

/**
 * `score`: a value changed (`v` null: removed); the page refetches its snapshot for the ranks.
 * `release`: a device (or a squad on it) was released or reopened; values appear or lose their mark.
 * `inquiry`: a coach's inquiry on a gymnast's value opened (`open`) or was decided; the snapshot's
 * `q` marks follow. The fact only, filtered as the value it concerns is.
 * `reload`: the event's privacy settings changed; the snapshot is to be fetched again.
 */
export type LiveUpdate =
  | {
      seq: number;
      type: 'score';
      /** competition, discipline (apparatus), score row */
      c: number;
      d: number;
      sid: number;
      /** participant, team or group id, whichever the score belongs to (a jury result names none) */
      pid?: number;
      tid?: number;
      gid?: number;
      v: number | null;
      /** provisional: not released */
      p?: true;
    }
  | { seq: number; type: 'release'; c: number; d: number; released: boolean }
  | { seq: number; type: 'inquiry'; c: number; d: number; sid: number; pid?: number; open: boolean }
  | { seq: number; type: 'reload' };

const integer = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What a spectator may see of an outbox event; null: nothing. Pure. */
export function toLiveUpdate(delivery: OutboxDelivery, privacy: SpectatorPrivacy): LiveUpdate | null {
  const message = delivery.message;
  const c = integer(message.competitionId);
  const d = integer(message.disciplineId);
  if (c === undefined || d === undefined) return null;
  if (delivery.topic === 'release-changed') return { seq: delivery.seq, type: 'release', c, d, released: message.released === true };
  if (delivery.topic !== 'score-updated' && delivery.topic !== 'inquiry-updated') return null;
  const released = message.released === true;
  if (privacy.publish === 'released' && !released) return null;
  const sid = integer(message.scoreId);
  if (sid === undefined) return null;
  if (delivery.topic === 'inquiry-updated') {
    const pid = integer(message.participantId);
    const open = message.state === 'filed' || message.state === 'confirmed';
    return { seq: delivery.seq, type: 'inquiry', c, d, sid, ...(pid === undefined ? {} : { pid }), open };
  }
  const ids = { pid: integer(message.participantId), tid: integer(message.teamId), gid: integer(message.groupId) };
  return {
    seq: delivery.seq,
    type: 'score',
    c,
    d,
    sid,
    ...Object.fromEntries(Object.entries(ids).filter(([, id]) => id !== undefined)),
    v: numberOrNull(message.score),
    ...(released ? {} : { p: true as const }),
  };
}

interface CachedPrivacy {
  privacy: SpectatorPrivacy;
  readAt: number;
  /** Counts changes, so a snapshot built under older settings is not served again. */
  version: number;
}

type Send = (room: string, topic: string, message: unknown) => void;

/** The spectators' privacy settings per event, in memory, and the live channel built on them. */
export class SpectatorHub {
  private readonly settings = new Map<number, CachedPrivacy>();
  private readonly loading = new Map<number, Promise<SpectatorPrivacy | null>>();
  private send: Send | null = null;

  constructor(
    private readonly db: Queryable,
    /** The relay's cursor: the `seq` a join's ack and a reload notice carry. */
    readonly cursor: () => number,
  ) {}

  /** The event's settings, read when missing or older than PRIVACY_REFRESH_MS; null: no such event. */
  async privacy(eventId: number): Promise<SpectatorPrivacy | null> {
    const cached = this.settings.get(eventId);
    if (cached && Date.now() - cached.readAt < PRIVACY_REFRESH_MS) return cached.privacy;
    return this.read(eventId);
  }

  /** Counts the event's settings changes seen here; part of the snapshot cache's key. */
  version(eventId: number): number {
    return this.settings.get(eventId)?.version ?? 0;
  }

  /** The settings changed through this instance: read them now and tell the event's spectators. */
  async changed(eventId: number): Promise<void> {
    // A read that started before the change may not see it: wait it out, then read again.
    await this.loading.get(eventId)?.catch(() => undefined);
    await this.read(eventId);
  }

  /** Starts delivering live updates of the feed through `send`; returns the function that stops it. */
  attach(feed: Pick<OutboxRelay, 'subscribe'>, send: Send): () => void {
    this.send = send;
    const unsubscribe = feed.subscribe((delivery) => this.deliver(delivery));
    return () => {
      unsubscribe();
      this.send = null;
    };
  }

  /** The live update a delivery gives for its event's spectators, with the settings held now. */
  liveUpdate(delivery: OutboxDelivery): LiveUpdate | null {
    const cached = this.settings.get(delivery.eventId);
    // No settings read: nobody has joined the event on this instance, so there is nobody to send to.
    if (!cached) return null;
    if (Date.now() - cached.readAt >= PRIVACY_REFRESH_MS) void this.read(delivery.eventId).catch(() => undefined);
    return toLiveUpdate(delivery, cached.privacy);
  }

  /** The event's spectator room for the gateway's join: replays pass the same filter as live deliveries. */
  channel(eventId: number): Channel {
    return {
      room: liveRoomOf(eventId),
      message: (delivery) => {
        const update = this.liveUpdate(delivery);
        return update && [LIVE_TOPIC, update];
      },
    };
  }

  private deliver(delivery: OutboxDelivery): void {
    const update = this.liveUpdate(delivery);
    if (update) this.send?.(liveRoomOf(delivery.eventId), LIVE_TOPIC, update);
  }

  private read(eventId: number): Promise<SpectatorPrivacy | null> {
    let pending = this.loading.get(eventId);
    if (!pending) {
      pending = readSpectatorPrivacy(this.db, eventId).then(
        (privacy) => {
          this.loading.delete(eventId);
          if (privacy) this.store(eventId, privacy);
          return privacy;
        },
        (error: unknown) => {
          this.loading.delete(eventId);
          throw error;
        },
      );
      this.loading.set(eventId, pending);
    }
    return pending;
  }

  private store(eventId: number, privacy: SpectatorPrivacy): void {
    const before = this.settings.get(eventId);
    const same =
      before !== undefined &&
      before.privacy.publish === privacy.publish &&
      before.privacy.hiddenParticipantIds.join() === privacy.hiddenParticipantIds.join();
    this.settings.set(eventId, { privacy, readAt: Date.now(), version: (before?.version ?? 0) + (same ? 0 : 1) });
    if (before && !same) this.send?.(liveRoomOf(eventId), LIVE_TOPIC, { seq: this.cursor(), type: 'reload' } satisfies LiveUpdate);
  }
}
