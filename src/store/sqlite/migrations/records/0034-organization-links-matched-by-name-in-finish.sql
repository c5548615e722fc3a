-- name: organization links matched by name in finish()
-- Records migration 34 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS organization_link_pending (kind TEXT NOT NULL, pk INTEGER NOT NULL, PRIMARY KEY (kind, pk)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS organization_matched_links (kind TEXT NOT NULL, pk INTEGER NOT NULL, link_table TEXT NOT NULL, role TEXT NOT NULL, org_id TEXT NOT NULL, PRIMARY KEY (kind, pk, link_table, role, org_id)) WITHOUT ROWID;
-- Records held before it are linked by the first finish() after it.
INSERT OR IGNORE INTO organization_link_pending (kind, pk) VALUES ('organizations', 0);
