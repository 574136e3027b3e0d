-- Who wakes whom (issue 18). Until now every outbox INSERT notified at commit: every command's commit
-- queued on PostgreSQL's notify lock through its WAL flush, and the sequencer's UPDATE notified a
-- second time, waking every instance, itself included, for an extra empty pass. Now:
--   * a service command's commit notifies nobody: the committing instance wakes its own relay in
--     process (and, when another instance numbers the outbox, pokes it with a NOTIFY of its own);
--   * the legacy triggers notify after appending events (the desktop program has no relay to wake);
--   * the sequencer's numbering notifies only when it numbered rows, with the highest seq as payload,
--     so a relay that has already delivered up to it (the sequencer's own) need not read again.
-- Notifications stay latency hints: the relay's one-second backstop reads `seq > cursor` whatever
-- woke it, so a lost or missing notification delays an event but never loses it.

DROP TRIGGER IF EXISTS {{prefix}}svc_outbox_notify ON {{prefix}}svc_outbox;

CREATE OR REPLACE FUNCTION {{prefix}}svc_outbox_numbered_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  top bigint;
BEGIN
  SELECT max(seq) INTO top FROM numbered;
  IF top IS NOT NULL THEN
    PERFORM pg_notify('{{outbox_channel}}', top::text);
  END IF;
  RETURN NULL;
END;
$$;

-- Same name as the trigger it replaces (operators and tests disable it by that name). Transition
-- tables rule out a column list: only the sequencer updates outbox rows.
CREATE TRIGGER {{prefix}}svc_outbox_notify AFTER UPDATE ON {{prefix}}svc_outbox
  REFERENCING NEW TABLE AS numbered
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_outbox_numbered_notify();

-- PL/pgSQL instead of SQL: a SQL function called from a trigger is parsed and planned at every call
-- (2.4 ms of PostgreSQL CPU per legacy single-row write); PL/pgSQL keeps its statement's plan for the
-- session. The payload is the one 0003 builds, unchanged; the NOTIFY wakes the relays.
CREATE OR REPLACE FUNCTION {{prefix}}svc_append_legacy_score_events(score_ids integer[], discipline_ids integer[], detail_ids integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO {{prefix}}svc_outbox (topic, event_id, source, payload)
  SELECT 'score-updated', c.int_veranstaltungenid, 'legacy', jsonb_build_object(
    'scoreId', w.int_wertungenid,
    'eventId', c.int_veranstaltungenid,
    'competitionId', w.int_wettkaempfeid,
    'participantId', w.int_teilnehmerid,
    'disciplineId', d.int_disziplinenid,
    'disciplineName', d.var_name,
    'firstname', p.var_vorname,
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
  ORDER BY x.n;
  IF FOUND THEN
    PERFORM pg_notify('{{outbox_channel}}', '');
  END IF;
END;
$$;

-- The triggers' statements take arrays as parameters; PostgreSQL's plan cache then keeps choosing
-- custom plans, planning them at every write. Their generic plans are index lookups either way.
ALTER FUNCTION {{prefix}}svc_append_legacy_score_events(integer[], integer[], integer[]) SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION {{prefix}}svc_legacy_jury_events() SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION {{prefix}}svc_legacy_detail_events() SET plan_cache_mode = force_generic_plan;
