/**
 * `&rotation=current`: the board follows the rotation plan. It shows, per apparatus of the current
 * rotation, the squad on it (apparatus in turn, each for one pass of its pages), and moves on to
 * the next rotation's squads when the office starts it (`rotation-changed`), without a reload.
 */
import { getJson } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { LiveFeed } from '../shared/live.js';
import { DeviceBoard, type DeviceBoardTarget } from './device-board.js';

/** Shows the targets in turn, each for one full pass of its pages; the returned function stops it. */
export function cycleBoards(root: HTMLElement, targets: readonly DeviceBoardTarget[]): () => void {
  let board: DeviceBoard | null = null;
  const show = (index: number) => {
    board?.dispose();
    board = new DeviceBoard(root, targets[index % targets.length]!, () => show(index + 1));
    document.body.dataset.rotation = `${(index % targets.length) + 1}/${targets.length}`;
    void board.start();
  };
  show(0);
  return () => board?.dispose();
}

interface CurrentRotation {
  current: { rotation: number; apparatus: Array<{ disciplineId: number; squadName: string }> } | null;
}

export class RotationBoard {
  private feed: LiveFeed | null = null;
  private stop: (() => void) | null = null;
  private shown: string | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly target: Omit<DeviceBoardTarget, 'disciplineId'>,
  ) {}

  start(): void {
    this.feed = new LiveFeed({
      onEvent: () => undefined,
      onStatus: () => undefined,
      // Joined without a known position (first join, long offline): ask which rotation runs now.
      onResync: () => void this.load(),
      onRotationChanged: (event) => this.show(event.rotation, event.apparatus),
    });
    this.feed.follow(this.target.eventId);
  }

  private async load(): Promise<void> {
    try {
      const { current } = await getJson<CurrentRotation>(`/api/events/${this.target.eventId}/rotations/current`);
      this.show(current?.rotation ?? null, current?.apparatus ?? []);
    } catch (error) {
      this.notice(t('board.loadFailed', { error: (error as Error).message }));
    }
  }

  private show(rotation: number | null, apparatus: ReadonlyArray<{ disciplineId: number; squadName: string }>): void {
    const slots = [...apparatus].sort((a, b) => a.disciplineId - b.disciplineId);
    const key = JSON.stringify([rotation, slots]);
    if (key === this.shown) return;
    this.shown = key;
    this.stop?.();
    this.stop = null;
    if (rotation === null || slots.length === 0) {
      this.notice(t('board.noRotation'));
      return;
    }
    this.stop = cycleBoards(
      this.root,
      slots.map((slot) => ({ ...this.target, disciplineId: slot.disciplineId, squadName: slot.squadName, rotation })),
    );
  }

  private notice(text: string): void {
    this.root.replaceChildren(h('main', {}, h('h1', {}, t('board.title')), h('p', { class: 'board-message', role: 'status' }, text)));
  }
}
