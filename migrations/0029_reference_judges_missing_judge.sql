-- E-panel options (issue 47): two reference judges beside the panel with the tolerance table their
-- mean is checked against and the range within which they must agree (all NULL: no reference
-- judges), and what a missing judge's value becomes, with the judge fields that may be missing.
ALTER TABLE {{prefix}}svc_panel_settings
  ADD COLUMN IF NOT EXISTS reference_field_ids integer[] CHECK (reference_field_ids IS NULL OR cardinality(reference_field_ids) = 2),
  ADD COLUMN IF NOT EXISTS reference_agreement double precision CHECK (reference_agreement >= 0),
  ADD COLUMN IF NOT EXISTS reference_tolerances jsonb,
  ADD COLUMN IF NOT EXISTS missing_judge text NOT NULL DEFAULT 'fewer-values' CHECK (missing_judge IN ('fewer-values', 'mean-of-given')),
  ADD COLUMN IF NOT EXISTS absent_field_ids integer[] NOT NULL DEFAULT '{}';
ALTER TABLE {{prefix}}svc_panel_settings DROP CONSTRAINT IF EXISTS {{prefix}}svc_panel_settings_reference_complete;
ALTER TABLE {{prefix}}svc_panel_settings ADD CONSTRAINT {{prefix}}svc_panel_settings_reference_complete
  CHECK ((reference_field_ids IS NULL) = (reference_agreement IS NULL) AND (reference_field_ids IS NULL) = (reference_tolerances IS NULL));
