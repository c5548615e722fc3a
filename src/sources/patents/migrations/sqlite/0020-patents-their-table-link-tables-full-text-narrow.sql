-- name: patents: their table, link tables, full text, narrow table and value counts
-- Records migration 20 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS patents (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  jurisdiction TEXT,
  kind TEXT,
  filing_status TEXT,
  application_number TEXT,
  date TEXT,
  year INTEGER,
  priority_date TEXT,
  priority_year INTEGER,
  publication_date TEXT,
  publication_year INTEGER,
  granted_date TEXT,
  granted_year INTEGER,
  expiration_date TEXT,
  legal_status TEXT,
  family_id INTEGER,
  family_count INTEGER,
  claims_amount INTEGER,
  times_cited INTEGER,
  date_inserted TEXT,
  dimensions_url TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS patent_abstracts (pk INTEGER PRIMARY KEY, abstract TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cited_patent_ids (id INTEGER PRIMARY KEY, cited_id TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS patent_researchers (
  patent_pk INTEGER NOT NULL,
  researcher_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, researcher_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_researchers_postings (researcher_id TEXT PRIMARY KEY, patent_pks BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_assignees (
  patent_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_assignee_orgs (
  patent_pk INTEGER NOT NULL,
  role TEXT NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, role, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_funders (
  patent_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_grants (
  patent_pk INTEGER NOT NULL,
  grant_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, grant_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_publications (
  patent_pk INTEGER NOT NULL,
  publication_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, publication_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_categories (
  patent_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (patent_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_references_lists (patent_pk INTEGER PRIMARY KEY, cited_keys BLOB NOT NULL);
CREATE VIEW IF NOT EXISTS patent_references AS SELECT l.patent_pk AS patent_pk, j.value AS cited_key FROM patent_references_lists l, json_each(postings_json(l.cited_keys)) j;
CREATE TABLE IF NOT EXISTS patent_references_postings (cited_key INTEGER PRIMARY KEY, patent_pks BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS patent_values (
  patent_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (patent_pk, field, value)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS patents_fts USING fts5(title, abstract, claims, assignees, inventors, federal_support, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS patents_fts_vocab USING fts5vocab(patents_fts, 'row');
CREATE TABLE IF NOT EXISTS patents_narrow (
  pk INTEGER PRIMARY KEY,
  id TEXT,
  year INTEGER,
  publication_year INTEGER,
  granted_year INTEGER,
  priority_year INTEGER,
  publication_date TEXT,
  jurisdiction TEXT,
  kind TEXT,
  times_cited INTEGER,
  family_id INTEGER,
  family_count INTEGER,
  n_researchers INTEGER NOT NULL DEFAULT 0,
  n_assignees INTEGER NOT NULL DEFAULT 0,
  n_funders INTEGER NOT NULL DEFAULT 0,
  n_reference_ids INTEGER NOT NULL DEFAULT 0,
  n_publication_ids INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS patent_year_counts (year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patent_publication_year_counts (publication_year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS patents_publication_date_id ON patents (publication_date, id);
CREATE INDEX IF NOT EXISTS patents_year ON patents (year);
CREATE INDEX IF NOT EXISTS patents_publication_year ON patents (publication_year);
CREATE INDEX IF NOT EXISTS patents_granted_year ON patents (granted_year);
CREATE INDEX IF NOT EXISTS patents_priority_year ON patents (priority_year);
CREATE INDEX IF NOT EXISTS patents_jurisdiction ON patents (jurisdiction);
CREATE INDEX IF NOT EXISTS patents_kind ON patents (kind);
CREATE INDEX IF NOT EXISTS patents_family_id ON patents (family_id);
CREATE INDEX IF NOT EXISTS patents_times_cited ON patents (times_cited);
CREATE INDEX IF NOT EXISTS patents_application_number ON patents (application_number);
CREATE INDEX IF NOT EXISTS patent_assignees_by_org_id ON patent_assignees (org_id);
CREATE INDEX IF NOT EXISTS patent_assignee_orgs_by_role_org_id ON patent_assignee_orgs (role, org_id);
CREATE INDEX IF NOT EXISTS patent_funders_by_org_id ON patent_funders (org_id);
CREATE INDEX IF NOT EXISTS patent_grants_by_grant_id ON patent_grants (grant_id);
CREATE INDEX IF NOT EXISTS patent_publications_by_publication_id ON patent_publications (publication_id);
CREATE INDEX IF NOT EXISTS patent_categories_by_scheme_category_id ON patent_categories (scheme, category_id);
CREATE INDEX IF NOT EXISTS patent_values_by_field_value ON patent_values (field, value);
CREATE INDEX IF NOT EXISTS patents_narrow_year ON patents_narrow (year);
CREATE INDEX IF NOT EXISTS patents_narrow_publication_year ON patents_narrow (publication_year);
CREATE INDEX IF NOT EXISTS patents_narrow_granted_year ON patents_narrow (granted_year);
CREATE INDEX IF NOT EXISTS patents_narrow_jurisdiction ON patents_narrow (jurisdiction);
CREATE INDEX IF NOT EXISTS patents_narrow_kind ON patents_narrow (kind);
