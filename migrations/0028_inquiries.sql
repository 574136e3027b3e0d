-- Inquiries on a shown score's D value (FIG Technical Regulations Art. 8.5): filed by a coach,
-- confirmed in writing, decided by the head judge. Every time is the database server's `now()` of
-- the step's transaction; the deadlines are judged against it, so no client clock counts.

-- The deadlines per competition; a competition without a row has the FIG defaults.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_inquiry_settings (
  competition_id integer PRIMARY KEY REFERENCES {{prefix}}wettkaempfe (int_wettkaempfeid) ON DELETE CASCADE,
  -- The last gymnast of a rotation has this long after the score was shown to file verbally.
  last_gymnast_seconds integer NOT NULL DEFAULT 60 CHECK (last_gymnast_seconds BETWEEN 1 AND 3600),
  -- The written confirmation follows the verbal inquiry within this long.
  written_seconds integer NOT NULL DEFAULT 240 CHECK (written_seconds BETWEEN 1 AND 3600),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL
);

-- One inquiry per routine (score row and apparatus): the decision cannot be challenged again. No
-- foreign keys to the legacy rows, like the score audit: the record outlives the rows it names.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_inquiries (
  id serial PRIMARY KEY,
  event_id integer NOT NULL,
  competition_id integer NOT NULL,
  score_id integer NOT NULL,
  discipline_id integer NOT NULL,
  -- The D field the inquiry is about (the discipline's start-value field).
  field_id integer NOT NULL,
  coach text NOT NULL,
  -- The head judge who recorded the inquiry for the coach; NULL when the coach filed it.
  recorded_by text,
  -- When the inquired score was shown (its final stored), and the values then.
  shown_at timestamptz NOT NULL,
  d_before real,
  final_before real,
  filed_at timestamptz NOT NULL DEFAULT now(),
  -- NULL: the verbal inquiry was due before the next gymnast's score on the apparatus.
  verbal_deadline timestamptz,
  written_deadline timestamptz NOT NULL,
  confirmed_at timestamptz,
  confirmed_by text,
  decided_at timestamptz,
  decided_by text,
  decision text CHECK (decision IN ('upheld', 'rejected')),
  d_after real,
  final_after real,
  note text,
  CONSTRAINT inquiry_decided_whole CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL) = (decided_by IS NULL)),
  CONSTRAINT inquiry_confirmed_whole CHECK ((confirmed_at IS NULL) = (confirmed_by IS NULL)),
  CONSTRAINT inquiry_decided_after_confirmed CHECK (decided_at IS NULL OR confirmed_at IS NOT NULL),
  UNIQUE (score_id, discipline_id)
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_inquiries_event_idx ON {{prefix}}svc_inquiries (event_id, id);
