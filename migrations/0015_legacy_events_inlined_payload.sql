-- A legacy write's event trigger (issue 18) ran four statements and a nested function call: collect
-- the changed ids, look up scores, disciplines and detail rows into arrays, call the append function,
-- whose INSERT unnested them again; each statement an executor start and end of its own. Each
-- trigger now runs one INSERT that reads the transition tables directly. The payload is built in one
-- place, a SQL function PostgreSQL inlines into the calling statement (LANGUAGE sql, STABLE, not
-- STRICT, no SET, not SECURITY DEFINER, one SELECT, called in FROM), so its joins are planned with
-- the trigger's statement and cached with it. A view would do the same but would make PostgreSQL
-- refuse ALTER COLUMN ... TYPE on every legacy column it reads; a function body given as a string
-- records no dependency on columns (hence no BEGIN ATOMIC body here).
-- Same payloads, one event per score and discipline per jury statement, per final detail row per
-- detail statement, in the same order; NOTIFY only when a row was appended.
-- Writer CPU per single-row jury write, A/B against 0014: 0.56-0.62 -> 0.49-0.55 ms in series on one
-- server, 0.64-0.67 -> 0.56-0.59 ms in `BENCH_ONLY=legacy npm run bench`.

-- The event of one score and discipline, carrying the given detail row's value (none: score null).
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_score_event(p_score integer, p_discipline integer, p_detail integer)
RETURNS TABLE (topic text, event_id integer, source text, payload jsonb) LANGUAGE sql STABLE AS $$
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
    'timestamp', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'released', COALESCE({{prefix}}svc_scope_released(w.int_wettkaempfeid, d.int_disziplinenid, w.var_riege), false))
  FROM {{prefix}}wertungen w
  JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  JOIN {{prefix}}disziplinen d ON d.int_disziplinenid = p_discipline
  LEFT JOIN {{prefix}}formeln f ON f.int_formelid = d.int_formelid
  LEFT JOIN {{prefix}}teilnehmer p ON p.int_teilnehmerid = w.int_teilnehmerid
  LEFT JOIN {{prefix}}gruppen g ON g.int_gruppenid = w.int_gruppenid
  LEFT JOIN {{prefix}}mannschaften m ON m.int_mannschaftenid = w.int_mannschaftenid
  LEFT JOIN {{prefix}}wertungen_details det ON det.int_wertungen_detailsid = p_detail
  WHERE w.int_wertungenid = p_score
$$;

-- A detail row's event, if the row carries a final score: individual rows (int_kp 0) and group/team
-- rows of the field flagged final; group/team component rows are not scores.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_detail_event(p_detail integer, p_score integer, p_discipline integer, p_kp integer)
RETURNS TABLE (topic text, event_id integer, source text, payload jsonb) LANGUAGE sql STABLE AS $$
  SELECT e.topic, e.event_id, e.source, e.payload
  FROM {{prefix}}svc_legacy_score_event(p_score, p_discipline, p_detail) e
  WHERE COALESCE(p_kp, 0) = 0 OR EXISTS (
    SELECT 1 FROM {{prefix}}disziplinen_felder fld
    WHERE fld.int_disziplinen_felderid = p_kp AND fld.int_disziplinenid = p_discipline AND fld.bol_endwert)
$$;

-- A discipline's event after a jury result changed: it carries the stored final score, the
-- individual detail row of the latest attempt.
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_final_event(p_score integer, p_discipline integer)
RETURNS TABLE (topic text, event_id integer, source text, payload jsonb) LANGUAGE sql STABLE AS $$
  SELECT e.topic, e.event_id, e.source, e.payload
  FROM (SELECT p_score AS score_id, p_discipline AS discipline_id) s
  LEFT JOIN LATERAL (
    SELECT det.int_wertungen_detailsid AS detail_id
    FROM {{prefix}}wertungen_details det
    WHERE det.int_wertungenid = s.score_id AND det.int_disziplinenid = s.discipline_id AND COALESCE(det.int_kp, 0) = 0
    ORDER BY det.int_versuch DESC NULLS LAST
    LIMIT 1
  ) latest ON true
  CROSS JOIN LATERAL {{prefix}}svc_legacy_score_event(s.score_id, s.discipline_id, latest.detail_id) e
$$;

-- old_rows exists only for the UPDATE triggers, and a statement naming it fails to plan without it,
-- hence a statement per operation. They take no parameters, so their plans are generic without the
-- SET of 0010 on the function (which costs a configuration save and restore at every call).
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_detail_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT e.topic, e.event_id, e.source, e.payload
    FROM new_rows n
    CROSS JOIN LATERAL {{prefix}}svc_legacy_detail_event(n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp) e
    WHERE n.rel_leistung IS NOT NULL
    ORDER BY n.int_wertungen_detailsid;
  ELSE
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT e.topic, e.event_id, e.source, e.payload
    FROM new_rows n
    LEFT JOIN old_rows o ON o.int_wertungen_detailsid = n.int_wertungen_detailsid
    CROSS JOIN LATERAL {{prefix}}svc_legacy_detail_event(n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp) e
    WHERE o.rel_leistung IS DISTINCT FROM n.rel_leistung
    ORDER BY n.int_wertungen_detailsid;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
  RETURN NULL;
END;
$$;
ALTER FUNCTION {{prefix}}svc_legacy_detail_events() RESET ALL;

CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_jury_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT e.topic, e.event_id, e.source, e.payload
    FROM (SELECT DISTINCT n.int_wertungenid AS score_id, fld.int_disziplinenid AS discipline_id
          FROM new_rows n
          JOIN {{prefix}}disziplinen_felder fld ON fld.int_disziplinen_felderid = n.int_disziplinen_felderid
          WHERE n.rel_leistung IS NOT NULL) changed
    CROSS JOIN LATERAL {{prefix}}svc_legacy_final_event(changed.score_id, changed.discipline_id) e
    ORDER BY changed.score_id, changed.discipline_id;
  ELSE
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT e.topic, e.event_id, e.source, e.payload
    FROM (SELECT DISTINCT n.int_wertungenid AS score_id, fld.int_disziplinenid AS discipline_id
          FROM new_rows n
          LEFT JOIN old_rows o ON o.int_juryresultsid = n.int_juryresultsid
          JOIN {{prefix}}disziplinen_felder fld ON fld.int_disziplinen_felderid = n.int_disziplinen_felderid
          WHERE o.rel_leistung IS DISTINCT FROM n.rel_leistung) changed
    CROSS JOIN LATERAL {{prefix}}svc_legacy_final_event(changed.score_id, changed.discipline_id) e
    ORDER BY changed.score_id, changed.discipline_id;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
  RETURN NULL;
END;
$$;
ALTER FUNCTION {{prefix}}svc_legacy_jury_events() RESET ALL;

DROP FUNCTION IF EXISTS {{prefix}}svc_append_legacy_score_events(integer[], integer[], integer[]);
