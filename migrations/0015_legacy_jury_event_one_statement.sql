-- A legacy write of a jury result (issue 18): its event trigger ran four statements and a nested
-- function call (collect the changed ids, look up their scores, disciplines and latest details into
-- arrays, call the append function, whose INSERT unnested them again), each an executor start and
-- end of its own. It is now one INSERT that reads the transition tables directly. The payload's
-- joins move into a view that both the jury trigger and the append function (the detail trigger's
-- path) read, so the payload is still built in one place. Same payloads (jsonb: key order does not
-- matter), same one event per score and discipline per statement, same order, same NOTIFY.
-- Writer CPU per single-row jury write (A/B on one server): 0.60-0.72 -> 0.53-0.58 ms.

-- Every score and discipline paired, the payload without the score values; a query joins it on
-- both keys, and a view column it does not read (final_score) is never computed.
CREATE OR REPLACE VIEW {{prefix}}svc_legacy_score_event AS
SELECT w.int_wertungenid AS score_id, d.int_disziplinenid AS discipline_id, c.int_veranstaltungenid AS event_id,
       jsonb_build_object(
         'scoreId', w.int_wertungenid,
         'eventId', c.int_veranstaltungenid,
         'competitionId', w.int_wettkaempfeid,
         'participantId', w.int_teilnehmerid,
         'disciplineId', d.int_disziplinenid,
         'disciplineName', d.var_name,
         'firstname', p.var_vorname,
         -- group and team scores have no participant; their name stands where a scoreboard shows one
         'lastname', COALESCE(p.var_nachname, g.var_name, m.var_name),
         'hasFormula', COALESCE(NULLIF(btrim(f.var_formel), ''), NULLIF(btrim(d.var_formel), '')) IS NOT NULL,
         'timestamp', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'released', COALESCE({{prefix}}svc_scope_released(w.int_wettkaempfeid, d.int_disziplinenid, w.var_riege), false)) AS payload,
       -- the discipline's stored final: the individual detail row of the latest attempt
       (SELECT det.rel_leistung FROM {{prefix}}wertungen_details det
         WHERE det.int_wertungenid = w.int_wertungenid AND det.int_disziplinenid = d.int_disziplinenid AND COALESCE(det.int_kp, 0) = 0
         ORDER BY det.int_versuch DESC NULLS LAST
         LIMIT 1) AS final_score
  FROM {{prefix}}wertungen w
  JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  CROSS JOIN {{prefix}}disziplinen d
  LEFT JOIN {{prefix}}formeln f ON f.int_formelid = d.int_formelid
  LEFT JOIN {{prefix}}teilnehmer p ON p.int_teilnehmerid = w.int_teilnehmerid
  LEFT JOIN {{prefix}}gruppen g ON g.int_gruppenid = w.int_gruppenid
  LEFT JOIN {{prefix}}mannschaften m ON m.int_mannschaftenid = w.int_mannschaftenid;

CREATE OR REPLACE FUNCTION {{prefix}}svc_append_legacy_score_events(score_ids integer[], discipline_ids integer[], detail_ids integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
  SELECT 'score-updated', e.event_id, 'legacy',
         e.payload || jsonb_build_object('score', det.rel_leistung, 'finalScore', det.rel_leistung, 'storedScore', det.rel_leistung)
  FROM unnest(score_ids, discipline_ids, detail_ids) WITH ORDINALITY AS x (score_id, discipline_id, detail_id, n)
  JOIN {{prefix}}svc_legacy_score_event e ON e.score_id = x.score_id AND e.discipline_id = x.discipline_id
  LEFT JOIN {{prefix}}wertungen_details det ON det.int_wertungen_detailsid = x.detail_id
  ORDER BY x.n;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
END;
$$;
ALTER FUNCTION {{prefix}}svc_append_legacy_score_events(integer[], integer[], integer[]) SET plan_cache_mode = force_generic_plan;

-- The statements take no parameters, so their plans are generic without a SET on the function
-- (which costs a configuration save and restore at every call).
CREATE OR REPLACE FUNCTION {{prefix}}svc_legacy_jury_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('{{origin_setting}}', true) = '{{api_origin}}' THEN
    RETURN NULL;
  END IF;
  -- old_rows exists only for the UPDATE trigger, and a statement naming it fails to plan without it.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT 'score-updated', e.event_id, 'legacy',
           e.payload || jsonb_build_object('score', e.final_score, 'finalScore', e.final_score, 'storedScore', e.final_score)
    FROM (SELECT DISTINCT n.int_wertungenid AS score_id, fld.int_disziplinenid AS discipline_id
            FROM new_rows n
            JOIN {{prefix}}disziplinen_felder fld ON fld.int_disziplinen_felderid = n.int_disziplinen_felderid
           WHERE n.rel_leistung IS NOT NULL) changed
    JOIN {{prefix}}svc_legacy_score_event e ON e.score_id = changed.score_id AND e.discipline_id = changed.discipline_id
    ORDER BY changed.score_id, changed.discipline_id;
  ELSE
    INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
    SELECT 'score-updated', e.event_id, 'legacy',
           e.payload || jsonb_build_object('score', e.final_score, 'finalScore', e.final_score, 'storedScore', e.final_score)
    FROM (SELECT DISTINCT n.int_wertungenid AS score_id, fld.int_disziplinenid AS discipline_id
            FROM new_rows n
            LEFT JOIN old_rows o ON o.int_juryresultsid = n.int_juryresultsid
            JOIN {{prefix}}disziplinen_felder fld ON fld.int_disziplinen_felderid = n.int_disziplinen_felderid
           WHERE o.rel_leistung IS DISTINCT FROM n.rel_leistung) changed
    JOIN {{prefix}}svc_legacy_score_event e ON e.score_id = changed.score_id AND e.discipline_id = changed.discipline_id
    ORDER BY changed.score_id, changed.discipline_id;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
  RETURN NULL;
END;
$$;
ALTER FUNCTION {{prefix}}svc_legacy_jury_events() RESET ALL;
