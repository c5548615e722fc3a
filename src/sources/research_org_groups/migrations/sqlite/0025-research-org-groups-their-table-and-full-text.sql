-- name: research_org_groups: their table and full text
-- Records migration 25 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS research_org_groups (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS research_org_group_organizations (
  research_org_group_pk INTEGER NOT NULL,
  org_id TEXT NOT NULL,
  PRIMARY KEY (research_org_group_pk, org_id)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS research_org_groups_fts USING fts5(name, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS research_org_groups_fts_vocab USING fts5vocab(research_org_groups_fts, 'row');
CREATE INDEX IF NOT EXISTS research_org_groups_name ON research_org_groups (name);
CREATE INDEX IF NOT EXISTS research_org_group_organizations_by_org_id ON research_org_group_organizations (org_id);
