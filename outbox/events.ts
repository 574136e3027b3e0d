/**
 * The event contract: every outbox topic and the payload it carries, typed once and built only
 * here. Commands build their payloads with these builders and append them with
 * `appendOutboxEvent`; the web client imports the message types instead of declaring its own.
 * Legacy writes' captures are turned into the score-value shape in SQL when numbered (`migrations/0016…`);
 * `test/integration/event-contract.test.ts` checks that both produce the same keys and JSON types.
 */
import { genderFromCode } from '../src/domain/final-score.js';
import type { Gender } from '../src/domain/squad-planner.js';
import type { PanelDeviation, PanelReading } from '../src/domain/panel.js';
import type { Inquiry } from '../src/model/inquiry.js';
import type { DisciplineState } from '../src/model/scoring-context.js';

/** Every `score-updated` variant carries these (spec "Events"). */
interface ScoreUpdatedCommon {
  scoreId: number;
  /** The competition event (Veranstaltung) the score belongs to; its room receives the message. */
  eventId: number;
  competitionId: number;
  disciplineId: number;
  disciplineName: string;
  /** `score` and `finalScore` carry the same value. */
  score: number | null;
  finalScore: number | null;
  /** ISO 8601, UTC. */
  timestamp: string;
  /** Set by a command that read it with the score's state; else the outbox's insert trigger adds it (see ScoreUpdatedMessage). */
  released?: boolean;
}

/** Event 1: a jury result was saved; the score is what the formula gives now (POST /api/jury-results). */
export interface JuryResultScoreUpdate extends ScoreUpdatedCommon {
  firstname: string | null;
  lastname: string | null;
  gender: Gender;
  squadName: string | null;
  formula: string | null;
  startValue: number;
  /**
   * Only for a save of an E-panel judge's field (issue 21): the recomputed aggregate and whether
   * every judge has a value. While `complete` is false the aggregate and `finalScore` are
   * provisional and neither is stored.
   */
  panel?: PanelSummary;
}

export interface PanelSummary {
  aggregate: number | null;
  complete: boolean;
}

/**
 * Event 2: a final score was stored (save-value, capture, and every legacy write, whose trigger
 * builds the same keys in SQL; there `participantId` and `firstname` are null for group and team
 * rows and `lastname` carries their name).
 */
export interface ScoreValueUpdate extends ScoreUpdatedCommon {
  participantId: number | null;
  firstname: string | null;
  lastname: string | null;
  /** The detail value as stored; `score` falls back to the formula's result when it is null. */
  storedScore: number | null;
  hasFormula: boolean;
}

/** Group and team saves: the unit's name stands where a scoreboard shows a person's. */
interface CollectiveScoreUpdateCommon extends ScoreUpdatedCommon {
  name: string;
  attempt: number;
  squadName: string | null;
}

export interface GroupScoreUpdate extends CollectiveScoreUpdateCommon {
  groupId: number;
}

export interface TeamScoreUpdate extends CollectiveScoreUpdateCommon {
  teamId: number;
}

export type ScoreUpdatedPayload = JuryResultScoreUpdate | ScoreValueUpdate | GroupScoreUpdate | TeamScoreUpdate;

/** POST /api/squad-management/auto-assign/apply: squads is the number of squads that got participants. */
export interface SquadsAppliedPayload {
  eventId: number;
  squads: number;
  timestamp: string;
}

/** POST/DELETE /api/releases: the release state of a device (every squad, or one) after the change. */
export interface ReleaseChangedPayload {
  eventId: number;
  competitionId: number;
  disciplineId: number;
  /** Null: the whole device. */
  squadName: string | null;
  /** The state after the change (a squad stays released while its whole device is). */
  released: boolean;
  releasedAt: string | null;
  releasedBy: string | null;
  /** Who released or reopened. */
  by: string;
  timestamp: string;
}

