-- name: value counts of columns, for whole-source facets (publication_year_counts)
-- Records migration 8 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_year_counts (year INTEGER NOT NULL PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
DELETE FROM publication_year_counts;
INSERT INTO publication_year_counts (year, n) SELECT year, count(*) FROM publications WHERE year IS NOT NULL AND CAST(year AS TEXT) != '' GROUP BY year;
