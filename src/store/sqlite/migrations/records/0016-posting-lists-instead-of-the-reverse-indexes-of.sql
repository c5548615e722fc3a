-- name: posting lists instead of the reverse indexes of the references, the concepts and the researcher links (<link table>_postings)
-- Records migration 16 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_researchers_postings (researcher_id TEXT PRIMARY KEY, publication_pks BLOB NOT NULL) WITHOUT ROWID;
DELETE FROM publication_researchers_postings;
INSERT INTO publication_researchers_postings (researcher_id, publication_pks) SELECT researcher_id, postings_of(publication_pk) FROM publication_researchers GROUP BY researcher_id;
CREATE TABLE IF NOT EXISTS publication_references_postings (cited_key INTEGER PRIMARY KEY, publication_pks BLOB NOT NULL);
DELETE FROM publication_references_postings;
INSERT INTO publication_references_postings (cited_key, publication_pks) SELECT cited_key, postings_of(publication_pk) FROM publication_references GROUP BY cited_key;
CREATE TABLE IF NOT EXISTS publication_concepts_postings (concept_id INTEGER PRIMARY KEY, publication_pks BLOB NOT NULL);
DELETE FROM publication_concepts_postings;
INSERT INTO publication_concepts_postings (concept_id, publication_pks) SELECT concept_id, postings_of(publication_pk) FROM publication_concepts GROUP BY concept_id;
CREATE TABLE IF NOT EXISTS grant_researchers_postings (researcher_id TEXT PRIMARY KEY, grant_pks BLOB NOT NULL) WITHOUT ROWID;
DELETE FROM grant_researchers_postings;
INSERT INTO grant_researchers_postings (researcher_id, grant_pks) SELECT researcher_id, postings_of(grant_pk) FROM grant_researchers GROUP BY researcher_id;
CREATE TABLE IF NOT EXISTS grant_concepts_postings (concept_id INTEGER PRIMARY KEY, grant_pks BLOB NOT NULL);
DELETE FROM grant_concepts_postings;
INSERT INTO grant_concepts_postings (concept_id, grant_pks) SELECT concept_id, postings_of(grant_pk) FROM grant_concepts GROUP BY concept_id;
CREATE TABLE IF NOT EXISTS researcher_research_orgs_postings (org_id TEXT PRIMARY KEY, researcher_pks BLOB NOT NULL) WITHOUT ROWID;
DELETE FROM researcher_research_orgs_postings;
INSERT INTO researcher_research_orgs_postings (org_id, researcher_pks) SELECT org_id, postings_of(researcher_pk) FROM researcher_research_orgs GROUP BY org_id;
DROP INDEX IF EXISTS publication_researchers_by_researcher_id;
ANALYZE publication_researchers_postings;
DROP INDEX IF EXISTS publication_references_by_cited_key;
ANALYZE publication_references_postings;
DROP INDEX IF EXISTS publication_concepts_by_concept_id;
ANALYZE publication_concepts_postings;
DROP INDEX IF EXISTS grant_researchers_by_researcher_id;
ANALYZE grant_researchers_postings;
DROP INDEX IF EXISTS grant_concepts_by_concept_id;
ANALYZE grant_concepts_postings;
DROP INDEX IF EXISTS researcher_research_orgs_by_org_id;
ANALYZE researcher_research_orgs_postings;
