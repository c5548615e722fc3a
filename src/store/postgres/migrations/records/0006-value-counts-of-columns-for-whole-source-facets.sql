-- name: value counts of columns, for whole-source facets (publication_year_counts)
-- Records migration 6 (PostgreSQL): the statements its code generated from the storage layout, frozen.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS publication_year_counts (year bigint NOT NULL PRIMARY KEY, n bigint NOT NULL);
DELETE FROM publication_year_counts;
INSERT INTO publication_year_counts (year, n) SELECT year, count(*) FROM publications WHERE year IS NOT NULL AND CAST(year AS TEXT) != '' GROUP BY year;
