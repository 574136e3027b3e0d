-- What the public spectator page (/live/) may show of an event. `publish` 'released' shows a score only
-- once the head judge has released its device (for its squad or all), 'all' shows every score with
-- released ones marked and the others provisional. An event without a row publishes released scores.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_spectator_settings (
  event_id integer PRIMARY KEY,
  publish text NOT NULL DEFAULT 'released' CHECK (publish IN ('released', 'all')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

-- Participants (legacy int_teilnehmerid) whose name the spectator page must not show; their scores
-- and club are listed without the name and start number. Keyed by the participant, not the event: a
-- family's wish not to be published holds for every event the participant starts in. No foreign key,
-- like the other service tables beside the legacy ones: the desktop program deletes participants.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_spectator_hidden (
  participant_id integer PRIMARY KEY,
  hidden_at timestamptz NOT NULL DEFAULT now(),
  hidden_by text
);