/**
 * E-panel (issue 21): a score's complete panel crossed its tolerance (`resolved: false`, once per
 * crossing), or the deviation ended (`resolved: true`): the values came back within the tolerance
 * or the head judge confirmed them.
 */
export type PanelDeviationPayload = PanelDeviation;

/**
 * POST /api/events/:eventId/rotations/current (issue 45): the day moved to `rotation`; one event per
 * start (starting the rotation that is already current appends none).
 */
export interface RotationChangedPayload {
  eventId: number;
  rotation: number;
  /** The rotation that was current before, null at the first start. */
  previousRotation: number | null;
  /** ISO 8601. */
  plannedStart: string;
  startedAt: string;
  /** Whole minutes behind the planned start (negative: ahead). */
  delayMinutes: number;
  /** Which squad is on which apparatus now. */
  apparatus: Array<{ disciplineId: number; squadName: string }>;
  /** Who started it. */
  by: string;
  timestamp: string;
}

/**
 * An inquiry on a D value (FIG Art. 8.5) was filed, confirmed in writing or decided: the inquiry as
 * `GET /api/events/:eventId/inquiries` lists it after the step, `timestamp` the step's server time.
 */
export type InquiryUpdatedPayload = Inquiry & { timestamp: string };

/** An outbox row as a command appends it, keyed by topic. */
export type OutboxEvent =
  | { topic: 'score-updated'; eventId: number; payload: ScoreUpdatedPayload }
  | { topic: 'squads-applied'; eventId: number; payload: SquadsAppliedPayload }
  | { topic: 'release-changed'; eventId: number; payload: ReleaseChangedPayload }
  | { topic: 'panel-deviation'; eventId: number; payload: PanelDeviationPayload }
  | { topic: 'rotation-changed'; eventId: number; payload: RotationChangedPayload }
  | { topic: 'inquiry-updated'; eventId: number; payload: InquiryUpdatedPayload };

export type OutboxTopic = OutboxEvent['topic'];

/** Who wrote the row: a service command, or another program through the legacy-write triggers. */
export type EventSource = 'api' | 'legacy';

/** What a Socket.IO client receives: the payload plus `seq` and `source` (contract section 5). */
export type Delivered<P> = P & { seq: number; source: EventSource };

/**
 * `released`: whether the head judge had released the score's device (for its squad or all) when
 * the row was written, within the transaction that wrote it. A command that read the score's state
 * with one key sets it from there (the state read is sent behind the write); for every other
 * score-updated row the outbox's insert trigger (migrations 0008, 0013) adds it.
 */
export type ScoreUpdatedMessage = Delivered<ScoreUpdatedPayload & { released: boolean }>;

type KeysOfUnion<T> = T extends unknown ? keyof T : never;
type ValueOfUnion<T, K extends PropertyKey> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * A score-updated message read field by field without first telling the variants apart: keys
 * every variant has are required, the others optional (derived, so it cannot drift).
 */
export type ScoreUpdatedFields = Pick<ScoreUpdatedMessage, keyof ScoreUpdatedMessage> & {
  [K in Exclude<KeysOfUnion<ScoreUpdatedMessage>, keyof ScoreUpdatedMessage>]?: ValueOfUnion<ScoreUpdatedMessage, K>;
};

const now = () => new Date().toISOString();

/** The keys of both individual-score events, from the score's state. */
function individualScore(state: DisciplineState, score: number | null) {
  return {
    scoreId: state.scoreId,
    eventId: state.eventId,
    competitionId: state.competitionId,
    disciplineId: state.disciplineId,
    disciplineName: state.disciplineName,
    firstname: state.firstName,
    lastname: state.lastName,
    score,
    finalScore: score,
    timestamp: now(),
    ...(state.released === null ? {} : { released: state.released }),
  };
}

/**
 * Event 1 (save-jury-result): `finalScore` is the formula's result from the results saved so far.
 * `panel`: given for a save of an E-panel judge's field.
 */
