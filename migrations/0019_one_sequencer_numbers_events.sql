-- One way an event gets its number: commands insert their event with seq NULL, and only the
-- sequencer (the one instance holding the sequencer's session advisory lock, outbox/sequencer.ts)
-- numbers committed rows, in id order, in one call of the function below. Its calls run one after
-- the other on one connection and each commits before the next, so seqs become visible in the
-- order they were drawn and `seq > cursor` never skips a row. No lock guards the draw any longer:
-- nobody else draws. The in-place numbering of commands and its helpers go.
DROP FUNCTION IF EXISTS {{prefix}}svc_number_waiting_events(bigint, text);
DROP FUNCTION IF EXISTS {{prefix}}svc_sequence_waiting_events(bigint, integer);
DROP FUNCTION IF EXISTS {{prefix}}svc_number_waiting_locked(integer);
-- No trigger has called it since 0010.
DROP FUNCTION IF EXISTS {{prefix}}svc_outbox_notify();

-- Numbers at most `p_limit` waiting rows: reads them in id order through the partial index on
-- unnumbered ids, applies the legacy writes' captures among them (0016: their audit records, their
-- events in their place, the rest deleted), then draws a seq for each remaining row in id order.
-- Returns `{"read": n, "events": [...]}`: how many rows it read (the caller goes on while that is
-- `p_limit`) and the numbered events in seq order, for the sequencer's instance to deliver without
-- reading them back. Plain index scans: a bitmap scan returns every entry of a row numbered since
-- the last vacuum and never marks it dead, and grew with each event (0.85 ms after 16,000); and the
-- session keeps the plans PL/pgSQL makes at the first call, so one made while the outbox was one
-- page would scan the whole table at every call (0.03 -> 0.2 ms per event over 30,000 events).
CREATE OR REPLACE FUNCTION {{prefix}}svc_number_committed_events(p_limit integer)
RETURNS jsonb LANGUAGE plpgsql SET enable_bitmapscan = off SET enable_seqscan = off AS $$
DECLARE
  v_waiting bigint[];
  v_captures bigint[];
  v_dropped bigint[];
  v_read integer;
  v_events jsonb;
BEGIN
  SELECT array_agg(w.id ORDER BY w.id), array_agg(w.id ORDER BY w.id) FILTER (WHERE w.topic = '{{legacy_capture_topic}}')
    INTO v_waiting, v_captures
    FROM (SELECT o.id, o.topic FROM {{prefix}}svc_outbox o WHERE o.seq IS NULL ORDER BY o.id LIMIT p_limit) AS w;
  v_read := COALESCE(cardinality(v_waiting), 0);
  IF v_captures IS NOT NULL THEN
    v_dropped := {{prefix}}svc_apply_legacy_captures(v_captures);
    SELECT array_agg(u.id ORDER BY u.ord) INTO v_waiting
      FROM unnest(v_waiting) WITH ORDINALITY AS u(id, ord)
     WHERE u.id <> ALL (v_dropped);
  END IF;
  IF v_waiting IS NOT NULL THEN
    WITH drawn AS MATERIALIZED (
      SELECT u.id, nextval('{{prefix}}svc_outbox_seq') AS seq FROM unnest(v_waiting) AS u(id)
    ), numbering AS (
      UPDATE {{prefix}}svc_outbox AS o SET seq = d.seq, sequenced_at = now()
        FROM drawn AS d
       WHERE o.id = d.id AND o.seq IS NULL
      RETURNING o.seq, o.topic, o.event_id, o.source, o.payload
    )
    SELECT jsonb_agg(to_jsonb(numbering) ORDER BY numbering.seq) INTO v_events FROM numbering;
  END IF;
  RETURN jsonb_build_object('read', v_read, 'events', COALESCE(v_events, '[]'::jsonb));
END;
$$;
