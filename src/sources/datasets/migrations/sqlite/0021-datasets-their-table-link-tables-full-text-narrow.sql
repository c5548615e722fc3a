-- name: datasets: their table, link tables, full text, narrow table and repositories
-- Records migration 21 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS datasets (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  doi TEXT,
  year INTEGER,
  date TEXT,
  date_created TEXT,
  date_modified TEXT,
  date_embargo TEXT,
  date_inserted TEXT,
  language_title TEXT,
  language_desc TEXT,
  license_name TEXT,
  license_url TEXT,
  figshare_url TEXT,
  dimensions_url TEXT,
  journal_id TEXT,
  repository_id TEXT,
  repository_name TEXT,
  associated_publication_id TEXT,
  associated_publication_doi TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS dataset_descriptions (pk INTEGER PRIMARY KEY, description TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS dataset_research_orgs (
  dataset_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  year INTEGER,
  date TEXT,
  PRIMARY KEY (dataset_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_funders (
  dataset_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (dataset_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_researchers (
  dataset_pk INTEGER NOT NULL,
  researcher_id TEXT NOT NULL,
  PRIMARY KEY (dataset_pk, researcher_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_researchers_postings (researcher_id TEXT PRIMARY KEY, dataset_pks BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_grants (
  dataset_pk INTEGER NOT NULL,
  grant_id TEXT NOT NULL,
  PRIMARY KEY (dataset_pk, grant_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_categories (
  dataset_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (dataset_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dataset_values (
  dataset_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (dataset_pk, field, value)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS datasets_fts USING fts5(title, description, keywords, authors, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS datasets_fts_vocab USING fts5vocab(datasets_fts, 'row');
CREATE TABLE IF NOT EXISTS repositories (id TEXT PRIMARY KEY, name TEXT, n_datasets INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS datasets_narrow (
  pk INTEGER PRIMARY KEY,
  id TEXT,
  year INTEGER,
  date TEXT,
  journal_id TEXT,
  repository_id TEXT,
  license_name TEXT,
  language_title TEXT,
  n_research_orgs INTEGER NOT NULL DEFAULT 0,
  n_funders INTEGER NOT NULL DEFAULT 0,
  n_researchers INTEGER NOT NULL DEFAULT 0,
  n_associated_grant_ids INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS dataset_year_counts (year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS datasets_doi ON datasets (doi);
CREATE INDEX IF NOT EXISTS datasets_year ON datasets (year);
CREATE INDEX IF NOT EXISTS datasets_date_id ON datasets (date, id);
CREATE INDEX IF NOT EXISTS datasets_journal_id ON datasets (journal_id);
CREATE INDEX IF NOT EXISTS datasets_repository_id ON datasets (repository_id);
CREATE INDEX IF NOT EXISTS datasets_license_name ON datasets (license_name);
CREATE INDEX IF NOT EXISTS datasets_associated_publication_id ON datasets (associated_publication_id);
CREATE INDEX IF NOT EXISTS datasets_associated_publication_doi ON datasets (associated_publication_doi);
CREATE INDEX IF NOT EXISTS dataset_research_orgs_by_org_id ON dataset_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS dataset_funders_by_org_id ON dataset_funders (org_id);
CREATE INDEX IF NOT EXISTS dataset_grants_by_grant_id ON dataset_grants (grant_id);
CREATE INDEX IF NOT EXISTS dataset_categories_by_scheme_category_id ON dataset_categories (scheme, category_id);
CREATE INDEX IF NOT EXISTS dataset_values_by_field_value ON dataset_values (field, value);
CREATE INDEX IF NOT EXISTS datasets_narrow_year ON datasets_narrow (year);
CREATE INDEX IF NOT EXISTS datasets_narrow_journal_id ON datasets_narrow (journal_id);
CREATE INDEX IF NOT EXISTS datasets_narrow_repository_id ON datasets_narrow (repository_id);
CREATE INDEX IF NOT EXISTS dataset_research_orgs_by_org_id_year_date ON dataset_research_orgs (org_id, year, date);
