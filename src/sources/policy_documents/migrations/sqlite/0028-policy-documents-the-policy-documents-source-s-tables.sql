-- name: policy_documents: the policy documents source's tables
-- Records migration 28 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS policy_documents (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  year INTEGER,
  date_inserted TEXT,
  linkout TEXT,
  dimensions_url TEXT,
  publisher_org_id TEXT,
  publisher_org_city_id TEXT,
  publisher_org_country_id TEXT,
  publisher_org_state_id TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS policy_document_publications (
  policy_document_pk INTEGER NOT NULL,
  publication_id TEXT NOT NULL,
  PRIMARY KEY (policy_document_pk, publication_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS policy_document_categories (
  policy_document_pk INTEGER NOT NULL,
  scheme TEXT NOT NULL,
  category_id TEXT NOT NULL,
  PRIMARY KEY (policy_document_pk, scheme, category_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS policy_documents_fts USING fts5(title, publisher, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS policy_documents_fts_vocab USING fts5vocab(policy_documents_fts, 'row');
CREATE TABLE IF NOT EXISTS policy_document_year_counts (year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS policy_documents_year_id ON policy_documents (year, id);
CREATE INDEX IF NOT EXISTS policy_documents_publisher_org_id ON policy_documents (publisher_org_id);
CREATE INDEX IF NOT EXISTS policy_documents_publisher_org_country_id ON policy_documents (publisher_org_country_id);
CREATE INDEX IF NOT EXISTS policy_document_publications_by_publication_id ON policy_document_publications (publication_id);
CREATE INDEX IF NOT EXISTS policy_document_categories_by_scheme_category_id ON policy_document_categories (scheme, category_id);
