import { io, type Socket } from 'socket.io-client';
import type { ScoreUpdatedEvent } from './api.js';
import type { InquiryMessage } from './inquiries.js';
import type { PanelDeviation } from './panel.js';

export type LiveStatus = 'connecting' | 'live' | 'offline';

export interface LiveFeedOptions {
  onEvent(event: ScoreUpdatedEvent): void;
  onStatus(status: LiveStatus): void;
  /**
   * Called when a join completes without `since` (the first join, or a reconnect before any event
   * was seen): events before the join are not replayed, so the page reloads its data over HTTP.
   */
  onResync(): void;
  /** A head judge released or reopened a device or squad of the followed event. */
  onReleaseChanged?(event: { eventId: number; seq?: number }): void;
  /** An E-panel's counted values spread more than its tolerance (`resolved: false`), or no longer do. */
  onPanelDeviation?(event: PanelDeviation): void;
  /** The office started a rotation: which squad is on which apparatus now. */
  onRotationChanged?(event: RotationChanged): void;
  /** An inquiry on a D value was filed, confirmed in writing or decided. */
  onInquiryUpdated?(event: InquiryMessage): void;
}

export interface RotationChanged {
  eventId: number;
  rotation: number;
  seq?: number;
  apparatus: Array<{ disciplineId: number; squadName: string }>;
}

interface JoinAck {
  ok: boolean;
  replayed?: number;
  error?: string;
  /** The server will not replay that far back: reload over HTTP and follow from there. */
  reload?: boolean;
  /** Refused for now (rate limit, replays busy): ask again after this long. */
  retryAfterMs?: number;
}

/**
 * One Socket.IO connection following one event's room (contract section 5). It remembers the
 * highest `seq` delivered, rejoins with `since` after every reconnect so nothing is missed, and
 * drops anything at or below that mark, so a replay overlapping live delivery is harmless.
 */
export class LiveFeed {
  private readonly socket: Socket;
  private eventId: number | null = null;
  private lastSeq: number | null = null;

  constructor(private readonly options: LiveFeedOptions) {
    // Same origin as the page: the backend serves both, and the stand-alone port proxies /socket.io.
    this.socket = io({ path: '/socket.io', reconnectionDelay: 500, reconnectionDelayMax: 3_000, timeout: 5_000 });
    this.socket.on('connect', () => this.join());
    this.socket.on('disconnect', () => this.options.onStatus('offline'));
    this.socket.on('connect_error', () => this.options.onStatus('offline'));
    this.socket.on('score-updated', (event: ScoreUpdatedEvent) => this.receive(event, () => this.options.onEvent(event)));
    this.socket.on('release-changed', (event: { eventId: number; seq?: number }) =>
      this.receive(event, () => this.options.onReleaseChanged?.(event)),
    );
    // The room is the event's, so a deviation without `eventId` belongs to the followed event.
    this.socket.on('panel-deviation', (event: PanelDeviation) =>
      this.receive({ ...event, eventId: event.eventId ?? this.eventId ?? -1 }, () => this.options.onPanelDeviation?.(event)),
    );
    this.socket.on('rotation-changed', (event: RotationChanged) => this.receive(event, () => this.options.onRotationChanged?.(event)));
    this.socket.on('inquiry-updated', (event: InquiryMessage) => this.receive(event, () => this.options.onInquiryUpdated?.(event)));
    this.options.onStatus('connecting');
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Follows `eventId` from now on; `since` is the seq the caller's data already reflects, if known. */
  follow(eventId: number, since: number | null = null): void {
    if (this.eventId !== null && this.eventId !== eventId && this.socket.connected) {
      this.socket.emit('leave-competition', { eventId: this.eventId });
    }
    this.eventId = eventId;
    this.lastSeq = since;
    if (this.socket.connected) this.join();
  }

  /** The seq delivery has reached, for a caller that reloads and wants to resume from there. */
  get seq(): number | null {
    return this.lastSeq;
  }

  close(): void {
    this.socket.close();
  }

  private join(): void {
    const eventId = this.eventId;
    if (eventId === null || !this.socket.connected) return;
    const since = this.lastSeq;
    this.options.onStatus('connecting');
    this.socket
      .timeout(5_000)
      .emit('join-competition', since === null ? { eventId } : { eventId, since }, (error: Error | null, ack: JoinAck | undefined) => {
        if (eventId !== this.eventId || !this.socket.connected) return;
        if (error) {
          // Unacknowledged means the room may not be joined; asking again is safe (joins are idempotent).
          setTimeout(() => this.join(), 1_000);
          return;
        }
        if (ack?.reload) {
          // Joining without `since` makes the page reload its data (onResync) instead of replaying.
          this.lastSeq = null;
          this.join();
          return;
        }
        if (!ack?.ok) {
          this.options.onStatus('offline');
          if (typeof ack?.retryAfterMs === 'number') setTimeout(() => this.join(), Math.min(ack.retryAfterMs, 10_000));
          return;
        }
        this.options.onStatus('live');
        if (since === null) this.options.onResync();
      });
  }

  /** Every topic shares the outbox's seq, so one mark drops replayed duplicates of any of them. */
  private receive(event: { eventId: number; seq?: number }, deliver: () => void): void {
    if (event.eventId !== this.eventId) return;
    if (typeof event.seq === 'number') {
      if (this.lastSeq !== null && event.seq <= this.lastSeq) return;
      this.lastSeq = event.seq;
    }
    deliver();
  }
}
