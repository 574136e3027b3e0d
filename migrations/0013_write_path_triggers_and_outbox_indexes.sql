-- The write path's cost inside PostgreSQL (issue 18): every command and every legacy write pays for
-- what follows once per row.

-- 1. Fewer statements inside the audit trigger. Every statement a PL/pgSQL function runs is an
-- executor start and end of its own, and every nested function call another; the audit of one jury
-- result ran six (call the jury side, read the field, call the change, read the score's scope, call
-- the release check, insert the record), now three. Same rules, same records: each value's audit is
-- one read-and-insert statement, a jury result's audit one call (178 -> 121 us per command in
-- pg_stat_statements, one connection).

-- One change of one value, recorded in one statement (the scope read and the insert together). The
-- refusal of an API write into a released scope comes after the insert: the exception rolls the
-- insert back with the statement that fired the trigger, so nothing of the refused write stays.
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_change(
  p_score integer, p_discipline integer, p_field integer, p_attempt integer, p_old real, p_new real, p_via_copy boolean)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_api boolean := current_setting('{{origin_setting}}', true) = '{{api_origin}}';
  v_competition integer;
  v_released boolean;
  v_id bigint;
  v_unchanged boolean;
BEGIN
  WITH scope AS (
    SELECT w.int_wettkaempfeid AS competition_id, c.int_veranstaltungenid AS event_id,
           COALESCE({{prefix}}svc_scope_released(w.int_wettkaempfeid, p_discipline, w.var_riege), false) AS released
      FROM (SELECT p_score AS score_id) s
      LEFT JOIN {{prefix}}wertungen w ON w.int_wertungenid = s.score_id
      LEFT JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  ), recorded AS (
    INSERT INTO {{prefix}}svc_score_audit AS a
           (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, via_copy)
    SELECT scope.event_id, scope.competition_id, p_score, p_discipline, p_field, p_attempt, p_old, p_new,
           CASE WHEN v_api THEN 'api' ELSE 'legacy' END,
           CASE WHEN v_api THEN COALESCE(NULLIF(current_setting('{{actor_setting}}', true), ''), 'service')
                ELSE COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text) END,
           scope.released, p_via_copy
      FROM scope
    ON CONFLICT (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0))) DO UPDATE
       SET new_value = EXCLUDED.new_value,
           old_value = CASE WHEN a.via_copy AND NOT EXCLUDED.via_copy THEN EXCLUDED.old_value ELSE a.old_value END,
           via_copy = a.via_copy AND EXCLUDED.via_copy,
           after_release = a.after_release OR EXCLUDED.after_release
    RETURNING a.id, a.old_value IS NOT DISTINCT FROM a.new_value AS unchanged
  )
  SELECT recorded.id, recorded.unchanged, scope.released, scope.competition_id
    INTO v_id, v_unchanged, v_released, v_competition
    FROM recorded, scope;
  IF v_released AND v_api AND COALESCE(current_setting('{{role_setting}}', true), '') NOT IN ('head', 'admin', 'system') THEN
    RAISE EXCEPTION 'released; ask the head judge to reopen'
      USING ERRCODE = 'GY409', DETAIL = format('competition %s, discipline %s', v_competition, p_discipline);
  END IF;
  IF v_unchanged THEN
    DELETE FROM {{prefix}}svc_score_audit WHERE id = v_id;
  END IF;
END;
$$;

