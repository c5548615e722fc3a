-- name: organizations carry their ultimate parent and hierarchy details, derived by finish()
-- Records migration 30 (SQLite): written by hand (an existing table gains columns; docs/storage.md).
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
-- The columns stay empty on a database that holds organizations until the next finish() derives them.
ALTER TABLE organizations ADD COLUMN ultimate_parent_id TEXT;
ALTER TABLE organizations ADD COLUMN hierarchy_details TEXT;
CREATE INDEX IF NOT EXISTS organizations_ultimate_parent_id ON organizations (ultimate_parent_id);
