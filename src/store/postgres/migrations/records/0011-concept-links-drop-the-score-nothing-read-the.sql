-- name: concept links drop the score nothing read (the document keeps concepts_scores)
-- Records migration 11 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
ALTER TABLE publication_concepts DROP COLUMN IF EXISTS score;
ALTER TABLE grant_concepts DROP COLUMN IF EXISTS score;
