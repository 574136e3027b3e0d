/**
 * GET /api/scores: individual score rows of an event with their jury results, plus the two
 * corrections on read (Calculation rules 5 and 6). Whatever the page holds, it runs at most five
 * statements: page keys, states, and, only when something needs correcting, one write statement
 * in its own transaction (BEGIN, write, COMMIT).
 *
 * One result entry per (score row, discipline of an attempt-1 detail row), since the jury portal
 * needs disciplineId per entry and the score row itself names no discipline. A score row without
 * any such detail row still yields one entry, with disciplineId, score and formula null and no jury
 * results, so the portal lists the participant as pending and can save against its wertungenId.
 */
import type { Pool } from '../src/db/pool.js';
import { t } from '../src/db/tables.js';
import { finalCorrection, type FinalCorrection } from '../src/domain/final-score.js';
import { runCommand } from '../commands/run-command.js';
import { juryResultEntries, loadScoringStates, type JuryResultEntry, type ScoringState, type WarnLogger } from './scoring-context.js';

export interface ListScoresInput {
  eventId?: number;
  squadName?: string;
  limit: number;
  offset: number;
}

export interface ScoreEntry {
  id: number;
  participantId: number;
  disciplineId: number | null;
  competitionId: number;
  eventId: number;
  score: number | null;
  formula: string | null;
  startValue: number;
  firstName: string | null;
  lastName: string | null;
  startNumber: string | null;
  clubName: string | null;
  participant: { firstName: string | null; lastName: string | null };
  discipline?: { name: string };
  juryResults: JuryResultEntry[];
}

