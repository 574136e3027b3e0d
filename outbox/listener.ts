import { randomUUID } from 'node:crypto';
import pgListen, { type Subscriber } from 'pg-listen';
import type { Logger } from 'pino';

export type ListenerState = 'starting' | 'listening' | 'reconnecting' | 'stopped';

export interface OutboxListenerOptions {
  connectionString: string;
  channel: string;
  logger: Logger;
  /** Called after every (re)connect and on every notification: the relay then fetches what is new. */
  /** `payload`: the notification's payload parsed as JSON (a number from the sequencer), if any. */
  onWake: (reason: 'connected' | 'notification', payload?: unknown) => void;
  onStateChange?: (state: ListenerState) => void;
}

/** Exponential backoff from 250 ms to 10 s with full jitter, so restarted instances do not stampede. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Every instance's LISTEN connection is named this plus `:` and an id of its own, so the sequencer
 * can tell whether another instance listens (`OutboxSequencer`).
 */
export const LISTEN_APPLICATION_NAME = 'gym-competition-service:listen';

/**
 * The LISTEN connection. It retries forever (pg-listen's default gives up after 3 s), checks the
 * connection every few seconds so a silently dead socket is noticed, and wakes the relay after
 * every reconnect because notifications sent while it was away are gone for good.
 */
export class OutboxListener {
  private subscriber: Subscriber | null = null;
  private currentState: ListenerState = 'starting';
  /** This connection's application_name (unique per listener, several instances may share a process). */
  readonly applicationName = `${LISTEN_APPLICATION_NAME}:${randomUUID().slice(0, 8)}`;

  constructor(private readonly options: OutboxListenerOptions) {}

  get state(): ListenerState {
    return this.currentState;
  }

  private setState(state: ListenerState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.options.logger.info({ relay: state }, `outbox listener ${state}`);
    this.options.onStateChange?.(state);
  }

  async start(): Promise<void> {
    // pg-listen is CommonJS with a default export, which ESM sees as `.default`.
    const subscriber = pgListen.default(
      { connectionString: this.options.connectionString, application_name: this.applicationName },
      { retryTimeout: Number.POSITIVE_INFINITY, retryInterval: (attempt) => reconnectDelay(attempt), paranoidChecking: 2_000 },
    );
    this.subscriber = subscriber;
    subscriber.events.on('connected', () => {
      if (this.currentState === 'stopped') return;
      this.setState('listening');
      this.options.onWake('connected');
    });
    subscriber.events.on('reconnect', (attempt) => {
      if (this.currentState === 'stopped') return;
      if (attempt === 1) this.options.logger.warn('outbox listener lost its connection; reconnecting');
      this.setState('reconnecting');
    });
    subscriber.events.on('error', (error) => {
      this.options.logger.warn({ err: error }, 'outbox listener error');
      if (this.currentState !== 'stopped') this.setState('reconnecting');
    });
    subscriber.notifications.on(this.options.channel, (payload: unknown) => this.options.onWake('notification', payload));
    await subscriber.connect();
    await subscriber.listenTo(this.options.channel);
    this.setState('listening');
    this.options.onWake('connected');
  }

  /**
   * Sends a notification on the channel over this connection (no pool slot); `payload` travels as
   * JSON. Fails while the connection is away: notifications are latency hints, the backstop covers.
   */
  async notify(payload: string | number): Promise<void> {
    if (!this.subscriber || this.currentState !== 'listening') throw new Error('the outbox listener is not connected');
    await this.subscriber.notify(this.options.channel, payload);
  }

  async stop(): Promise<void> {
    this.setState('stopped');
    await this.subscriber?.close().catch(() => undefined);
    this.subscriber = null;
  }
}
