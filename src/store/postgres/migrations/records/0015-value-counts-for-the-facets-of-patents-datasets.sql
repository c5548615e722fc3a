-- name: value counts for the facets of patents, datasets and trials
-- Records migration 15 (PostgreSQL): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS patent_priority_year_counts (priority_year bigint NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS patent_family_count_counts (family_count bigint NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS patent_times_cited_counts (times_cited bigint NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS dataset_language_title_counts (language_title text COLLATE "C" NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS dataset_language_desc_counts (language_desc text COLLATE "C" NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS dataset_license_name_counts (license_name text COLLATE "C" NOT NULL PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE IF NOT EXISTS clinical_trial_study_participants_counts (study_participants bigint NOT NULL PRIMARY KEY, n bigint NOT NULL);
-- Counted here for a database that already holds these sources (afresh, should they hold rows);
-- finish() rewrites them after each import.
DELETE FROM patent_priority_year_counts;
INSERT INTO patent_priority_year_counts (priority_year, n) SELECT priority_year, count(*) FROM patents WHERE priority_year IS NOT NULL AND CAST(priority_year AS TEXT) != '' GROUP BY priority_year;
DELETE FROM patent_family_count_counts;
INSERT INTO patent_family_count_counts (family_count, n) SELECT family_count, count(*) FROM patents WHERE family_count IS NOT NULL AND CAST(family_count AS TEXT) != '' GROUP BY family_count;
DELETE FROM patent_times_cited_counts;
INSERT INTO patent_times_cited_counts (times_cited, n) SELECT times_cited, count(*) FROM patents WHERE times_cited IS NOT NULL AND CAST(times_cited AS TEXT) != '' GROUP BY times_cited;
DELETE FROM dataset_language_title_counts;
INSERT INTO dataset_language_title_counts (language_title, n) SELECT language_title, count(*) FROM datasets WHERE language_title IS NOT NULL AND CAST(language_title AS TEXT) != '' GROUP BY language_title;
DELETE FROM dataset_language_desc_counts;
INSERT INTO dataset_language_desc_counts (language_desc, n) SELECT language_desc, count(*) FROM datasets WHERE language_desc IS NOT NULL AND CAST(language_desc AS TEXT) != '' GROUP BY language_desc;
DELETE FROM dataset_license_name_counts;
INSERT INTO dataset_license_name_counts (license_name, n) SELECT license_name, count(*) FROM datasets WHERE license_name IS NOT NULL AND CAST(license_name AS TEXT) != '' GROUP BY license_name;
DELETE FROM clinical_trial_study_participants_counts;
INSERT INTO clinical_trial_study_participants_counts (study_participants, n) SELECT study_participants, count(*) FROM clinical_trials WHERE study_participants IS NOT NULL AND CAST(study_participants AS TEXT) != '' GROUP BY study_participants;
