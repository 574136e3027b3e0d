/**
 * The coach's inquiry page (`?view=inquiry&eventId=`), made for a phone: pick the apparatus and the
 * gymnast whose score was just shown, inquire verbally, then confirm in writing while the service's
 * written deadline counts down. Times are the server's: the countdown runs on its clock, and a
 * refusal shows the service's reason with its times. A signed-in head judge records for the coach.
 */
import { type DisciplineSummary } from '../shared/api.js';
import { h } from '../shared/dom.js';
import { decimalSeparator } from '../shared/i18n.js';
import {
  clockTime,
  countdown,
  gymnastName,
  inquiryApi,
  ServerClock,
  stateText,
  tInq,
  type Inquiry,
  type InquiryCandidate,
} from '../shared/inquiries.js';
import { LiveFeed } from '../shared/live.js';
import { scoreFormat } from '../shared/score-format.js';
import type { OfficeView, ViewContext } from './view.js';

const COACH_STORAGE_KEY = 'gym.inquiry.coach.v1';
const DEVICE_STORAGE_KEY = 'gym.inquiry.disciplineId.v1';

export function inquiryCoachView(context: ViewContext): OfficeView {
  const { api, session } = context;
  const event = context.event!;
  const clock = new ServerClock();
  const coachInput = h('input', {
    id: 'inquiry-coach',
    name: 'coach',
    autocomplete: 'name',
    maxlength: 100,
    value: localStorage.getItem(COACH_STORAGE_KEY) ?? '',
  });
  const deviceSelect = h('select', { id: 'inquiry-device', name: 'disciplineId' });
  const message = h('p', { class: 'view-message', role: 'status', id: 'inquiry-message' });
  const candidatesList = h('ul', { class: 'inquiry-candidates', id: 'inquiry-candidates' });
  const inquiriesList = h('ul', { class: 'inquiry-list', id: 'inquiry-list' });
  let disciplines: DisciplineSummary[] = [];
  let candidates: InquiryCandidate[] = [];
  let inquiries: Inquiry[] = [];
  let ticker: ReturnType<typeof setInterval> | null = null;

  const disciplineId = () => Number(deviceSelect.value) || null;
  const format = (value: number | null) =>
    value === null
      ? '–'
      : scoreFormat(disciplines.find((entry) => entry.id === disciplineId()) ?? { inputMask: null, decimals: null }).display(
          value,
          decimalSeparator,
        );
  const coachName = () => coachInput.value.trim();
  const options = () => ({ headers: session.headers() });

  function refused(error: unknown): void {
    message.textContent = tInq('inq.failed', { error: (error as Error).message });
  }

  async function file(candidate: InquiryCandidate, button: HTMLButtonElement): Promise<void> {
    if (coachName() === '') {
      message.textContent = tInq('inq.needName');
      coachInput.focus();
      return;
    }
    button.disabled = true;
    try {
      await inquiryApi.file(event.id, { scoreId: candidate.scoreId, disciplineId: disciplineId()!, coach: coachName() }, options());
      message.textContent = '';
    } catch (error) {
      refused(error);
    }
    await load();
  }

  async function confirm(inquiry: Inquiry, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      await inquiryApi.confirm(inquiry.id, coachName() === '' ? {} : { coach: coachName() }, options());
      message.textContent = '';
    } catch (error) {
      refused(error);
    }
    await load();
  }

  function renderCandidates(): void {
    if (candidates.length === 0) {
      candidatesList.replaceChildren(h('li', { class: 'hint' }, tInq('inq.noScores')));
      return;
    }
    candidatesList.replaceChildren(
      ...candidates.map((candidate, index) => {
        const verbalLeft = candidate.verbalDeadline === null ? null : clock.secondsUntil(candidate.verbalDeadline);
        const late = candidate.nextShownAt !== null || verbalLeft === 0;
        const filed = candidate.inquiryId !== null;
        const button = h(
          'button',
          { type: 'button', class: 'primary inquire', 'data-score-id': candidate.scoreId, disabled: late || filed },
          filed ? tInq('inq.filedAlready') : late ? tInq('inq.tooLate') : tInq('inq.inquire'),
        );
        button.addEventListener('click', () => void file(candidate, button));
        return h(
          'li',
          { class: 'inquiry-candidate', 'data-score-id': candidate.scoreId, 'data-latest': String(index === 0) },
          h('strong', {}, gymnastName(candidate)),
          h('span', { class: 'club' }, candidate.clubName ?? ''),
          h('span', { class: 'score' }, format(candidate.finalScore)),
          h('span', { class: 'hint' }, tInq('inq.shown', { time: clockTime(candidate.shownAt) })),
          late || filed
            ? null
            : verbalLeft === null
              ? h('span', { class: 'hint' }, tInq('inq.untilNext'))
              : h(
                  'span',
                  { class: 'countdown', 'data-kind': 'verbal', 'data-deadline': candidate.verbalDeadline },
                  tInq('inq.verbalLeft', { left: countdown(verbalLeft) }),
                ),
          button,
        );
      }),
    );
  }

  /** Deadlines count down on the server's clock; the list is redrawn every second while one runs. */
  function renderInquiries(): void {
    if (inquiries.length === 0) {
      inquiriesList.replaceChildren(h('li', { class: 'hint' }, tInq('inq.none')));
      return;
    }
    inquiriesList.replaceChildren(
      ...[...inquiries].reverse().map((inquiry) => {
        const lines: Array<HTMLElement | null> = [];
        if (inquiry.state === 'filed') {
          const left = clock.secondsUntil(inquiry.writtenDeadline);
          const button = h(
            'button',
            { type: 'button', class: 'primary confirm-inquiry', 'data-inquiry-id': inquiry.id, disabled: left === 0 },
            tInq('inq.confirm'),
          );
          button.addEventListener('click', () => void confirm(inquiry, button));
          lines.push(
            h(
              'span',
              { class: 'countdown', 'data-kind': 'written', 'data-deadline': inquiry.writtenDeadline },
              tInq('inq.writtenLeft', { left: countdown(left) }),
            ),
            button,
          );
        }
        if (inquiry.decision !== null) {
          lines.push(
            h(
              'span',
              {},
              tInq('inq.decided', { decision: stateText(inquiry), who: inquiry.decidedBy ?? '', time: clockTime(inquiry.decidedAt) }),
            ),
          );
          if (inquiry.decision === 'upheld')
            lines.push(
              h(
                'span',
                {},
                tInq('inq.newD', { before: format(inquiry.dBefore), after: format(inquiry.dAfter), final: format(inquiry.finalAfter) }),
              ),
            );
        }
        return h(
          'li',
          { class: 'inquiry-entry', 'data-inquiry-id': inquiry.id, 'data-state': inquiry.state },
          h('strong', {}, `${gymnastName(inquiry)} · ${inquiry.disciplineName ?? ''}`),
          h('span', { class: 'state' }, stateText(inquiry)),
          h('span', { class: 'hint' }, `${inquiry.coach} · ${clockTime(inquiry.filedAt)}`),
          ...lines,
        );
      }),
    );
  }

  async function load(): Promise<void> {
    const chosen = disciplineId();
    try {
      const [list, found] = await Promise.all([
        inquiryApi.list(event.id),
        chosen === null ? null : inquiryApi.candidates(event.id, chosen),
      ]);
      clock.sync(list.now);
      inquiries = list.inquiries;
      candidates = found?.scores ?? [];
    } catch (error) {
      refused(error);
    }
    renderCandidates();
    renderInquiries();
  }

  const live = new LiveFeed({
    onEvent: (score) => {
      if (score.disciplineId === disciplineId()) void load();
    },
    onInquiryUpdated: () => void load(),
    onResync: () => void load(),
    onStatus: () => undefined,
  });

  /**
   * The countdowns change in place (a redraw would replace the button under a finger); when one
   * runs out, the lists are drawn again, the button then disabled.
   */
  function tick(): void {
    let expired = false;
    for (const span of Array.from(element.querySelectorAll<HTMLElement>('.countdown[data-deadline]'))) {
      const left = clock.secondsUntil(span.dataset.deadline!);
      span.textContent = tInq(span.dataset.kind === 'verbal' ? 'inq.verbalLeft' : 'inq.writtenLeft', { left: countdown(left) });
      expired ||= left === 0;
    }
    if (expired) {
      renderCandidates();
      renderInquiries();
    }
  }

  async function start(): Promise<void> {
    try {
      disciplines = await api.disciplines();
    } catch (error) {
      refused(error);
    }
    deviceSelect.replaceChildren(...disciplines.map((entry) => h('option', { value: entry.id }, entry.displayName || entry.name)));
    const stored = Number(localStorage.getItem(DEVICE_STORAGE_KEY));
    if (disciplines.some((entry) => entry.id === stored)) deviceSelect.value = String(stored);
    await load();
    live.follow(event.id);
    ticker = setInterval(tick, 1_000);
  }

  coachInput.addEventListener('change', () => localStorage.setItem(COACH_STORAGE_KEY, coachName()));
  deviceSelect.addEventListener('change', () => {
    localStorage.setItem(DEVICE_STORAGE_KEY, deviceSelect.value);
    void load();
  });
  void start();

  const element = h(
    'section',
    { class: 'panel inquiry-coach', 'aria-labelledby': 'inquiry-title' },
    h('h2', { id: 'inquiry-title' }, tInq('inq.coachTitle', { event: event.name })),
    h('p', { class: 'hint' }, tInq('inq.coachIntro')),
    h(
      'div',
      { class: 'pickers' },
      h('div', { class: 'picker' }, h('label', { for: 'inquiry-coach' }, tInq('inq.coachName')), coachInput),
      h('div', { class: 'picker' }, h('label', { for: 'inquiry-device' }, tInq('inq.device')), deviceSelect),
    ),
    message,
    candidatesList,
    h('h3', {}, tInq('inq.mine')),
    inquiriesList,
  );
  return {
    element,
    dispose() {
      if (ticker !== null) clearInterval(ticker);
      live.close();
    },
  };
}
