/**
 * GET /api/scores: individual score rows of an event with their jury results, plus the two
 * corrections on read (Calculation rules 5 and 6): this query finds them, the route writes them
 * with the `applyFinalCorrections` command and hands the written rows back for the reply. Whatever
 * the page holds, that is at most five statements: page keys, states, and, only when something
 * needs correcting, one write statement in its own transaction (BEGIN, write, COMMIT).
 *
 * One result entry per (score row, discipline of an attempt-1 detail row), since the jury portal
 * needs disciplineId per entry and the score row itself names no discipline. A score row without
 * any such detail row still yields one entry, with disciplineId, score and formula null and no jury
 * results, so the portal lists the participant as pending and can save against its wertungenId.
 */
import type { Queryable } from '../src/db/pool.js';
import type { PanelReading } from '../src/domain/panel.js';
import {
  juryResultEntries,
  loadScoringStates,
  panelReadingOf,
  pendingCorrections,
  type JuryResultEntry,
  type PendingCorrection,
  type ScoringState,
  type WarnLogger,
  type WrittenCorrection,
} from '../src/model/scoring-context.js';

export interface ListScoresInput {
  eventId?: number;
  /** Only score rows of this competition (the jury portal's selection). */
  competitionId?: number;
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
  panel: PanelReading | null;
  /** `bol_startet_nicht`: the office marked the gymnast as not started. */
  didNotStart: boolean;
}

export interface ScoresPage {
  results: ScoreEntry[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}

interface PageKeysRow {
  total: number;
  score_ids: number[];
  discipline_ids: Array<number | null>;
  /** The page's score rows marked did-not-start (`bol_startet_nicht`). */
  did_not_start_ids: number[];
}

/** Stable order (score id, then discipline, the discipline-less entry first) so offsets page cleanly. */
export async function selectScorePageKeys(db: Queryable, input: ListScoresInput): Promise<PageKeysRow> {
  const { rows } = await db.query<PageKeysRow>(
    `WITH entries AS (
       SELECT w.int_wertungenid AS score_id, d.int_disziplinenid AS discipline_id,
              COALESCE(w.bol_startet_nicht, false) AS did_not_start
         FROM ${db.tables.wertungen} w
         JOIN ${db.tables.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
         LEFT JOIN ${db.tables.wertungen_details} d
                ON d.int_wertungenid = w.int_wertungenid AND d.int_versuch = 1 AND d.int_kp = 0
        WHERE w.int_teilnehmerid IS NOT NULL
          AND ($1::int IS NULL OR c.int_veranstaltungenid = $1)
          AND ($2::text IS NULL OR w.var_riege = $2)
          AND ($5::int IS NULL OR w.int_wettkaempfeid = $5)
     ), page AS (
       SELECT score_id, discipline_id, did_not_start FROM entries
        ORDER BY score_id, discipline_id NULLS FIRST
        LIMIT $3 OFFSET $4
     )
     SELECT (SELECT count(*) FROM entries)::int AS total,
            COALESCE(array_agg(score_id ORDER BY score_id, discipline_id NULLS FIRST), '{}') AS score_ids,
            COALESCE(array_agg(discipline_id ORDER BY score_id, discipline_id NULLS FIRST), '{}') AS discipline_ids,
            COALESCE(array_agg(DISTINCT score_id) FILTER (WHERE did_not_start), '{}') AS did_not_start_ids
       FROM page`,
    [input.eventId ?? null, input.squadName ?? null, input.limit, input.offset, input.competitionId ?? null],
  );
  return rows[0]!;
}

/**
 * Folds the corrections into the states, so the reply shows them: as the correction statement wrote
 * them (with their row ids), else with the value they compute. A correction is not written when the
 * desktop program holds its row or the write failed; the read still answers what the formula gives,
 * and a later read stores it.
 */
function applyCorrections(states: ScoringState[], corrections: readonly PendingCorrection[], written: readonly WrittenCorrection[]): void {
  const byKey = new Map(written.map((row) => [`${row.score_id}:${row.field_id}`, row]));
  const computed = new Map(
    corrections.flatMap(({ scoreId, correction }) =>
      correction.kind === 'deviation-open' || correction.kind === 'deviation-close'
        ? []
        : [[`${scoreId}:${correction.fieldId}`, correction]],
    ),
  );
  for (const state of states) {
    state.fields = state.fields.map((field) => {
      const key = `${state.scoreId}:${field.fieldId}`;
      const row = byKey.get(key);
      const correction = computed.get(key);
      const kind = row?.kind ?? correction?.kind;
      const value = row?.value ?? correction?.value;
      if (value === undefined) return field;
      if (kind === 'calculate' || kind === 'recalculate') state.detailValue = value;
      return { ...field, resultId: row?.result_id ?? field.resultId, value };
    });
  }
}

function toEntry(state: ScoringState, didNotStart: ReadonlySet<number>): ScoreEntry {
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
    panel: panelReadingOf(state),
    didNotStart: didNotStart.has(state.scoreId),
  };
}

/** A page of score states as read, with the corrections they need (none written yet). */
export interface LoadedScoresPage {
  input: ListScoresInput;
  total: number;
  states: ScoringState[];
  corrections: PendingCorrection[];
  /** Score rows of the page marked did-not-start, read with the page's keys. */
  didNotStart: ReadonlySet<number>;
}

export async function loadScoresPage(db: Queryable, input: ListScoresInput, log: WarnLogger): Promise<LoadedScoresPage> {
  const keys = await selectScorePageKeys(db, input);
  const states = await loadScoringStates(
    db,
    keys.score_ids.map((scoreId, index) => ({ scoreId, disciplineId: keys.discipline_ids[index] ?? null })),
    log,
  );
  return {
    input,
    total: keys.total,
    states,
    corrections: pendingCorrections(states),
    didNotStart: new Set(keys.did_not_start_ids),
  };
}

/** The reply, showing the corrections as written, or computed where they were not written. */
export function toScoresPage(page: LoadedScoresPage, written: readonly WrittenCorrection[]): ScoresPage {
  applyCorrections(page.states, page.corrections, written);
  const { input, total, states, didNotStart } = page;
  return {
    results: states.map((state) => toEntry(state, didNotStart)),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore: input.offset + states.length < total },
  };
}
