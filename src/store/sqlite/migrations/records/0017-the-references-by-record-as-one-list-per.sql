-- name: the references by record as one list per publication (publication_references_lists), read through a view
-- Records migration 17 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_references_lists (publication_pk INTEGER PRIMARY KEY, cited_keys BLOB NOT NULL);
INSERT INTO publication_references_lists (publication_pk, cited_keys) SELECT publication_pk, postings_of(cited_key) FROM publication_references GROUP BY publication_pk;
DROP TABLE publication_references;
CREATE VIEW IF NOT EXISTS publication_references AS SELECT l.publication_pk AS publication_pk, j.value AS cited_key FROM publication_references_lists l, json_each(postings_json(l.cited_keys)) j;
ANALYZE publication_references_lists;
CREATE TABLE IF NOT EXISTS publication_concepts_lists (publication_pk INTEGER PRIMARY KEY, concept_ids BLOB NOT NULL);
INSERT INTO publication_concepts_lists (publication_pk, concept_ids) SELECT publication_pk, postings_of(concept_id) FROM publication_concepts GROUP BY publication_pk;
DROP TABLE publication_concepts;
CREATE VIEW IF NOT EXISTS publication_concepts AS SELECT l.publication_pk AS publication_pk, j.value AS concept_id FROM publication_concepts_lists l, json_each(postings_json(l.concept_ids)) j;
ANALYZE publication_concepts_lists;
CREATE TABLE IF NOT EXISTS grant_concepts_lists (grant_pk INTEGER PRIMARY KEY, concept_ids BLOB NOT NULL);
INSERT INTO grant_concepts_lists (grant_pk, concept_ids) SELECT grant_pk, postings_of(concept_id) FROM grant_concepts GROUP BY grant_pk;
DROP TABLE grant_concepts;
CREATE VIEW IF NOT EXISTS grant_concepts AS SELECT l.grant_pk AS grant_pk, j.value AS concept_id FROM grant_concepts_lists l, json_each(postings_json(l.concept_ids)) j;
ANALYZE grant_concepts_lists;
