-- Group members kept by the service (issue 17): the legacy layout has no table linking participants
-- to a group (a group score row carries the group and no participant), so the office kept them in
-- one browser's storage. This service table is the same for every browser. `position` keeps the
-- order the office entered them in.
CREATE TABLE IF NOT EXISTS {{prefix}}svc_group_members (
  group_id integer NOT NULL REFERENCES {{prefix}}gruppen (int_gruppenid) ON DELETE CASCADE,
  participant_id integer NOT NULL REFERENCES {{prefix}}teilnehmer (int_teilnehmerid) ON DELETE CASCADE,
  position integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, participant_id)
);
CREATE INDEX IF NOT EXISTS {{prefix}}svc_group_members_participant ON {{prefix}}svc_group_members (participant_id);
