-- name: funder_groups: their table and full text
-- Records migration 24 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS funder_groups (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS funder_group_organizations (
  funder_group_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (funder_group_pk, org_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS funder_groups_fts USING fts5(name, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS funder_groups_fts_vocab USING fts5vocab(funder_groups_fts, 'row');
CREATE INDEX IF NOT EXISTS funder_groups_name ON funder_groups (name);
CREATE INDEX IF NOT EXISTS funder_group_organizations_by_org_id ON funder_group_organizations (org_id);
