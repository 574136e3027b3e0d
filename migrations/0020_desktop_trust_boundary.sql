-- The desktop program's trust boundary and the order of a release against the writes into its
-- scope (issue 43).
--
-- 1. The service's marker counts only from the service's own role. A command marks its transaction
--    (`{{origin_setting}}`, with actor and role: src/db/origin.ts); any session may set such a
--    setting, so the triggers trust it only when the session's role is, or is a member of, the role
--    that owns these functions: the role that ran the migrations, which is the service's. A marker
--    set by any other role is refused with SQLSTATE 42501, so a desktop write can neither pass as an
--    API save of a named judge nor skip its capture.
-- 2. The trigger functions of the legacy tables that write the service's tables run as their owner
--    (SECURITY DEFINER) with a fixed search_path, so the desktop role needs no privilege on those
--    tables, and a temporary table of its own cannot stand in for one of them. Nobody but the owner
--    may call a service function directly (a trigger needs no EXECUTE privilege to run its function).
-- 3. `svc_limit_desktop_role` leaves a role the legacy tables (SELECT, INSERT, UPDATE, DELETE; their
--    sequences) and nothing else of this installation: no TRUNCATE, no service table, no CREATE in
--    the schema. Applied here to `{{desktop_role}}` when it exists, and by the embedded server's
--    start after it sets the role's password (src/db/database.ts).
-- 4. The advisory-lock functions are no longer everybody's in this database when the migrating role
--    may change that (a superuser): a role that is not one cannot take the service's locks.
-- 5. A release and the API writes into its competition are ordered by an advisory lock per
--    competition: every API write takes it shared before it reads whether its scope is released and
--    holds it to its commit; the release command takes it exclusive (commands/release-scope.ts). A
--    write that checked before the release commits before the release does; one that comes later
--    waits for the release's commit and then sees it.
-- 6. An API save cannot move a score row whose values lie in a released scope to another squad or
--    competition, nor move one into a released scope it has values for (head, admin and the
--    service's own corrections may), and a jury result's kind (int_kp) is a change like its value.

-- Called only inside the owner's functions (the triggers below run as the owner), where current_user
-- is the owner and session_user who logged in.
CREATE OR REPLACE FUNCTION {{prefix}}svc_service_marked() RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF current_setting('{{origin_setting}}', true) IS DISTINCT FROM '{{api_origin}}' THEN
    RETURN false;
  END IF;
  IF NOT pg_has_role(session_user, current_user, 'MEMBER') THEN
    RAISE EXCEPTION '{{origin_setting}} is set by the service only' USING ERRCODE = '42501';
  END IF;
  RETURN true;
END;
$$;

-- 5: the scope's lock, shared, before the audit trigger reads whether the scope is released (a
-- BEFORE trigger, so it comes first; the audit's statement that reads the release starts after the
-- lock is held, so it sees a release that committed while this write waited). Also where a
-- forged marker is refused (1) for the rows the audit would record as the service's.
CREATE OR REPLACE FUNCTION {{prefix}}svc_take_release_scope() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF {{prefix}}svc_service_marked() THEN
    PERFORM pg_advisory_xact_lock_shared({{release_lock_class}}, w.int_wettkaempfeid)
       FROM {{prefix}}wertungen w
      WHERE w.int_wertungenid IN (OLD.int_wertungenid, NEW.int_wertungenid) AND w.int_wettkaempfeid IS NOT NULL;
  END IF;
  RETURN COALESCE(NEW, OLD);
