-- Legacy operational layout (contract section 2). Every table is created only when missing so the
-- service can share a database the desktop program already uses; columns the service needs on an
-- existing legacy table are added as nullable columns, which never rewrites a row.

CREATE TABLE IF NOT EXISTS {{prefix}}bereiche (
  int_bereicheid serial PRIMARY KEY,
  var_name varchar(100) NOT NULL
);

CREATE TABLE IF NOT EXISTS {{prefix}}sport (
  int_sportid serial PRIMARY KEY,
  var_name varchar(100) NOT NULL
);

CREATE TABLE IF NOT EXISTS {{prefix}}veranstaltungen (
  int_veranstaltungenid serial PRIMARY KEY,
  var_name varchar(100) NOT NULL,
  dat_von date,
  dat_bis date
);

CREATE TABLE IF NOT EXISTS {{prefix}}wettkaempfe (
  int_wettkaempfeid serial PRIMARY KEY,
  int_veranstaltungenid integer NOT NULL REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid),
  var_name varchar(100),
  bol_gruppe boolean DEFAULT false,
  int_versuche integer DEFAULT 1
);

CREATE TABLE IF NOT EXISTS {{prefix}}vereine (
  int_vereineid serial PRIMARY KEY,
  var_name varchar(100) NOT NULL
);

CREATE TABLE IF NOT EXISTS {{prefix}}status (
  int_statusid integer PRIMARY KEY,
  var_name varchar(50)
);

CREATE TABLE IF NOT EXISTS {{prefix}}teilnehmer (
  int_teilnehmerid serial PRIMARY KEY,
  var_vorname varchar(100),
  var_nachname varchar(100),
  var_startnummer varchar(20),
  int_vereineid integer REFERENCES {{prefix}}vereine (int_vereineid),
  int_eventid integer REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid),
  var_typ varchar(20),
  int_geschlecht integer,
  dat_geburtstag date
);

CREATE TABLE IF NOT EXISTS {{prefix}}gruppen (
  int_gruppenid serial PRIMARY KEY,
  int_veranstaltungenid integer REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid),
  var_name varchar(100) NOT NULL,
  int_startnummer integer,
  int_vereineid integer REFERENCES {{prefix}}vereine (int_vereineid),
  var_riege varchar(5)
);

CREATE TABLE IF NOT EXISTS {{prefix}}mannschaften (
  int_mannschaftenid serial PRIMARY KEY,
  int_veranstaltungenid integer REFERENCES {{prefix}}veranstaltungen (int_veranstaltungenid),
  var_name varchar(100) NOT NULL,
  int_startnummer integer,
  int_vereineid integer REFERENCES {{prefix}}vereine (int_vereineid),
  var_riege varchar(5)
);

CREATE TABLE IF NOT EXISTS {{prefix}}formeln (
  int_formelid serial PRIMARY KEY,
  var_name varchar(100) NOT NULL,
  var_formel varchar(500) NOT NULL,
  var_typ varchar(20),
  int_typ integer,
  int_disziplinenid integer
);

CREATE TABLE IF NOT EXISTS {{prefix}}disziplinen (
  int_disziplinenid serial PRIMARY KEY,
  int_bereicheid integer REFERENCES {{prefix}}bereiche (int_bereicheid),
  int_sportid integer REFERENCES {{prefix}}sport (int_sportid),
  var_name varchar(100) NOT NULL,
  var_anzeigename varchar(100),
  var_kurzname varchar(20),
  bol_m boolean DEFAULT true,
  bol_w boolean DEFAULT true,
  int_extsystemid integer,
  var_formel varchar(500),
  int_formelid integer REFERENCES {{prefix}}formeln (int_formelid),
  var_eingabemaske varchar(20),
  int_berechnung integer
);
ALTER TABLE {{prefix}}disziplinen ADD COLUMN IF NOT EXISTS var_eingabemaske varchar(20);
ALTER TABLE {{prefix}}disziplinen ADD COLUMN IF NOT EXISTS int_berechnung integer;

