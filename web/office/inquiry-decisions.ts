/**
 * The head judge console's inquiry section: the open inquiries of the event with uphold (and the
 * new D) or reject. Kept live by its own feed of `inquiry-updated`; deciding needs a head or admin
 * token, and the service refuses a second decision.
 */
import { h } from '../shared/dom.js';
import { clockTime, gymnastName, inquiryApi, isOpen, stateText, tInq, type Inquiry } from '../shared/inquiries.js';
import { LiveFeed } from '../shared/live.js';
import type { ViewContext } from './view.js';

export function inquiryDecisions(context: Pick<ViewContext, 'session'> & { eventId: number }): { element: HTMLElement; dispose(): void } {
  const { session, eventId } = context;
  const list = h('div', { class: 'inquiry-decisions', id: 'inquiry-decisions', 'aria-live': 'polite' });
  const message = h('p', { class: 'hint', id: 'inquiry-decision-message' });

  async function decide(inquiry: Inquiry, body: { decision: 'upheld' | 'rejected'; newD?: number }): Promise<void> {
    try {
      await inquiryApi.decide(inquiry.id, body, { headers: session.headers() });
      message.textContent = '';
    } catch (error) {
      message.textContent = tInq('inq.failed', { error: (error as Error).message });
    }
    await load();
  }

  function render(inquiries: readonly Inquiry[]): void {
    const open = inquiries.filter(isOpen);
    if (open.length === 0) {
      list.replaceChildren(h('p', { class: 'hint', id: 'no-inquiries' }, tInq('inq.consoleNone')));
      return;
    }
    list.replaceChildren(
      ...open.map((inquiry) => {
        const newD = h('input', {
          type: 'text',
          inputmode: 'decimal',
          class: 'new-d',
          id: `new-d-${inquiry.id}`,
          value: inquiry.dBefore === null ? '' : String(inquiry.dBefore),
          disabled: !session.isHead,
        });
        const uphold = h(
          'button',
          { type: 'button', class: 'primary', 'data-action': 'uphold', disabled: !session.isHead },
          tInq('inq.uphold'),
        );
        const reject = h(
          'button',
          { type: 'button', class: 'danger', 'data-action': 'reject', disabled: !session.isHead },
          tInq('inq.reject'),
        );
        uphold.addEventListener('click', () => {
          const value = Number(newD.value.trim().replace(',', '.'));
          if (newD.value.trim() === '' || !Number.isFinite(value)) {
            newD.focus();
            return;
          }
          uphold.disabled = reject.disabled = true;
          void decide(inquiry, { decision: 'upheld', newD: value });
        });
        reject.addEventListener('click', () => {
          uphold.disabled = reject.disabled = true;
          void decide(inquiry, { decision: 'rejected' });
        });
        return h(
          'article',
          { class: 'inquiry-decision', 'data-inquiry-id': inquiry.id, 'data-state': inquiry.state },
          h('h4', {}, `${gymnastName(inquiry)} · ${inquiry.disciplineName ?? ''}`),
          h(
            'p',
            {},
            [
              inquiry.coach,
              tInq('inq.filedAt', { time: clockTime(inquiry.filedAt) }),
              inquiry.confirmedAt === null ? stateText(inquiry) : tInq('inq.confirmedAt', { time: clockTime(inquiry.confirmedAt) }),
            ].join(' · '),
          ),
          h('div', { class: 'actions' }, h('label', { for: `new-d-${inquiry.id}` }, tInq('inq.newDLabel')), newD, uphold, reject),
        );
      }),
    );
  }

  async function load(): Promise<void> {
    try {
      render((await inquiryApi.list(eventId)).inquiries);
    } catch (error) {
      message.textContent = tInq('inq.failed', { error: (error as Error).message });
    }
  }

  const live = new LiveFeed({
    onEvent: () => undefined,
    onInquiryUpdated: () => void load(),
    onResync: () => void load(),
    onStatus: () => undefined,
  });
  live.follow(eventId);
  const unsubscribe = session.onChange(() => {
    message.textContent = session.isHead ? '' : tInq('inq.needsHead');
    void load();
  });
  message.textContent = session.isHead ? '' : tInq('inq.needsHead');
  void load();

  return {
    element: h(
      'section',
      { class: 'console-inquiries', 'aria-labelledby': 'inquiries-title' },
      h('h3', { id: 'inquiries-title' }, tInq('inq.consoleTitle')),
      message,
      list,
    ),
    dispose() {
      unsubscribe();
      live.close();
    },
  };
}
