-- name: source titles: the journals table becomes source_titles, beside the title metrics
-- Records migration 29 (SQLite): written by hand (docs/storage.md, "Migrations are frozen"): a
-- table renamed and widened is no CREATE statement the script can write. The journals' rows
-- move to source_titles whole (pk, id, title, publisher, n_publications, doc); the ISSNs their
-- documents list become `issn` values (code 1) and their titles full-text rows. Run again on a
-- database that holds source_titles already, it leaves its rows as they are.
-- With them, the table of the journal metrics a user imports (`title_metrics`), new.
-- Never edit it; a change of the layout is a new migration.
CREATE TABLE IF NOT EXISTS journals (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  publisher TEXT,
  n_publications INTEGER,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS source_titles (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT,
  type TEXT,
  issn_print TEXT,
  issn_electronic TEXT,
  linkout TEXT,
  start_year INTEGER,
  sjr REAL,
  snip REAL,
  publisher TEXT,
  n_publications INTEGER,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS title_metrics (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  issn TEXT,
  year INTEGER,
  sjr REAL,
  snip REAL,
  doc TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS source_title_values (
  source_title_pk INTEGER NOT NULL,
  field TEXT NOT NULL,
  value NOT NULL,
  PRIMARY KEY (source_title_pk, field, value)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS source_titles_fts USING fts5(title, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS source_titles_fts_vocab USING fts5vocab(source_titles_fts, 'row');
INSERT OR IGNORE INTO source_titles (pk, id, title, publisher, n_publications, doc)
  SELECT pk, id, title, publisher, n_publications, doc FROM journals ORDER BY pk;
INSERT OR IGNORE INTO source_title_values (source_title_pk, field, value)
  SELECT j.pk, '1', e.value FROM journals j, json_each(j.doc, '$.issn') e
  WHERE json_valid(j.doc) AND json_type(j.doc, '$.issn') = 'array' AND e.type = 'text';
INSERT INTO source_titles_fts (rowid, title)
  SELECT pk, title FROM journals WHERE title IS NOT NULL;
DROP TABLE journals;
CREATE INDEX IF NOT EXISTS source_titles_title ON source_titles (title);
CREATE INDEX IF NOT EXISTS source_titles_type ON source_titles (type);
CREATE INDEX IF NOT EXISTS source_titles_start_year ON source_titles (start_year);
CREATE INDEX IF NOT EXISTS source_titles_issn_print ON source_titles (issn_print);
CREATE INDEX IF NOT EXISTS source_titles_issn_electronic ON source_titles (issn_electronic);
CREATE INDEX IF NOT EXISTS title_metrics_issn_year ON title_metrics (issn, year);
CREATE INDEX IF NOT EXISTS source_title_values_by_field_value ON source_title_values (field, value);
