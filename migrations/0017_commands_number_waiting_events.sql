-- A command that numbers its own event in place (`appendLastOutboxEvent`) first numbers the events
-- that wait for their number (issue 18). Until now such a command left its event to the sequencer
-- whenever any committed event waited: a later event must never overtake an earlier one of the
-- same score. So one save that found the numbering lock taken made every save after it wait for a
-- sequencer pass too, until a pass found nothing new; at 50 portals these cascades were 2 % of
-- the events, 20-60 ms late, and they set the scoreboards' p99. Now the command holding the lock
-- numbers what waits, in id order as the sequencer would, and its own event after it; its instance
-- delivers them all from the statement.
--
-- Called only when the command's statement saw events waiting and no other command of its instance
-- was between its last event and its end (under a stream of commands the sequencer numbers them in
-- batches for less: `outbox/append.ts`). Takes the numbering lock (waits for it, or only tries
-- it: `p_numbering`, the relay's answer), then reads what waits in a snapshot taken under the lock, so nothing numbered meanwhile is numbered twice and no seq is
-- wasted. Returns the events it numbered, in seq order, as a JSON array (empty when the sequencer
-- had numbered them all by then), or NULL when the command must leave its event to the sequencer:
-- the lock was taken, a desktop write's capture waits (only the sequencer applies them, 0016), or
-- more wait than a command should carry (a burst is the sequencer's). The numbering is quiet
-- (0014): the command's instance tells the other instances, outside the transaction, as it does
-- for the command's own event.
CREATE OR REPLACE FUNCTION {{prefix}}svc_number_waiting_events(p_lock_key bigint, p_numbering text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  waiting bigint[];
  captures boolean;
  numbered jsonb;
BEGIN
  IF p_numbering = 'wait' THEN
    PERFORM pg_advisory_xact_lock(p_lock_key);
  ELSIF NOT pg_try_advisory_xact_lock(p_lock_key) THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(w.id ORDER BY w.id), bool_or(w.topic = '{{legacy_capture_topic}}')
    INTO waiting, captures
    FROM (SELECT id, topic FROM {{prefix}}svc_outbox WHERE seq IS NULL ORDER BY id LIMIT 101) AS w;
  IF waiting IS NULL THEN
    RETURN '[]'::jsonb;
  END IF;
  IF captures OR cardinality(waiting) > 100 THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('{{numbered_notify_setting}}', 'quiet', true);
  WITH numbering AS (
    UPDATE {{prefix}}svc_outbox AS o SET seq = n.seq, sequenced_at = now()
      FROM (SELECT id, nextval('{{prefix}}svc_outbox_seq') AS seq FROM unnest(waiting) AS id) AS n
     WHERE o.id = n.id
    RETURNING o.seq, o.topic, o.event_id, o.source, o.payload)
  SELECT jsonb_agg(to_jsonb(numbering) ORDER BY numbering.seq) INTO numbered FROM numbering;
  RETURN numbered;
END;
$$;
