-- A desktop program's write pays for what the service records about it inside its own transaction
-- (issue 18: at most 0.5 ms PostgreSQL CPU for a single-row write, trigger included). Two things
-- cost more than the write itself: the audit (a row trigger and two nested PL/pgSQL calls per
-- changed value, or about as much set-wise: an audit record is a heap row and four index entries)
-- and the event's payload, a nine-table join, all while the desktop program holds its row locks.
--
-- A legacy statement now appends one capture per changed value to the outbox, under the internal
-- topic `legacy-score`: the legacy row, score, field (jury results) or discipline and component
-- (detail rows), attempt, old and new value, whether the change is audited and whether it makes an
-- event, the transaction and the actor. The outbox sequencer applies the captures of a batch in one
-- call of `svc_apply_legacy_captures`, in the transaction that numbers them (`outbox/sequencer.ts`):
--   - the audit records, merged per transaction and value by 0013's rules and stamped with the
--     writing transaction's time, as the row trigger made them;
--   - the events, each in its capture's place in the outbox order: one per jury result's score and
--     discipline per transaction, carrying the stored final score; one per final detail row
--     written, carrying the value written. Names, competition and `released` are read then;
--   - every other capture is deleted, so readers only ever see numbered rows, never a capture.
-- What the office sees: a desktop write's audit record and event appear when the service numbers
-- it (milliseconds after the commit while the service runs, at its next start otherwise: the
-- captures wait in the outbox, which retention never touches before numbering).
-- The row-level audit keeps recording the service's own writes, where a write into a released
-- scope must be refused row by row (0013).

-- A capture as the trigger appends it; `p_place` is the field of a jury result, the discipline of
-- a detail row.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_capture(
  p_table text, p_row integer, p_score integer, p_place integer, p_kp integer, p_attempt integer,
  p_old real, p_new real, p_audit boolean, p_event boolean, p_xact text, p_actor text)
RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('table', p_table, 'row', p_row, 'score', p_score,
                            CASE WHEN p_table = 'jury' THEN 'field' ELSE 'discipline' END, p_place,
                            'kp', p_kp, 'attempt', p_attempt, 'old', p_old, 'new', p_new,
                            'audit', p_audit, 'event', p_event, 'xact', p_xact, 'actor', p_actor)
$$;

-- old_rows exists only for UPDATE and DELETE triggers, new_rows only for INSERT and UPDATE, and a
-- statement naming a missing one fails to plan: hence a statement per operation. An UPDATE pairs
-- rows by their key column: a row that keeps its score, field and attempt is one change (and an
-- event when its value changed); one that moves is a removal there and an entry here (0013), the
-- entry carrying the event.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_jury_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_xact text;
  v_actor text;
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  v_xact := pg_current_xact_id()::text;
  v_actor := COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('jury', n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid,
             NULL, n.int_versuch, NULL, n.rel_leistung, true, true, v_xact, v_actor)
      FROM new_rows n
     WHERE n.rel_leistung IS NOT NULL
     ORDER BY n.int_juryresultsid;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('jury', side.row_id, side.score_id, side.field_id,
             NULL, side.attempt, side.old_value, side.new_value, side.audited, side.makes_event, v_xact, v_actor)
      FROM new_rows n
      FULL JOIN old_rows o ON o.int_juryresultsid = n.int_juryresultsid
     CROSS JOIN LATERAL (
       SELECT 1, n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch, o.rel_leistung, n.rel_leistung, true, true
        WHERE n.int_juryresultsid IS NOT NULL AND o.int_juryresultsid IS NOT NULL
          AND (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS NOT DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch)
          AND o.rel_leistung IS DISTINCT FROM n.rel_leistung
       UNION ALL
       SELECT 1, o.int_juryresultsid, o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch, o.rel_leistung, NULL, true, false
        WHERE o.rel_leistung IS NOT NULL AND (n.int_juryresultsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch))
       UNION ALL
       SELECT 2, n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch, NULL, n.rel_leistung,
              n.rel_leistung IS NOT NULL, o.rel_leistung IS DISTINCT FROM n.rel_leistung
        WHERE (n.rel_leistung IS NOT NULL OR o.rel_leistung IS NOT NULL) AND (o.int_juryresultsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch))
     ) side (side_order, row_id, score_id, field_id, attempt, old_value, new_value, audited, makes_event)
     ORDER BY side.row_id, side.side_order;
  ELSE
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('jury', o.int_juryresultsid, o.int_wertungenid, o.int_disziplinen_felderid,
             NULL, o.int_versuch, o.rel_leistung, NULL, true, false, v_xact, v_actor)
      FROM old_rows o
     WHERE o.rel_leistung IS NOT NULL
     ORDER BY o.int_juryresultsid;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
  RETURN NULL;