export interface ScoresPage {
  results: ScoreEntry[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

interface PageKeysRow {
  total: number;
  score_ids: number[];
  discipline_ids: Array<number | null>;
}

/** Stable order (score id, then discipline, the discipline-less entry first) so offsets page cleanly. */
export async function selectScorePageKeys(db: Pool, input: ListScoresInput): Promise<PageKeysRow> {
  const { rows } = await db.query<PageKeysRow>(
    `WITH entries AS (
       SELECT w.int_wertungenid AS score_id, d.int_disziplinenid AS discipline_id
         FROM ${t('wertungen')} w
         JOIN ${t('wettkaempfe')} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
         LEFT JOIN ${t('wertungen_details')} d
                ON d.int_wertungenid = w.int_wertungenid AND d.int_versuch = 1 AND d.int_kp = 0
        WHERE w.int_teilnehmerid IS NOT NULL
          AND ($1::int IS NULL OR c.int_veranstaltungenid = $1)
          AND ($2::text IS NULL OR w.var_riege = $2)
     ), page AS (
       SELECT score_id, discipline_id FROM entries
        ORDER BY score_id, discipline_id NULLS FIRST
        LIMIT $3 OFFSET $4
     )
     SELECT (SELECT count(*) FROM entries)::int AS total,
            COALESCE(array_agg(score_id ORDER BY score_id, discipline_id NULLS FIRST), '{}') AS score_ids,
            COALESCE(array_agg(discipline_id ORDER BY score_id, discipline_id NULLS FIRST), '{}') AS discipline_ids
       FROM page`,
    [input.eventId ?? null, input.squadName ?? null, input.limit, input.offset],
  );
  return rows[0]!;
}

interface CorrectionRow {
  kind: FinalCorrection['kind'];
  result_id: number;
  score_id: number;
  field_id: number;
  value: number;
}

/**
 * Rules 5 and 6 for a whole page in one statement. The calculated final is inserted with
 * ON CONFLICT DO NOTHING, so a concurrent reader or writer that got there first wins and the detail
 * is only written where this insert did. The sync reads the detail at write time, so it copies the
 * current authoritative value, never one this page read earlier. Input is sorted by the key so two
 * readers lock rows in the same order.
 */
export async function applyFinalCorrections(
  db: Pick<Pool, 'query'>,
  corrections: ReadonlyArray<{ scoreId: number; disciplineId: number; correction: FinalCorrection }>,
): Promise<CorrectionRow[]> {
  const sorted = [...corrections].sort((a, b) => a.scoreId - b.scoreId || a.correction.fieldId - b.correction.fieldId);
  const { rows } = await db.query<CorrectionRow>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::float8[])
                  WITH ORDINALITY AS i(kind, score_id, discipline_id, field_id, value, ord)
     ), calculated AS (
       INSERT INTO ${t('jury_results')} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
       SELECT score_id, field_id, value, 1, 0 FROM input WHERE kind = 'calculate' ORDER BY ord
       ON CONFLICT (int_wertungenid, int_disziplinen_felderid, int_versuch) DO NOTHING
       RETURNING int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung
     ), calculated_detail AS (
       UPDATE ${t('wertungen_details')} d SET rel_leistung = c.rel_leistung
         FROM calculated c
         JOIN input i ON i.kind = 'calculate' AND i.score_id = c.int_wertungenid AND i.field_id = c.int_disziplinen_felderid
        WHERE d.int_wertungenid = i.score_id AND d.int_disziplinenid = i.discipline_id AND d.int_versuch = 1 AND d.int_kp = 0
       RETURNING d.int_wertungenid
     ), synced AS (
       UPDATE ${t('jury_results')} j SET rel_leistung = d.rel_leistung
         FROM input i
         JOIN ${t('wertungen_details')} d
           ON d.int_wertungenid = i.score_id AND d.int_disziplinenid = i.discipline_id AND d.int_versuch = 1 AND d.int_kp = 0
        WHERE i.kind = 'sync' AND j.int_wertungenid = i.score_id AND j.int_disziplinen_felderid = i.field_id
          AND j.int_versuch = 1 AND d.rel_leistung IS NOT NULL AND j.rel_leistung IS DISTINCT FROM d.rel_leistung
       RETURNING j.int_juryresultsid, j.int_wertungenid, j.int_disziplinen_felderid, j.rel_leistung
     )
     SELECT 'calculate' AS kind, int_juryresultsid AS result_id, int_wertungenid AS score_id,
            int_disziplinen_felderid AS field_id, rel_leistung AS value FROM calculated
     UNION ALL
     SELECT 'sync', int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung FROM synced`,
    [
      sorted.map((item) => item.correction.kind),
      sorted.map((item) => item.scoreId),
      sorted.map((item) => item.disciplineId),
      sorted.map((item) => item.correction.fieldId),
      sorted.map((item) => item.correction.value),
    ],
  );
  return rows;
}

/** Folds the rows the correction statement wrote back into the states, so the reply shows them. */
function applyWrittenCorrections(states: ScoringState[], written: readonly CorrectionRow[]): void {
  const byKey = new Map(written.map((row) => [`${row.score_id}:${row.field_id}`, row]));
  for (const state of states) {
    state.fields = state.fields.map((field) => {
      const row = byKey.get(`${state.scoreId}:${field.fieldId}`);
      if (row === undefined) return field;
      if (row.kind === 'calculate') state.detailValue = row.value;
      return { ...field, resultId: row.result_id, value: row.value };
    });
  }
}

function toEntry(state: ScoringState): ScoreEntry {
  return {
    id: state.scoreId,
    // The page only holds individual score rows.
    participantId: state.participantId!,
    disciplineId: state.disciplineId,
    competitionId: state.competitionId,
    eventId: state.eventId,
    score: state.detailValue,
    formula: state.formula.text,
    startValue: state.formula.startValue,
    firstName: state.firstName,
    lastName: state.lastName,
    startNumber: state.startNumber,
    clubName: state.clubName,
    participant: { firstName: state.firstName, lastName: state.lastName },
    ...(state.disciplineName !== null ? { discipline: { name: state.disciplineName } } : {}),
    juryResults: juryResultEntries(state),
  };
}

export async function listScores(pool: Pool, input: ListScoresInput, log: WarnLogger): Promise<ScoresPage> {
  const keys = await selectScorePageKeys(pool, input);
  const states = await loadScoringStates(
    pool,
    keys.score_ids.map((scoreId, index) => ({ scoreId, disciplineId: keys.discipline_ids[index] ?? null })),
    log,
  );

  const corrections = states.flatMap((state) => {
    if (state.disciplineId === null) return [];
    const correction = finalCorrection(state.formula, state.fields, state.detailValue);
    return correction === null ? [] : [{ scoreId: state.scoreId, disciplineId: state.disciplineId, correction }];
  });
  if (corrections.length > 0) {
    try {
      // runCommand marks the transaction as the service's own write: the legacy-write triggers must
      // not announce a value that follows from results the clients were already told about.
      const written = await runCommand(pool, (tx) => applyFinalCorrections(tx, corrections));
      applyWrittenCorrections(states, written);
    } catch (error) {
      // The corrections heal data on every read; losing one to a deadlock or a lock timeout with
      // another writer must not fail the read. The page then shows what is stored.
      log.warn({ err: error }, 'corrections on read were not written; the page shows the stored values');
    }
  }

  return {
    results: states.map(toEntry),
    pagination: { total: keys.total, limit: input.limit, offset: input.offset, hasMore: input.offset + states.length < keys.total },
  };
}
