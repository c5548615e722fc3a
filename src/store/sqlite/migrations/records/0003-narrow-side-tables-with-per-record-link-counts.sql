-- name: narrow side tables with per-record link counts, for facets, aggregates and count filters
-- Records migration 3 (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.
-- Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publications_narrow (
  pk INTEGER PRIMARY KEY,
  id TEXT,
  year INTEGER,
  date TEXT,
  type TEXT,
  journal_id TEXT,
  times_cited INTEGER,
  recent_citations INTEGER,
  altmetric REAL,
  relative_citation_ratio REAL,
  field_citation_ratio REAL,
  n_researchers INTEGER NOT NULL DEFAULT 0,
  n_research_orgs INTEGER NOT NULL DEFAULT 0,
  n_funders INTEGER NOT NULL DEFAULT 0,
  n_supporting_grant_ids INTEGER NOT NULL DEFAULT 0,
  n_reference_ids INTEGER NOT NULL DEFAULT 0,
  n_concepts INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS grants_narrow (
  pk INTEGER PRIMARY KEY,
  id TEXT,
  start_year INTEGER,
  start_date TEXT,
  funding_usd REAL,
  funding_org_id TEXT,
  language TEXT,
  n_researchers INTEGER NOT NULL DEFAULT 0,
  n_research_orgs INTEGER NOT NULL DEFAULT 0,
  n_funders INTEGER NOT NULL DEFAULT 0,
  n_concepts INTEGER NOT NULL DEFAULT 0
);
DROP INDEX IF EXISTS publications_narrow_year;
DROP INDEX IF EXISTS publications_narrow_type;
DROP INDEX IF EXISTS publications_narrow_journal_id;
DELETE FROM publications_narrow;
INSERT OR REPLACE INTO publications_narrow (pk, id, year, date, type, journal_id, times_cited, recent_citations, altmetric, relative_citation_ratio, field_citation_ratio, n_researchers, n_research_orgs, n_funders, n_supporting_grant_ids, n_reference_ids, n_concepts) SELECT s.pk, s.id, s.year, s.date, s.type, s.journal_id, s.times_cited, s.recent_citations, s.altmetric, s.relative_citation_ratio, s.field_citation_ratio, (SELECT count(*) FROM publication_researchers l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_research_orgs l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_funders l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_grants l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_references l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_concepts l WHERE l.publication_pk = s.pk) FROM publications s ORDER BY s.pk;
CREATE INDEX IF NOT EXISTS publications_narrow_year ON publications_narrow (year);
CREATE INDEX IF NOT EXISTS publications_narrow_type ON publications_narrow (type);
CREATE INDEX IF NOT EXISTS publications_narrow_journal_id ON publications_narrow (journal_id);
DROP INDEX IF EXISTS grants_narrow_start_year;
DROP INDEX IF EXISTS grants_narrow_funding_org_id;
DELETE FROM grants_narrow;
INSERT OR REPLACE INTO grants_narrow (pk, id, start_year, start_date, funding_usd, funding_org_id, language, n_researchers, n_research_orgs, n_funders, n_concepts) SELECT s.pk, s.id, s.start_year, s.start_date, s.funding_usd, s.funding_org_id, s.language, (SELECT count(*) FROM grant_researchers l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_research_orgs l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_funders l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_concepts l WHERE l.grant_pk = s.pk) FROM grants s ORDER BY s.pk;
CREATE INDEX IF NOT EXISTS grants_narrow_start_year ON grants_narrow (start_year);
CREATE INDEX IF NOT EXISTS grants_narrow_funding_org_id ON grants_narrow (funding_org_id);
