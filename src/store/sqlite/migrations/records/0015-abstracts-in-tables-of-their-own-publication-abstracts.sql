-- name: abstracts in tables of their own (publication_abstracts, grant_abstracts): shorter rows fill the pages better
-- Records migration 15 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_abstracts (pk INTEGER PRIMARY KEY, abstract TEXT NOT NULL);
INSERT OR REPLACE INTO publication_abstracts (pk, abstract) SELECT pk, abstract FROM publications WHERE abstract IS NOT NULL ORDER BY pk;
ALTER TABLE publications DROP COLUMN abstract;
CREATE TABLE IF NOT EXISTS grant_abstracts (pk INTEGER PRIMARY KEY, abstract TEXT NOT NULL);
INSERT OR REPLACE INTO grant_abstracts (pk, abstract) SELECT pk, abstract FROM grants WHERE abstract IS NOT NULL ORDER BY pk;
ALTER TABLE grants DROP COLUMN abstract;
