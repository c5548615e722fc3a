-- name: link tables carrying owner columns (publication_research_orgs.year), indexed with the value
-- Records migration 6 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
ALTER TABLE publication_research_orgs ADD COLUMN year INTEGER;
UPDATE publication_research_orgs SET (year) = (SELECT o.year FROM publications_narrow o WHERE o.pk = publication_research_orgs.publication_pk);
CREATE INDEX IF NOT EXISTS publication_research_orgs_by_org_id_year ON publication_research_orgs (org_id, year);;
ANALYZE publication_research_orgs_by_org_id_year;
