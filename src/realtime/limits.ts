/**
 * Admission control for Socket.IO messages: token buckets per connection and per client address,
 * and a bounded queue for replays. Without them one anonymous client sending joins in a loop made
 * the server read the outbox for each one through the pool the saves need.
 */

/** `rate` tokens per second up to `burst`; a message takes one. */
export class TokenBucket {
  private tokens: number;
  private updated: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number = Date.now(),
  ) {
    this.tokens = burst;
    this.updated = now;
  }

  /** Takes a token; when none is left, returns how many milliseconds until one is. */
  take(now: number = Date.now()): { ok: true } | { ok: false; retryAfterMs: number } {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updated) / 1000) * this.rate);
    this.updated = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterMs: Math.ceil(((1 - this.tokens) / this.rate) * 1000) };
  }
}

export interface MessageLimits {
  /** Any message, per connection and per client address (rate per second, burst). */
  anyPerConnection: [number, number];
  anyPerAddress: [number, number];
  /** join-competition, leave-competition and join-live, on top of the above. */
  roomPerConnection: [number, number];
  roomPerAddress: [number, number];
}

/**
 * Portals behind the stand-alone client port share one address, and after a server restart every
 * scoreboard rejoins at once, so the per-address allowances hold a hall's worth of clients
 * (a few hundred) reconnecting together; one connection never needs more than a few messages a second.
 */
export const MESSAGE_LIMITS: MessageLimits = {
  anyPerConnection: [20, 40],
  anyPerAddress: [200, 400],
  roomPerConnection: [2, 10],
  roomPerAddress: [50, 300],
};

/** A connection refused this many messages in a row is flooding; it is disconnected. */
export const MAX_REFUSED_IN_A_ROW = 100;

const ROOM_MESSAGES = new Set(['join-competition', 'leave-competition', 'join-live']);

interface AddressBuckets {
  any: TokenBucket;
  room: TokenBucket;
  connections: number;
}

/** Per-address buckets live as long as the address has a connection. */
export class MessageAdmission {
  private readonly addresses = new Map<string, AddressBuckets>();

  constructor(private readonly limits: MessageLimits = MESSAGE_LIMITS) {}

  /** Registers a connection; the returned function admits (or refuses) one of its messages. */
  connect(address: string): { admit(event: string): { ok: true } | { ok: false; retryAfterMs: number }; disconnect(): void } {
    const { limits } = this;
    let shared = this.addresses.get(address);
    if (!shared) {
      shared = { any: new TokenBucket(...limits.anyPerAddress), room: new TokenBucket(...limits.roomPerAddress), connections: 0 };
      this.addresses.set(address, shared);
    }
    shared.connections += 1;
    const own = { any: new TokenBucket(...limits.anyPerConnection), room: new TokenBucket(...limits.roomPerConnection) };
    const buckets = shared;
    let connected = true;
    return {
      admit: (event) => {
        const now = Date.now();
        // Own allowance first, so a flooding connection does not use up its neighbours' share.
        for (const bucket of ROOM_MESSAGES.has(event) ? [own.any, own.room, buckets.any, buckets.room] : [own.any, buckets.any]) {
          const taken = bucket.take(now);
          if (!taken.ok) return taken;
        }
        return { ok: true };
      },
      disconnect: () => {
        if (!connected) return;
        connected = false;
        buckets.connections -= 1;
        if (buckets.connections === 0) this.addresses.delete(address);
      },
    };
  }
}

export class QueueFullError extends Error {
  constructor() {
    super('replays are busy; join again in a moment');
    this.name = 'QueueFullError';
  }
}

/**
 * Runs at most `concurrency` jobs at once, keeps at most `maxWaiting` waiting and refuses more
 * (QueueFullError), so a burst of replays can neither open more database connections than their
 * own pool has nor pile up memory.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw new QueueFullError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await job();
    } finally {
      // The slot passes straight to the next job, so `running` stays counted.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