END;
$$;
ALTER FUNCTION {{prefix}}svc_legacy_jury_events() RESET ALL;

CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_detail_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_xact text;
  v_actor text;
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  v_xact := pg_current_xact_id()::text;
  v_actor := COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('detail', n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid,
             n.int_kp, n.int_versuch, NULL, n.rel_leistung, true, true, v_xact, v_actor)
      FROM new_rows n
     WHERE n.rel_leistung IS NOT NULL
     ORDER BY n.int_wertungen_detailsid;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('detail', side.row_id, side.score_id, side.discipline_id,
             side.kp, side.attempt, side.old_value, side.new_value, side.audited, side.makes_event, v_xact, v_actor)
      FROM new_rows n
      FULL JOIN old_rows o ON o.int_wertungen_detailsid = n.int_wertungen_detailsid
     CROSS JOIN LATERAL (
       SELECT 1, n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp, n.int_versuch, o.rel_leistung, n.rel_leistung, true, true
        WHERE n.int_wertungen_detailsid IS NOT NULL AND o.int_wertungen_detailsid IS NOT NULL
          AND (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS NOT DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp)
          AND o.rel_leistung IS DISTINCT FROM n.rel_leistung
       UNION ALL
       SELECT 1, o.int_wertungen_detailsid, o.int_wertungenid, o.int_disziplinenid, o.int_kp, o.int_versuch, o.rel_leistung, NULL, true, false
        WHERE o.rel_leistung IS NOT NULL AND (n.int_wertungen_detailsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp))
       UNION ALL
       SELECT 2, n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp, n.int_versuch, NULL, n.rel_leistung,
              n.rel_leistung IS NOT NULL, o.rel_leistung IS DISTINCT FROM n.rel_leistung
        WHERE (n.rel_leistung IS NOT NULL OR o.rel_leistung IS NOT NULL) AND (o.int_wertungen_detailsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp))
     ) side (side_order, row_id, score_id, discipline_id, kp, attempt, old_value, new_value, audited, makes_event)
     ORDER BY side.row_id, side.side_order;
  ELSE
    INSERT INTO {{prefix}}svc_outbox (topic, source, payload)
    SELECT '{{legacy_capture_topic}}', 'legacy', {{prefix}}svc_legacy_capture('detail', o.int_wertungen_detailsid, o.int_wertungenid, o.int_disziplinenid,
             o.int_kp, o.int_versuch, o.rel_leistung, NULL, true, false, v_xact, v_actor)
      FROM old_rows o
     WHERE o.rel_leistung IS NOT NULL
     ORDER BY o.int_wertungen_detailsid;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
  RETURN NULL;
END;
$$;
ALTER FUNCTION {{prefix}}svc_legacy_detail_events() RESET ALL;

DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_detail_delete ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_legacy_detail_delete AFTER DELETE ON {{prefix}}wertungen_details
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_detail_events();
DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_jury_delete ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_legacy_jury_delete AFTER DELETE ON {{prefix}}jury_results
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_jury_events();

