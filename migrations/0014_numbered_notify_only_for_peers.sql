-- The sequencer's numbering notifies other instances' relays (0010). With no other instance
-- listening, that NOTIFY woke only this instance's own LISTEN connection, whose relay has the rows
-- from the numbering already: a notify-queue entry, a signal, a woken backend and a message to
-- ignore, for every pass. The sequencer now tells its session whether another instance listens
-- (checked at most once a second, `outbox/sequencer.ts`), and the numbering stays quiet when none
-- does. Unset (any other session, or before the first check) it notifies as before. A peer that
-- appears is noticed within that second; until then its one-second backstop reads what is new.
CREATE OR REPLACE FUNCTION {{prefix}}svc_outbox_numbered_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  top bigint;
BEGIN
  IF current_setting('{{numbered_notify_setting}}', true) = 'quiet' THEN
    RETURN NULL;
  END IF;
  SELECT max(seq) INTO top FROM numbered;
  IF top IS NOT NULL THEN
    PERFORM pg_notify('{{outbox_channel}}', top::text);
  END IF;
  RETURN NULL;
END;
$$;
