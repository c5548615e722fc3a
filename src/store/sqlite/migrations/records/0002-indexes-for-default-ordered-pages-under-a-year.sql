-- name: indexes for default-ordered pages under a year filter
-- Records migration 2 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE INDEX IF NOT EXISTS publications_year_date_desc_id ON publications (year, date DESC, id);
CREATE INDEX IF NOT EXISTS grants_start_year_start_date_desc_id ON grants (start_year, start_date DESC, id);