-- Applies the captures among `p_ids` (the sequencer's batch) and returns the ids of those it
-- deleted; the rest are events now, numbered next by the caller in the same transaction.
CREATE OR REPLACE FUNCTION {{prefix}}svc_apply_legacy_captures(p_ids bigint[]) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  v_unchanged bigint[];
  v_dropped bigint[];
BEGIN
  WITH captured AS (
    SELECT c.id, c.created_at, x.*
      FROM {{prefix}}svc_outbox c
     CROSS JOIN LATERAL jsonb_to_record(c.payload) AS x (
       "table" text, "row" integer, score integer, field integer, discipline integer, kp integer, attempt integer,
       old real, new real, audit boolean, event boolean, xact text, actor text)
     WHERE c.id = ANY (p_ids) AND c.topic = '{{legacy_capture_topic}}' AND c.seq IS NULL
  ), resolved AS (
    -- Against the fields as they are now: a jury result's field names its discipline, and a final
    -- field's result is a copy of the final (no field, via_copy); a detail row's component is no
    -- field when it is the final (int_kp 0, or a field flagged final). A jury result of an unknown
    -- field records nothing and makes no event, as before.
    SELECT cap.*,
           COALESCE(cap.discipline, jf.int_disziplinenid) AS discipline_id,
           CASE WHEN cap."table" = 'jury' THEN CASE WHEN jf.bol_endwert THEN NULL ELSE cap.field END
                WHEN COALESCE(cap.kp, 0) = 0 OR kf.int_disziplinen_felderid IS NOT NULL THEN NULL
                ELSE cap.kp END AS field_id,
           cap."table" = 'jury' AND COALESCE(jf.bol_endwert, false) AS via_copy,
           cap."table" = 'jury' OR COALESCE(cap.kp, 0) = 0 OR kf.int_disziplinen_felderid IS NOT NULL AS final
      FROM captured cap
      LEFT JOIN {{prefix}}disziplinen_felder jf ON cap."table" = 'jury' AND jf.int_disziplinen_felderid = cap.field
      LEFT JOIN {{prefix}}disziplinen_felder kf ON cap."table" = 'detail' AND kf.int_disziplinen_felderid = cap.kp
                                               AND kf.int_disziplinenid = cap.discipline AND kf.bol_endwert
     WHERE cap.score IS NOT NULL AND (cap."table" = 'detail' OR jf.int_disziplinen_felderid IS NOT NULL)
  ), merged AS (
    -- One transaction's changes of one value become one record: its first old value (a copy's
    -- gives way to a direct change's, as 0013's merge does), its last new value.
    SELECT min(r.created_at) AS at, r.xact, r.score, r.discipline_id,
           (array_agg(r.field_id ORDER BY r.id))[1] AS field_id,
           (array_agg(r.attempt ORDER BY r.id))[1] AS attempt,
           CASE WHEN bool_or(NOT r.via_copy) AND (array_agg(r.via_copy ORDER BY r.id))[1]
                THEN (array_agg(r.old ORDER BY r.id) FILTER (WHERE NOT r.via_copy))[1]
                ELSE (array_agg(r.old ORDER BY r.id))[1] END AS old_value,
           (array_agg(r.new ORDER BY r.id DESC))[1] AS new_value,
           bool_and(r.via_copy) AS via_copy,
           (array_agg(r.actor ORDER BY r.id))[1] AS actor,
           min(r.id) AS first_id
      FROM resolved r
     WHERE r.audit AND r.discipline_id IS NOT NULL
     GROUP BY r.xact, r.score, r.discipline_id, COALESCE(r.field_id, 0), COALESCE(r.attempt, 0)
  ), recorded AS (
    INSERT INTO {{prefix}}svc_score_audit AS a
           (at, xact, event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, via_copy)
    SELECT m.at, m.xact::xid8, ev.int_veranstaltungenid, w.int_wettkaempfeid, m.score, m.discipline_id, m.field_id, m.attempt,
           m.old_value, m.new_value, 'legacy', m.actor,
           COALESCE({{prefix}}svc_scope_released(w.int_wettkaempfeid, m.discipline_id, w.var_riege), false), m.via_copy
      FROM merged m
      LEFT JOIN {{prefix}}wertungen w ON w.int_wertungenid = m.score
      LEFT JOIN {{prefix}}wettkaempfe ev ON ev.int_wettkaempfeid = w.int_wettkaempfeid
     ORDER BY m.first_id
    ON CONFLICT (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0))) DO UPDATE
       SET new_value = EXCLUDED.new_value,
           old_value = CASE WHEN a.via_copy AND NOT EXCLUDED.via_copy THEN EXCLUDED.old_value ELSE a.old_value END,
           via_copy = a.via_copy AND EXCLUDED.via_copy,
           after_release = a.after_release OR EXCLUDED.after_release
    RETURNING a.id, a.old_value IS NOT DISTINCT FROM a.new_value AS unchanged
  ), chosen AS (
    -- A jury result's changes make one event per transaction, score and discipline, in the place
    -- of the first; a final detail row's each make their own.
    SELECT DISTINCT ON (r."table", r.xact, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r.id END)
           r.id, r.created_at, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r."row" END AS detail_id,
           CASE WHEN r."table" = 'detail' THEN to_jsonb(r.new) END AS written
      FROM resolved r
     WHERE r.event AND r.final AND r.discipline_id IS NOT NULL
     ORDER BY r."table", r.xact, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r.id END, r.id
  ), built AS (
    UPDATE {{prefix}}svc_outbox o
       SET topic = e.topic, event_id = e.event_id,
           payload = e.payload
                  || jsonb_build_object('timestamp', to_char(ch.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                  || CASE WHEN ch.detail_id IS NULL THEN '{}'::jsonb
                          ELSE jsonb_build_object('score', ch.written, 'finalScore', ch.written, 'storedScore', ch.written) END
      FROM chosen ch
     CROSS JOIN LATERAL (
       SELECT f.topic, f.event_id, f.payload FROM {{prefix}}svc_legacy_final_event(ch.score, ch.discipline_id) f WHERE ch.detail_id IS NULL
       UNION ALL
       SELECT d.topic, d.event_id, d.payload FROM {{prefix}}svc_legacy_score_event(ch.score, ch.discipline_id, ch.detail_id) d WHERE ch.detail_id IS NOT NULL
     ) e
     WHERE o.id = ch.id
    RETURNING o.id
  ), dropped AS (
    DELETE FROM {{prefix}}svc_outbox d
     WHERE d.id = ANY (p_ids) AND d.topic = '{{legacy_capture_topic}}' AND d.seq IS NULL AND d.id NOT IN (SELECT id FROM built)
    RETURNING d.id
  )
  SELECT (SELECT array_agg(recorded.id) FROM recorded WHERE recorded.unchanged), (SELECT array_agg(dropped.id) FROM dropped)
    INTO v_unchanged, v_dropped;
  IF v_unchanged IS NOT NULL THEN
    DELETE FROM {{prefix}}svc_score_audit WHERE id = ANY (v_unchanged);
  END IF;
  RETURN COALESCE(v_dropped, '{}');
END;
$$;

-- The row-level audit now records the service's own writes only (0008's conditions, and the marker).
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_insert ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_insert AFTER INSERT ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN (NEW.rel_leistung IS NOT NULL AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_details();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_update ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_update AFTER UPDATE ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN ((OLD.rel_leistung, OLD.int_wertungenid, OLD.int_disziplinenid, OLD.int_versuch, OLD.int_kp)
                     IS DISTINCT FROM (NEW.rel_leistung, NEW.int_wertungenid, NEW.int_disziplinenid, NEW.int_versuch, NEW.int_kp)
                     AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_details();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_delete ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_delete AFTER DELETE ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN (OLD.rel_leistung IS NOT NULL AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_details();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_insert ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_insert AFTER INSERT ON {{prefix}}jury_results
  FOR EACH ROW WHEN (NEW.rel_leistung IS NOT NULL AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_jury();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_update ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_update AFTER UPDATE ON {{prefix}}jury_results
  FOR EACH ROW WHEN ((OLD.rel_leistung, OLD.int_wertungenid, OLD.int_disziplinen_felderid, OLD.int_versuch)
                     IS DISTINCT FROM (NEW.rel_leistung, NEW.int_wertungenid, NEW.int_disziplinen_felderid, NEW.int_versuch)
                     AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_jury();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_delete ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_delete AFTER DELETE ON {{prefix}}jury_results
  FOR EACH ROW WHEN (OLD.rel_leistung IS NOT NULL AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_jury();

-- The detail row's event of 0015 (whether the row carries a final) is decided when captures are applied.
DROP FUNCTION IF EXISTS {{prefix}}svc_legacy_detail_event(integer, integer, integer, integer);
