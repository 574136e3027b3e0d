/**
 * Simulated jury portals: each owns one score row and one keep-alive connection (like a browser tab)
 * and saves field A of its score. Saves of one portal go out one after the other, so the order of
 * its events is the order of its saves.
 */
import http from 'node:http';
import type { SentRequests } from './delivery.js';

export interface PortalTarget {
  /** Base URL of the server, e.g. http://127.0.0.1:3001 */
  url: string;
  path: string;
  fieldId: number;
  /** Monotonic origin shared with the scoreboard process (`process.hrtime.bigint()`). */
  base: bigint;
}

export interface PortalRun {
  sent: SentRequests;
  attempted: number;
  errors: number;
  /** Ticks at which the portal's previous save had not been answered yet (the save queued behind it). */
  queued: number;
  /** Saves not made because the portal's oldest unanswered save was more than `maxLagMs` behind. */
  shed: number;
  /** Save sent (or due, when queued) → reply received, milliseconds. */
  replyMs: number[];
}

const nowMs = (base: bigint) => Number(process.hrtime.bigint() - base) / 1e6;

function post(agent: http.Agent, url: URL, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Values a judge could type, changing with every save so that each save changes the final score. */
const valueOf = (scoreId: number, k: number) => ((scoreId * 13 + k * 7) % 90) / 10 + 1;

class Portal {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;
  private chain: Promise<void> = Promise.resolve();
  /** When each unanswered save was due, oldest first. */
  private readonly pending: number[] = [];
  private k = 0;
  readonly ok: Array<{ sentMs: number; final: number | null }> = [];
  readonly replyMs: number[] = [];
  errors = 0;
  queued = 0;
  shed = 0;

  constructor(
    private readonly target: PortalTarget,
    readonly scoreId: number,
  ) {
    this.url = new URL(target.url);
  }

  /**
   * One save, due now; it waits behind the previous one of this portal. With `maxLagMs`, a save is
   * not made at all while the oldest unanswered one is that far overdue: a portal then queues at
   * most `maxLagMs / interval` saves, so an overloaded phase ends in bounded time (shed saves).
   */
  save(maxLagMs = Infinity): Promise<void> {
    const sentMs = nowMs(this.target.base);
    if (this.pending.length > 0 && sentMs - this.pending[0]! > maxLagMs) {
      this.shed += 1;
      return this.chain;
    }
    if (this.pending.length > 0) this.queued += 1;
    this.pending.push(sentMs);
    const body = JSON.stringify({
      participantId: this.scoreId,
      disciplineFieldId: this.target.fieldId,
      performance: valueOf(this.scoreId, this.k++),
      attempt: 1,
      type: 0,
    });
    this.chain = this.chain.then(async () => {
      try {
        const reply = await post(this.agent, this.url, this.target.path, body);
        this.replyMs.push(nowMs(this.target.base) - sentMs);
        if (reply.status === 200) this.ok.push({ sentMs, final: (JSON.parse(reply.text) as { finalScore: number | null }).finalScore });
        else this.errors += 1;
      } catch {
        this.errors += 1;
      } finally {
        this.pending.shift();
      }
    });
    return this.chain;
  }

  close(): void {
    this.agent.destroy();
  }
}

function collect(portals: readonly Portal[]): PortalRun {
  // Per portal in send order, portal after portal: the per-score order is what matching relies on.
  const sent: SentRequests = { scoreIds: [], sentMs: [], finals: [] };
  for (const portal of portals) {
    for (const save of portal.ok) {
      sent.scoreIds.push(portal.scoreId);
      sent.sentMs.push(save.sentMs);
      sent.finals.push(save.final);
    }
  }
  return {
    sent,
    attempted: portals.reduce((sum, portal) => sum + portal.ok.length + portal.errors, 0),
    errors: portals.reduce((sum, portal) => sum + portal.errors, 0),
    queued: portals.reduce((sum, portal) => sum + portal.queued, 0),
    shed: portals.reduce((sum, portal) => sum + portal.shed, 0),
    replyMs: portals.flatMap((portal) => portal.replyMs),
  };
}

/**
 * Open loop: every portal saves every `intervalMs` for `durationMs`, at its own phase, whether or
 * not its previous save was answered (a late answer delays the next save, which is then measured
 * from when it was due, not from when it could go out).
 */
export async function runPortalsAtRate(
  target: PortalTarget,
  scoreIds: readonly number[],
  intervalMs: number,
  durationMs: number,
  maxLagMs = Infinity,
): Promise<PortalRun> {
  const portals = scoreIds.map((scoreId) => new Portal(target, scoreId));
  const start = nowMs(target.base);
  await Promise.all(
    portals.map(async (portal, index) => {
      const phase = (index / portals.length) * intervalMs;
      const saves: Array<Promise<void>> = [];
      for (let k = 0; ; k++) {
        if (phase + k * intervalMs >= durationMs) break;
        const wait = start + phase + k * intervalMs - nowMs(target.base);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        saves.push(portal.save(maxLagMs));
      }
      await Promise.all(saves);
    }),
  );
  for (const portal of portals) portal.close();
  return collect(portals);
}

/** Closed loop: the portals save back to back until `total` saves have been made between them. */
export async function runPortalsBackToBack(target: PortalTarget, scoreIds: readonly number[], total: number): Promise<PortalRun> {
  const portals = scoreIds.map((scoreId) => new Portal(target, scoreId));
  let remaining = total;
  await Promise.all(
    portals.map(async (portal) => {
      while (remaining > 0) {
        remaining -= 1;
        await portal.save();
      }
    }),
  );
  for (const portal of portals) portal.close();
  return collect(portals);
}
