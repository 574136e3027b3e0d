/**
 * Where the save queue lives in the browser. Each tab keeps its queue under a key of its own, so two
 * open portals never send, nor overwrite, each other's saves. The tab id is kept in sessionStorage,
 * which survives a reload of the tab but not its closing; a closed tab's waiting saves are adopted
 * by the next portal that notices its heartbeat has stopped, so they are still sent.
 */
import type { SaveJob } from './save-job.js';

export interface QueueStore {
  /** The jobs this tab owns, oldest first, including any it adopts on the way. */
  load(): SaveJob[];
  save(jobs: readonly SaveJob[]): void;
  /** Jobs left by tabs that are gone, now owned by this one (removed from their old keys). */
  adoptOrphans(): SaveJob[];
}

export interface BrowserStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

export const QUEUE_KEY_PREFIX = 'gym.jury.saveQueue.v1.';
const ALIVE_KEY_PREFIX = 'gym.jury.alive.v1.';
const TAB_ID_KEY = 'gym.jury.tabId';
export const HEARTBEAT_MS = 3_000;
const ORPHANED_AFTER_MS = 5 * HEARTBEAT_MS;

// crypto.randomUUID exists only in secure contexts, and portals reach the hall server over plain
// http on a LAN address; the id only has to be unique within one browser.
export function localId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function parseJobs(text: string | null): SaveJob[] {
  try {
    const parsed = JSON.parse(text ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as SaveJob[]) : [];
  } catch {
    return [];
  }
}

export class TabQueueStore implements QueueStore {
  constructor(
    private readonly local: BrowserStorage,
    readonly tabId: string,
    private readonly now: () => number = Date.now,
  ) {}

  static forThisTab(local: BrowserStorage, session: Pick<BrowserStorage, 'getItem' | 'setItem'>): TabQueueStore {
    let tabId = session.getItem(TAB_ID_KEY);
    if (!tabId) {
      tabId = localId();
      session.setItem(TAB_ID_KEY, tabId);
    }
    return new TabQueueStore(local, tabId);
  }

  /** Tells other tabs this one is alive; call every HEARTBEAT_MS. */
  heartbeat(): void {
    this.write(ALIVE_KEY_PREFIX + this.tabId, String(this.now()));
  }

  load(): SaveJob[] {
    this.heartbeat();
    const jobs = [...parseJobs(this.local.getItem(QUEUE_KEY_PREFIX + this.tabId)), ...this.adoptOrphans()];
    this.save(jobs);
    return jobs;
  }

  save(jobs: readonly SaveJob[]): void {
    const key = QUEUE_KEY_PREFIX + this.tabId;
    if (jobs.length === 0) this.local.removeItem(key);
    else this.write(key, JSON.stringify(jobs));
  }

  adoptOrphans(): SaveJob[] {
    const adopted: SaveJob[] = [];
    const keys = Array.from({ length: this.local.length }, (_, index) => this.local.key(index)).filter(
      (key): key is string => key !== null && key.startsWith(QUEUE_KEY_PREFIX) && key !== QUEUE_KEY_PREFIX + this.tabId,
    );
    for (const key of keys) {
      const owner = key.slice(QUEUE_KEY_PREFIX.length);
      const lastSeen = Number(this.local.getItem(ALIVE_KEY_PREFIX + owner) ?? 0);
      if (this.now() - lastSeen < ORPHANED_AFTER_MS) continue;
      adopted.push(...parseJobs(this.local.getItem(key)));
      this.local.removeItem(key);
      this.local.removeItem(ALIVE_KEY_PREFIX + owner);
    }
    return adopted.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private write(key: string, value: string): void {
    try {
      this.local.setItem(key, value);
    } catch {
      // Storage full or disabled (private mode): the queue still works for as long as the page lives.
    }
  }
}
