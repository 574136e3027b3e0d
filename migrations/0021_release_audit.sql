-- Releasing and reopening a scope go into the audit record beside the changed values, so the
-- corrections log shows who closed or reopened a device (or squad) and when, for as long as the
-- record is kept (the `release-changed` event leaves the outbox after its retention). A row per
-- change of the releases table, whoever makes it: the service's release command, or anyone writing
-- the table directly. Such a row concerns no single score: `score_id` is NULL, `kind` says
-- 'release' or 'reopen', `squad_name` names the squad (NULL: every squad of the device).
ALTER TABLE {{prefix}}svc_score_audit ALTER COLUMN score_id DROP NOT NULL;
ALTER TABLE {{prefix}}svc_score_audit ADD COLUMN IF NOT EXISTS squad_name text;

CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_release_row(
  p_competition integer, p_discipline integer, p_squad text, p_kind text, p_released_by text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_api boolean := current_setting('{{origin_setting}}', true) = '{{api_origin}}';
BEGIN
  INSERT INTO {{prefix}}svc_score_audit
         (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value,
          source, actor, after_release, kind, squad_name)
  SELECT c.int_veranstaltungenid, p_competition, NULL, p_discipline, NULL, NULL, NULL, NULL,
         CASE WHEN v_api THEN 'api' ELSE 'legacy' END,
         CASE WHEN v_api THEN COALESCE(NULLIF(current_setting('{{actor_setting}}', true), ''), p_released_by, 'service')
              ELSE COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text) END,
         false, p_kind, NULLIF(p_squad, '')
    FROM (SELECT 1) AS one
    LEFT JOIN {{prefix}}wettkaempfe c ON c.int_wettkaempfeid = p_competition;
END;
$$;

-- An update that moves a release to another scope reopens the old one and releases the new one.
CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_releases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.competition_id = NEW.competition_id AND OLD.discipline_id = NEW.discipline_id
     AND OLD.squad_name = NEW.squad_name THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM {{prefix}}svc_audit_release_row(OLD.competition_id, OLD.discipline_id, OLD.squad_name, 'reopen', NULL);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM {{prefix}}svc_audit_release_row(NEW.competition_id, NEW.discipline_id, NEW.squad_name, 'release', NEW.released_by);
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS {{prefix}}svc_audit_releases ON {{prefix}}svc_releases;
CREATE TRIGGER {{prefix}}svc_audit_releases
  AFTER INSERT OR UPDATE OR DELETE ON {{prefix}}svc_releases
  FOR EACH ROW EXECUTE FUNCTION {{prefix}}svc_audit_releases();

-- Only the owner calls the service's functions (0020); the trigger runs its function without the privilege.
REVOKE EXECUTE ON FUNCTION {{prefix}}svc_audit_release_row(integer, integer, text, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION {{prefix}}svc_audit_releases() FROM PUBLIC;
