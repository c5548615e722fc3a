-- name: publications: the funding and raw_affiliations full-text indexes
-- Records migration 26 (SQLite): written by hand (docs/storage.md, "Migrations are frozen").
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
-- FTS5 cannot add columns to publications_fts, and a contentless table cannot give its texts
-- back to rebuild it: the two columns get a table of their own, keyed by pk alike, filled
-- here from the records held (funding sections and the held funders' names; the authors'
-- affiliation strings as printed, or an affiliation's name where the author has none).
CREATE VIRTUAL TABLE IF NOT EXISTS publications_fts_apart USING fts5(funding, raw_affiliations, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS publications_fts_apart_vocab USING fts5vocab(publications_fts_apart, 'row');
INSERT INTO publications_fts_apart (rowid, funding, raw_affiliations)
SELECT p.pk,
  coalesce((SELECT group_concat(t, ' ; ') FROM (
    SELECT json_extract(unpack_text(p.doc), '$.funding_section') AS t
    UNION SELECT o.name FROM publication_funders f JOIN organizations o ON o.id = f.org_id WHERE f.publication_pk = p.pk
  ) WHERE t IS NOT NULL AND t <> ''), ''),
  coalesce((SELECT group_concat(t, ' ; ') FROM (
    SELECT r.value AS t FROM json_each(unpack_text(p.doc), '$.authors') a, json_each(a.value, '$.raw_affiliation') r
    UNION SELECT CASE
        WHEN json_type(f.value, '$.raw_affiliation') = 'text' THEN json_extract(f.value, '$.raw_affiliation')
        WHEN coalesce(json_array_length(a.value, '$.raw_affiliation'), 0) = 0 THEN json_extract(f.value, '$.name')
      END
      FROM json_each(unpack_text(p.doc), '$.authors') a, json_each(a.value, '$.affiliations') f
  ) WHERE t IS NOT NULL AND t <> ''), '')
FROM publications p
WHERE p.pk NOT IN (SELECT rowid FROM publications_fts_apart);
