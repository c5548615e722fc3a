-- name: link tables carrying owner columns (publication_research_orgs.year), indexed with the value
-- Records migration 4 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
ALTER TABLE publication_research_orgs ADD COLUMN IF NOT EXISTS year bigint;
UPDATE publication_research_orgs l SET year = o.year FROM publications o WHERE o.pk = l.publication_pk;
CREATE INDEX IF NOT EXISTS publication_research_orgs_by_org_id_year ON publication_research_orgs (org_id, year, publication_pk);
ANALYZE publication_research_orgs;
