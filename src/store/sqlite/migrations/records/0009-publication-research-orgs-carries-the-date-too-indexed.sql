-- name: publication_research_orgs carries the date too, indexed (org_id, year, date), for pages cut from the index
-- Records migration 9 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
ALTER TABLE publication_research_orgs ADD COLUMN date TEXT;
UPDATE publication_research_orgs SET (date) = (SELECT o.date FROM publications_narrow o WHERE o.pk = publication_research_orgs.publication_pk);
DROP INDEX IF EXISTS publication_research_orgs_by_org_id_year;
CREATE INDEX IF NOT EXISTS publication_research_orgs_by_org_id_year_date ON publication_research_orgs (org_id, year, date);;
ANALYZE publication_research_orgs_by_org_id_year_date;
