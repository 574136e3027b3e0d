-- Retention counts from the moment a row was numbered, not from its insert: a transaction left open
-- for days (a desktop session) still commits an event that readers must get before it may go.
ALTER TABLE {{prefix}}svc_outbox ADD COLUMN IF NOT EXISTS sequenced_at timestamptz;
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_sequenced_idx ON {{prefix}}svc_outbox (sequenced_at);

-- Writes by other programs (the legacy desktop program) become `score-updated` events with the
-- event 2 shape and source 'legacy'. The payload is built here, at write time, from the rows as they
-- stand then, like a command builds its own. Service commands mark their transaction with
-- gym.origin = 'api' and append their own event, so the triggers skip them.
-- Input: one detail row per event (NULL when a jury result has no detail row yet: score null).
CREATE OR REPLACE FUNCTION {{prefix}}svc_append_legacy_score_events(score_ids integer[], discipline_ids integer[], detail_ids integer[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
  SELECT 'score-updated', c.int_veranstaltungenid, 'legacy', jsonb_build_object(
    'scoreId', w.int_wertungenid,
    'eventId', c.int_veranstaltungenid,
    'competitionId', w.int_wettkaempfeid,
    'participantId', w.int_teilnehmerid,
    'disciplineId', d.int_disziplinenid,
    'disciplineName', d.var_name,
    'firstname', p.var_vorname,
    -- group and team scores have no participant; their name stands where a scoreboard shows one
    'lastname', COALESCE(p.var_nachname, g.var_name, m.var_name),
    'score', det.rel_leistung,
    'finalScore', det.rel_leistung,
    'storedScore', det.rel_leistung,
    'hasFormula', COALESCE(NULLIF(btrim(f.var_formel), ''), NULLIF(btrim(d.var_formel), '')) IS NOT NULL,
    'timestamp', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM unnest(score_ids, discipline_ids, detail_ids) WITH ORDINALITY AS x (score_id, discipline_id, detail_id, n)
  JOIN {{prefix}}wertungen w ON w.int_wertungenid = x.score_id
  JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  JOIN {{prefix}}disziplinen d ON d.int_disziplinenid = x.discipline_id
  LEFT JOIN {{prefix}}formeln f ON f.int_formelid = d.int_formelid
  LEFT JOIN {{prefix}}teilnehmer p ON p.int_teilnehmerid = w.int_teilnehmerid
  LEFT JOIN {{prefix}}gruppen g ON g.int_gruppenid = w.int_gruppenid
  LEFT JOIN {{prefix}}mannschaften m ON m.int_mannschaftenid = w.int_mannschaftenid
  LEFT JOIN {{prefix}}wertungen_details det ON det.int_wertungen_detailsid = x.detail_id
  ORDER BY x.n
$$;

-- Statement-level with transition tables, so a bulk write by the desktop program costs one
-- INSERT ... SELECT instead of one per row. Only rows carrying a final score count: individual rows
-- (int_kp 0) and group/team rows of the field flagged final; group/team component rows are not scores.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_detail_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  score_ids integer[];
  discipline_ids integer[];
  detail_ids integer[];
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.int_wertungen_detailsid ORDER BY n.int_wertungen_detailsid) INTO detail_ids
    FROM new_rows n WHERE n.rel_leistung IS NOT NULL;
  ELSE
    SELECT array_agg(n.int_wertungen_detailsid ORDER BY n.int_wertungen_detailsid) INTO detail_ids
    FROM new_rows n LEFT JOIN old_rows o ON o.int_wertungen_detailsid = n.int_wertungen_detailsid
    WHERE o.rel_leistung IS DISTINCT FROM n.rel_leistung;
  END IF;
  IF detail_ids IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(det.int_wertungenid ORDER BY det.int_wertungen_detailsid),
         array_agg(det.int_disziplinenid ORDER BY det.int_wertungen_detailsid),
         array_agg(det.int_wertungen_detailsid ORDER BY det.int_wertungen_detailsid)
    INTO score_ids, discipline_ids, detail_ids
  FROM {{prefix}}wertungen_details det
  WHERE det.int_wertungen_detailsid = ANY (detail_ids)
    AND (COALESCE(det.int_kp, 0) = 0 OR EXISTS (
      SELECT 1 FROM {{prefix}}disziplinen_felder fld
      WHERE fld.int_disziplinen_felderid = det.int_kp AND fld.int_disziplinenid = det.int_disziplinenid AND fld.bol_endwert));
  IF detail_ids IS NOT NULL THEN
    PERFORM {{prefix}}svc_append_legacy_score_events(score_ids, discipline_ids, detail_ids);
  END IF;
  RETURN NULL;
END;
$$;

-- A jury result changes one field; the event carries the discipline's stored final score (the
-- detail value, latest attempt), one event per score and discipline however many fields changed.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_jury_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  jury_ids integer[];
  score_ids integer[];
  discipline_ids integer[];
  detail_ids integer[];
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.int_juryresultsid) INTO jury_ids FROM new_rows n WHERE n.rel_leistung IS NOT NULL;
  ELSE
    SELECT array_agg(n.int_juryresultsid) INTO jury_ids
    FROM new_rows n LEFT JOIN old_rows o ON o.int_juryresultsid = n.int_juryresultsid
    WHERE o.rel_leistung IS DISTINCT FROM n.rel_leistung;
  END IF;
  IF jury_ids IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(changed.score_id ORDER BY changed.score_id, changed.discipline_id),
         array_agg(changed.discipline_id ORDER BY changed.score_id, changed.discipline_id),
         array_agg(latest.detail_id ORDER BY changed.score_id, changed.discipline_id)
    INTO score_ids, discipline_ids, detail_ids
  FROM (
    SELECT DISTINCT j.int_wertungenid AS score_id, fld.int_disziplinenid AS discipline_id
    FROM {{prefix}}jury_results j
    JOIN {{prefix}}disziplinen_felder fld ON fld.int_disziplinen_felderid = j.int_disziplinen_felderid
    WHERE j.int_juryresultsid = ANY (jury_ids)
  ) changed
  LEFT JOIN LATERAL (
    SELECT det.int_wertungen_detailsid AS detail_id
    FROM {{prefix}}wertungen_details det
    WHERE det.int_wertungenid = changed.score_id AND det.int_disziplinenid = changed.discipline_id AND COALESCE(det.int_kp, 0) = 0
    ORDER BY det.int_versuch DESC NULLS LAST
    LIMIT 1
  ) latest ON true;
  IF score_ids IS NOT NULL THEN
    PERFORM {{prefix}}svc_append_legacy_score_events(score_ids, discipline_ids, detail_ids);
  END IF;
  RETURN NULL;
END;
$$;

-- Transition tables rule out column lists and multi-event triggers, hence one trigger per event;
-- the functions compare old and new values themselves.
DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_detail_insert ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_legacy_detail_insert AFTER INSERT ON {{prefix}}wertungen_details
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_detail_events();
DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_detail_update ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_legacy_detail_update AFTER UPDATE ON {{prefix}}wertungen_details
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_detail_events();
DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_jury_insert ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_legacy_jury_insert AFTER INSERT ON {{prefix}}jury_results
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_jury_events();
DROP TRIGGER IF EXISTS {{prefix}}svc_legacy_jury_update ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_legacy_jury_update AFTER UPDATE ON {{prefix}}jury_results
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_legacy_jury_events();
