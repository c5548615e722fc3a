-- name: organizations carry their ultimate parent and hierarchy details, derived by finish()
-- Records migration 22 (PostgreSQL): written by hand (an existing table gains columns; docs/storage.md).
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
-- The columns stay empty on a database that holds organizations until the next finish() derives them.
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS ultimate_parent_id text COLLATE "C";
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS hierarchy_details text COLLATE "C";
CREATE INDEX IF NOT EXISTS organizations_ultimate_parent_id ON organizations (ultimate_parent_id);
