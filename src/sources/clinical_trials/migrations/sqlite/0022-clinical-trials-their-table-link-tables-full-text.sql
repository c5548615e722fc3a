-- name: clinical trials: their table, link tables, full text, narrow
-- Records migration 22 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS clinical_trials (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  brief_title TEXT,
  acronym TEXT,
  overall_status TEXT,
  phase TEXT,
  study_type TEXT,
  gender TEXT,
  study_minimum_age TEXT,
  study_maximum_age TEXT,
  study_participants INTEGER,
  start_date TEXT,
  end_date TEXT,
  date_inserted TEXT,
  registry TEXT,
  linkout TEXT,
  dimensions_url TEXT,
  altmetric REAL,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS clinical_trial_abstracts (pk INTEGER PRIMARY KEY, abstract TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clinical_trial_criteria (pk INTEGER PRIMARY KEY, study_eligibility_criteria TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clinical_trial_researchers (
  clinical_trial_pk INTEGER NOT NULL,
  researcher_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, researcher_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_researchers_postings (researcher_id TEXT PRIMARY KEY, clinical_trial_pks BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_research_orgs (
  clinical_trial_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_funders (
  clinical_trial_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_grants (
  clinical_trial_pk INTEGER NOT NULL,
  grant_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, grant_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_publications (
  clinical_trial_pk INTEGER NOT NULL,
  publication_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, publication_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_categories (
  clinical_trial_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (clinical_trial_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS clinical_trial_values (
  clinical_trial_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (clinical_trial_pk, field, value)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS clinical_trials_fts USING fts5(title, abstract, investigators, conditions, interventions, outcomes, criteria, affiliations, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS clinical_trials_fts_vocab USING fts5vocab(clinical_trials_fts, 'row');
CREATE TABLE IF NOT EXISTS clinical_trials_narrow (
  pk INTEGER PRIMARY KEY,
  id TEXT,
  start_date TEXT,
  overall_status TEXT,
  phase TEXT,
  study_type TEXT,
  study_participants INTEGER,
  study_minimum_age TEXT,
  study_maximum_age TEXT,
  n_researchers INTEGER NOT NULL DEFAULT 0,
  n_research_orgs INTEGER NOT NULL DEFAULT 0,
  n_funders INTEGER NOT NULL DEFAULT 0,
  n_publication_ids INTEGER NOT NULL DEFAULT 0,
  n_associated_grant_ids INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS clinical_trials_start_date_id ON clinical_trials (start_date, id);
CREATE INDEX IF NOT EXISTS clinical_trials_overall_status ON clinical_trials (overall_status);
CREATE INDEX IF NOT EXISTS clinical_trials_study_type ON clinical_trials (study_type);
CREATE INDEX IF NOT EXISTS clinical_trial_research_orgs_by_org_id ON clinical_trial_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS clinical_trial_funders_by_org_id ON clinical_trial_funders (org_id);
CREATE INDEX IF NOT EXISTS clinical_trial_grants_by_grant_id ON clinical_trial_grants (grant_id);
CREATE INDEX IF NOT EXISTS clinical_trial_publications_by_publication_id ON clinical_trial_publications (publication_id);
CREATE INDEX IF NOT EXISTS clinical_trial_categories_by_scheme_category_id ON clinical_trial_categories (scheme, category_id);
CREATE INDEX IF NOT EXISTS clinical_trial_values_by_field_value ON clinical_trial_values (field, value);
CREATE INDEX IF NOT EXISTS clinical_trials_narrow_overall_status ON clinical_trials_narrow (overall_status);
CREATE INDEX IF NOT EXISTS clinical_trials_narrow_study_type ON clinical_trials_narrow (study_type);
CREATE INDEX IF NOT EXISTS clinical_trials_narrow_phase ON clinical_trials_narrow (phase);
