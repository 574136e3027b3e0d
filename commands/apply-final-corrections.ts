/**
 * Calculation rules 5 and 6 written back, and an E-panel's aggregate and final after a judge value
 * the desktop program wrote directly, with the deviation that opens or closes (issue 21;
 * `panelCorrections` and `deviationCorrection` in the model): the corrections that reading a page
 * of scores found (`queries/list-scores.ts` finds them, the route runs this command), so the read
 * path itself never writes. Runs as a command, whose transaction is marked as the service's own write, so the legacy-write triggers do not announce it; a final this statement stores is
 * announced by the statement itself, as the service's `score-updated` event, since the scoreboards
 * last heard of that score without it.
 */
import type { TxClient } from '../src/db/pool.js';
import type { PendingCorrection, WrittenCorrection } from '../src/model/scoring-context.js';
import { inLockOrder, lostCalculations } from './final-corrections-decision.js';

/**
 * Rules 5 and 6 for a whole page in one statement. The calculated final is inserted with
 * ON CONFLICT DO NOTHING, so a concurrent reader or writer that got there first wins and the detail
 * is only written where this insert did. The sync reads the detail at write time, so it copies the
 * current authoritative value, never one this page read earlier. Input is sorted by the key so two
 * readers lock rows in the same order. A row another transaction holds (the desktop program with
 * a transaction left open) is skipped with the corrections that write it: the read does not wait,
 * answers the computed value, and a later read writes it.
 */
export async function applyFinalCorrections(tx: TxClient, corrections: readonly PendingCorrection[]): Promise<WrittenCorrection[]> {
  const written = await writeFinalCorrections(tx, corrections);
  // A final this statement did not insert was inserted by a concurrent reader or writer that got
  // there first: ON CONFLICT waited for it to commit, but the statement's snapshot cannot see it.
  // The next statement can, so this reader answers the stored final too instead of none.
  const lost = lostCalculations(corrections, written);
  return lost.length === 0 ? written : [...written, ...(await selectStoredFinals(tx, lost))];
}

/** The stored finals (attempt 1) of the given corrections, shaped like the rows the correction statement returns. */
export async function selectStoredFinals(tx: TxClient, corrections: readonly PendingCorrection[]): Promise<WrittenCorrection[]> {
  const { rows } = await tx.query<WrittenCorrection>(
    `SELECT 'calculate' AS kind, j.int_juryresultsid AS result_id, j.int_wertungenid AS score_id,
            j.int_disziplinen_felderid AS field_id, j.rel_leistung AS value
       FROM unnest($1::int[], $2::int[]) AS i(score_id, field_id)
       JOIN ${tx.tables.jury_results} j ON j.int_wertungenid = i.score_id AND j.int_disziplinen_felderid = i.field_id AND j.int_versuch = 1
      WHERE j.rel_leistung IS NOT NULL`,
    [corrections.map((item) => item.scoreId), corrections.map((item) => item.correction.fieldId)],
  );
  return rows;
}

