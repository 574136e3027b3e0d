-- The service's own tables carry `svc_` after the prefix so they can never collide with a legacy name.

-- Transactional outbox: a command inserts its event here in the same transaction as the legacy
-- rows it wrote. `seq` stays NULL until the relay's sequencer numbers the row once it is visible,
-- so delivery order never depends on which transaction took the lower id first.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_outbox (
  id bigserial PRIMARY KEY,
  seq bigint UNIQUE,
  topic text NOT NULL,
  event_id integer,
  source text NOT NULL DEFAULT 'api',
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_unsequenced_idx ON {{prefix}}svc_outbox (id) WHERE seq IS NULL;
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_event_seq_idx ON {{prefix}}svc_outbox (event_id, seq);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_outbox_created_idx ON {{prefix}}svc_outbox (created_at);
CREATE SEQUENCE IF NOT EXISTS {{prefix}}svc_outbox_seq;

-- NOTIFY is delivered at commit and carries nothing: listeners fetch by seq, so a lost or merged
-- notification can delay an event but never lose it.
CREATE OR REPLACE FUNCTION {{prefix}}svc_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('{{outbox_channel}}', '');
  RETURN NULL;
END;
$$;
DROP TRIGGER IF EXISTS {{prefix}}svc_outbox_notify ON {{prefix}}svc_outbox;
CREATE TRIGGER {{prefix}}svc_outbox_notify AFTER INSERT OR UPDATE OF seq ON {{prefix}}svc_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION {{prefix}}svc_outbox_notify();

CREATE TABLE IF NOT EXISTS {{prefix}}svc_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
