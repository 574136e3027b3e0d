/**
 * Which scores of one apparatus are under inquiry (FIG Art. 8.5): filed or confirmed, not yet
 * decided. Loaded with the ranking, kept current by `inquiry-updated`; an inquiry that lapses
 * unconfirmed sends no message, so the board asks again when its written deadline has passed.
 */
import { inquiryApi, isOpen, ServerClock, type Inquiry } from '../shared/inquiries.js';

export class InquiryMarks {
  private readonly open = new Map<number, Inquiry>();
  private readonly clock = new ServerClock();
  private lapseTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly eventId: number,
    private readonly disciplineId: number,
    private readonly changed: () => void,
  ) {}

  async load(): Promise<void> {
    try {
      const list = await inquiryApi.list(this.eventId);
      this.clock.sync(list.now);
      this.open.clear();
      for (const inquiry of list.inquiries) this.take(inquiry);
    } catch {
      // The marks follow with the next message or reload; the ranking itself does not wait for them.
    }
    this.watchLapse();
  }

  /** An inquiry-updated message of the followed event. */
  apply(inquiry: Inquiry): void {
    this.open.delete(inquiry.scoreId);
    this.take(inquiry);
    this.watchLapse();
    this.changed();
  }

  has(scoreId: number): boolean {
    return this.open.has(scoreId);
  }

  get any(): boolean {
    return this.open.size > 0;
  }

  dispose(): void {
    if (this.lapseTimer !== null) clearTimeout(this.lapseTimer);
  }

  private take(inquiry: Inquiry): void {
    if (inquiry.disciplineId === this.disciplineId && isOpen(inquiry)) this.open.set(inquiry.scoreId, inquiry);
  }

  private watchLapse(): void {
    if (this.lapseTimer !== null) clearTimeout(this.lapseTimer);
    this.lapseTimer = null;
    const deadlines = [...this.open.values()].filter((inquiry) => inquiry.state === 'filed').map((inquiry) => inquiry.writtenDeadline);
    if (deadlines.length === 0) return;
    const soonest = Math.min(...deadlines.map((deadline) => Date.parse(deadline)));
    this.lapseTimer = setTimeout(
      () => {
        this.lapseTimer = null;
        void this.load().then(this.changed);
      },
      Math.max(0, soonest - this.clock.now()) + 1_000,
    );
  }
}