async function writeFinalCorrections(tx: TxClient, corrections: readonly PendingCorrection[]): Promise<WrittenCorrection[]> {
  const sorted = inLockOrder(corrections);
  const { rows } = await tx.query<WrittenCorrection>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::float8[], $6::float8[], $7::int[], $8::text[], $9::float8[])
                  WITH ORDINALITY AS i(kind, score_id, discipline_id, field_id, value, expected, event_id, panel_values, tolerance, ord)
     ), held_details AS MATERIALIZED (
       SELECT d.int_wertungenid, d.int_disziplinenid FROM ${tx.tables.wertungen_details} d
        WHERE (d.int_wertungenid, d.int_disziplinenid) IN (SELECT score_id, discipline_id FROM input WHERE kind IN ('calculate', 'recalculate'))
          AND d.int_versuch = 1 AND d.int_kp = 0
        ORDER BY d.int_wertungenid, d.int_disziplinenid
          FOR UPDATE SKIP LOCKED
     ), held_results AS MATERIALIZED (
       SELECT j.int_wertungenid, j.int_disziplinen_felderid FROM ${tx.tables.jury_results} j
        WHERE (j.int_wertungenid, j.int_disziplinen_felderid) IN (SELECT score_id, field_id FROM input WHERE kind IN ('sync', 'aggregate', 'recalculate'))
          AND j.int_versuch = 1
        ORDER BY j.int_wertungenid, j.int_disziplinen_felderid
          FOR UPDATE SKIP LOCKED
     ), ready AS (
       -- The corrections whose rows this statement now holds (deviation records are the service's own).
       SELECT i.* FROM input i
        WHERE (i.kind NOT IN ('calculate', 'recalculate')
               OR (i.score_id, i.discipline_id) IN (SELECT int_wertungenid, int_disziplinenid FROM held_details))
          AND (i.kind NOT IN ('sync', 'aggregate', 'recalculate')
               OR (i.score_id, i.field_id) IN (SELECT int_wertungenid, int_disziplinen_felderid FROM held_results))
     ), own_aggregate AS (
       -- An aggregate is written only into the field the discipline's panel names now: settings
       -- changed since the read hand no other field to the auto-calculation.
       SELECT i.ord FROM ready i
         JOIN ${tx.tables.svc_panel_settings} s ON s.discipline_id = i.discipline_id AND s.aggregate_field_id = i.field_id
        WHERE i.kind IN ('aggregate', 'aggregate-new')
     ), inserted AS (
       -- Rule 5's missing final and a panel's missing aggregate: whoever got there first wins.
       INSERT INTO ${tx.tables.jury_results} (int_wertungenid, int_disziplinen_felderid, rel_leistung, int_versuch, int_kp)
       SELECT score_id, field_id, value, 1, 0 FROM ready
        WHERE kind = 'calculate' OR (kind = 'aggregate-new' AND ord IN (SELECT ord FROM own_aggregate)) ORDER BY ord
       ON CONFLICT (int_wertungenid, int_disziplinen_felderid, int_versuch) DO NOTHING
       RETURNING int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung
     ), inserted_kinds AS (
       SELECT i.kind, n.* FROM inserted n
         JOIN ready i ON i.kind IN ('calculate', 'aggregate-new') AND i.score_id = n.int_wertungenid AND i.field_id = n.int_disziplinen_felderid
     ), aggregated AS (
       -- A panel's stale aggregate, only while it still holds the value the read saw.
       UPDATE ${tx.tables.jury_results} j SET rel_leistung = i.value
         FROM ready i
        WHERE i.kind = 'aggregate' AND i.ord IN (SELECT ord FROM own_aggregate)
          AND j.int_wertungenid = i.score_id AND j.int_disziplinen_felderid = i.field_id
          AND j.int_versuch = 1 AND j.rel_leistung IS NOT DISTINCT FROM i.expected::real
       RETURNING j.int_juryresultsid, j.int_wertungenid, j.int_disziplinen_felderid, j.rel_leistung
     ), recalculated AS (
       -- Its final: only where this statement wrote the aggregate, and while the detail is what the read saw.
       UPDATE ${tx.tables.jury_results} j SET rel_leistung = i.value
         FROM ready i
         JOIN ${tx.tables.wertungen_details} d
           ON d.int_wertungenid = i.score_id AND d.int_disziplinenid = i.discipline_id AND d.int_versuch = 1 AND d.int_kp = 0
        WHERE i.kind = 'recalculate' AND j.int_wertungenid = i.score_id AND j.int_disziplinen_felderid = i.field_id
          AND j.int_versuch = 1 AND d.rel_leistung IS NOT DISTINCT FROM i.expected::real
          AND i.score_id IN (SELECT int_wertungenid FROM aggregated
                             UNION ALL SELECT int_wertungenid FROM inserted_kinds WHERE kind = 'aggregate-new')
       RETURNING j.int_juryresultsid, j.int_wertungenid, j.int_disziplinen_felderid, j.rel_leistung
     ), finals_detail AS (
       UPDATE ${tx.tables.wertungen_details} d SET rel_leistung = f.rel_leistung
         FROM (SELECT int_wertungenid, int_disziplinen_felderid, rel_leistung FROM inserted_kinds WHERE kind = 'calculate'
               UNION ALL SELECT int_wertungenid, int_disziplinen_felderid, rel_leistung FROM recalculated) f
         JOIN ready i ON i.kind IN ('calculate', 'recalculate') AND i.score_id = f.int_wertungenid AND i.field_id = f.int_disziplinen_felderid
        WHERE d.int_wertungenid = i.score_id AND d.int_disziplinenid = i.discipline_id AND d.int_versuch = 1 AND d.int_kp = 0
       RETURNING d.int_wertungen_detailsid AS detail_id, d.int_wertungenid AS score_id, d.int_disziplinenid AS discipline_id,
                 d.rel_leistung AS value
     ), final_events AS (
       -- Event 2 of each final stored, built by the legacy events' builder (its keys are the
       -- builder's, event-contract.test.ts); the detail's new value is not visible to it within
       -- this statement, so the value comes from the update. The command runner wakes the relay
       -- after the commit, as for any command.
       INSERT INTO ${tx.tables.svc_outbox} (topic, event_id, source, payload)
       SELECT e.topic, e.event_id, 'api',
              e.payload || jsonb_build_object('score', to_jsonb(f.value), 'finalScore', to_jsonb(f.value), 'storedScore', to_jsonb(f.value))
         FROM finals_detail f
        CROSS JOIN LATERAL ${tx.tables.svc_legacy_score_event}(f.score_id, f.discipline_id, f.detail_id) e
        ORDER BY f.score_id, f.discipline_id
     ), synced AS (
       UPDATE ${tx.tables.jury_results} j SET rel_leistung = d.rel_leistung
         FROM ready i
         JOIN ${tx.tables.wertungen_details} d
           ON d.int_wertungenid = i.score_id AND d.int_disziplinenid = i.discipline_id AND d.int_versuch = 1 AND d.int_kp = 0
        WHERE i.kind = 'sync' AND j.int_wertungenid = i.score_id AND j.int_disziplinen_felderid = i.field_id
          AND j.int_versuch = 1 AND d.rel_leistung IS NOT NULL AND j.rel_leistung IS DISTINCT FROM d.rel_leistung
       RETURNING j.int_juryresultsid, j.int_wertungenid, j.int_disziplinen_felderid, j.rel_leistung
     ), deviation_opened AS (
       INSERT INTO ${tx.tables.svc_panel_deviations} (score_id, discipline_id, attempt, event_id, state, panel_values, spread, tolerance)
       SELECT score_id, discipline_id, 1, event_id, 'open', panel_values::jsonb, value, tolerance
         FROM ready WHERE kind = 'deviation-open' ORDER BY ord
       ON CONFLICT (score_id, discipline_id, attempt) DO NOTHING
       RETURNING score_id, discipline_id, event_id, panel_values, spread, tolerance
     ), deviation_closed AS (
       DELETE FROM ${tx.tables.svc_panel_deviations} d USING ready i
        WHERE i.kind = 'deviation-close' AND d.score_id = i.score_id AND d.discipline_id = i.discipline_id AND d.attempt = 1
       RETURNING d.score_id, d.discipline_id, d.event_id, d.state, i.panel_values::jsonb AS panel_values, i.value AS spread, i.tolerance
     ), deviation_events AS (
       -- The panel-deviation event's payload (outbox/events.ts, panelDeviation), for what changed here only.
       INSERT INTO ${tx.tables.svc_outbox} (topic, event_id, source, payload)
       SELECT 'panel-deviation', e.event_id, 'api',
              jsonb_build_object('scoreId', e.score_id, 'disciplineId', e.discipline_id, 'attempt', 1, 'values', e.panel_values,
                                 'spread', e.spread, 'tolerance', e.tolerance, 'resolved', e.resolved)
         FROM (SELECT score_id, discipline_id, event_id, panel_values, spread, tolerance, false AS resolved FROM deviation_opened
               UNION ALL
               SELECT score_id, discipline_id, event_id, panel_values, spread, tolerance, true FROM deviation_closed WHERE state = 'open') e
       RETURNING id
     )
     SELECT kind, int_juryresultsid AS result_id, int_wertungenid AS score_id,
            int_disziplinen_felderid AS field_id, rel_leistung AS value FROM inserted_kinds
     UNION ALL
     SELECT 'sync', int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung FROM synced
     UNION ALL
     SELECT 'aggregate', int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung FROM aggregated
     UNION ALL
     SELECT 'recalculate', int_juryresultsid, int_wertungenid, int_disziplinen_felderid, rel_leistung FROM recalculated`,
    [
      sorted.map((item) => item.correction.kind),
      sorted.map((item) => item.scoreId),
      sorted.map((item) => item.disciplineId),
      sorted.map((item) => item.correction.fieldId),
      sorted.map((item) => item.correction.value),
      sorted.map((item) => ('expected' in item.correction ? item.correction.expected : null)),
      sorted.map((item) => ('eventId' in item.correction ? item.correction.eventId : null)),
      sorted.map((item) => ('values' in item.correction ? JSON.stringify(item.correction.values) : null)),
      sorted.map((item) => ('tolerance' in item.correction ? item.correction.tolerance : null)),
    ],
  );
  return rows;
}
