-- A public instance's database is a logical replica of the hall's (docs/public-results.md): the
-- apply worker writes the outbox rows the hall's sequencer has numbered. It runs with
-- session_replication_role = replica, so the service's own triggers stay silent there, and
-- statement triggers (the numbering's NOTIFY) never fire for replicated rows. This row trigger
-- fires only in such a session (ENABLE REPLICA), never on the hall, and wakes the public
-- instances' relays once a row carries its seq. The payload is empty and equal for every row:
-- PostgreSQL folds equal notifications of one transaction into one, so an applied batch of 500
-- numbered rows sends one. The relay's one-second backstop stays the guarantee.
CREATE OR REPLACE FUNCTION {{prefix}}svc_outbox_replicated_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('{{outbox_channel}}', '');
  RETURN NULL;
END;
$$;
REVOKE EXECUTE ON FUNCTION {{prefix}}svc_outbox_replicated_notify() FROM PUBLIC;

DROP TRIGGER IF EXISTS {{prefix}}svc_outbox_replicated_notify ON {{prefix}}svc_outbox;
CREATE TRIGGER {{prefix}}svc_outbox_replicated_notify AFTER INSERT OR UPDATE ON {{prefix}}svc_outbox
  FOR EACH ROW WHEN (NEW.seq IS NOT NULL) EXECUTE FUNCTION {{prefix}}svc_outbox_replicated_notify();
ALTER TABLE {{prefix}}svc_outbox ENABLE REPLICA TRIGGER {{prefix}}svc_outbox_replicated_notify;
