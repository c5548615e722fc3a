-- name: reference links hold the id of the cited id (cited_ids), not the id
-- Records migration 12 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS cited_ids (id INTEGER PRIMARY KEY, cited_id TEXT NOT NULL UNIQUE);
INSERT OR IGNORE INTO cited_ids (cited_id) SELECT DISTINCT cited_id FROM publication_references ORDER BY 1;
CREATE TABLE publication_references_rebuilt (
  publication_pk INTEGER NOT NULL,
  cited_key INTEGER NOT NULL,
  PRIMARY KEY (publication_pk, cited_key)
) WITHOUT ROWID;
INSERT INTO publication_references_rebuilt (publication_pk, cited_key) SELECT l.publication_pk, v.id FROM publication_references l CROSS JOIN cited_ids v ON v.cited_id = l.cited_id;
DROP TABLE publication_references;
ALTER TABLE publication_references_rebuilt RENAME TO publication_references;