export function juryResultScoreUpdated(state: DisciplineState, finalScore: number | null, panel?: PanelReading): OutboxEvent {
  const payload: JuryResultScoreUpdate = {
    ...individualScore(state, finalScore),
    gender: genderFromCode(state.genderCode),
    squadName: state.squadName,
    formula: state.formula.text,
    startValue: state.formula.startValue,
    ...(panel === undefined ? {} : { panel: { aggregate: panel.aggregate, complete: panel.complete } }),
  };
  return { topic: 'score-updated', eventId: state.eventId, payload };
}

/** A deviation of the score's panel opened (`resolved` false) or ended; `reading` holds a complete panel's values. */
export function panelDeviation(state: DisciplineState, reading: PanelReading, resolved: boolean): OutboxEvent {
  const payload: PanelDeviationPayload = {
    scoreId: state.scoreId,
    disciplineId: state.disciplineId,
    attempt: 1,
    values: reading.values,
    spread: reading.spread ?? 0,
    tolerance: reading.tolerance,
    resolved,
  };
  return { topic: 'panel-deviation', eventId: state.eventId, payload };
}

/**
 * Event 2 (save-value and capture). `storedScore` is the detail value as stored; `score` and
 * `finalScore` are that value or, when none is stored, what the formula gives (`calculated`).
 */
export function scoreValueUpdated(state: DisciplineState, calculated: number | null): OutboxEvent {
  const payload: ScoreValueUpdate = {
    ...individualScore(state, state.detailValue ?? calculated),
    participantId: state.participantId,
    storedScore: state.detailValue,
    hasFormula: state.formula.expr !== null,
  };
  return { topic: 'score-updated', eventId: state.eventId, payload };
}

export interface CollectiveScoreSaved {
  kind: 'group' | 'team';
  /** The group's or team's id. */
  unitId: number;
  name: string;
  scoreId: number;
  eventId: number;
  competitionId: number;
  disciplineId: number;
  disciplineName: string;
  attempt: number;
  /** The final score as stored. */
  finalScore: number;
  squadName: string | null;
}

/** Group and team saves: scoreboards receive them like individual ones. */
export function collectiveScoreUpdated(saved: CollectiveScoreSaved): OutboxEvent {
  const common = {
    scoreId: saved.scoreId,
    eventId: saved.eventId,
    competitionId: saved.competitionId,
    name: saved.name,
    disciplineId: saved.disciplineId,
    disciplineName: saved.disciplineName,
    attempt: saved.attempt,
    score: saved.finalScore,
    finalScore: saved.finalScore,
    squadName: saved.squadName,
    timestamp: now(),
  };
  const payload = saved.kind === 'group' ? { ...common, groupId: saved.unitId } : { ...common, teamId: saved.unitId };
  return { topic: 'score-updated', eventId: saved.eventId, payload };
}

export function squadsApplied(eventId: number, squads: number): OutboxEvent {
  return { topic: 'squads-applied', eventId, payload: { eventId, squads, timestamp: now() } };
}

export function releaseChanged(
  eventId: number,
  state: Omit<ReleaseChangedPayload, 'eventId' | 'by' | 'timestamp'>,
  by: string,
): OutboxEvent {
  return { topic: 'release-changed', eventId, payload: { eventId, ...state, by, timestamp: now() } };
}

export function rotationChanged(payload: Omit<RotationChangedPayload, 'timestamp'>): OutboxEvent {
  return { topic: 'rotation-changed', eventId: payload.eventId, payload: { ...payload, timestamp: now() } };
}

/** `at`: the step's time from the database (the inquiry's own stamp), never the service's clock. */
export function inquiryUpdated(inquiry: Inquiry, at: string): OutboxEvent {
  return { topic: 'inquiry-updated', eventId: inquiry.eventId, payload: { ...inquiry, timestamp: at } };
}
