/**
 * Inquiries on a shown score's D value (FIG Technical Regulations Art. 8.5): filed by a coach (or
 * recorded for one by the head judge), confirmed in writing, decided by the head judge. Each step
 * is stamped with `now()` of its own transaction, and the deadlines are judged against that time
 * (`inquiry-decision.ts`). An upheld inquiry writes the new D through `captureScore`, the score
 * command of the portals' corrections, in the decision's transaction: audit record, score-updated
 * event and the final recalculated by the discipline's formula come with it.
 */
import type { TxClient } from '../src/db/pool.js';
import { conflict, notFound } from '../src/domain/errors.js';
import { FIG_DEADLINES, lastOfRotationSql, selectInquiries, type Inquiry, type InquiryDeadlines } from '../src/model/inquiry.js';
import { loadDisciplineState, type DisciplineState, type ScoringField, type WarnLogger } from '../src/model/scoring-context.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { inquiryUpdated } from '../outbox/events.js';
import { captureScore } from './capture-score.js';
import { checkConfirmation, checkDecision, verbalDeadline, writtenDeadline, type InquiryProgress } from './inquiry-decision.js';
import { lockScoreRow } from './score-writes.js';

/**
 * The D field of an apparatus: the enabled field flagged as start value (`bol_ausgangswert`, the
 * D score's place in the legacy layout), else the one whose short name is `D`.
 */
export function dFieldOf(fields: readonly ScoringField[]): ScoringField | null {
  const enabled = fields.filter((field) => field.enabled && !field.isFinal);
  return enabled.find((field) => field.isStarting) ?? enabled.find((field) => field.shortName?.trim().toUpperCase() === 'D') ?? null;
}

interface TimingRow {
  now: Date;
  shown_at: Date | null;
  next_shown_at: Date | null;
  last_of_rotation: boolean;
  last_gymnast_seconds: number | null;
  written_seconds: number | null;
}

/**
 * When the score was shown (its final last stored, from the score audit), the first showing of
 * another gymnast's score on the apparatus after it, whether the squad has nobody left to score
 * there, and the competition's deadlines. A correction of an earlier gymnast's score is no "next
 * score": only a score first shown after this one counts.
 */
async function selectTiming(tx: TxClient, state: DisciplineState): Promise<TimingRow> {
  const { rows } = await tx.query<TimingRow>(
    `WITH mine AS (
       SELECT max(a.at) AS shown_at FROM ${tx.tables.svc_score_audit} a
        WHERE a.score_id = $1 AND a.discipline_id = $2 AND a.field_id IS NULL AND a.new_value IS NOT NULL AND COALESCE(a.attempt, 1) = 1
     ), others AS (
       SELECT a.score_id, min(a.at) AS first_at FROM ${tx.tables.svc_score_audit} a
        WHERE a.event_id = $3 AND a.discipline_id = $2 AND a.score_id <> $1 AND a.field_id IS NULL AND a.new_value IS NOT NULL
          AND COALESCE(a.attempt, 1) = 1
        GROUP BY a.score_id
     )
     SELECT now() AS now, mine.shown_at,
            (SELECT min(o.first_at) FROM others o WHERE o.first_at > mine.shown_at) AS next_shown_at,
            ${lastOfRotationSql(tx.tables, { score: '$1', competition: '$4', squad: '$5::text', discipline: '$2' })} AS last_of_rotation,
            s.last_gymnast_seconds, s.written_seconds
       FROM mine LEFT JOIN ${tx.tables.svc_inquiry_settings} s ON s.competition_id = $4`,
    [state.scoreId, state.disciplineId, state.eventId, state.competitionId, state.squadName],
  );
  return rows[0]!;
}

export interface FileInquiryInput {
  eventId: number;
  scoreId: number;
  disciplineId: number;
  coach: string;
  /** The head judge recording it for the coach; null when the coach files it. */
  recordedBy: string | null;
}

/**
 * The inquiry as the event carries it: with the gymnast's id and whether the score's device is
 * released for the squad, so the spectators' filter (src/realtime/spectators.ts) treats the mark
 * as it treats the score, without a name.
 */
