-- E-panel (issue 21): which fields of a discipline are its judges' fields, how they are aggregated,
-- which field receives the aggregate, and the tolerance of the counted values' spread. Service-owned:
-- the legacy layout has no place for it. One row per discipline; no row = no panel.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_panel_settings (
  discipline_id integer PRIMARY KEY REFERENCES {{prefix}}disziplinen (int_disziplinenid) ON DELETE CASCADE,
  judge_field_ids integer[] NOT NULL CHECK (cardinality(judge_field_ids) >= 2),
  aggregation text NOT NULL CHECK (aggregation IN ('trimmed-mean', 'mean', 'median')),
  aggregate_field_id integer NOT NULL REFERENCES {{prefix}}disziplinen_felder (int_disziplinen_felderid) ON DELETE CASCADE,
  tolerance double precision NOT NULL CHECK (tolerance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

-- A deviation of a score's panel that is still standing: 'open' until the values come back within the
-- tolerance or the head judge confirms them ('confirmed', which lasts until the values are within the
-- tolerance again). A row exists only while the panel is over its tolerance, so "one announcement per
-- crossing" is the row's insert. No foreign keys, like the audit record.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_panel_deviations (
  score_id integer NOT NULL,
  discipline_id integer NOT NULL,
  attempt integer NOT NULL,
  event_id integer NOT NULL,
  state text NOT NULL CHECK (state IN ('open', 'confirmed')),
  panel_values jsonb NOT NULL,
  spread double precision NOT NULL,
  tolerance double precision NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  confirmed_by text,
  PRIMARY KEY (score_id, discipline_id, attempt)
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_panel_deviations_event_idx ON {{prefix}}svc_panel_deviations (event_id) WHERE state = 'open';

-- The audit record also keeps the head judge's confirmation of a deviation: a row whose `kind` says
-- what it records (NULL: a changed value, as before).
ALTER TABLE {{prefix}}svc_score_audit ADD COLUMN IF NOT EXISTS kind text;
