-- Rotations (Durchgänge) of an event and the judges' credentials (issue 45). Service-owned: the
-- legacy layout has no place for a timetable or for credentials.

-- One row per event with a plan: who last stored it, and the rotation the day is in (NULL: none
-- started yet). Starting a rotation updates this row, which orders concurrent starts.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_rotation_plans (
  event_id integer PRIMARY KEY REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid) ON DELETE CASCADE,
  current_rotation integer,
  current_started_at timestamptz,
  current_started_by text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

CREATE TABLE IF NOT EXISTS {{prefix}}svc_rotations (
  event_id integer NOT NULL REFERENCES {{prefix}}svc_rotation_plans (event_id) ON DELETE CASCADE,
  rotation integer NOT NULL CHECK (rotation > 0),
  planned_start timestamptz NOT NULL,
  PRIMARY KEY (event_id, rotation)
);

-- A squad on an apparatus in a rotation: one squad per apparatus, one apparatus per squad.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_rotation_slots (
  event_id integer NOT NULL,
  rotation integer NOT NULL,
  discipline_id integer NOT NULL REFERENCES {{prefix}}disziplinen (int_disziplinenid) ON DELETE CASCADE,
  squad_name text NOT NULL,
  judges text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (event_id, rotation, discipline_id),
  UNIQUE (event_id, rotation, squad_name),
  FOREIGN KEY (event_id, rotation) REFERENCES {{prefix}}svc_rotations (event_id, rotation) ON DELETE CASCADE
);

-- A judge's credential for one apparatus of an event (and optionally one E-judge field). The token
-- itself is not stored: it is signed, and this row is what makes it count (revoked_at, expires_at).
CREATE TABLE IF NOT EXISTS {{prefix}}svc_judge_credentials (
  id serial PRIMARY KEY,
  event_id integer NOT NULL REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid) ON DELETE CASCADE,
  competition_id integer REFERENCES {{prefix}}wettkaempfe (int_wettkaempfeid) ON DELETE CASCADE,
  discipline_id integer NOT NULL REFERENCES {{prefix}}disziplinen (int_disziplinenid) ON DELETE CASCADE,
  field_id integer REFERENCES {{prefix}}disziplinen_felder (int_disziplinen_felderid) ON DELETE CASCADE,
  judge_name text NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  issued_by text NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_judge_credentials_event_idx ON {{prefix}}svc_judge_credentials (event_id);