async function announce(tx: TxClient, inquiryId: number, at: 'filedAt' | 'confirmedAt' | 'decidedAt'): Promise<Inquiry> {
  const { inquiries } = await selectInquiries(tx, { inquiryId });
  const inquiry = inquiries[0]!;
  const { rows } = await tx.query<{ participantId: number | null; released: boolean }>(
    `SELECT w.int_teilnehmerid AS "participantId",
            COALESCE(${tx.tables.prefix}svc_scope_released(w.int_wettkaempfeid, q.discipline_id, w.var_riege), false) AS released
       FROM ${tx.tables.svc_inquiries} q JOIN ${tx.tables.wertungen} w ON w.int_wertungenid = q.score_id
      WHERE q.id = $1`,
    [inquiryId],
  );
  const announced: Inquiry & { participantId: number | null; released: boolean } = {
    ...inquiry,
    participantId: rows[0]?.participantId ?? null,
    released: rows[0]?.released ?? false,
  };
  await appendOutboxEvent(tx, inquiryUpdated(announced, inquiry[at]!));
  return inquiry;
}

export async function fileInquiry(tx: TxClient, input: FileInquiryInput, log: WarnLogger): Promise<Inquiry> {
  // The score's lock orders the filing behind a save of this score that is under way.
  if (!(await lockScoreRow(tx, input.scoreId))) throw notFound(`No score ${input.scoreId}`);
  const state = await loadDisciplineState(tx, input.scoreId, input.disciplineId, log);
  if (state === null) throw notFound(`No apparatus ${input.disciplineId}`);
  if (state.eventId !== input.eventId) throw notFound(`No score ${input.scoreId} in event ${input.eventId}`);
  // Art. 8.5 concerns a gymnast's D score; group and team scores keep their components elsewhere.
  if (state.participantId === null)
    throw conflict(`Score ${input.scoreId} is a group or team score: only a gymnast's D score can be inquired`);
  const dField = dFieldOf(state.fields);
  if (dField === null) throw conflict(`${state.disciplineName} has no D field (a start-value field or one named D) to inquire`);
  const timing = await selectTiming(tx, state);
  if (state.detailValue === null || timing.shown_at === null) {
    throw conflict(`Score ${input.scoreId} on ${state.disciplineName} has not been shown yet: there is nothing to inquire`);
  }
  const deadlines: InquiryDeadlines = {
    lastGymnastSeconds: timing.last_gymnast_seconds ?? FIG_DEADLINES.lastGymnastSeconds,
    writtenSeconds: timing.written_seconds ?? FIG_DEADLINES.writtenSeconds,
  };
  const verbal = verbalDeadline(
    { now: timing.now, shownAt: timing.shown_at, nextShownAt: timing.next_shown_at, lastOfRotation: timing.last_of_rotation },
    deadlines,
  );
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ${tx.tables.svc_inquiries}
            (event_id, competition_id, score_id, discipline_id, field_id, coach, recorded_by, shown_at, d_before, final_before,
             filed_at, verbal_deadline, written_deadline)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), $11, $12)
     ON CONFLICT (score_id, discipline_id) DO NOTHING
     RETURNING id`,
    [
      state.eventId,
      state.competitionId,
      state.scoreId,
      state.disciplineId,
      dField.fieldId,
      input.coach,
      input.recordedBy,
      timing.shown_at,
      dField.value,
      state.detailValue,
      verbal,
      writtenDeadline(timing.now, deadlines),
    ],
  );
  if (rows.length === 0) {
    throw conflict(
      `This routine already has an inquiry (score ${input.scoreId} on ${state.disciplineName}); a decision cannot be challenged`,
    );
  }
  return announce(tx, rows[0]!.id, 'filedAt');
}

interface ProgressRow {
  id: number;
  event_id: number;
  score_id: number;
  discipline_id: number;
  field_id: number;
  filed_at: Date;
  written_deadline: Date;
  confirmed_at: Date | null;
  decided_at: Date | null;
  decision: 'upheld' | 'rejected' | null;
  now: Date;
}

/** The inquiry's row locked for the step, with the transaction's now. */
async function lockInquiry(tx: TxClient, inquiryId: number): Promise<{ row: ProgressRow; progress: InquiryProgress }> {
  const { rows } = await tx.query<ProgressRow>(
    `SELECT id, event_id, score_id, discipline_id, field_id, filed_at, written_deadline, confirmed_at, decided_at, decision, now() AS now
       FROM ${tx.tables.svc_inquiries} WHERE id = $1 FOR UPDATE`,
    [inquiryId],
  );
  const row = rows[0];
  if (row === undefined) throw notFound(`No inquiry ${inquiryId}`);
  return {
    row,
    progress: {
      id: row.id,
      filedAt: row.filed_at,
      writtenDeadline: row.written_deadline,
      confirmedAt: row.confirmed_at,
      decidedAt: row.decided_at,
      decision: row.decision,
    },
  };
}

/** `confirmedBy` null: the coach who filed signs. */
export async function confirmInquiry(tx: TxClient, inquiryId: number, confirmedBy: string | null): Promise<Inquiry> {
  const { row, progress } = await lockInquiry(tx, inquiryId);
  checkConfirmation(progress, row.now);
  await tx.query(`UPDATE ${tx.tables.svc_inquiries} SET confirmed_at = now(), confirmed_by = COALESCE($2, coach) WHERE id = $1`, [
    inquiryId,
    confirmedBy,
  ]);
  return announce(tx, inquiryId, 'confirmedAt');
}

export interface DecideInquiryInput {
  inquiryId: number;
  decision: 'upheld' | 'rejected';
  newD?: number | undefined;
  note?: string | undefined;
  decidedBy: string;
}

export async function decideInquiry(tx: TxClient, input: DecideInquiryInput, log: WarnLogger): Promise<Inquiry> {
  const { row, progress } = await lockInquiry(tx, input.inquiryId);
  const verdict = checkDecision(progress, input);
  let dAfter: number | null = null;
  let finalAfter: number | null = null;
  if (verdict.decision === 'upheld') {
    const captured = await captureScore(
      tx,
      { wertungenId: row.score_id, fieldValues: [{ fieldId: row.field_id, value: verdict.newD }] },
      log,
    );
    dAfter = captured.juryResults.find((result) => result.disciplineFieldId === row.field_id)?.performance ?? verdict.newD;
    finalAfter = captured.finalScore;
  }
  await tx.query(
    `UPDATE ${tx.tables.svc_inquiries}
        SET decided_at = now(), decided_by = $2, decision = $3, d_after = $4, final_after = $5, note = $6
      WHERE id = $1`,
    [input.inquiryId, input.decidedBy, verdict.decision, dAfter, finalAfter, input.note ?? null],
  );
  return announce(tx, input.inquiryId, 'decidedAt');
}

/** DELETE: an inquiry stays on record (Art. 8.5: it cannot be withdrawn). 404 for an unknown one. */
export async function refuseWithdrawal(tx: TxClient, inquiryId: number): Promise<never> {
  await lockInquiry(tx, inquiryId);
  throw conflict(`Inquiry ${inquiryId} cannot be withdrawn: once filed it stays on record and is decided by the head judge`);
}

export async function storeInquiryDeadlines(
  tx: TxClient,
  input: { eventId: number; competitionId: number; deadlines: InquiryDeadlines; by: string },
): Promise<InquiryDeadlines> {
  const { rows } = await tx.query<{ lastGymnastSeconds: number; writtenSeconds: number }>(
    `INSERT INTO ${tx.tables.svc_inquiry_settings} (competition_id, last_gymnast_seconds, written_seconds, updated_by)
     SELECT c.int_wettkaempfeid, $3, $4, $5 FROM ${tx.tables.wettkaempfe} c WHERE c.int_wettkaempfeid = $2 AND c.int_veranstaltungenid = $1
     ON CONFLICT (competition_id) DO UPDATE
        SET last_gymnast_seconds = EXCLUDED.last_gymnast_seconds, written_seconds = EXCLUDED.written_seconds,
            updated_at = now(), updated_by = EXCLUDED.updated_by
     RETURNING last_gymnast_seconds AS "lastGymnastSeconds", written_seconds AS "writtenSeconds"`,
    [input.eventId, input.competitionId, input.deadlines.lastGymnastSeconds, input.deadlines.writtenSeconds, input.by],
  );
  if (rows.length === 0) throw notFound(`No competition ${input.competitionId} in event ${input.eventId}`);
  return rows[0]!;
}
