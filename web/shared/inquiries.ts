/**
 * Inquiries on a D value (FIG Art. 8.5) for every page that shows them: the calls, the server's
 * clock as the pages count deadlines with it, and the texts in English and German.
 */
import type { Delivered, InquiryUpdatedPayload } from '../../outbox/events.js';
import type { InquiryCandidate } from '../../queries/inquiries.js';
import type { Inquiry } from '../../src/model/inquiry.js';
import { getJson, postJson, type RequestOptions } from './api.js';
import { lang, translator } from './i18n.js';

export type { Inquiry };
export type InquiryMessage = Delivered<InquiryUpdatedPayload>;

export type { InquiryCandidate };

export const inquiryApi = {
  list: (eventId: number) => getJson<{ eventId: number; now: string; inquiries: Inquiry[] }>(`/api/events/${eventId}/inquiries`),
  candidates: (eventId: number, disciplineId: number) =>
    getJson<{ now: string; scores: InquiryCandidate[] }>(`/api/events/${eventId}/inquiry-candidates`, { disciplineId }),
  file: (eventId: number, body: { scoreId: number; disciplineId: number; coach: string }, options: RequestOptions = {}) =>
    postJson<Inquiry>(`/api/events/${eventId}/inquiries`, body, options),
  confirm: (inquiryId: number, body: { coach?: string }, options: RequestOptions = {}) =>
    postJson<Inquiry>(`/api/inquiries/${inquiryId}/confirmation`, body, options),
  decide: (inquiryId: number, body: { decision: 'upheld' | 'rejected'; newD?: number }, options: RequestOptions) =>
    postJson<Inquiry>(`/api/inquiries/${inquiryId}/decision`, body, options),
};

/** Open: filed or confirmed, not decided, not lapsed; the board marks such a score. */
export const isOpen = (inquiry: Pick<Inquiry, 'state'>) => inquiry.state === 'filed' || inquiry.state === 'confirmed';

/**
 * The server's clock as this page estimates it: the offset of the last answer's `now`, so a
 * countdown shows the service's deadline whatever the phone's clock says.
 */
export class ServerClock {
  private offsetMs = 0;
  sync(serverNow: string): void {
    this.offsetMs = Date.parse(serverNow) - Date.now();
  }
  now(): number {
    return Date.now() + this.offsetMs;
  }
  /** Whole seconds until `deadline`, never below 0. */
  secondsUntil(deadline: string): number {
    return Math.max(0, Math.ceil((Date.parse(deadline) - this.now()) / 1000));
  }
}

/** A server time as the page's language writes it, to the second (German: 28.11.2026, 14:03:07). */
export const clockTime = (iso: string | null, withDate = false): string =>
  iso === null
    ? '–'
    : new Date(iso).toLocaleString(lang, {
        ...(withDate ? { day: '2-digit', month: '2-digit', year: 'numeric' } : {}),
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });

export const countdown = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

const EN = {
  'inq.state.filed': 'filed (verbal)',
  'inq.state.confirmed': 'confirmed in writing',
  'inq.state.lapsed': 'lapsed: not confirmed in time',
  'inq.state.upheld': 'upheld',
  'inq.state.rejected': 'rejected',
  'inq.boardMark': 'Inquiry',
  'inq.boardLegend': 'Inquiry: the D score is being reviewed by the head judge.',
  'inq.coachTitle': 'Inquiry · {event}',
  'inq.coachIntro':
    'Pick the gymnast whose score was just shown and inquire verbally; then confirm in writing. The service keeps every time.',
  'inq.coachName': 'Your name (coach)',
  'inq.device': 'Apparatus',
  'inq.shown': 'shown {time}',
  'inq.inquire': 'Inquire D score',
  'inq.tooLate': 'too late: the next score was shown',
  'inq.filedAlready': 'inquiry filed',
  'inq.untilNext': 'Due before the next gymnast’s score is shown.',
  'inq.verbalLeft': 'Verbal inquiry: {left} left',
  'inq.writtenLeft': 'Confirm in writing: {left} left',
  'inq.confirm': 'Confirm in writing',
  'inq.needName': 'Enter your name first.',
  'inq.failed': 'Refused: {error}',
  'inq.mine': 'Inquiries of this event',
  'inq.none': 'No inquiries yet.',
  'inq.noScores': 'No score on this apparatus has been shown yet.',
  'inq.decided': '{decision} by {who} at {time}',
  'inq.newD': 'D {before} → {after}, final {final}',
  'inq.consoleTitle': 'Inquiries',
  'inq.consoleNone': 'No open inquiry.',
  'inq.uphold': 'Uphold',
  'inq.reject': 'Reject',
  'inq.newDLabel': 'New D',
  'inq.needsHead': 'Deciding an inquiry needs a head judge or admin token.',
  'inq.logTitle': 'Inquiry log · {event}',
  'inq.print': 'Print',
  'inq.logCols':
    'No.|Gymnast|Apparatus|Coach|Score shown|Verbal inquiry|Verbal deadline|Written deadline|Confirmed in writing|Decision|Decided|D before → after|Final before → after',
  'inq.logNote': 'All times from the service’s clock. Verbal deadline “next score”: before the next gymnast’s score was shown.',
  'inq.nextScore': 'next score',
  'inq.recordedBy': 'recorded by {who}',
  'inq.navCoach': 'Inquiry',
  'inq.filedAt': 'filed {time}',
  'inq.confirmedAt': 'confirmed in writing {time}',
  'inq.navLog': 'Inquiry log',
};

