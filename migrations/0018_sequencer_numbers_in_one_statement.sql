-- The sequencer's pass numbers its usual few waiting events in one statement instead of two round
-- trips (the waiting ids, then the numbering under the numbering lock). Superseded by 0019, which
-- drops these functions: one sequencer numbers every event.
--
-- svc_number_waiting_locked: the numbering shared by commands (0017) and the sequencer. The caller
-- holds the numbering lock; the read runs in a snapshot taken under it, so nothing numbered
-- meanwhile is numbered twice and no seq is wasted. Returns the events it numbered, in seq order,
-- as a JSON array (empty when none wait), or NULL when a desktop write's capture waits (only the
-- sequencer applies them, 0016) or more than p_limit wait: the caller then leaves them to the
-- sequencer's batches. Whether the numbering notifies is the caller's (0014). The read uses the
-- partial index in id order: a bitmap scan would read every waiting row and sort them (1.6 ms
-- with 6,000 waiting).
CREATE OR REPLACE FUNCTION {{prefix}}svc_number_waiting_locked(p_limit integer)
RETURNS jsonb LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
DECLARE
  waiting bigint[];
  captures boolean;
  numbered jsonb;
BEGIN
  SELECT array_agg(w.id ORDER BY w.id), bool_or(w.topic = '{{legacy_capture_topic}}')
    INTO waiting, captures
    FROM (SELECT id, topic FROM {{prefix}}svc_outbox WHERE seq IS NULL ORDER BY id LIMIT p_limit + 1) AS w;
  IF waiting IS NULL THEN
    RETURN '[]'::jsonb;
  END IF;
  IF captures OR cardinality(waiting) > p_limit THEN
    RETURN NULL;
  END IF;
  WITH numbering AS (
    UPDATE {{prefix}}svc_outbox AS o SET seq = n.seq, sequenced_at = now()
      FROM (SELECT id, nextval('{{prefix}}svc_outbox_seq') AS seq FROM unnest(waiting) AS id) AS n
     WHERE o.id = n.id
    RETURNING o.seq, o.topic, o.event_id, o.source, o.payload)
  SELECT jsonb_agg(to_jsonb(numbering) ORDER BY numbering.seq) INTO numbered FROM numbering;
  RETURN numbered;
END;
$$;

-- A command's numbering of what waits before its own event (0017), now through the shared
-- numbering: the lock as the relay answers (wait, or only try), and quiet (the command's instance
-- tells the other instances outside the transaction).
CREATE OR REPLACE FUNCTION {{prefix}}svc_number_waiting_events(p_lock_key bigint, p_numbering text)
RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  IF p_numbering = 'wait' THEN
    PERFORM pg_advisory_xact_lock(p_lock_key);
  ELSIF NOT pg_try_advisory_xact_lock(p_lock_key) THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('{{numbered_notify_setting}}', 'quiet', true);
  RETURN {{prefix}}svc_number_waiting_locked(100);
END;
$$;

-- The sequencer's pass: a look without the lock first, so that a pass with nothing to number, or
-- with a burst or a capture for the batches, never waits for a command's commit; then the lock and
-- the numbering. An event committed after the look is the next pass's: its command wakes one after
-- its commit. The numbering notifies as the sequencer's session has decided (0014).
CREATE OR REPLACE FUNCTION {{prefix}}svc_sequence_waiting_events(p_lock_key bigint, p_limit integer)
RETURNS jsonb LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
DECLARE
  waiting bigint;
  captures boolean;
BEGIN
  SELECT count(*), bool_or(w.topic = '{{legacy_capture_topic}}')
    INTO waiting, captures
    FROM (SELECT topic FROM {{prefix}}svc_outbox WHERE seq IS NULL ORDER BY id LIMIT p_limit + 1) AS w;
  IF waiting = 0 THEN
    RETURN '[]'::jsonb;
  END IF;
  IF captures OR waiting > p_limit THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(p_lock_key);
  RETURN {{prefix}}svc_number_waiting_locked(p_limit);
END;
$$;