-- Jury results: the field names the discipline; the final field's result is a copy of the final.
-- The field's lookup is the FROM of the one statement that records the change (no row: the field
-- is unknown, nothing is recorded, as before).
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_jury() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.int_wertungenid IS NOT DISTINCT FROM NEW.int_wertungenid
     AND OLD.int_disziplinen_felderid IS NOT DISTINCT FROM NEW.int_disziplinen_felderid
     AND OLD.int_versuch IS NOT DISTINCT FROM NEW.int_versuch THEN
    PERFORM {{prefix}}svc_audit_change(NEW.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       NEW.int_versuch, OLD.rel_leistung, NEW.rel_leistung, COALESCE(f.bol_endwert, false))
       FROM {{prefix}}disziplinen_felder f
      WHERE f.int_disziplinen_felderid = NEW.int_disziplinen_felderid AND NEW.int_wertungenid IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_change(OLD.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       OLD.int_versuch, OLD.rel_leistung, NULL, COALESCE(f.bol_endwert, false))
       FROM {{prefix}}disziplinen_felder f
      WHERE f.int_disziplinen_felderid = OLD.int_disziplinen_felderid AND OLD.int_wertungenid IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_change(NEW.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       NEW.int_versuch, NULL, NEW.rel_leistung, COALESCE(f.bol_endwert, false))
       FROM {{prefix}}disziplinen_felder f
      WHERE f.int_disziplinen_felderid = NEW.int_disziplinen_felderid AND NEW.int_wertungenid IS NOT NULL;
  END IF;
  RETURN NULL;
END;
$$;

DROP FUNCTION IF EXISTS {{prefix}}svc_audit_jury_side(integer, integer, integer, real, real);

-- 2. An outbox row is inserted unnumbered and numbered once, by the sequencer. Every index on the
-- table costs an entry at the insert (in the command's or the desktop program's transaction) and,
-- since numbering changes indexed columns, another at the numbering. Indexes that only serve
-- numbered rows now leave unnumbered rows out (every query on seq asks `seq > $n`, which implies
-- NOT NULL, so the planner still uses them), and the created_at index, which no query uses since
-- retention counts from sequenced_at (0003), goes. An insert now enters the primary key and the
-- unsequenced index only (six entries before).
DROP INDEX IF EXISTS {{prefix}}svc_outbox_created_idx;

DO $$
DECLARE
  seq_constraint text;
BEGIN
  -- The UNIQUE (seq) of 0002, by what it is rather than by its generated name (a long prefix truncates it).
  SELECT c.conname INTO seq_constraint
    FROM pg_constraint c
   WHERE c.conrelid = '{{prefix}}svc_outbox'::regclass AND c.contype = 'u'
     AND c.conkey = ARRAY[(SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attname = 'seq')];
  IF seq_constraint IS NOT NULL THEN
    EXECUTE format('ALTER TABLE {{prefix}}svc_outbox DROP CONSTRAINT %I', seq_constraint);
  END IF;
END;
$$;
CREATE UNIQUE INDEX IF NOT EXISTS {{prefix}}svc_outbox_seq_unique ON {{prefix}}svc_outbox (seq) WHERE seq IS NOT NULL;

DROP INDEX IF EXISTS {{prefix}}svc_outbox_event_seq_idx;
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_event_seq_idx ON {{prefix}}svc_outbox (event_id, seq) WHERE seq IS NOT NULL;

DROP INDEX IF EXISTS {{prefix}}svc_outbox_sequenced_idx;
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_sequenced_idx ON {{prefix}}svc_outbox (sequenced_at) WHERE sequenced_at IS NOT NULL;

-- 3. A legacy write's event carries `released` from its own INSERT (the scores' rows are joined there
-- already), so the outbox's BEFORE INSERT trigger, which looked the score row up again and rebuilt the
-- payload, runs only for events that do not say it yet. The payload is 0010's with `released` added,
-- the value the trigger would have added.
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
    'timestamp', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'released', COALESCE({{prefix}}svc_scope_released(w.int_wettkaempfeid, d.int_disziplinenid, w.var_riege), false))
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
ALTER FUNCTION {{prefix}}svc_append_legacy_score_events(integer[], integer[], integer[]) SET plan_cache_mode = force_generic_plan;

DROP TRIGGER IF EXISTS {{prefix}}svc_outbox_mark_released ON {{prefix}}svc_outbox;
CREATE TRIGGER {{prefix}}svc_outbox_mark_released BEFORE INSERT ON {{prefix}}svc_outbox
  FOR EACH ROW WHEN (NEW.topic = 'score-updated' AND NOT NEW.payload ? 'released') EXECUTE FUNCTION {{prefix}}svc_outbox_mark_released();
