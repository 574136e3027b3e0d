-- The schema the migrations leave, for the default prefix `app_`: written by `npm run db:schema`,
-- checked by test/integration/schema-dump.test.ts. Read it here; change it with a new migration.

-- Tables

CREATE TABLE app_bereiche (
  int_bereicheid integer NOT NULL DEFAULT nextval('app_bereiche_int_bereicheid_seq'::regclass),
  var_name character varying(100) NOT NULL,
  CONSTRAINT app_bereiche_pkey PRIMARY KEY (int_bereicheid)
);

CREATE TABLE app_disziplinen (
  int_disziplinenid integer NOT NULL DEFAULT nextval('app_disziplinen_int_disziplinenid_seq'::regclass),
  int_bereicheid integer,
  int_sportid integer,
  var_name character varying(100) NOT NULL,
  var_anzeigename character varying(100),
  var_kurzname character varying(20),
  bol_m boolean DEFAULT true,
  bol_w boolean DEFAULT true,
  int_extsystemid integer,
  var_formel character varying(500),
  int_formelid integer,
  var_eingabemaske character varying(20),
  int_berechnung integer,
  CONSTRAINT app_disziplinen_int_bereicheid_fkey FOREIGN KEY (int_bereicheid) REFERENCES app_bereiche(int_bereicheid),
  CONSTRAINT app_disziplinen_int_formelid_fkey FOREIGN KEY (int_formelid) REFERENCES app_formeln(int_formelid),
  CONSTRAINT app_disziplinen_int_sportid_fkey FOREIGN KEY (int_sportid) REFERENCES app_sport(int_sportid),
  CONSTRAINT app_disziplinen_pkey PRIMARY KEY (int_disziplinenid)
);

CREATE TABLE app_disziplinen_felder (
  int_disziplinen_felderid integer NOT NULL DEFAULT nextval('app_disziplinen_felder_int_disziplinen_felderid_seq'::regclass),
  int_disziplinenid integer NOT NULL,
  var_name character varying(50),
  var_kurzname character varying(10),
  int_reihenfolge integer,
  int_sortierung integer,
  bol_endwert boolean DEFAULT false,
  bol_ausgangswert boolean DEFAULT false,
  int_gruppe integer,
  bol_enabled boolean DEFAULT true,
  CONSTRAINT app_disziplinen_felder_int_disziplinenid_fkey FOREIGN KEY (int_disziplinenid) REFERENCES app_disziplinen(int_disziplinenid),
  CONSTRAINT app_disziplinen_felder_pkey PRIMARY KEY (int_disziplinen_felderid)
);

CREATE TABLE app_formeln (
  int_formelid integer NOT NULL DEFAULT nextval('app_formeln_int_formelid_seq'::regclass),
  var_name character varying(100) NOT NULL,
  var_formel character varying(500) NOT NULL,
  var_typ character varying(20),
  int_typ integer,
  int_disziplinenid integer,
  CONSTRAINT app_formeln_pkey PRIMARY KEY (int_formelid)
);

CREATE TABLE app_gruppen (
  int_gruppenid integer NOT NULL DEFAULT nextval('app_gruppen_int_gruppenid_seq'::regclass),
  int_veranstaltungenid integer,
  var_name character varying(100) NOT NULL,
  int_startnummer integer,
  int_vereineid integer,
  var_riege character varying(5),
  CONSTRAINT app_gruppen_int_veranstaltungenid_fkey FOREIGN KEY (int_veranstaltungenid) REFERENCES app_veranstaltungen(int_veranstaltungenid),
  CONSTRAINT app_gruppen_int_vereineid_fkey FOREIGN KEY (int_vereineid) REFERENCES app_vereine(int_vereineid),
  CONSTRAINT app_gruppen_pkey PRIMARY KEY (int_gruppenid)
);

CREATE TABLE app_jury_results (
  int_juryresultsid integer NOT NULL DEFAULT nextval('app_jury_results_int_juryresultsid_seq'::regclass),
  int_wertungenid integer,
  int_disziplinen_felderid integer,
  rel_leistung real,
  int_versuch integer DEFAULT 1,
  int_kp integer DEFAULT 0,
  CONSTRAINT app_jury_results_int_disziplinen_felderid_fkey FOREIGN KEY (int_disziplinen_felderid) REFERENCES app_disziplinen_felder(int_disziplinen_felderid),
  CONSTRAINT app_jury_results_int_wertungenid_fkey FOREIGN KEY (int_wertungenid) REFERENCES app_wertungen(int_wertungenid) ON DELETE CASCADE,
  CONSTRAINT app_jury_results_pkey PRIMARY KEY (int_juryresultsid)
);

CREATE TABLE app_mannschaften (
  int_mannschaftenid integer NOT NULL DEFAULT nextval('app_mannschaften_int_mannschaftenid_seq'::regclass),
  int_veranstaltungenid integer,
  var_name character varying(100) NOT NULL,
  int_startnummer integer,
  int_vereineid integer,
  var_riege character varying(5),
  CONSTRAINT app_mannschaften_int_veranstaltungenid_fkey FOREIGN KEY (int_veranstaltungenid) REFERENCES app_veranstaltungen(int_veranstaltungenid),
  CONSTRAINT app_mannschaften_int_vereineid_fkey FOREIGN KEY (int_vereineid) REFERENCES app_vereine(int_vereineid),
  CONSTRAINT app_mannschaften_pkey PRIMARY KEY (int_mannschaftenid)
);

CREATE TABLE app_sport (
  int_sportid integer NOT NULL DEFAULT nextval('app_sport_int_sportid_seq'::regclass),
  var_name character varying(100) NOT NULL,
  CONSTRAINT app_sport_pkey PRIMARY KEY (int_sportid)
);

CREATE TABLE app_status (
  int_statusid integer NOT NULL,
  var_name character varying(50),
  CONSTRAINT app_status_pkey PRIMARY KEY (int_statusid)
);

