-- Squad edits by hand on the office's squad page (moving a gymnast, creating, renaming and deleting a
-- squad) and auto-assign applies: who changed which squad names of an event, and when. A squad lives
-- only as the name on score rows (var_riege), so the record names the squad and the participants it
-- concerned. No foreign keys, like the score audit: the record outlives the rows it names.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_squad_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  event_id integer NOT NULL,
  actor text,
  action text NOT NULL CHECK (action IN ('apply', 'move', 'create', 'rename', 'delete')),
  squad_name text,
  new_name text,
  participant_ids integer[] NOT NULL DEFAULT '{}',
  rows_changed integer NOT NULL
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_squad_audit_event_idx ON {{prefix}}svc_squad_audit (event_id, id);
