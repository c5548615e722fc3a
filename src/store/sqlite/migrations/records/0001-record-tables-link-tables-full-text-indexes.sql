-- name: record tables, link tables, full-text indexes
-- Records migration 1 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE publications (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  abstract TEXT,
  acknowledgements TEXT,
  doi TEXT,
  type TEXT,
  year INTEGER,
  date TEXT,
  date_inserted TEXT,
  date_online TEXT,
  date_print TEXT,
  journal_id TEXT,
  journal_title_raw TEXT,
  volume TEXT,
  issue TEXT,
  pages TEXT,
  publisher TEXT,
  book_doi TEXT,
  book_title TEXT,
  book_series_title TEXT,
  proceedings_title TEXT,
  pmid TEXT,
  pmcid TEXT,
  arxiv_id TEXT,
  altmetric_id INTEGER,
  resulting_publication_doi TEXT,
  times_cited INTEGER,
  recent_citations INTEGER,
  altmetric REAL,
  relative_citation_ratio REAL,
  field_citation_ratio REAL,
  authors_count INTEGER,
  linkout TEXT,
  dimensions_url TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE grants (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  abstract TEXT,
  original_title TEXT,
  language TEXT,
  language_title TEXT,
  grant_number TEXT,
  foa_number TEXT,
  start_date TEXT,
  end_date TEXT,
  start_year INTEGER,
  date_inserted TEXT,
  funding_usd REAL,
  funding_aud REAL,
  funding_cad REAL,
  funding_chf REAL,
  funding_eur REAL,
  funding_gbp REAL,
  funding_jpy REAL,
  funding_nzd REAL,
  funding_currency TEXT,
  funding_org_id TEXT,
  funding_org_name TEXT,
  funding_org_acronym TEXT,
  funding_org_city TEXT,
  linkout TEXT,
  dimensions_url TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE researchers (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  first_name TEXT,
  last_name TEXT,
  nih_ppid TEXT,
  obsolete INTEGER,
  current_research_org_id TEXT,
  first_publication_year INTEGER,
  last_publication_year INTEGER,
  first_grant_year INTEGER,
  last_grant_year INTEGER,
  total_publications INTEGER,
  total_grants INTEGER,
  dimensions_url TEXT,
  n_publications INTEGER,
  n_grants INTEGER,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE organizations (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT,
  acronym TEXT,
  city_id TEXT,
  city_name TEXT,
  state_code TEXT,
  state_name TEXT,
  country_code TEXT,
  country_name TEXT,
  status TEXT,
  established INTEGER,
  latitude REAL,
  longitude REAL,
  nuts_level1_code TEXT,
  nuts_level1_name TEXT,
  nuts_level2_code TEXT,
  nuts_level2_name TEXT,
  nuts_level3_code TEXT,
  nuts_level3_name TEXT,
  redirect TEXT,
  wikipedia_url TEXT,
  dimensions_url TEXT,
  n_publications INTEGER,
  n_grants INTEGER,
  n_funded_publications INTEGER,
  n_funded_grants INTEGER,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE journals (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  publisher TEXT,
  n_publications INTEGER,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE categories (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT,
  scheme TEXT,
  code TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE publication_researchers (
  publication_pk INTEGER NOT NULL,
  researcher_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, researcher_id)
) WITHOUT ROWID;
CREATE TABLE publication_research_orgs (
  publication_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE publication_funders (
  publication_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE publication_grants (
  publication_pk INTEGER NOT NULL,
  grant_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, grant_id)
) WITHOUT ROWID;
CREATE TABLE publication_categories (
  publication_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE TABLE publication_references (
  publication_pk INTEGER NOT NULL,
  cited_id TEXT NOT NULL,
  PRIMARY KEY (publication_pk, cited_id)
) WITHOUT ROWID;
CREATE TABLE publication_concepts (
  publication_pk INTEGER NOT NULL,
  concept TEXT NOT NULL,
  score REAL,
  PRIMARY KEY (publication_pk, concept)
) WITHOUT ROWID;
CREATE TABLE publication_values (
  publication_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (publication_pk, field, value)
) WITHOUT ROWID;
CREATE TABLE grant_researchers (
  grant_pk INTEGER NOT NULL,
  researcher_id TEXT NOT NULL,
  PRIMARY KEY (grant_pk, researcher_id)
) WITHOUT ROWID;
CREATE TABLE grant_research_orgs (
  grant_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (grant_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE grant_funders (
  grant_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (grant_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE grant_categories (
  grant_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (grant_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE TABLE grant_concepts (
  grant_pk INTEGER NOT NULL,
  concept TEXT NOT NULL,
  score REAL,
  PRIMARY KEY (grant_pk, concept)
) WITHOUT ROWID;
CREATE TABLE grant_values (
  grant_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (grant_pk, field, value)
) WITHOUT ROWID;
CREATE TABLE researcher_research_orgs (
  researcher_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (researcher_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE researcher_values (
  researcher_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (researcher_pk, field, value)
) WITHOUT ROWID;
CREATE TABLE organization_values (
  organization_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (organization_pk, field, value)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE publications_fts USING fts5(title, abstract, acknowledgements, concepts, authors, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE publications_fts_vocab USING fts5vocab(publications_fts, 'row');
CREATE VIRTUAL TABLE grants_fts USING fts5(title, abstract, concepts, investigators, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE grants_fts_vocab USING fts5vocab(grants_fts, 'row');
CREATE VIRTUAL TABLE researchers_fts USING fts5(names, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE researchers_fts_vocab USING fts5vocab(researchers_fts, 'row');
CREATE VIRTUAL TABLE organizations_fts USING fts5(name, aliases, place, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE organizations_fts_vocab USING fts5vocab(organizations_fts, 'row');
CREATE TABLE countries (id TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
CREATE TABLE cities (id TEXT PRIMARY KEY, name TEXT, country_code TEXT) WITHOUT ROWID;
CREATE TABLE states (id TEXT PRIMARY KEY, name TEXT, country_code TEXT) WITHOUT ROWID;
CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS publications_doi ON publications (doi);
CREATE INDEX IF NOT EXISTS publications_year ON publications (year);
CREATE INDEX IF NOT EXISTS publications_date_id ON publications (date, id);
CREATE INDEX IF NOT EXISTS publications_type ON publications (type);
CREATE INDEX IF NOT EXISTS publications_journal_id ON publications (journal_id);
CREATE INDEX IF NOT EXISTS publications_times_cited ON publications (times_cited);
CREATE INDEX IF NOT EXISTS publications_publisher ON publications (publisher);
CREATE INDEX IF NOT EXISTS grants_start_year ON grants (start_year);
CREATE INDEX IF NOT EXISTS grants_start_date_id ON grants (start_date, id);
CREATE INDEX IF NOT EXISTS grants_funding_org_id ON grants (funding_org_id);
CREATE INDEX IF NOT EXISTS grants_grant_number ON grants (grant_number);
CREATE INDEX IF NOT EXISTS researchers_last_name ON researchers (last_name);
CREATE INDEX IF NOT EXISTS researchers_current_research_org_id ON researchers (current_research_org_id);
CREATE INDEX IF NOT EXISTS researchers_n_publications ON researchers (n_publications);
CREATE INDEX IF NOT EXISTS researchers_n_grants ON researchers (n_grants);
CREATE INDEX IF NOT EXISTS organizations_name ON organizations (name);
CREATE INDEX IF NOT EXISTS organizations_country_code ON organizations (country_code);
CREATE INDEX IF NOT EXISTS organizations_city_name ON organizations (city_name);
CREATE INDEX IF NOT EXISTS organizations_n_publications ON organizations (n_publications);
CREATE INDEX IF NOT EXISTS organizations_n_grants ON organizations (n_grants);
CREATE INDEX IF NOT EXISTS organizations_n_funded_publications ON organizations (n_funded_publications);
CREATE INDEX IF NOT EXISTS organizations_n_funded_grants ON organizations (n_funded_grants);
CREATE INDEX IF NOT EXISTS journals_title ON journals (title);
CREATE INDEX IF NOT EXISTS categories_scheme_name ON categories (scheme, name);
CREATE INDEX IF NOT EXISTS publication_researchers_by_researcher_id ON publication_researchers (researcher_id);
CREATE INDEX IF NOT EXISTS publication_research_orgs_by_org_id ON publication_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS publication_funders_by_org_id ON publication_funders (org_id);
CREATE INDEX IF NOT EXISTS publication_grants_by_grant_id ON publication_grants (grant_id);
CREATE INDEX IF NOT EXISTS publication_categories_by_scheme_category_id ON publication_categories (scheme, category_id);
CREATE INDEX IF NOT EXISTS publication_references_by_cited_id ON publication_references (cited_id);
CREATE INDEX IF NOT EXISTS publication_concepts_by_concept ON publication_concepts (concept);
CREATE INDEX IF NOT EXISTS publication_values_by_field_value ON publication_values (field, value);
CREATE INDEX IF NOT EXISTS grant_researchers_by_researcher_id ON grant_researchers (researcher_id);
CREATE INDEX IF NOT EXISTS grant_research_orgs_by_org_id ON grant_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS grant_funders_by_org_id ON grant_funders (org_id);
CREATE INDEX IF NOT EXISTS grant_categories_by_scheme_category_id ON grant_categories (scheme, category_id);
CREATE INDEX IF NOT EXISTS grant_concepts_by_concept ON grant_concepts (concept);
CREATE INDEX IF NOT EXISTS grant_values_by_field_value ON grant_values (field, value);
CREATE INDEX IF NOT EXISTS researcher_research_orgs_by_org_id ON researcher_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS researcher_values_by_field_value ON researcher_values (field, value);
CREATE INDEX IF NOT EXISTS organization_values_by_field_value ON organization_values (field, value);
