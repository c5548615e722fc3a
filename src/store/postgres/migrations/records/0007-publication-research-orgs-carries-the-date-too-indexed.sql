-- name: publication_research_orgs carries the date too, indexed (org_id, year, date), for pages cut from the index
-- Records migration 7 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
ALTER TABLE publication_research_orgs ADD COLUMN IF NOT EXISTS year bigint;
ALTER TABLE publication_research_orgs ADD COLUMN IF NOT EXISTS date text COLLATE "C";
UPDATE publication_research_orgs l SET year = o.year, date = o.date FROM publications o WHERE o.pk = l.publication_pk;
DROP INDEX IF EXISTS publication_research_orgs_by_org_id_year;
CREATE INDEX IF NOT EXISTS publication_research_orgs_by_org_id_year_date ON publication_research_orgs (org_id, year, date, publication_pk);
ANALYZE publication_research_orgs;
