-- The two helper functions of 0008 in PL/pgSQL instead of SQL (issue 18). Their bodies hold a
-- subquery, so PostgreSQL does not inline them; a SQL function that is not inlined is parsed and
-- planned again in every statement that calls it, and the triggers call them in a statement of
-- their own each time: once for every score-updated outbox row (svc_outbox_mark_released, so every
-- command and every legacy write) and once for every audited value (svc_audit_change). PL/pgSQL
-- keeps its statement's plan for the session. Same arguments, same results, still STABLE.

CREATE OR REPLACE FUNCTION {{prefix}}svc_scope_released(p_competition integer, p_discipline integer, p_squad text)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM {{prefix}}svc_releases r
     WHERE r.competition_id = p_competition AND r.discipline_id = p_discipline
       AND r.squad_name IN ('', COALESCE(btrim(p_squad), '')));
END;
$$;

CREATE OR REPLACE FUNCTION {{prefix}}svc_audit_detail_field(p_discipline integer, p_kp integer)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF COALESCE(p_kp, 0) = 0 THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM {{prefix}}disziplinen_felder f
              WHERE f.int_disziplinen_felderid = p_kp AND f.int_disziplinenid = p_discipline AND f.bol_endwert) THEN
    RETURN NULL;
  END IF;
  RETURN p_kp;
END;
$$;