CREATE TABLE app_svc_group_members (
  group_id integer NOT NULL,
  participant_id integer NOT NULL,
  "position" integer NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT app_svc_group_members_group_id_fkey FOREIGN KEY (group_id) REFERENCES app_gruppen(int_gruppenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_group_members_participant_id_fkey FOREIGN KEY (participant_id) REFERENCES app_teilnehmer(int_teilnehmerid) ON DELETE CASCADE,
  CONSTRAINT app_svc_group_members_pkey PRIMARY KEY (group_id, participant_id)
);

CREATE TABLE app_svc_inquiries (
  id integer NOT NULL DEFAULT nextval('app_svc_inquiries_id_seq'::regclass),
  event_id integer NOT NULL,
  competition_id integer NOT NULL,
  score_id integer NOT NULL,
  discipline_id integer NOT NULL,
  field_id integer NOT NULL,
  coach text NOT NULL,
  recorded_by text,
  shown_at timestamp with time zone NOT NULL,
  d_before real,
  final_before real,
  filed_at timestamp with time zone NOT NULL DEFAULT now(),
  verbal_deadline timestamp with time zone,
  written_deadline timestamp with time zone NOT NULL,
  confirmed_at timestamp with time zone,
  confirmed_by text,
  decided_at timestamp with time zone,
  decided_by text,
  decision text,
  d_after real,
  final_after real,
  note text,
  CONSTRAINT app_svc_inquiries_decision_check CHECK ((decision = ANY (ARRAY['upheld'::text, 'rejected'::text]))),
  CONSTRAINT app_svc_inquiries_pkey PRIMARY KEY (id),
  CONSTRAINT app_svc_inquiries_score_id_discipline_id_key UNIQUE (score_id, discipline_id),
  CONSTRAINT inquiry_confirmed_whole CHECK (((confirmed_at IS NULL) = (confirmed_by IS NULL))),
  CONSTRAINT inquiry_decided_after_confirmed CHECK (((decided_at IS NULL) OR (confirmed_at IS NOT NULL))),
  CONSTRAINT inquiry_decided_whole CHECK ((((decision IS NULL) = (decided_at IS NULL)) AND ((decision IS NULL) = (decided_by IS NULL))))
);

CREATE TABLE app_svc_inquiry_settings (
  competition_id integer NOT NULL,
  last_gymnast_seconds integer NOT NULL DEFAULT 60,
  written_seconds integer NOT NULL DEFAULT 240,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  CONSTRAINT app_svc_inquiry_settings_competition_id_fkey FOREIGN KEY (competition_id) REFERENCES app_wettkaempfe(int_wettkaempfeid) ON DELETE CASCADE,
  CONSTRAINT app_svc_inquiry_settings_last_gymnast_seconds_check CHECK (((last_gymnast_seconds >= 1) AND (last_gymnast_seconds <= 3600))),
  CONSTRAINT app_svc_inquiry_settings_pkey PRIMARY KEY (competition_id),
  CONSTRAINT app_svc_inquiry_settings_written_seconds_check CHECK (((written_seconds >= 1) AND (written_seconds <= 3600)))
);

CREATE TABLE app_svc_judge_credentials (
  id integer NOT NULL DEFAULT nextval('app_svc_judge_credentials_id_seq'::regclass),
  event_id integer NOT NULL,
  competition_id integer,
  discipline_id integer NOT NULL,
  field_id integer,
  judge_name text NOT NULL,
  issued_at timestamp with time zone NOT NULL DEFAULT now(),
  issued_by text NOT NULL,
  expires_at timestamp with time zone NOT NULL,
  revoked_at timestamp with time zone,
  revoked_by text,
  CONSTRAINT app_svc_judge_credentials_competition_id_fkey FOREIGN KEY (competition_id) REFERENCES app_wettkaempfe(int_wettkaempfeid) ON DELETE CASCADE,
  CONSTRAINT app_svc_judge_credentials_discipline_id_fkey FOREIGN KEY (discipline_id) REFERENCES app_disziplinen(int_disziplinenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_judge_credentials_event_id_fkey FOREIGN KEY (event_id) REFERENCES app_veranstaltungen(int_veranstaltungenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_judge_credentials_field_id_fkey FOREIGN KEY (field_id) REFERENCES app_disziplinen_felder(int_disziplinen_felderid) ON DELETE CASCADE,
  CONSTRAINT app_svc_judge_credentials_pkey PRIMARY KEY (id)
);

CREATE TABLE app_svc_migrations (
  id integer NOT NULL,
  name text NOT NULL,
  applied_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT app_svc_migrations_pkey PRIMARY KEY (id)
);

CREATE TABLE app_svc_outbox (
  id bigint NOT NULL DEFAULT nextval('app_svc_outbox_id_seq'::regclass),
  seq bigint,
  topic text NOT NULL,
  event_id integer,
  source text NOT NULL DEFAULT 'api'::text,
  payload jsonb NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now(),
  sequenced_at timestamp with time zone,
  CONSTRAINT app_svc_outbox_pkey PRIMARY KEY (id)
);

CREATE TABLE app_svc_panel_deviations (
  score_id integer NOT NULL,
  discipline_id integer NOT NULL,
  attempt integer NOT NULL,
  event_id integer NOT NULL,
  state text NOT NULL,
  panel_values jsonb NOT NULL,
  spread double precision NOT NULL,
  tolerance double precision NOT NULL,
  opened_at timestamp with time zone NOT NULL DEFAULT now(),
  confirmed_at timestamp with time zone,
  confirmed_by text,
  CONSTRAINT app_svc_panel_deviations_pkey PRIMARY KEY (score_id, discipline_id, attempt),
  CONSTRAINT app_svc_panel_deviations_state_check CHECK ((state = ANY (ARRAY['open'::text, 'confirmed'::text])))
);

CREATE TABLE app_svc_panel_settings (
  discipline_id integer NOT NULL,
  judge_field_ids integer[] NOT NULL,
  aggregation text NOT NULL,
  aggregate_field_id integer NOT NULL,
  tolerance double precision NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  reference_field_ids integer[],
  reference_agreement double precision,
  reference_tolerances jsonb,
  missing_judge text NOT NULL DEFAULT 'fewer-values'::text,
  absent_field_ids integer[] NOT NULL DEFAULT '{}'::integer[],
  CONSTRAINT app_svc_panel_settings_aggregate_field_id_fkey FOREIGN KEY (aggregate_field_id) REFERENCES app_disziplinen_felder(int_disziplinen_felderid) ON DELETE CASCADE,
  CONSTRAINT app_svc_panel_settings_aggregation_check CHECK ((aggregation = ANY (ARRAY['trimmed-mean'::text, 'mean'::text, 'median'::text]))),
  CONSTRAINT app_svc_panel_settings_discipline_id_fkey FOREIGN KEY (discipline_id) REFERENCES app_disziplinen(int_disziplinenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_panel_settings_judge_field_ids_check CHECK ((cardinality(judge_field_ids) >= 2)),
  CONSTRAINT app_svc_panel_settings_missing_judge_check CHECK ((missing_judge = ANY (ARRAY['fewer-values'::text, 'mean-of-given'::text]))),
  CONSTRAINT app_svc_panel_settings_pkey PRIMARY KEY (discipline_id),
  CONSTRAINT app_svc_panel_settings_reference_agreement_check CHECK ((reference_agreement >= (0)::double precision)),
  CONSTRAINT app_svc_panel_settings_reference_complete CHECK ((((reference_field_ids IS NULL) = (reference_agreement IS NULL)) AND ((reference_field_ids IS NULL) = (reference_tolerances IS NULL)))),
  CONSTRAINT app_svc_panel_settings_reference_field_ids_check CHECK (((reference_field_ids IS NULL) OR (cardinality(reference_field_ids) = 2))),
  CONSTRAINT app_svc_panel_settings_tolerance_check CHECK ((tolerance >= (0)::double precision))
);

CREATE TABLE app_svc_participant_audit (
  id bigint NOT NULL DEFAULT nextval('app_svc_participant_audit_id_seq'::regclass),
  at timestamp with time zone NOT NULL DEFAULT now(),
  event_id integer NOT NULL,
  actor text,
  action text NOT NULL,
  participant_ids integer[] NOT NULL DEFAULT '{}'::integer[],
  score_ids integer[] NOT NULL DEFAULT '{}'::integer[],
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  CONSTRAINT app_svc_participant_audit_action_check CHECK ((action = ANY (ARRAY['late-entry'::text, 'import'::text, 'did-not-start'::text, 'out-of-competition'::text]))),
  CONSTRAINT app_svc_participant_audit_pkey PRIMARY KEY (id)
);

CREATE TABLE app_svc_releases (
  competition_id integer NOT NULL,
  discipline_id integer NOT NULL,
  squad_name text NOT NULL DEFAULT ''::text,
  released_at timestamp with time zone NOT NULL DEFAULT now(),
  released_by text NOT NULL,
  CONSTRAINT app_svc_releases_pkey PRIMARY KEY (competition_id, discipline_id, squad_name)
);

CREATE TABLE app_svc_rotation_plans (
  event_id integer NOT NULL,
  current_rotation integer,
  current_started_at timestamp with time zone,
  current_started_by text,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  CONSTRAINT app_svc_rotation_plans_event_id_fkey FOREIGN KEY (event_id) REFERENCES app_veranstaltungen(int_veranstaltungenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_rotation_plans_pkey PRIMARY KEY (event_id)
);

CREATE TABLE app_svc_rotation_slots (
  event_id integer NOT NULL,
  rotation integer NOT NULL,
  discipline_id integer NOT NULL,
  squad_name text NOT NULL,
  judges text[] NOT NULL DEFAULT '{}'::text[],
  CONSTRAINT app_svc_rotation_slots_discipline_id_fkey FOREIGN KEY (discipline_id) REFERENCES app_disziplinen(int_disziplinenid) ON DELETE CASCADE,
  CONSTRAINT app_svc_rotation_slots_event_id_rotation_fkey FOREIGN KEY (event_id, rotation) REFERENCES app_svc_rotations(event_id, rotation) ON DELETE CASCADE,
  CONSTRAINT app_svc_rotation_slots_event_id_rotation_squad_name_key UNIQUE (event_id, rotation, squad_name),
  CONSTRAINT app_svc_rotation_slots_pkey PRIMARY KEY (event_id, rotation, discipline_id)
);

CREATE TABLE app_svc_rotations (
  event_id integer NOT NULL,
  rotation integer NOT NULL,
  planned_start timestamp with time zone NOT NULL,
  CONSTRAINT app_svc_rotations_event_id_fkey FOREIGN KEY (event_id) REFERENCES app_svc_rotation_plans(event_id) ON DELETE CASCADE,
  CONSTRAINT app_svc_rotations_pkey PRIMARY KEY (event_id, rotation),
  CONSTRAINT app_svc_rotations_rotation_check CHECK ((rotation > 0))
);

CREATE TABLE app_svc_score_audit (
  id bigint NOT NULL DEFAULT nextval('app_svc_score_audit_id_seq'::regclass),
  at timestamp with time zone NOT NULL DEFAULT clock_timestamp(),
  xact xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id integer,
  competition_id integer,
  score_id integer,
  discipline_id integer NOT NULL,
  field_id integer,
  attempt integer,
  old_value real,
  new_value real,
  source text NOT NULL,
  actor text NOT NULL,
  after_release boolean NOT NULL DEFAULT false,
  via_copy boolean NOT NULL DEFAULT false,
  kind text,
  squad_name text,
  CONSTRAINT app_svc_score_audit_pkey PRIMARY KEY (id)
);

CREATE TABLE app_svc_settings (
  key text NOT NULL,
  value jsonb NOT NULL,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT app_svc_settings_pkey PRIMARY KEY (key)
);

CREATE TABLE app_svc_spectator_hidden (
  participant_id integer NOT NULL,
  hidden_at timestamp with time zone NOT NULL DEFAULT now(),
  hidden_by text,
  CONSTRAINT app_svc_spectator_hidden_pkey PRIMARY KEY (participant_id)
);

CREATE TABLE app_svc_spectator_settings (
  event_id integer NOT NULL,
  publish text NOT NULL DEFAULT 'released'::text,
  updated_at timestamp with time zone NOT NULL DEFAULT now(),
  updated_by text,
  CONSTRAINT app_svc_spectator_settings_pkey PRIMARY KEY (event_id),
  CONSTRAINT app_svc_spectator_settings_publish_check CHECK ((publish = ANY (ARRAY['released'::text, 'all'::text])))
);

CREATE TABLE app_svc_squad_audit (
  id bigint NOT NULL DEFAULT nextval('app_svc_squad_audit_id_seq'::regclass),
  at timestamp with time zone NOT NULL DEFAULT now(),
  event_id integer NOT NULL,
  actor text,
  action text NOT NULL,
  squad_name text,
  new_name text,
  participant_ids integer[] NOT NULL DEFAULT '{}'::integer[],
  rows_changed integer NOT NULL,
  CONSTRAINT app_svc_squad_audit_action_check CHECK ((action = ANY (ARRAY['apply'::text, 'move'::text, 'create'::text, 'rename'::text, 'delete'::text]))),
  CONSTRAINT app_svc_squad_audit_pkey PRIMARY KEY (id)
);

CREATE TABLE app_teilnehmer (
  int_teilnehmerid integer NOT NULL DEFAULT nextval('app_teilnehmer_int_teilnehmerid_seq'::regclass),
  var_vorname character varying(100),
  var_nachname character varying(100),
  var_startnummer character varying(20),
  int_vereineid integer,
  int_eventid integer,
  var_typ character varying(20),
  int_geschlecht integer,
  dat_geburtstag date,
  CONSTRAINT app_teilnehmer_int_eventid_fkey FOREIGN KEY (int_eventid) REFERENCES app_veranstaltungen(int_veranstaltungenid),
  CONSTRAINT app_teilnehmer_int_vereineid_fkey FOREIGN KEY (int_vereineid) REFERENCES app_vereine(int_vereineid),
  CONSTRAINT app_teilnehmer_pkey PRIMARY KEY (int_teilnehmerid)
);

CREATE TABLE app_veranstaltungen (
  int_veranstaltungenid integer NOT NULL DEFAULT nextval('app_veranstaltungen_int_veranstaltungenid_seq'::regclass),
  var_name character varying(100) NOT NULL,
  dat_von date,
  dat_bis date,
  CONSTRAINT app_veranstaltungen_pkey PRIMARY KEY (int_veranstaltungenid)
);

CREATE TABLE app_vereine (
  int_vereineid integer NOT NULL DEFAULT nextval('app_vereine_int_vereineid_seq'::regclass),
  var_name character varying(100) NOT NULL,
  CONSTRAINT app_vereine_pkey PRIMARY KEY (int_vereineid)
);

CREATE TABLE app_wertungen (
  int_wertungenid integer NOT NULL DEFAULT nextval('app_wertungen_int_wertungenid_seq'::regclass),
  int_wettkaempfeid integer NOT NULL,
  int_teilnehmerid integer,
  int_gruppenid integer,
  int_mannschaftenid integer,
  int_statusid integer NOT NULL,
  int_runde smallint DEFAULT 1,
  int_startnummer integer,
  bol_ak boolean DEFAULT false,
  bol_startet_nicht boolean DEFAULT false,
  var_riege character varying(5),
  var_comment character varying(150),
  CONSTRAINT app_wertungen_int_gruppenid_fkey FOREIGN KEY (int_gruppenid) REFERENCES app_gruppen(int_gruppenid),
  CONSTRAINT app_wertungen_int_mannschaftenid_fkey FOREIGN KEY (int_mannschaftenid) REFERENCES app_mannschaften(int_mannschaftenid),
  CONSTRAINT app_wertungen_int_statusid_fkey FOREIGN KEY (int_statusid) REFERENCES app_status(int_statusid),
  CONSTRAINT app_wertungen_int_teilnehmerid_fkey FOREIGN KEY (int_teilnehmerid) REFERENCES app_teilnehmer(int_teilnehmerid),
  CONSTRAINT app_wertungen_int_wettkaempfeid_fkey FOREIGN KEY (int_wettkaempfeid) REFERENCES app_wettkaempfe(int_wettkaempfeid),
  CONSTRAINT app_wertungen_pkey PRIMARY KEY (int_wertungenid)
);

CREATE TABLE app_wertungen_details (
  int_wertungen_detailsid integer NOT NULL DEFAULT nextval('app_wertungen_details_int_wertungen_detailsid_seq'::regclass),
  int_wertungenid integer NOT NULL,
  int_disziplinenid integer NOT NULL,
  int_versuch smallint DEFAULT 1,
  rel_leistung real,
  int_kp smallint DEFAULT 0,
  CONSTRAINT app_wertungen_details_int_disziplinenid_fkey FOREIGN KEY (int_disziplinenid) REFERENCES app_disziplinen(int_disziplinenid),
  CONSTRAINT app_wertungen_details_int_wertungenid_fkey FOREIGN KEY (int_wertungenid) REFERENCES app_wertungen(int_wertungenid) ON DELETE CASCADE,
  CONSTRAINT app_wertungen_details_pkey PRIMARY KEY (int_wertungen_detailsid)
);

CREATE TABLE app_wettkaempfe (
  int_wettkaempfeid integer NOT NULL DEFAULT nextval('app_wettkaempfe_int_wettkaempfeid_seq'::regclass),
  int_veranstaltungenid integer NOT NULL,
  var_name character varying(100),
  bol_gruppe boolean DEFAULT false,
  int_versuche integer DEFAULT 1,
  CONSTRAINT app_wettkaempfe_int_veranstaltungenid_fkey FOREIGN KEY (int_veranstaltungenid) REFERENCES app_veranstaltungen(int_veranstaltungenid),
  CONSTRAINT app_wettkaempfe_pkey PRIMARY KEY (int_wettkaempfeid)
);

-- Sequences

CREATE SEQUENCE app_bereiche_int_bereicheid_seq;

CREATE SEQUENCE app_disziplinen_felder_int_disziplinen_felderid_seq;

CREATE SEQUENCE app_disziplinen_int_disziplinenid_seq;

CREATE SEQUENCE app_formeln_int_formelid_seq;

CREATE SEQUENCE app_gruppen_int_gruppenid_seq;

CREATE SEQUENCE app_jury_results_int_juryresultsid_seq;

CREATE SEQUENCE app_mannschaften_int_mannschaftenid_seq;

CREATE SEQUENCE app_sport_int_sportid_seq;

CREATE SEQUENCE app_svc_inquiries_id_seq;

CREATE SEQUENCE app_svc_judge_credentials_id_seq;

CREATE SEQUENCE app_svc_outbox_id_seq;

CREATE SEQUENCE app_svc_outbox_seq;

CREATE SEQUENCE app_svc_participant_audit_id_seq;

CREATE SEQUENCE app_svc_score_audit_id_seq;

CREATE SEQUENCE app_svc_squad_audit_id_seq;

CREATE SEQUENCE app_teilnehmer_int_teilnehmerid_seq;

CREATE SEQUENCE app_veranstaltungen_int_veranstaltungenid_seq;

CREATE SEQUENCE app_vereine_int_vereineid_seq;

CREATE SEQUENCE app_wertungen_details_int_wertungen_detailsid_seq;

CREATE SEQUENCE app_wertungen_int_wertungenid_seq;

CREATE SEQUENCE app_wettkaempfe_int_wettkaempfeid_seq;

-- Indexes

CREATE INDEX app_felder_discipline_idx ON app_disziplinen_felder USING btree (int_disziplinenid);

CREATE UNIQUE INDEX app_jury_results_score_field_attempt_key ON app_jury_results USING btree (int_wertungenid, int_disziplinen_felderid, int_versuch);

CREATE INDEX app_svc_group_members_participant ON app_svc_group_members USING btree (participant_id);

CREATE INDEX app_svc_inquiries_event_idx ON app_svc_inquiries USING btree (event_id, id);

CREATE INDEX app_svc_judge_credentials_event_idx ON app_svc_judge_credentials USING btree (event_id);

CREATE INDEX app_svc_outbox_event_seq_idx ON app_svc_outbox USING btree (event_id, seq) WHERE (seq IS NOT NULL);

CREATE UNIQUE INDEX app_svc_outbox_seq_unique ON app_svc_outbox USING btree (seq) WHERE (seq IS NOT NULL);

CREATE INDEX app_svc_outbox_sequenced_idx ON app_svc_outbox USING btree (sequenced_at) WHERE (sequenced_at IS NOT NULL);

CREATE INDEX app_svc_outbox_unsequenced_idx ON app_svc_outbox USING btree (id) WHERE (seq IS NULL);

CREATE INDEX app_svc_panel_deviations_event_idx ON app_svc_panel_deviations USING btree (event_id) WHERE (state = 'open'::text);

CREATE INDEX app_svc_participant_audit_event_idx ON app_svc_participant_audit USING btree (event_id, id);

CREATE INDEX app_svc_score_audit_event_idx ON app_svc_score_audit USING btree (event_id, id);

CREATE UNIQUE INDEX app_svc_score_audit_merge_key ON app_svc_score_audit USING btree (xact, score_id, discipline_id, COALESCE(field_id, 0), COALESCE(attempt, 0));

CREATE INDEX app_svc_score_audit_score_idx ON app_svc_score_audit USING btree (score_id, id);

CREATE INDEX app_svc_squad_audit_event_idx ON app_svc_squad_audit USING btree (event_id, id);

CREATE INDEX app_teilnehmer_event_type_idx ON app_teilnehmer USING btree (int_eventid, var_typ);

CREATE INDEX app_wertungen_competition_idx ON app_wertungen USING btree (int_wettkaempfeid);

CREATE UNIQUE INDEX app_wertungen_details_score_discipline_attempt_field_key ON app_wertungen_details USING btree (int_wertungenid, int_disziplinenid, int_versuch, int_kp);

CREATE INDEX app_wertungen_group_idx ON app_wertungen USING btree (int_gruppenid);

CREATE INDEX app_wertungen_participant_idx ON app_wertungen USING btree (int_teilnehmerid);

CREATE INDEX app_wertungen_team_idx ON app_wertungen USING btree (int_mannschaftenid);

CREATE INDEX app_wettkaempfe_event_idx ON app_wettkaempfe USING btree (int_veranstaltungenid);

-- Functions

CREATE OR REPLACE FUNCTION app_svc_apply_legacy_captures(p_ids bigint[])
 RETURNS bigint[]
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_unchanged bigint[];
  v_dropped bigint[];
BEGIN
  WITH captured AS (
    SELECT c.id, c.created_at, x.*
      FROM app_svc_outbox c
     CROSS JOIN LATERAL jsonb_to_record(c.payload) AS x (
       "table" text, "row" integer, score integer, field integer, discipline integer, kp integer, attempt integer,
       old real, new real, audit boolean, event boolean, xact text, actor text)
     WHERE c.id = ANY (p_ids) AND c.topic = 'legacy-score' AND c.seq IS NULL
  ), resolved AS (
    -- Against the fields as they are now: a jury result's field names its discipline, and a final
    -- field's result is a copy of the final (no field, via_copy); a detail row's component is no
    -- field when it is the final (int_kp 0, or a field flagged final). A jury result of an unknown
    -- field records nothing and makes no event, as before.
    SELECT cap.*,
           COALESCE(cap.discipline, jf.int_disziplinenid) AS discipline_id,
           CASE WHEN cap."table" = 'jury' THEN CASE WHEN jf.bol_endwert THEN NULL ELSE cap.field END
                WHEN COALESCE(cap.kp, 0) = 0 OR kf.int_disziplinen_felderid IS NOT NULL THEN NULL
                ELSE cap.kp END AS field_id,
           cap."table" = 'jury' AND COALESCE(jf.bol_endwert, false) AS via_copy,
           cap."table" = 'jury' OR COALESCE(cap.kp, 0) = 0 OR kf.int_disziplinen_felderid IS NOT NULL AS final
      FROM captured cap
      LEFT JOIN app_disziplinen_felder jf ON cap."table" = 'jury' AND jf.int_disziplinen_felderid = cap.field
      LEFT JOIN app_disziplinen_felder kf ON cap."table" = 'detail' AND kf.int_disziplinen_felderid = cap.kp
                                               AND kf.int_disziplinenid = cap.discipline AND kf.bol_endwert
     WHERE cap.score IS NOT NULL AND (cap."table" = 'detail' OR jf.int_disziplinen_felderid IS NOT NULL)
  ), merged AS (
    -- One transaction's changes of one value become one record: its first old value (a copy's
    -- gives way to a direct change's, as 0013's merge does), its last new value.
    SELECT min(r.created_at) AS at, r.xact, r.score, r.discipline_id,
           (array_agg(r.field_id ORDER BY r.id))[1] AS field_id,
           (array_agg(r.attempt ORDER BY r.id))[1] AS attempt,
           CASE WHEN bool_or(NOT r.via_copy) AND (array_agg(r.via_copy ORDER BY r.id))[1]
                THEN (array_agg(r.old ORDER BY r.id) FILTER (WHERE NOT r.via_copy))[1]
                ELSE (array_agg(r.old ORDER BY r.id))[1] END AS old_value,
           (array_agg(r.new ORDER BY r.id DESC))[1] AS new_value,
           bool_and(r.via_copy) AS via_copy,
           (array_agg(r.actor ORDER BY r.id))[1] AS actor,
           min(r.id) AS first_id
      FROM resolved r
     WHERE r.audit AND r.discipline_id IS NOT NULL
     GROUP BY r.xact, r.score, r.discipline_id, COALESCE(r.field_id, 0), COALESCE(r.attempt, 0)
  ), recorded AS (
    INSERT INTO app_svc_score_audit AS a
           (at, xact, event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, via_copy)
    SELECT m.at, m.xact::xid8, ev.int_veranstaltungenid, w.int_wettkaempfeid, m.score, m.discipline_id, m.field_id, m.attempt,
           m.old_value, m.new_value, 'legacy', m.actor,
           COALESCE(app_svc_scope_released(w.int_wettkaempfeid, m.discipline_id, w.var_riege), false), m.via_copy
      FROM merged m
      LEFT JOIN app_wertungen w ON w.int_wertungenid = m.score
      LEFT JOIN app_wettkaempfe ev ON ev.int_wettkaempfeid = w.int_wettkaempfeid
     ORDER BY m.first_id
    ON CONFLICT (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0))) DO UPDATE
       SET new_value = EXCLUDED.new_value,
           old_value = CASE WHEN a.via_copy AND NOT EXCLUDED.via_copy THEN EXCLUDED.old_value ELSE a.old_value END,
           via_copy = a.via_copy AND EXCLUDED.via_copy,
           after_release = a.after_release OR EXCLUDED.after_release
    RETURNING a.id, a.old_value IS NOT DISTINCT FROM a.new_value AS unchanged
  ), chosen AS (
    -- A jury result's changes make one event per transaction, score and discipline, in the place
    -- of the first; a final detail row's each make their own.
    SELECT DISTINCT ON (r."table", r.xact, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r.id END)
           r.id, r.created_at, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r."row" END AS detail_id,
           CASE WHEN r."table" = 'detail' THEN to_jsonb(r.new) END AS written
      FROM resolved r
     WHERE r.event AND r.final AND r.discipline_id IS NOT NULL
     ORDER BY r."table", r.xact, r.score, r.discipline_id, CASE WHEN r."table" = 'detail' THEN r.id END, r.id
  ), built AS (
    UPDATE app_svc_outbox o
       SET topic = e.topic, event_id = e.event_id,
           payload = e.payload
                  || jsonb_build_object('timestamp', to_char(ch.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                  || CASE WHEN ch.detail_id IS NULL THEN '{}'::jsonb
                          ELSE jsonb_build_object('score', ch.written, 'finalScore', ch.written, 'storedScore', ch.written) END
      FROM chosen ch
     CROSS JOIN LATERAL (
       SELECT f.topic, f.event_id, f.payload FROM app_svc_legacy_final_event(ch.score, ch.discipline_id) f WHERE ch.detail_id IS NULL
       UNION ALL
       SELECT d.topic, d.event_id, d.payload FROM app_svc_legacy_score_event(ch.score, ch.discipline_id, ch.detail_id) d WHERE ch.detail_id IS NOT NULL
     ) e
     WHERE o.id = ch.id
    RETURNING o.id
  ), dropped AS (
    DELETE FROM app_svc_outbox d
     WHERE d.id = ANY (p_ids) AND d.topic = 'legacy-score' AND d.seq IS NULL AND d.id NOT IN (SELECT id FROM built)
    RETURNING d.id
  )
  SELECT (SELECT array_agg(recorded.id) FROM recorded WHERE recorded.unchanged), (SELECT array_agg(dropped.id) FROM dropped)
    INTO v_unchanged, v_dropped;
  IF v_unchanged IS NOT NULL THEN
    DELETE FROM app_svc_score_audit WHERE id = ANY (v_unchanged);
  END IF;
  RETURN COALESCE(v_dropped, '{}');
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_change(p_score integer, p_discipline integer, p_field integer, p_attempt integer, p_old real, p_new real, p_via_copy boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_api boolean := current_setting('gym.origin', true) = 'api';
  v_competition integer;
  v_released boolean;
  v_id bigint;
  v_unchanged boolean;
BEGIN
  WITH scope AS (
    SELECT w.int_wettkaempfeid AS competition_id, c.int_veranstaltungenid AS event_id,
           COALESCE(app_svc_scope_released(w.int_wettkaempfeid, p_discipline, w.var_riege), false) AS released
      FROM (SELECT p_score AS score_id) s
      LEFT JOIN app_wertungen w ON w.int_wertungenid = s.score_id
      LEFT JOIN app_wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  ), recorded AS (
    INSERT INTO app_svc_score_audit AS a
           (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value, source, actor, after_release, via_copy)
    SELECT scope.event_id, scope.competition_id, p_score, p_discipline, p_field, p_attempt, p_old, p_new,
           CASE WHEN v_api THEN 'api' ELSE 'legacy' END,
           CASE WHEN v_api THEN COALESCE(NULLIF(current_setting('gym.actor', true), ''), 'service')
                ELSE COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text) END,
           scope.released, p_via_copy
      FROM scope
    ON CONFLICT (xact, score_id, discipline_id, (COALESCE(field_id, 0)), (COALESCE(attempt, 0))) DO UPDATE
       SET new_value = EXCLUDED.new_value,
           old_value = CASE WHEN a.via_copy AND NOT EXCLUDED.via_copy THEN EXCLUDED.old_value ELSE a.old_value END,
           via_copy = a.via_copy AND EXCLUDED.via_copy,
           after_release = a.after_release OR EXCLUDED.after_release
    RETURNING a.id, a.old_value IS NOT DISTINCT FROM a.new_value AS unchanged
  )
  SELECT recorded.id, recorded.unchanged, scope.released, scope.competition_id
    INTO v_id, v_unchanged, v_released, v_competition
    FROM recorded, scope;
  IF v_released AND v_api AND COALESCE(current_setting('gym.role', true), '') NOT IN ('head', 'admin', 'system') THEN
    RAISE EXCEPTION 'released; ask the head judge to reopen'
      USING ERRCODE = 'GY409', DETAIL = format('competition %s, discipline %s', v_competition, p_discipline);
  END IF;
  IF v_unchanged THEN
    DELETE FROM app_svc_score_audit WHERE id = v_id;
  ELSIF v_api AND p_field IS NULL AND NOT p_via_copy THEN
    WITH latest AS (
      SELECT r.id, r.new_value, r.source, r.actor, r.xact, r.via_copy
        FROM app_svc_score_audit r
       WHERE r.score_id = p_score AND r.discipline_id = p_discipline AND r.field_id IS NULL
         AND r.attempt IS NOT DISTINCT FROM p_attempt AND r.kind IS NULL AND r.id < v_id
       ORDER BY r.id DESC
       LIMIT 1
    ), merged AS (
      UPDATE app_svc_score_audit a
         SET via_copy = false, old_value = mine.old_value, after_release = a.after_release OR mine.after_release
        FROM latest, app_svc_score_audit mine
       WHERE a.id = latest.id AND mine.id = v_id AND latest.via_copy AND latest.xact <> mine.xact
         AND latest.source = 'api' AND latest.actor = mine.actor AND latest.new_value IS NOT DISTINCT FROM mine.new_value
         AND mine.old_value IS DISTINCT FROM mine.new_value
      RETURNING a.id
    )
    DELETE FROM app_svc_score_audit WHERE id = v_id AND EXISTS (SELECT 1 FROM merged);
  END IF;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_detail_field(p_discipline integer, p_kp integer)
 RETURNS integer
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  IF COALESCE(p_kp, 0) = 0 THEN
    RETURN NULL;
  END IF;
  IF EXISTS (SELECT 1 FROM app_disziplinen_felder f
              WHERE f.int_disziplinen_felderid = p_kp AND f.int_disziplinenid = p_discipline AND f.bol_endwert) THEN
    RETURN NULL;
  END IF;
  RETURN p_kp;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_details()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.int_wertungenid = NEW.int_wertungenid AND OLD.int_disziplinenid = NEW.int_disziplinenid
     AND OLD.int_versuch IS NOT DISTINCT FROM NEW.int_versuch AND OLD.int_kp IS NOT DISTINCT FROM NEW.int_kp THEN
    PERFORM app_svc_audit_change(NEW.int_wertungenid, NEW.int_disziplinenid,
      app_svc_audit_detail_field(NEW.int_disziplinenid, NEW.int_kp), NEW.int_versuch, OLD.rel_leistung, NEW.rel_leistung, false);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.rel_leistung IS NOT NULL THEN
    PERFORM app_svc_audit_change(OLD.int_wertungenid, OLD.int_disziplinenid,
      app_svc_audit_detail_field(OLD.int_disziplinenid, OLD.int_kp), OLD.int_versuch, OLD.rel_leistung, NULL, false);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.rel_leistung IS NOT NULL THEN
    PERFORM app_svc_audit_change(NEW.int_wertungenid, NEW.int_disziplinenid,
      app_svc_audit_detail_field(NEW.int_disziplinenid, NEW.int_kp), NEW.int_versuch, NULL, NEW.rel_leistung, false);
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_jury()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.int_wertungenid IS NOT DISTINCT FROM NEW.int_wertungenid
     AND OLD.int_disziplinen_felderid IS NOT DISTINCT FROM NEW.int_disziplinen_felderid
     AND OLD.int_versuch IS NOT DISTINCT FROM NEW.int_versuch THEN
    PERFORM app_svc_audit_change(NEW.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       NEW.int_versuch, OLD.rel_leistung, NEW.rel_leistung, COALESCE(f.bol_endwert, false))
       FROM app_disziplinen_felder f
      WHERE f.int_disziplinen_felderid = NEW.int_disziplinen_felderid AND NEW.int_wertungenid IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.rel_leistung IS NOT NULL THEN
    PERFORM app_svc_audit_change(OLD.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       OLD.int_versuch, OLD.rel_leistung, NULL, COALESCE(f.bol_endwert, false))
       FROM app_disziplinen_felder f
      WHERE f.int_disziplinen_felderid = OLD.int_disziplinen_felderid AND OLD.int_wertungenid IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.rel_leistung IS NOT NULL THEN
    PERFORM app_svc_audit_change(NEW.int_wertungenid, f.int_disziplinenid, CASE WHEN f.bol_endwert THEN NULL ELSE f.int_disziplinen_felderid END,
                                       NEW.int_versuch, NULL, NEW.rel_leistung, COALESCE(f.bol_endwert, false))
       FROM app_disziplinen_felder f
      WHERE f.int_disziplinen_felderid = NEW.int_disziplinen_felderid AND NEW.int_wertungenid IS NOT NULL;
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_release_row(p_competition integer, p_discipline integer, p_squad text, p_kind text, p_released_by text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_api boolean := current_setting('gym.origin', true) = 'api';
BEGIN
  INSERT INTO app_svc_score_audit
         (event_id, competition_id, score_id, discipline_id, field_id, attempt, old_value, new_value,
          source, actor, after_release, kind, squad_name)
  SELECT c.int_veranstaltungenid, p_competition, NULL, p_discipline, NULL, NULL, NULL, NULL,
         CASE WHEN v_api THEN 'api' ELSE 'legacy' END,
         CASE WHEN v_api THEN COALESCE(NULLIF(current_setting('gym.actor', true), ''), p_released_by, 'service')
              ELSE COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text) END,
         false, p_kind, NULLIF(p_squad, '')
    FROM (SELECT 1) AS one
    LEFT JOIN app_wettkaempfe c ON c.int_wettkaempfeid = p_competition;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_audit_releases()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.competition_id = NEW.competition_id AND OLD.discipline_id = NEW.discipline_id
     AND OLD.squad_name = NEW.squad_name THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM app_svc_audit_release_row(OLD.competition_id, OLD.discipline_id, OLD.squad_name, 'reopen', NULL);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM app_svc_audit_release_row(NEW.competition_id, NEW.discipline_id, NEW.squad_name, 'release', NEW.released_by);
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_legacy_capture(p_table text, p_row integer, p_score integer, p_place integer, p_kp integer, p_attempt integer, p_old real, p_new real, p_audit boolean, p_event boolean, p_xact text, p_actor text)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object('table', p_table, 'row', p_row, 'score', p_score,
                            CASE WHEN p_table = 'jury' THEN 'field' ELSE 'discipline' END, p_place,
                            'kp', p_kp, 'attempt', p_attempt, 'old', p_old, 'new', p_new,
                            'audit', p_audit, 'event', p_event, 'xact', p_xact, 'actor', p_actor)
$function$
;

CREATE OR REPLACE FUNCTION app_svc_legacy_detail_events()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_xact text;
  v_actor text;
BEGIN
  IF current_setting('gym.origin', true) = 'api' THEN
    RETURN NULL;
  END IF;
  v_xact := pg_current_xact_id()::text;
  v_actor := COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('detail', n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid,
             n.int_kp, n.int_versuch, NULL, n.rel_leistung, true, true, v_xact, v_actor)
      FROM new_rows n
     WHERE n.rel_leistung IS NOT NULL
     ORDER BY n.int_wertungen_detailsid;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('detail', side.row_id, side.score_id, side.discipline_id,
             side.kp, side.attempt, side.old_value, side.new_value, side.audited, side.makes_event, v_xact, v_actor)
      FROM new_rows n
      FULL JOIN old_rows o ON o.int_wertungen_detailsid = n.int_wertungen_detailsid
     CROSS JOIN LATERAL (
       SELECT 1, n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp, n.int_versuch, o.rel_leistung, n.rel_leistung, true, true
        WHERE n.int_wertungen_detailsid IS NOT NULL AND o.int_wertungen_detailsid IS NOT NULL
          AND (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS NOT DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp)
          AND o.rel_leistung IS DISTINCT FROM n.rel_leistung
       UNION ALL
       SELECT 1, o.int_wertungen_detailsid, o.int_wertungenid, o.int_disziplinenid, o.int_kp, o.int_versuch, o.rel_leistung, NULL, true, false
        WHERE o.rel_leistung IS NOT NULL AND (n.int_wertungen_detailsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp))
       UNION ALL
       SELECT 2, n.int_wertungen_detailsid, n.int_wertungenid, n.int_disziplinenid, n.int_kp, n.int_versuch, NULL, n.rel_leistung,
              n.rel_leistung IS NOT NULL, o.rel_leistung IS DISTINCT FROM n.rel_leistung
        WHERE (n.rel_leistung IS NOT NULL OR o.rel_leistung IS NOT NULL) AND (o.int_wertungen_detailsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinenid, o.int_versuch, o.int_kp) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinenid, n.int_versuch, n.int_kp))
     ) side (side_order, row_id, score_id, discipline_id, kp, attempt, old_value, new_value, audited, makes_event)
     ORDER BY side.row_id, side.side_order;
  ELSE
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('detail', o.int_wertungen_detailsid, o.int_wertungenid, o.int_disziplinenid,
             o.int_kp, o.int_versuch, o.rel_leistung, NULL, true, false, v_xact, v_actor)
      FROM old_rows o
     WHERE o.rel_leistung IS NOT NULL
     ORDER BY o.int_wertungen_detailsid;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('app_svc_outbox', '');
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_legacy_final_event(p_score integer, p_discipline integer)
 RETURNS TABLE(topic text, event_id integer, source text, payload jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT e.topic, e.event_id, e.source, e.payload
  FROM (SELECT p_score AS score_id, p_discipline AS discipline_id) s
  LEFT JOIN LATERAL (
    SELECT det.int_wertungen_detailsid AS detail_id
    FROM app_wertungen_details det
    WHERE det.int_wertungenid = s.score_id AND det.int_disziplinenid = s.discipline_id AND COALESCE(det.int_kp, 0) = 0
    ORDER BY det.int_versuch DESC NULLS LAST
    LIMIT 1
  ) latest ON true
  CROSS JOIN LATERAL app_svc_legacy_score_event(s.score_id, s.discipline_id, latest.detail_id) e
$function$
;

CREATE OR REPLACE FUNCTION app_svc_legacy_jury_events()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_xact text;
  v_actor text;
BEGIN
  IF current_setting('gym.origin', true) = 'api' THEN
    RETURN NULL;
  END IF;
  v_xact := pg_current_xact_id()::text;
  v_actor := COALESCE(NULLIF(current_setting('application_name', true), ''), session_user::text);
  IF TG_OP = 'INSERT' THEN
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('jury', n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid,
             NULL, n.int_versuch, NULL, n.rel_leistung, true, true, v_xact, v_actor)
      FROM new_rows n
     WHERE n.rel_leistung IS NOT NULL
     ORDER BY n.int_juryresultsid;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('jury', side.row_id, side.score_id, side.field_id,
             NULL, side.attempt, side.old_value, side.new_value, side.audited, side.makes_event, v_xact, v_actor)
      FROM new_rows n
      FULL JOIN old_rows o ON o.int_juryresultsid = n.int_juryresultsid
     CROSS JOIN LATERAL (
       SELECT 1, n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch, o.rel_leistung, n.rel_leistung, true, true
        WHERE n.int_juryresultsid IS NOT NULL AND o.int_juryresultsid IS NOT NULL
          AND (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS NOT DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch)
          AND o.rel_leistung IS DISTINCT FROM n.rel_leistung
       UNION ALL
       SELECT 1, o.int_juryresultsid, o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch, o.rel_leistung, NULL, true, false
        WHERE o.rel_leistung IS NOT NULL AND (n.int_juryresultsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch))
       UNION ALL
       SELECT 2, n.int_juryresultsid, n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch, NULL, n.rel_leistung,
              n.rel_leistung IS NOT NULL, o.rel_leistung IS DISTINCT FROM n.rel_leistung
        WHERE (n.rel_leistung IS NOT NULL OR o.rel_leistung IS NOT NULL) AND (o.int_juryresultsid IS NULL
          OR (o.int_wertungenid, o.int_disziplinen_felderid, o.int_versuch) IS DISTINCT FROM (n.int_wertungenid, n.int_disziplinen_felderid, n.int_versuch))
     ) side (side_order, row_id, score_id, field_id, attempt, old_value, new_value, audited, makes_event)
     ORDER BY side.row_id, side.side_order;
  ELSE
    INSERT INTO app_svc_outbox (topic, source, payload)
    SELECT 'legacy-score', 'legacy', app_svc_legacy_capture('jury', o.int_juryresultsid, o.int_wertungenid, o.int_disziplinen_felderid,
             NULL, o.int_versuch, o.rel_leistung, NULL, true, false, v_xact, v_actor)
      FROM old_rows o
     WHERE o.rel_leistung IS NOT NULL
     ORDER BY o.int_juryresultsid;
  END IF;
  IF FOUND THEN
    PERFORM pg_notify('app_svc_outbox', '');
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_legacy_score_event(p_score integer, p_discipline integer, p_detail integer)
 RETURNS TABLE(topic text, event_id integer, source text, payload jsonb)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT 'score-updated', c.int_veranstaltungenid, 'legacy', jsonb_build_object(
    'scoreId', w.int_wertungenid,
    'eventId', c.int_veranstaltungenid,
    'competitionId', w.int_wettkaempfeid,
    'participantId', w.int_teilnehmerid,
    'disciplineId', d.int_disziplinenid,
    'disciplineName', d.var_name,
    'firstname', p.var_vorname,
    -- group and team scores have no participant; their name stands where a scoreboard shows one
    'lastname', COALESCE(p.var_nachname, g.var_name, m.var_name),
    'score', det.rel_leistung,
    'finalScore', det.rel_leistung,
    'storedScore', det.rel_leistung,
    'hasFormula', COALESCE(NULLIF(btrim(f.var_formel), ''), NULLIF(btrim(d.var_formel), '')) IS NOT NULL,
    'timestamp', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'released', COALESCE(app_svc_scope_released(w.int_wettkaempfeid, d.int_disziplinenid, w.var_riege), false))
  FROM app_wertungen w
  JOIN app_wettkaempfe c ON c.int_wettkaempfeid = w.int_wettkaempfeid
  JOIN app_disziplinen d ON d.int_disziplinenid = p_discipline
  LEFT JOIN app_formeln f ON f.int_formelid = d.int_formelid
  LEFT JOIN app_teilnehmer p ON p.int_teilnehmerid = w.int_teilnehmerid
  LEFT JOIN app_gruppen g ON g.int_gruppenid = w.int_gruppenid
  LEFT JOIN app_mannschaften m ON m.int_mannschaftenid = w.int_mannschaftenid
  LEFT JOIN app_wertungen_details det ON det.int_wertungen_detailsid = p_detail
  WHERE w.int_wertungenid = p_score
$function$
;

CREATE OR REPLACE FUNCTION app_svc_limit_desktop_role(p_role name)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_legacy text[] := ARRAY['veranstaltungen', 'wettkaempfe', 'disziplinen', 'disziplinen_felder', 'formeln', 'teilnehmer', 'vereine',
                           'gruppen', 'mannschaften', 'wertungen', 'wertungen_details', 'jury_results', 'status', 'bereiche', 'sport'];
  v_object record;
BEGIN
  -- Whatever earlier grants gave it on this installation's tables and sequences (its own excepted).
  FOR v_object IN
    SELECT c.oid::regclass AS name, c.relkind = 'S' AS is_sequence
      FROM pg_class c
     WHERE c.relnamespace = current_schema()::regnamespace AND left(c.relname, length('app_')) = 'app_'
       AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relowner <> p_role::text::regrole
  LOOP
    EXECUTE format('REVOKE ALL ON %s %s FROM %I', CASE WHEN v_object.is_sequence THEN 'SEQUENCE' ELSE 'TABLE' END, v_object.name, p_role);
  END LOOP;
  FOR v_object IN
    SELECT to_regclass(format('%I.%I', current_schema(), 'app_' || legacy)) AS name FROM unnest(v_legacy) AS legacy
  LOOP
    CONTINUE WHEN v_object.name IS NULL;
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %s TO %I', v_object.name, p_role);
  END LOOP;
  FOR v_object IN
    SELECT d.objid::regclass AS name
      FROM pg_depend d
     WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
       AND d.refobjid IN (SELECT to_regclass(format('%I.%I', current_schema(), 'app_' || legacy)) FROM unnest(v_legacy) AS legacy)
       AND (SELECT c.relkind FROM pg_class c WHERE c.oid = d.objid) = 'S'
  LOOP
    EXECUTE format('GRANT USAGE, SELECT, UPDATE ON SEQUENCE %s TO %I', v_object.name, p_role);
  END LOOP;
  EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM %I', current_schema(), p_role);
  -- Default privileges an earlier start gave it on every future table.
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I REVOKE ALL ON TABLES FROM %I', current_schema(), p_role);
  EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I REVOKE ALL ON SEQUENCES FROM %I', current_schema(), p_role);
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_number_committed_events(p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET enable_bitmapscan TO 'off'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
  v_waiting bigint[];
  v_captures bigint[];
  v_dropped bigint[];
  v_read integer;
  v_events jsonb;
BEGIN
  SELECT array_agg(w.id ORDER BY w.id), array_agg(w.id ORDER BY w.id) FILTER (WHERE w.topic = 'legacy-score')
    INTO v_waiting, v_captures
    FROM (SELECT o.id, o.topic FROM app_svc_outbox o WHERE o.seq IS NULL ORDER BY o.id LIMIT p_limit) AS w;
  v_read := COALESCE(cardinality(v_waiting), 0);
  IF v_captures IS NOT NULL THEN
    v_dropped := app_svc_apply_legacy_captures(v_captures);
    SELECT array_agg(u.id ORDER BY u.ord) INTO v_waiting
      FROM unnest(v_waiting) WITH ORDINALITY AS u(id, ord)
     WHERE u.id <> ALL (v_dropped);
  END IF;
  IF v_waiting IS NOT NULL THEN
    WITH drawn AS MATERIALIZED (
      SELECT u.id, nextval('app_svc_outbox_seq') AS seq FROM unnest(v_waiting) AS u(id)
    ), numbering AS (
      UPDATE app_svc_outbox AS o SET seq = d.seq, sequenced_at = now()
        FROM drawn AS d
       WHERE o.id = d.id AND o.seq IS NULL
      RETURNING o.seq, o.topic, o.event_id, o.source, o.payload
    )
    SELECT jsonb_agg(to_jsonb(numbering) ORDER BY numbering.seq) INTO v_events FROM numbering;
  END IF;
  RETURN jsonb_build_object('read', v_read, 'events', COALESCE(v_events, '[]'::jsonb));
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_outbox_mark_released()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_released boolean;
BEGIN
  SELECT app_svc_scope_released(w.int_wettkaempfeid, (NEW.payload->>'disciplineId')::int, w.var_riege) INTO v_released
    FROM app_wertungen w WHERE w.int_wertungenid = (NEW.payload->>'scoreId')::int;
  NEW.payload := NEW.payload || jsonb_build_object('released', COALESCE(v_released, false));
  RETURN NEW;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_outbox_numbered_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  top bigint;
BEGIN
  IF current_setting('gym.numbered_notify', true) = 'quiet' THEN
    RETURN NULL;
  END IF;
  SELECT max(seq) INTO top FROM numbered;
  IF top IS NOT NULL THEN
    PERFORM pg_notify('app_svc_outbox', top::text);
  END IF;
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_outbox_replicated_notify()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('app_svc_outbox', '');
  RETURN NULL;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_refuse_released_move()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF (OLD.var_riege, OLD.int_wettkaempfeid) IS NOT DISTINCT FROM (NEW.var_riege, NEW.int_wettkaempfeid)
     OR NOT app_svc_service_marked() OR COALESCE(current_setting('gym.role', true), '') IN ('head', 'admin', 'system') THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(731048261, c.competition_id)
     FROM (SELECT DISTINCT unnest(ARRAY[OLD.int_wettkaempfeid, NEW.int_wettkaempfeid]) AS competition_id) c
    WHERE c.competition_id IS NOT NULL;
  IF EXISTS (
    SELECT 1
      FROM app_svc_releases r
     WHERE ((r.competition_id = OLD.int_wettkaempfeid AND r.squad_name IN ('', COALESCE(btrim(OLD.var_riege), '')))
            OR (r.competition_id = NEW.int_wettkaempfeid AND r.squad_name IN ('', COALESCE(btrim(NEW.var_riege), ''))))
       AND (EXISTS (SELECT 1 FROM app_wertungen_details d
                     WHERE d.int_wertungenid = OLD.int_wertungenid AND d.int_disziplinenid = r.discipline_id AND d.rel_leistung IS NOT NULL)
            OR EXISTS (SELECT 1 FROM app_jury_results j
                         JOIN app_disziplinen_felder f ON f.int_disziplinen_felderid = j.int_disziplinen_felderid
                        WHERE j.int_wertungenid = OLD.int_wertungenid AND f.int_disziplinenid = r.discipline_id AND j.rel_leistung IS NOT NULL))) THEN
    RAISE EXCEPTION 'released; ask the head judge to reopen'
      USING ERRCODE = 'GY409', DETAIL = format('score %s leaves or enters a released scope', OLD.int_wertungenid);
  END IF;
  RETURN NEW;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_scope_released(p_competition integer, p_discipline integer, p_squad text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM app_svc_releases r
     WHERE r.competition_id = p_competition AND r.discipline_id = p_discipline
       AND r.squad_name IN ('', COALESCE(btrim(p_squad), '')));
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_service_marked()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  IF current_setting('gym.origin', true) IS DISTINCT FROM 'api' THEN
    RETURN false;
  END IF;
  IF NOT pg_has_role(session_user, current_user, 'MEMBER') THEN
    RAISE EXCEPTION 'gym.origin is set by the service only' USING ERRCODE = '42501';
  END IF;
  RETURN true;
END;
$function$
;

CREATE OR REPLACE FUNCTION app_svc_take_release_scope()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF app_svc_service_marked() THEN
    PERFORM pg_advisory_xact_lock_shared(731048261, w.int_wettkaempfeid)
       FROM app_wertungen w
      WHERE w.int_wertungenid IN (OLD.int_wertungenid, NEW.int_wertungenid) AND w.int_wettkaempfeid IS NOT NULL;
  END IF;
  RETURN COALESCE(NEW, OLD);
END;
$function$
;

-- Triggers

CREATE TRIGGER app_svc_audit_jury_delete AFTER DELETE ON app_jury_results FOR EACH ROW WHEN (((old.rel_leistung IS NOT NULL) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_jury();

CREATE TRIGGER app_svc_audit_jury_insert AFTER INSERT ON app_jury_results FOR EACH ROW WHEN (((new.rel_leistung IS NOT NULL) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_jury();

CREATE TRIGGER app_svc_audit_jury_update AFTER UPDATE ON app_jury_results FOR EACH ROW WHEN (((((((old.rel_leistung IS DISTINCT FROM new.rel_leistung) OR (old.int_wertungenid IS DISTINCT FROM new.int_wertungenid)) OR (old.int_disziplinen_felderid IS DISTINCT FROM new.int_disziplinen_felderid)) OR (old.int_versuch IS DISTINCT FROM new.int_versuch)) OR (old.int_kp IS DISTINCT FROM new.int_kp)) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_jury();

CREATE TRIGGER app_svc_legacy_jury_delete AFTER DELETE ON app_jury_results REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_jury_events();

CREATE TRIGGER app_svc_legacy_jury_insert AFTER INSERT ON app_jury_results REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_jury_events();

CREATE TRIGGER app_svc_legacy_jury_update AFTER UPDATE ON app_jury_results REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_jury_events();

CREATE TRIGGER app_svc_release_scope_jury BEFORE INSERT OR DELETE OR UPDATE ON app_jury_results FOR EACH ROW WHEN ((current_setting('gym.origin'::text, true) = 'api'::text)) EXECUTE FUNCTION app_svc_take_release_scope();

CREATE TRIGGER app_svc_outbox_mark_released BEFORE INSERT ON app_svc_outbox FOR EACH ROW WHEN (((new.topic = 'score-updated'::text) AND (NOT (new.payload ? 'released'::text)))) EXECUTE FUNCTION app_svc_outbox_mark_released();

CREATE TRIGGER app_svc_outbox_notify AFTER UPDATE ON app_svc_outbox REFERENCING NEW TABLE AS numbered FOR EACH STATEMENT EXECUTE FUNCTION app_svc_outbox_numbered_notify();

CREATE TRIGGER app_svc_outbox_replicated_notify AFTER INSERT OR UPDATE ON app_svc_outbox FOR EACH ROW WHEN ((new.seq IS NOT NULL)) EXECUTE FUNCTION app_svc_outbox_replicated_notify();

CREATE TRIGGER app_svc_audit_releases AFTER INSERT OR DELETE OR UPDATE ON app_svc_releases FOR EACH ROW EXECUTE FUNCTION app_svc_audit_releases();

CREATE TRIGGER app_svc_release_move BEFORE UPDATE ON app_wertungen FOR EACH ROW WHEN ((current_setting('gym.origin'::text, true) = 'api'::text)) EXECUTE FUNCTION app_svc_refuse_released_move();

CREATE TRIGGER app_svc_audit_detail_delete AFTER DELETE ON app_wertungen_details FOR EACH ROW WHEN (((old.rel_leistung IS NOT NULL) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_details();

CREATE TRIGGER app_svc_audit_detail_insert AFTER INSERT ON app_wertungen_details FOR EACH ROW WHEN (((new.rel_leistung IS NOT NULL) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_details();

CREATE TRIGGER app_svc_audit_detail_update AFTER UPDATE ON app_wertungen_details FOR EACH ROW WHEN (((((((old.rel_leistung IS DISTINCT FROM new.rel_leistung) OR (old.int_wertungenid IS DISTINCT FROM new.int_wertungenid)) OR (old.int_disziplinenid IS DISTINCT FROM new.int_disziplinenid)) OR (old.int_versuch IS DISTINCT FROM new.int_versuch)) OR (old.int_kp IS DISTINCT FROM new.int_kp)) AND (current_setting('gym.origin'::text, true) = 'api'::text))) EXECUTE FUNCTION app_svc_audit_details();

CREATE TRIGGER app_svc_legacy_detail_delete AFTER DELETE ON app_wertungen_details REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_detail_events();

CREATE TRIGGER app_svc_legacy_detail_insert AFTER INSERT ON app_wertungen_details REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_detail_events();

CREATE TRIGGER app_svc_legacy_detail_update AFTER UPDATE ON app_wertungen_details REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_svc_legacy_detail_events();

CREATE TRIGGER app_svc_release_scope_detail BEFORE INSERT OR DELETE OR UPDATE ON app_wertungen_details FOR EACH ROW WHEN ((current_setting('gym.origin'::text, true) = 'api'::text)) EXECUTE FUNCTION app_svc_take_release_scope();
