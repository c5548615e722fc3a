-- name: reports: the reports source's tables
-- Records migration 27 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS reports (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  doi TEXT,
  year INTEGER,
  date TEXT,
  date_inserted TEXT,
  keywords TEXT,
  linkout TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS report_abstracts (pk INTEGER PRIMARY KEY, abstract TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS report_research_orgs (
  report_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (report_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS report_responsible_orgs (
  report_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (report_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS report_publisher_orgs (
  report_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (report_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS report_funder_orgs (
  report_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (report_pk, org_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS report_categories (
  report_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (report_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS reports_fts USING fts5(title, abstract, concepts, keywords, authors, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS reports_fts_vocab USING fts5vocab(reports_fts, 'row');
CREATE TABLE IF NOT EXISTS report_year_counts (year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS reports_doi ON reports (doi);
CREATE INDEX IF NOT EXISTS reports_year ON reports (year);
CREATE INDEX IF NOT EXISTS reports_date_id ON reports (date, id);
CREATE INDEX IF NOT EXISTS report_research_orgs_by_org_id ON report_research_orgs (org_id);
CREATE INDEX IF NOT EXISTS report_responsible_orgs_by_org_id ON report_responsible_orgs (org_id);
CREATE INDEX IF NOT EXISTS report_publisher_orgs_by_org_id ON report_publisher_orgs (org_id);
CREATE INDEX IF NOT EXISTS report_funder_orgs_by_org_id ON report_funder_orgs (org_id);
CREATE INDEX IF NOT EXISTS report_categories_by_scheme_category_id ON report_categories (scheme, category_id);
