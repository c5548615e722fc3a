-- name: concept links hold the id of the concept name (concept_names), not the name
-- Records migration 11 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS concept_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT OR IGNORE INTO concept_names (name) SELECT DISTINCT concept FROM publication_concepts ORDER BY 1;
CREATE TABLE publication_concepts_rebuilt (
  publication_pk INTEGER NOT NULL,
  concept_id INTEGER NOT NULL,
  PRIMARY KEY (publication_pk, concept_id)
) WITHOUT ROWID;
INSERT INTO publication_concepts_rebuilt (publication_pk, concept_id) SELECT l.publication_pk, v.id FROM publication_concepts l CROSS JOIN concept_names v ON v.name = l.concept;
DROP TABLE publication_concepts;
ALTER TABLE publication_concepts_rebuilt RENAME TO publication_concepts;
INSERT OR IGNORE INTO concept_names (name) SELECT DISTINCT concept FROM grant_concepts ORDER BY 1;
CREATE TABLE grant_concepts_rebuilt (
  grant_pk INTEGER NOT NULL,
  concept_id INTEGER NOT NULL,
  PRIMARY KEY (grant_pk, concept_id)
) WITHOUT ROWID;
INSERT INTO grant_concepts_rebuilt (grant_pk, concept_id) SELECT l.grant_pk, v.id FROM grant_concepts l CROSS JOIN concept_names v ON v.name = l.concept;
DROP TABLE grant_concepts;
ALTER TABLE grant_concepts_rebuilt RENAME TO grant_concepts;
