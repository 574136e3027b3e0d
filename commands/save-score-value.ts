/**
 * POST /api/scores/save-value: the final score of a participant in a discipline (rule 7's last two
 * steps), creating the score row and detail row when none exists (the portal sends score 0 for
 * that), plus event 2 of `score-updated`.
 *
 * `participantId` resolution (the portal sends the wertungenId in it): an individual score row with
 * that id in the given competition wins; otherwise the id is a participant id and that
 * participant's individual score row in the competition is used (the lowest id if the legacy data
 * holds several), created with status 1 when there is none. Creation runs under a transaction-
 * scoped advisory lock on (competition, participant), so a save retried after a timeout, or sent by
 * two portals at once, finds the first one's row instead of creating a second. The status of an
 * existing row is left alone: a score 0 sent only to create the row is not a captured score.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { loadDisciplineState, type WarnLogger } from '../src/model/scoring-context.js';
import { checkExpectedScore, decideSaveTarget } from './individual-score-decision.js';
import { lockScoreRow, scoreValueEvent, storeFinalScore } from './score-writes.js';

export interface SaveScoreValueInput {
  competitionId: number;
  /** A wertungenId or a participant id, see the module comment. */
  participantId: number;
  disciplineId: number;
  score: number;
  /** Optimistic check: the stored final the client based this save on (null = none); absent = no check. */
  expectedScore?: number | null | undefined;
}

export interface SaveScoreValueReply {
  success: true;
  wertungenId: number;
  score: number;
}

interface SaveTargetRow {
  competition_found: boolean;
  discipline_found: boolean;
  participant_found: boolean;
  score_id: number | null;
  /** The event of the competition, and the participant's own event (null when the legacy row has none). */
  competition_event: number | null;
  participant_event: number | null;
}

export async function selectSaveTarget(tx: TxClient, input: SaveScoreValueInput): Promise<SaveTargetRow> {
  const { rows } = await tx.query<SaveTargetRow>(
    `SELECT EXISTS (SELECT 1 FROM ${tx.tables.wettkaempfe} WHERE int_wettkaempfeid = $1) AS competition_found,
            EXISTS (SELECT 1 FROM ${tx.tables.disziplinen} WHERE int_disziplinenid = $3) AS discipline_found,
            EXISTS (SELECT 1 FROM ${tx.tables.teilnehmer} WHERE int_teilnehmerid = $2) AS participant_found,
            (SELECT int_veranstaltungenid FROM ${tx.tables.wettkaempfe} WHERE int_wettkaempfeid = $1) AS competition_event,
            (SELECT int_eventid FROM ${tx.tables.teilnehmer} WHERE int_teilnehmerid = $2) AS participant_event,
            (SELECT int_wertungenid FROM ${tx.tables.wertungen}
              WHERE int_wertungenid = $2 AND int_wettkaempfeid = $1 AND int_teilnehmerid IS NOT NULL) AS score_id`,
    [input.competitionId, input.participantId, input.disciplineId],
  );
  return rows[0]!;
}

export async function lockParticipantScoreCreation(tx: TxClient, competitionId: number, participantId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `${tx.tables.wertungen}:individual:${competitionId}:${participantId}`,
  ]);
}

/** Must run after the advisory lock, as its own statement, so it sees a row committed meanwhile. */
export async function findOrCreateParticipantScoreRow(tx: TxClient, competitionId: number, participantId: number): Promise<number> {
  const { rows } = await tx.query<{ score_id: number }>(
    `WITH found AS (
       SELECT int_wertungenid FROM ${tx.tables.wertungen}
        WHERE int_wettkaempfeid = $1 AND int_teilnehmerid = $2
        ORDER BY int_wertungenid LIMIT 1
     ), created AS (
       INSERT INTO ${tx.tables.wertungen} (int_wettkaempfeid, int_teilnehmerid, int_statusid, int_runde, int_startnummer)
       SELECT $1, p.int_teilnehmerid, 1, 1, CASE WHEN p.var_startnummer ~ '^[0-9]{1,9}$' THEN p.var_startnummer::int END
         FROM ${tx.tables.teilnehmer} p
        WHERE p.int_teilnehmerid = $2 AND NOT EXISTS (SELECT 1 FROM found)
       RETURNING int_wertungenid
     )
     SELECT int_wertungenid AS score_id FROM found UNION ALL SELECT int_wertungenid FROM created`,
    [competitionId, participantId],
  );
  return rows[0]!.score_id;
}

export async function saveScoreValue(tx: TxClient, input: SaveScoreValueInput, log: WarnLogger): Promise<SaveScoreValueReply> {
  const row = await selectSaveTarget(tx, input);
  const target = decideSaveTarget(input, {
    competitionFound: row.competition_found,
    disciplineFound: row.discipline_found,
    participantFound: row.participant_found,
    scoreId: row.score_id,
    competitionEvent: row.competition_event,
    participantEvent: row.participant_event,
  });
  let scoreId: number;
  if (target.kind === 'score-row') scoreId = target.scoreId;
  else {
    await lockParticipantScoreCreation(tx, input.competitionId, target.participantId);
    scoreId = await findOrCreateParticipantScoreRow(tx, input.competitionId, target.participantId);
  }
  if (!(await lockScoreRow(tx, scoreId))) throw notFound(`No score with wertungenId ${scoreId}`);

  const state = (await loadDisciplineState(tx, scoreId, input.disciplineId, log))!;
  // Checked under the row lock, so no save can slip in between the check and the write; throwing
  // rolls back the transaction, also a score row created just above.
  checkExpectedScore(input.expectedScore, state.detailValue);
  const stored = await storeFinalScore(tx, state, input.score);
  void appendOutboxEvent(tx, scoreValueEvent({ ...state, detailValue: stored }));
  return { success: true, wertungenId: scoreId, score: stored };
}
