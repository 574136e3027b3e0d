-- Participants changed from the office: late entries, imports of registrations, and the did-not-start
-- (bol_startet_nicht) and out-of-competition (bol_ak) flags of a score row. Who changed what, when.
-- No foreign keys, like the score and squad audits: the record outlives the rows it names.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_participant_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  event_id integer NOT NULL,
  actor text,
  action text NOT NULL CHECK (action IN ('late-entry', 'import', 'did-not-start', 'out-of-competition')),
  participant_ids integer[] NOT NULL DEFAULT '{}',
  score_ids integer[] NOT NULL DEFAULT '{}',
  -- late-entry, import: the rows created; flags: the new value.
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_participant_audit_event_idx ON {{prefix}}svc_participant_audit (event_id, id);