END;
$$;
DROP TRIGGER IF EXISTS {{prefix}}svc_release_scope_detail ON {{prefix}}wertungen_details;
CREATE TRIGGER {{prefix}}svc_release_scope_detail BEFORE INSERT OR UPDATE OR DELETE ON {{prefix}}wertungen_details
  FOR EACH ROW WHEN (current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_take_release_scope();
DROP TRIGGER IF EXISTS {{prefix}}svc_release_scope_jury ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_release_scope_jury BEFORE INSERT OR UPDATE OR DELETE ON {{prefix}}jury_results
  FOR EACH ROW WHEN (current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_take_release_scope();

-- A jury result whose kind changes is audited like a value change (old and new value equal): the
-- release check applies, and no record stays, since the value did not change.
DROP TRIGGER IF EXISTS {{prefix}}svc_audit_jury_update ON {{prefix}}jury_results;
CREATE TRIGGER {{prefix}}svc_audit_jury_update AFTER UPDATE ON {{prefix}}jury_results
  FOR EACH ROW WHEN ((OLD.rel_leistung, OLD.int_wertungenid, OLD.int_disziplinen_felderid, OLD.int_versuch, OLD.int_kp)
                     IS DISTINCT FROM (NEW.rel_leistung, NEW.int_wertungenid, NEW.int_disziplinen_felderid, NEW.int_versuch, NEW.int_kp)
                     AND current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_audit_jury();

-- 6: the squad and competition a score row is in before the save decide, and so does the one it
-- goes to. The trigger names no column (neither in UPDATE OF nor in WHEN): PostgreSQL refuses to
-- change the type of a column a trigger names, and the desktop program's schema updates widen
-- var_riege. Only API group and team saves and the squad assignment update score rows.
CREATE OR REPLACE FUNCTION {{prefix}}svc_refuse_released_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.var_riege, OLD.int_wettkaempfeid) IS NOT DISTINCT FROM (NEW.var_riege, NEW.int_wettkaempfeid)
     OR NOT {{prefix}}svc_service_marked() OR COALESCE(current_setting('{{role_setting}}', true), '') IN ('head', 'admin', 'system') THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock_shared({{release_lock_class}}, c.competition_id)
     FROM (SELECT DISTINCT unnest(ARRAY[OLD.int_wettkaempfeid, NEW.int_wettkaempfeid]) AS competition_id) c
    WHERE c.competition_id IS NOT NULL;
  IF EXISTS (
    SELECT 1
      FROM {{prefix}}svc_releases r
     WHERE ((r.competition_id = OLD.int_wettkaempfeid AND r.squad_name IN ('', COALESCE(btrim(OLD.var_riege), '')))
            OR (r.competition_id = NEW.int_wettkaempfeid AND r.squad_name IN ('', COALESCE(btrim(NEW.var_riege), ''))))
       AND (EXISTS (SELECT 1 FROM {{prefix}}wertungen_details d
                     WHERE d.int_wertungenid = OLD.int_wertungenid AND d.int_disziplinenid = r.discipline_id AND d.rel_leistung IS NOT NULL)
            OR EXISTS (SELECT 1 FROM {{prefix}}jury_results j
                         JOIN {{prefix}}disziplinen_felder f ON f.int_disziplinen_felderid = j.int_disziplinen_felderid
                        WHERE j.int_wertungenid = OLD.int_wertungenid AND f.int_disziplinenid = r.discipline_id AND j.rel_leistung IS NOT NULL))) THEN
    RAISE EXCEPTION 'released; ask the head judge to reopen'
      USING ERRCODE = 'GY409', DETAIL = format('score %s leaves or enters a released scope', OLD.int_wertungenid);
  END IF;
  RETURN NEW;
END;
$$;
DROP TRIGGER IF EXISTS {{prefix}}svc_release_move ON {{prefix}}wertungen;
CREATE TRIGGER {{prefix}}svc_release_move BEFORE UPDATE ON {{prefix}}wertungen
  FOR EACH ROW WHEN (current_setting('{{origin_setting}}', true) = '{{api_origin}}')
  EXECUTE FUNCTION {{prefix}}svc_refuse_released_move();

-- 3: what a desktop program's role may do.
CREATE OR REPLACE FUNCTION {{prefix}}svc_limit_desktop_role(p_role name) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_legacy text[] := ARRAY['veranstaltungen', 'wettkaempfe', 'disziplinen', 'disziplinen_felder', 'formeln', 'teilnehmer', 'vereine',
                           'gruppen', 'mannschaften', 'wertungen', 'wertungen_details', 'jury_results', 'status', 'bereiche', 'sport'];
  v_object record;
BEGIN
  -- Whatever earlier grants gave it on this installation's tables and sequences (its own excepted).
  FOR v_object IN
    SELECT c.oid::regclass AS name, c.relkind = 'S' AS is_sequence
      FROM pg_class c
     WHERE c.relnamespace = current_schema()::regnamespace AND left(c.relname, length('{{prefix}}')) = '{{prefix}}'
       AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relowner <> p_role::text::regrole
  LOOP
    EXECUTE format('REVOKE ALL ON %s %s FROM %I', CASE WHEN v_object.is_sequence THEN 'SEQUENCE' ELSE 'TABLE' END, v_object.name, p_role);
  END LOOP;
  FOR v_object IN
    SELECT to_regclass(format('%I.%I', current_schema(), '{{prefix}}' || legacy)) AS name FROM unnest(v_legacy) AS legacy
  LOOP
    CONTINUE WHEN v_object.name IS NULL;
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %s TO %I', v_object.name, p_role);
  END LOOP;
  FOR v_object IN
    SELECT d.objid::regclass AS name
      FROM pg_depend d
     WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
       AND d.refobjid IN (SELECT to_regclass(format('%I.%I', current_schema(), '{{prefix}}' || legacy)) FROM unnest(v_legacy) AS legacy)
       AND (SELECT c.relkind FROM pg_class c WHERE c.oid = d.objid) = 'S'
  LOOP
    EXECUTE format('GRANT USAGE, SELECT, UPDATE ON SEQUENCE %s TO %I', v_object.name, p_role);
  END LOOP;
  EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM %I', current_schema(), p_role);
  -- Default privileges an earlier start gave it on every future table.
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I REVOKE ALL ON TABLES FROM %I', current_schema(), p_role);
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I REVOKE ALL ON SEQUENCES FROM %I', current_schema(), p_role);
END;
$$;

DO $$
DECLARE
  v_function regprocedure;
BEGIN
  -- 2: the trigger functions of the legacy tables that write the service's tables.
  FOR v_function IN
    SELECT unnest(ARRAY['{{prefix}}svc_audit_details()', '{{prefix}}svc_audit_jury()', '{{prefix}}svc_take_release_scope()',
                        '{{prefix}}svc_refuse_released_move()',
                        '{{prefix}}svc_legacy_jury_events()', '{{prefix}}svc_legacy_detail_events()']::regprocedure[])
  LOOP
    EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = %I, pg_temp', v_function, current_schema());
  END LOOP;
  EXECUTE format('ALTER FUNCTION {{prefix}}svc_limit_desktop_role(name) SET search_path = %I, pg_temp', current_schema());
  -- Only the owner calls the service's functions; triggers run theirs without the privilege.
  FOR v_function IN
    SELECT p.oid::regprocedure FROM pg_proc p
     WHERE p.pronamespace = current_schema()::regnamespace AND left(p.proname, length('{{prefix}}svc_')) = '{{prefix}}svc_'
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', v_function);
  END LOOP;
  -- 4
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    FOR v_function IN
      SELECT p.oid::regprocedure FROM pg_proc p
       WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg\_%advisory\_%'
    LOOP
      EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', v_function);
    END LOOP;
  END IF;
  -- 3
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{{desktop_role}}') THEN
    PERFORM {{prefix}}svc_limit_desktop_role('{{desktop_role}}');
  END IF;
END;
$$;