CREATE TABLE IF NOT EXISTS {{prefix}}disziplinen_felder (
  int_disziplinen_felderid serial PRIMARY KEY,
  int_disziplinenid integer NOT NULL REFERENCES {{prefix}}disziplinen (int_disziplinenid),
  var_name varchar(50),
  var_kurzname varchar(10),
  int_reihenfolge integer,
  int_sortierung integer,
  bol_endwert boolean DEFAULT false,
  bol_ausgangswert boolean DEFAULT false,
  int_gruppe integer,
  bol_enabled boolean DEFAULT true
);
-- The two legacy layouts name the sort column differently; the service reads either and writes both.
ALTER TABLE {{prefix}}disziplinen_felder ADD COLUMN IF NOT EXISTS int_reihenfolge integer;
ALTER TABLE {{prefix}}disziplinen_felder ADD COLUMN IF NOT EXISTS int_sortierung integer;

CREATE TABLE IF NOT EXISTS {{prefix}}wertungen (
  int_wertungenid serial PRIMARY KEY,
  int_wettkaempfeid integer NOT NULL REFERENCES {{prefix}}wettkaempfe (int_wettkaempfeid),
  int_teilnehmerid integer REFERENCES {{prefix}}teilnehmer (int_teilnehmerid),
  int_gruppenid integer REFERENCES {{prefix}}gruppen (int_gruppenid),
  int_mannschaftenid integer REFERENCES {{prefix}}mannschaften (int_mannschaftenid),
  int_statusid integer NOT NULL REFERENCES {{prefix}}status (int_statusid),
  int_runde smallint DEFAULT 1,
  int_startnummer integer,
  bol_ak boolean DEFAULT false,
  bol_startet_nicht boolean DEFAULT false,
  var_riege varchar(5),
  var_comment varchar(150)
);

CREATE TABLE IF NOT EXISTS {{prefix}}wertungen_details (
  int_wertungen_detailsid serial PRIMARY KEY,
  int_wertungenid integer NOT NULL REFERENCES {{prefix}}wertungen (int_wertungenid) ON DELETE CASCADE,
  int_disziplinenid integer NOT NULL REFERENCES {{prefix}}disziplinen (int_disziplinenid),
  int_versuch smallint DEFAULT 1,
  rel_leistung real,
  int_kp smallint DEFAULT 0
);

CREATE TABLE IF NOT EXISTS {{prefix}}jury_results (
  int_juryresultsid serial PRIMARY KEY,
  int_wertungenid integer REFERENCES {{prefix}}wertungen (int_wertungenid) ON DELETE CASCADE,
  int_disziplinen_felderid integer REFERENCES {{prefix}}disziplinen_felder (int_disziplinen_felderid),
  rel_leistung real,
  int_versuch integer DEFAULT 1,
  int_kp integer DEFAULT 0
);

-- Insert-or-update keys. On a legacy database that already holds duplicates these fail loudly
-- instead of silently deleting someone's scores; the README says how to resolve that.
CREATE UNIQUE INDEX IF NOT EXISTS {{prefix}}jury_results_score_field_attempt_key
  ON {{prefix}}jury_results (int_wertungenid, int_disziplinen_felderid, int_versuch);
CREATE UNIQUE INDEX IF NOT EXISTS {{prefix}}wertungen_details_score_discipline_attempt_field_key
  ON {{prefix}}wertungen_details (int_wertungenid, int_disziplinenid, int_versuch, int_kp);

CREATE INDEX IF NOT EXISTS {{prefix}}wettkaempfe_event_idx ON {{prefix}}wettkaempfe (int_veranstaltungenid);
CREATE INDEX IF NOT EXISTS {{prefix}}teilnehmer_event_type_idx ON {{prefix}}teilnehmer (int_eventid, var_typ);
CREATE INDEX IF NOT EXISTS {{prefix}}wertungen_competition_idx ON {{prefix}}wertungen (int_wettkaempfeid);
CREATE INDEX IF NOT EXISTS {{prefix}}wertungen_participant_idx ON {{prefix}}wertungen (int_teilnehmerid);
CREATE INDEX IF NOT EXISTS {{prefix}}wertungen_group_idx ON {{prefix}}wertungen (int_gruppenid);
CREATE INDEX IF NOT EXISTS {{prefix}}wertungen_team_idx ON {{prefix}}wertungen (int_mannschaftenid);
CREATE INDEX IF NOT EXISTS {{prefix}}felder_discipline_idx ON {{prefix}}disziplinen_felder (int_disziplinenid);

INSERT INTO {{prefix}}status (int_statusid, var_name) VALUES (1, 'Pending'), (9, 'Leistung erfasst')
  ON CONFLICT (int_statusid) DO NOTHING;
