-- Head judge: a permanent record of every change of a stored score value, and released scopes.

-- A released scope: one device (discipline) of a competition, for every squad ('') or one squad.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_releases (
  competition_id integer NOT NULL,
  discipline_id integer NOT NULL,
  squad_name text NOT NULL DEFAULT '',
  released_at timestamptz NOT NULL DEFAULT now(),
  released_by text NOT NULL,
  PRIMARY KEY (competition_id, discipline_id, squad_name)
);

-- True when the score's competition, the discipline and the score's squad (or every squad) are released.
CREATE OR REPLACE FUNCTION {{prefix}}svc_scope_released(p_competition integer, p_discipline integer, p_squad text)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM {{prefix}}svc_releases r
     WHERE r.competition_id = p_competition AND r.discipline_id = p_discipline
       AND r.squad_name IN ('', COALESCE(btrim(p_squad), '')))
$$;

-- One row per changed value. No foreign keys: the record outlives deleted scores, fields and the
-- outbox's retention. field_id NULL is the final score. `xact` and `via_copy` only serve the merge
-- below: within one transaction the changes of one value fold into one row (a team save deletes and
-- re-inserts its rows; save-value writes the final into the jury result and the detail), and a
-- value that ends the transaction as it began leaves no row.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_score_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id integer,
  competition_id integer,
  score_id integer NOT NULL,
  discipline_id integer NOT NULL,
  field_id integer,
  attempt integer,
  old_value real,
  new_value real,
  source text NOT NULL,
  actor text NOT NULL,
  after_release boolean NOT NULL DEFAULT false,
  via_copy boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX IF NOT EXISTS {{prefix}}svc_score_audit_merge_key
  ON {{prefix}}svc_score_audit (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0)));
CREATE INDEX IF NOT EXISTS {{prefix}}svc_score_audit_score_idx ON {{prefix}}svc_score_audit (score_id, id);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_score_audit_event_idx ON {{prefix}}svc_score_audit (event_id, id);

-- Records one change of one value. Service commands mark their transaction with the origin marker,
-- the actor (token subject or judge name) and the role (src/db/origin.ts); any other writer is the legacy program,
-- named by its application_name or else its database user. An API write into a released scope is
-- refused here (SQLSTATE GY409) unless the role is head, admin or system (the formula completion on
-- read), so no command can forget the check; a legacy write is stored and flagged after_release.
-- `via_copy`: the final field's jury result is a copy of the detail value (the authoritative final),
-- so when both change in one transaction the detail's old value is the one recorded.
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_change(
  p_score integer, p_discipline integer, p_field integer, p_attempt integer, p_old real, p_new real, p_via_copy boolean)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_api boolean := current_setting('{{origin_setting}}', true) = '{{api_origin}}';
  v_competition integer;
  v_event integer;
  v_released boolean;
  v_id bigint;
  v_unchanged boolean;
BEGIN
  SELECT w.int_wettkaempfeid, c.int_veranstaltungenid,
         {{prefix}}svc_scope_released(w.int_wettkaempfeid, p_discipline, w.var_riege)
    INTO v_competition, v_event, v_released
    FROM {{prefix}}wertungen w
    LEFT JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
   WHERE w.int_wertungenid = p_score;
  v_released := COALESCE(v_released, false);
  IF v_released AND v_api AND COALESCE(current_setting('{{role_setting}}', true), '') NOT IN ('head', 'admin', 'system') THEN
    RAISE EXCEPTION 'released; ask the head judge to reopen'
      USING ERRCODE = 'GY409', DETAIL = format('competition %s, discipline %s', v_competition, p_discipline);
  END IF;
  INSERT INTO {{prefix}}svc_score_audit AS a
         (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, via_copy)
  VALUES (v_event, v_competition, p_score, p_discipline, p_field, p_attempt, p_old, p_new,
          CASE WHEN v_api THEN 'api' ELSE 'legacy' END,
          CASE WHEN v_api THEN COALESCE(NULLIF(current_setting('{{actor_setting}}', true), ''), 'service')
               ELSE COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text) END,
          v_released, p_via_copy)
  ON CONFLICT (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0))) DO UPDATE
     SET new_value = EXCLUDED.new_value,
         old_value = CASE WHEN a.via_copy AND NOT EXCLUDED.via_copy THEN EXCLUDED.old_value ELSE a.old_value END,
         via_copy = a.via_copy AND EXCLUDED.via_copy,
         after_release = a.after_release OR EXCLUDED.after_release
  RETURNING id, old_value IS NOT DISTINCT FROM new_value INTO v_id, v_unchanged;
  IF v_unchanged THEN
    DELETE FROM {{prefix}}svc_score_audit WHERE id = v_id;
  END IF;
END;
$$;

-- Detail rows: int_kp 0 is an individual final; for group and team rows int_kp is the field, and
-- the field flagged bol_endwert holds the final. An update that moves a row to another key counts as
-- the old key losing its value and the new key gaining one.
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_detail_field(p_discipline integer, p_kp integer)
RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN COALESCE(p_kp, 0) = 0 THEN NULL
              WHEN EXISTS (SELECT 1 FROM {{prefix}}disziplinen_felder f
                            WHERE f.int_disziplinen_felderid = p_kp AND f.int_disziplinenid = p_discipline AND f.bol_endwert) THEN NULL
              ELSE p_kp END
$$;

CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_details() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.int_wertungenid = NEW.int_wertungenid AND OLD.int_disziplinenid = NEW.int_disziplinenid
     AND OLD.int_versuch IS NOT DISTINCT FROM NEW.int_versuch AND OLD.int_kp IS NOT DISTINCT FROM NEW.int_kp THEN
    PERFORM {{prefix}}svc_audit_change(NEW.int_wertungenid, NEW.int_disziplinenid,
      {{prefix}}svc_audit_detail_field(NEW.int_disziplinenid, NEW.int_kp), NEW.int_versuch, OLD.rel_leistung, NEW.rel_leistung, false);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_change(OLD.int_wertungenid, OLD.int_disziplinenid,
      {{prefix}}svc_audit_detail_field(OLD.int_disziplinenid, OLD.int_kp), OLD.int_versuch, OLD.rel_leistung, NULL, false);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_change(NEW.int_wertungenid, NEW.int_disziplinenid,
      {{prefix}}svc_audit_detail_field(NEW.int_disziplinenid, NEW.int_kp), NEW.int_versuch, NULL, NEW.rel_leistung, false);
  END IF;
  RETURN NULL;
END;
$$;

-- Jury results: the field names the discipline; the final field's result is a copy of the final.
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_jury_side(p_score integer, p_field integer, p_attempt integer, p_old real, p_new real)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_discipline integer;
  v_final boolean;
BEGIN
  SELECT f.int_disziplinenid, COALESCE(f.bol_endwert, false) INTO v_discipline, v_final
    FROM {{prefix}}disziplinen_felder f WHERE f.int_disziplinen_felderid = p_field;
  IF p_score IS NULL OR v_discipline IS NULL THEN
    RETURN;
  END IF;
  PERFORM {{prefix}}svc_audit_change(p_score, v_discipline, CASE WHEN v_final THEN NULL ELSE p_field END, p_attempt, p_old, p_new, v_final);
END;
$$;

CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_jury() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.int_wertungenid IS NOT DISTINCT FROM NEW.int_wertungenid
     AND OLD.int_disziplinen_felderid IS NOT DISTINCT FROM NEW.int_disziplinen_felderid
     AND OLD.int_versuch IS NOT DISTINCT FROM NEW.int_versuch THEN
    PERFORM {{prefix}}svc_audit_jury_side(NEW.int_wertungenid, NEW.int_disziplinen_felderid, NEW.int_versuch, OLD.rel_leistung, NEW.rel_leistung);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_jury_side(OLD.int_wertungenid, OLD.int_disziplinen_felderid, OLD.int_versuch, OLD.rel_leistung, NULL);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.rel_leistung IS NOT NULL THEN
    PERFORM {{prefix}}svc_audit_jury_side(NEW.int_wertungenid, NEW.int_disziplinen_felderid, NEW.int_versuch, NULL, NEW.rel_leistung);
  END IF;
  RETURN NULL;
END;
$$;

-- Row-level, so every row of a bulk statement is recorded; the WHEN clauses keep writes that change
-- no value from calling the function at all.
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_insert ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_insert AFTER INSERT ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN (NEW.rel_leistung IS NOT NULL) EXECUTE FUNCTION {{prefix}}svc_audit_details();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_update ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_update AFTER UPDATE ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN ((OLD.rel_leistung, OLD.int_wertungenid, OLD.int_disziplinenid, OLD.int_versuch, OLD.int_kp)
                     IS DISTINCT FROM (NEW.rel_leistung, NEW.int_wertungenid, NEW.int_disziplinenid, NEW.int_versuch, NEW.int_kp))
  EXECUTE FUNCTION {{prefix}}svc_audit_details();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_detail_delete ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_audit_detail_delete AFTER DELETE ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN (OLD.rel_leistung IS NOT NULL) EXECUTE FUNCTION {{prefix}}svc_audit_details();

DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_insert ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_insert AFTER INSERT ON {{prefix}}jury_results
  FOR EACH ROW WHEN (NEW.rel_leistung IS NOT NULL) EXECUTE FUNCTION {{prefix}}svc_audit_jury();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_update ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_update AFTER UPDATE ON {{prefix}}jury_results
  FOR EACH ROW WHEN ((OLD.rel_leistung, OLD.int_wertungenid, OLD.int_disziplinen_felderid, OLD.int_versuch)
                     IS DISTINCT FROM (NEW.rel_leistung, NEW.int_wertungenid, NEW.int_disziplinen_felderid, NEW.int_versuch))
  EXECUTE FUNCTION {{prefix}}svc_audit_jury();
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_delete ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_delete AFTER DELETE ON {{prefix}}jury_results
  FOR EACH ROW WHEN (OLD.rel_leistung IS NOT NULL) EXECUTE FUNCTION {{prefix}}svc_audit_jury();

-- `released` on every score-updated event, whoever appends it (commands or the legacy triggers):
-- the state of the score's scope when the event is written.
CREATE OR REPLACE FUNCTION {{prefix}}svc_outbox_mark_released() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_released boolean;
BEGIN
  SELECT {{prefix}}svc_scope_released(w.int_wettkaempfeid, (NEW.payload->>'disciplineId')::int, w.var_riege) INTO v_released
    FROM {{prefix}}wertungen w WHERE w.int_wertungenid = (NEW.payload->>'scoreId')::int;
  NEW.payload := NEW.payload || jsonb_build_object('released', COALESCE(v_released, false));
  RETURN NEW;
END;
$$;
DROP TRIGGER IF EXISTS {{prefix}}svc_outbox_mark_released ON {{prefix}}svc_outbox;
CREATE TRIGGER {{prefix}}svc_outbox_mark_released BEFORE INSERT ON {{prefix}}svc_outbox
  FOR EACH ROW WHEN (NEW.topic = 'score-updated') EXECUTE FUNCTION {{prefix}}svc_outbox_mark_released();
