/**
 * Group and team scores: the SQL that loads what a save names and writes its rows and event. The
 * rules live in `collective-score-decision.ts`, a pure function unit-tested without a database.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { collectiveScoreUpdated } from '../outbox/events.js';
import { selectDisciplineContext } from '../src/model/discipline-context.js';
import {
  decideCollectiveScore,
  type CollectiveKind,
  type CollectiveScoreInput,
  type CompetitionRow,
  type PreparedScore,
  type UnitRow,
} from './collective-score-decision.js';

export interface StoredDetail {
  id: number;
  fieldId: number;
  value: number;
}

/**
 * The row lock serialises concurrent saves for one group or team, so two first saves cannot both
 * create a score row for the same competition (the legacy layout has no unique key for that).
 */
export async function lockUnit(tx: TxClient, kind: CollectiveKind, unitId: number): Promise<UnitRow | null> {
  const { rows } = await tx.query<UnitRow>(
    `SELECT ${kind.idColumn} AS id, var_name AS name, int_veranstaltungenid AS "eventId",
            int_startnummer AS "startNumber", var_riege AS "squadName"
       FROM ${tx.tables[kind.table]}
      WHERE ${kind.idColumn} = $1
      FOR NO KEY UPDATE`,
    [unitId],
  );
  return rows[0] ?? null;
}

export async function selectCompetition(tx: TxClient, competitionId: number, statusId: number | null): Promise<CompetitionRow | null> {
  const { rows } = await tx.query<CompetitionRow>(
    `SELECT c.int_wettkaempfeid AS id, c.int_veranstaltungenid AS "eventId",
            COALESCE(c.bol_gruppe, false) AS "isGroupCompetition", COALESCE(c.int_versuche, 1) AS attempts,
            EXISTS (SELECT 1 FROM ${tx.tables.status} s WHERE s.int_statusid = $2::int) AS "statusExists"
       FROM ${tx.tables.wettkaempfe} c
      WHERE c.int_wettkaempfeid = $1`,
    [competitionId, statusId],
  );
  return rows[0] ?? null;
}

/** Loads the rows the save names (404 for a missing one) and decides; nothing is written yet. */
export async function prepareCollectiveScore(tx: TxClient, kind: CollectiveKind, input: CollectiveScoreInput): Promise<PreparedScore> {
  const unit = await lockUnit(tx, kind, input.unitId);
  if (!unit) throw notFound(`${kind.label} ${input.unitId} not found`);
  const competition = await selectCompetition(tx, input.competitionId, input.statusId);
  if (!competition) throw notFound(`competition ${input.competitionId} not found`);
  const discipline = await selectDisciplineContext(tx, input.disciplineId);
  if (!discipline) throw notFound(`discipline ${input.disciplineId} not found`);
  return decideCollectiveScore(kind, input, { unit, competition, discipline });
}

/**
 * Create-or-update of the (group or team, competition) score row in one statement. The insert
 * names only the columns it sets: score record rule 2 forbids naming the participant column for
 * team rows, and the same holds for the team column of group rows. An update never blanks a value
 * the legacy program may have set just because the request and the group or team lack one.
 */
export async function upsertScoreRow(tx: TxClient, prepared: PreparedScore): Promise<{ scoreId: number; squadName: string | null }> {
  const { kind, input, unit } = prepared;
  const { rows } = await tx.query<{ scoreId: number; squadName: string | null }>(
    `WITH existing AS (
       SELECT int_wertungenid FROM ${tx.tables.wertungen}
        WHERE ${kind.idColumn} = $1::int AND int_wettkaempfeid = $2::int
        ORDER BY int_wertungenid
        LIMIT 1
     ), updated AS (
       UPDATE ${tx.tables.wertungen} w
          SET int_statusid = COALESCE($3::int, w.int_statusid),
              int_startnummer = COALESCE($4::int, w.int_startnummer),
              var_riege = COALESCE($5::varchar, w.var_riege)
        WHERE w.int_wertungenid = (SELECT int_wertungenid FROM existing)
        RETURNING w.int_wertungenid, w.var_riege
     ), inserted AS (
       INSERT INTO ${tx.tables.wertungen} (int_wettkaempfeid, ${kind.idColumn}, int_statusid, int_runde, int_startnummer, var_riege)
       SELECT $2, $1, COALESCE($3, 1), 1, $4, $5
        WHERE NOT EXISTS (SELECT 1 FROM existing)
       RETURNING int_wertungenid, var_riege
     )
     SELECT int_wertungenid AS "scoreId", var_riege AS "squadName" FROM updated
     UNION ALL
     SELECT int_wertungenid, var_riege FROM inserted`,
    [input.unitId, input.competitionId, input.statusId, unit.startNumber, input.squadName ?? unit.squadName],
  );
  return rows[0]!;
}

/** One row per component plus the final-score row, keyed by the detail table's unique index. */
export async function upsertDetailRows(tx: TxClient, prepared: PreparedScore, scoreId: number): Promise<StoredDetail[]> {
  const { input, details } = prepared;
  const { rows } = await tx.query<StoredDetail>(
    `INSERT INTO ${tx.tables.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp, rel_leistung)
     SELECT $1::int, $2::int, $3::int, v.field_id, v.value
       FROM unnest($4::int[], $5::float8[]) AS v (field_id, value)
     ON CONFLICT (int_wertungenid, int_disziplinenid, int_versuch, int_kp)
     DO UPDATE SET rel_leistung = EXCLUDED.rel_leistung
     RETURNING int_wertungen_detailsid AS id, int_kp AS "fieldId", rel_leistung AS value`,
    [scoreId, input.disciplineId, input.attempt, details.map((detail) => detail.fieldId), details.map((detail) => detail.value)],
  );
  const order = new Map(details.map((detail, index) => [detail.fieldId, index]));
  return rows.sort((a, b) => (order.get(a.fieldId) ?? 0) - (order.get(b.fieldId) ?? 0));
}

/** The stored final value: `real` storage rounds, and clients must see what a later read returns. */
export function storedFinalScore(prepared: PreparedScore, details: readonly StoredDetail[]): number {
  return details.find((detail) => detail.fieldId === prepared.finalField.fieldId)!.value;
}

/** Scoreboards receive group and team saves like individual ones, with the unit's name instead of a person's. */
export async function appendCollectiveScoreEvent(
  tx: TxClient,
  prepared: PreparedScore,
  stored: { scoreId: number; squadName: string | null; finalScore: number },
): Promise<void> {
  const { kind, input, unit, competition, discipline } = prepared;
  await appendOutboxEvent(
    tx,
    collectiveScoreUpdated({
      kind: kind.label,
      unitId: unit.id,
      name: unit.name,
      scoreId: stored.scoreId,
      eventId: competition.eventId,
      competitionId: competition.id,
      disciplineId: discipline.id,
      disciplineName: discipline.name,
      attempt: input.attempt,
      finalScore: stored.finalScore,
      squadName: stored.squadName,
    }),
  );
}
