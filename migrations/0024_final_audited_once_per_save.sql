-- The portal saves a final in two requests, as the interface's save order has it: the final into
-- the final field's jury result (a copy), then into the detail value. Each request is its own
-- transaction, so the audit recorded the final twice. A direct change of the final now completes
-- the copy's record instead: when the score's latest record of that final is a copy by the same
-- API caller that arrived at the same value in an earlier transaction, that record becomes the
-- direct change (the detail's old value, which is authoritative) and no second row is written.
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
  ELSIF v_api AND p_field IS NULL AND NOT p_via_copy THEN
    WITH latest AS (
      SELECT r.id, r.new_value, r.source, r.actor, r.xact, r.via_copy
        FROM {{prefix}}svc_score_audit r
       WHERE r.score_id = p_score AND r.discipline_id = p_discipline AND r.field_id IS NULL
         AND r.attempt IS NOT DISTINCT FROM p_attempt AND r.kind IS NULL AND r.id < v_id
       ORDER BY r.id DESC
       LIMIT 1
    ), merged AS (
      UPDATE {{prefix}}svc_score_audit a
         SET via_copy = false, old_value = mine.old_value, after_release = a.after_release OR mine.after_release
        FROM latest, {{prefix}}svc_score_audit mine
       WHERE a.id = latest.id AND mine.id = v_id AND latest.via_copy AND latest.xact <> mine.xact
         AND latest.source = 'api' AND latest.actor = mine.actor AND latest.new_value IS NOT DISTINCT FROM mine.new_value
         AND mine.old_value IS DISTINCT FROM mine.new_value
      RETURNING a.id
    )
    DELETE FROM {{prefix}}svc_score_audit WHERE id = v_id AND EXISTS (SELECT 1 FROM merged);
  END IF;
END;
$$;
