-- name: narrow side tables with per-record link counts, for facets, aggregates and count filters
-- Records migration 2 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publications_narrow (
  pk bigint PRIMARY KEY,
  id text COLLATE "C",
  year bigint,
  date text COLLATE "C",
  type text COLLATE "C",
  journal_id text COLLATE "C",
  times_cited bigint,
  recent_citations bigint,
  altmetric double precision,
  relative_citation_ratio double precision,
  field_citation_ratio double precision,
  n_researchers bigint NOT NULL DEFAULT 0,
  n_research_orgs bigint NOT NULL DEFAULT 0,
  n_funders bigint NOT NULL DEFAULT 0,
  n_supporting_grant_ids bigint NOT NULL DEFAULT 0,
  n_reference_ids bigint NOT NULL DEFAULT 0,
  n_concepts bigint NOT NULL DEFAULT 0
);
INSERT INTO publications_narrow (pk, id, year, date, type, journal_id, times_cited, recent_citations, altmetric, relative_citation_ratio, field_citation_ratio, n_researchers, n_research_orgs, n_funders, n_supporting_grant_ids, n_reference_ids, n_concepts) SELECT s.pk, s.id, s.year, s.date, s.type, s.journal_id, s.times_cited, s.recent_citations, s.altmetric, s.relative_citation_ratio, s.field_citation_ratio, (SELECT count(*) FROM publication_researchers l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_research_orgs l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_funders l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_grants l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_references l WHERE l.publication_pk = s.pk), (SELECT count(*) FROM publication_concepts l WHERE l.publication_pk = s.pk) FROM publications s  ON CONFLICT (pk) DO UPDATE SET id = EXCLUDED.id, year = EXCLUDED.year, date = EXCLUDED.date, type = EXCLUDED.type, journal_id = EXCLUDED.journal_id, times_cited = EXCLUDED.times_cited, recent_citations = EXCLUDED.recent_citations, altmetric = EXCLUDED.altmetric, relative_citation_ratio = EXCLUDED.relative_citation_ratio, field_citation_ratio = EXCLUDED.field_citation_ratio, n_researchers = EXCLUDED.n_researchers, n_research_orgs = EXCLUDED.n_research_orgs, n_funders = EXCLUDED.n_funders, n_supporting_grant_ids = EXCLUDED.n_supporting_grant_ids, n_reference_ids = EXCLUDED.n_reference_ids, n_concepts = EXCLUDED.n_concepts;
CREATE TABLE IF NOT EXISTS grants_narrow (
  pk bigint PRIMARY KEY,
  id text COLLATE "C",
  start_year bigint,
  start_date text COLLATE "C",
  funding_usd double precision,
  funding_org_id text COLLATE "C",
  language text COLLATE "C",
  n_researchers bigint NOT NULL DEFAULT 0,
  n_research_orgs bigint NOT NULL DEFAULT 0,
  n_funders bigint NOT NULL DEFAULT 0,
  n_concepts bigint NOT NULL DEFAULT 0
);
INSERT INTO grants_narrow (pk, id, start_year, start_date, funding_usd, funding_org_id, language, n_researchers, n_research_orgs, n_funders, n_concepts) SELECT s.pk, s.id, s.start_year, s.start_date, s.funding_usd, s.funding_org_id, s.language, (SELECT count(*) FROM grant_researchers l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_research_orgs l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_funders l WHERE l.grant_pk = s.pk), (SELECT count(*) FROM grant_concepts l WHERE l.grant_pk = s.pk) FROM grants s  ON CONFLICT (pk) DO UPDATE SET id = EXCLUDED.id, start_year = EXCLUDED.start_year, start_date = EXCLUDED.start_date, funding_usd = EXCLUDED.funding_usd, funding_org_id = EXCLUDED.funding_org_id, language = EXCLUDED.language, n_researchers = EXCLUDED.n_researchers, n_research_orgs = EXCLUDED.n_research_orgs, n_funders = EXCLUDED.n_funders, n_concepts = EXCLUDED.n_concepts;
CREATE INDEX IF NOT EXISTS publications_narrow_year ON publications_narrow (year, pk);
CREATE INDEX IF NOT EXISTS publications_narrow_type ON publications_narrow (type, pk);
CREATE INDEX IF NOT EXISTS publications_narrow_journal_id ON publications_narrow (journal_id, pk);
CREATE INDEX IF NOT EXISTS grants_narrow_start_year ON grants_narrow (start_year, pk);
CREATE INDEX IF NOT EXISTS grants_narrow_funding_org_id ON grants_narrow (funding_org_id, pk);