const DE: { readonly [K in keyof typeof EN]: string } = {
  'inq.state.filed': 'eingelegt (mündlich)',
  'inq.state.confirmed': 'schriftlich bestätigt',
  'inq.state.lapsed': 'verfallen: nicht rechtzeitig bestätigt',
  'inq.state.upheld': 'stattgegeben',
  'inq.state.rejected': 'abgelehnt',
  'inq.boardMark': 'Einspruch',
  'inq.boardLegend': 'Einspruch: Die D-Note wird vom Oberkampfrichter geprüft.',
  'inq.coachTitle': 'Einspruch · {event}',
  'inq.coachIntro':
    'Wählen Sie den Turner, dessen Wertung gerade gezeigt wurde, und legen Sie mündlich Einspruch ein; bestätigen Sie ihn dann schriftlich. Der Dienst hält jede Zeit fest.',
  'inq.coachName': 'Ihr Name (Trainer)',
  'inq.device': 'Gerät',
  'inq.shown': 'gezeigt {time}',
  'inq.inquire': 'Einspruch D-Note',
  'inq.tooLate': 'zu spät: die nächste Wertung wurde gezeigt',
  'inq.filedAlready': 'Einspruch eingelegt',
  'inq.untilNext': 'Fällig, bevor die Wertung des nächsten Turners gezeigt wird.',
  'inq.verbalLeft': 'Mündlicher Einspruch: noch {left}',
  'inq.writtenLeft': 'Schriftlich bestätigen: noch {left}',
  'inq.confirm': 'Schriftlich bestätigen',
  'inq.needName': 'Geben Sie zuerst Ihren Namen ein.',
  'inq.failed': 'Abgelehnt: {error}',
  'inq.mine': 'Einsprüche dieser Veranstaltung',
  'inq.none': 'Noch keine Einsprüche.',
  'inq.noScores': 'An diesem Gerät wurde noch keine Wertung gezeigt.',
  'inq.decided': '{decision} von {who} um {time}',
  'inq.newD': 'D {before} → {after}, Endwert {final}',
  'inq.consoleTitle': 'Einsprüche',
  'inq.consoleNone': 'Kein offener Einspruch.',
  'inq.uphold': 'Stattgeben',
  'inq.reject': 'Ablehnen',
  'inq.newDLabel': 'Neue D-Note',
  'inq.needsHead': 'Über einen Einspruch entscheidet ein Oberkampfrichter- oder Admin-Token.',
  'inq.logTitle': 'Einspruchsprotokoll · {event}',
  'inq.print': 'Drucken',
  'inq.logCols':
    'Nr.|Turner|Gerät|Trainer|Wertung gezeigt|Mündlicher Einspruch|Frist mündlich|Frist schriftlich|Schriftlich bestätigt|Entscheidung|Entschieden|D vorher → nachher|Endwert vorher → nachher',
  'inq.logNote':
    'Alle Zeiten nach der Uhr des Dienstes. Frist mündlich „nächste Wertung“: bevor die Wertung des nächsten Turners gezeigt wurde.',
  'inq.nextScore': 'nächste Wertung',
  'inq.recordedBy': 'erfasst von {who}',
  'inq.navCoach': 'Einspruch',
  'inq.filedAt': 'eingelegt {time}',
  'inq.confirmedAt': 'schriftlich bestätigt {time}',
  'inq.navLog': 'Einspruchsprotokoll',
};

export const tInq = translator(EN, DE);

export const stateText = (inquiry: Pick<Inquiry, 'state'>) => tInq(`inq.state.${inquiry.state}`);

export const gymnastName = (entry: { firstName: string | null; lastName: string | null; startNumber?: string | null }) =>
  [entry.startNumber, `${entry.firstName ?? ''} ${entry.lastName ?? ''}`.trim()].filter(Boolean).join(' · ');
