-- name: per-year pre-aggregates of citations_per_year and funding_per_year
-- Records migration 3 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_citations_by_year (publication_pk bigint NOT NULL, year bigint NOT NULL, citations bigint NOT NULL, PRIMARY KEY (publication_pk, year));
CREATE TABLE IF NOT EXISTS citations_by_year (year bigint NOT NULL, citations bigint NOT NULL, PRIMARY KEY (year));
CREATE TABLE IF NOT EXISTS grant_funding_years (grant_pk bigint NOT NULL, year bigint NOT NULL, shares bigint NOT NULL, years bigint NOT NULL, PRIMARY KEY (grant_pk, year));
CREATE TABLE IF NOT EXISTS funding_by_year (currency text COLLATE "C" NOT NULL, year bigint NOT NULL, amount double precision NOT NULL, PRIMARY KEY (currency, year));
DO $migration$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'publication_references' AND column_name = 'cited_key') THEN
EXECUTE $step$CREATE TEMP TABLE citing_years ON COMMIT DROP AS SELECT v.cited_id AS id, y.year AS year, y.n AS n FROM (SELECT r.cited_key AS id, c.year AS year, count(*) AS n FROM publications c CROSS JOIN publication_references r WHERE r.publication_pk = c.pk GROUP BY r.cited_key, c.year) y JOIN cited_ids v ON v.id = y.id$step$;
ELSE
EXECUTE $step$CREATE TEMP TABLE citing_years ON COMMIT DROP AS SELECT r.cited_id AS id, c.year AS year, count(*) AS n FROM publications c CROSS JOIN publication_references r WHERE r.publication_pk = c.pk GROUP BY r.cited_id, c.year$step$;
END IF; END $migration$;
DELETE FROM publication_citations_by_year;
DELETE FROM citations_by_year;
DELETE FROM store_meta WHERE key = 'per_year_publications';
INSERT INTO publication_citations_by_year (publication_pk, year, citations) SELECT p.pk, y.year, y.n FROM citing_years y JOIN publications p ON p.id = y.id WHERE y.year IS NOT NULL ORDER BY p.pk, y.year;
INSERT INTO citations_by_year (year, citations) SELECT year, sum(citations) FROM publication_citations_by_year GROUP BY year;
INSERT INTO store_meta (key, value) VALUES ('per_year_publications', CURRENT_TIMESTAMP) ON CONFLICT (key) DO UPDATE SET value = excluded.value;
DROP TABLE citing_years;
DELETE FROM grant_funding_years;
DELETE FROM funding_by_year;
DELETE FROM store_meta WHERE key = 'per_year_grants';
INSERT INTO grant_funding_years (grant_pk, year, shares, years) WITH a AS (SELECT l.grant_pk AS pk, CAST(l.value AS INTEGER) AS year FROM grant_values l WHERE l.field = '14' UNION ALL SELECT g.pk, CAST(g.start_year AS INTEGER) FROM grants g WHERE g.start_year IS NOT NULL AND NOT EXISTS (SELECT 1 FROM grant_values l WHERE l.grant_pk = g.pk AND l.field = '14')), n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) SELECT a.pk, a.year, count(*), n.years FROM a JOIN n ON n.pk = a.pk GROUP BY a.pk, a.year, n.years ORDER BY a.pk, a.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'USD', f.year, sum(g.funding_usd * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_usd > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'AUD', f.year, sum(g.funding_aud * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_aud > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'CAD', f.year, sum(g.funding_cad * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_cad > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'CHF', f.year, sum(g.funding_chf * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_chf > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'EUR', f.year, sum(g.funding_eur * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_eur > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'GBP', f.year, sum(g.funding_gbp * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_gbp > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'JPY', f.year, sum(g.funding_jpy * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_jpy > 0 GROUP BY f.year;
INSERT INTO funding_by_year (currency, year, amount) SELECT 'NZD', f.year, sum(g.funding_nzd * f.shares * 1.0 / f.years) FROM grant_funding_years f JOIN grants g ON g.pk = f.grant_pk WHERE g.funding_nzd > 0 GROUP BY f.year;
INSERT INTO store_meta (key, value) VALUES ('per_year_grants', CURRENT_TIMESTAMP) ON CONFLICT (key) DO UPDATE SET value = excluded.value;
