-- name: organization links matched by name in finish()
-- Records migration 26 (PostgreSQL): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS organization_link_pending (kind text NOT NULL, pk bigint NOT NULL, PRIMARY KEY (kind, pk));
CREATE TABLE IF NOT EXISTS organization_matched_links (kind text NOT NULL, pk bigint NOT NULL, link_table text NOT NULL, role text NOT NULL, org_id text NOT NULL, PRIMARY KEY (kind, pk, link_table, role, org_id));
-- Records held before it are linked by the first finish() after it.
INSERT INTO organization_link_pending (kind, pk) VALUES ('organizations', 0) ON CONFLICT DO NOTHING;
