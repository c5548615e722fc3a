-- name: grants: the raw_affiliations full-text index
-- Records migration 31 (SQLite): the tables written by scripts/new-records-migration.ts from the declared layout, the fill by hand.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
-- FTS5 cannot add a column to grants_fts, and a contentless table cannot give its texts back
-- to rebuild it: the column gets a table of its own, keyed by pk alike (as publications' in
-- records migration 26), filled here from the records held: the investigators' affiliation
-- strings as the funder gives them, or an affiliation's name where the investigator has none.
-- Rerunnable: the tables only when absent, the rows only of grants without one.
CREATE VIRTUAL TABLE IF NOT EXISTS grants_fts_apart USING fts5(raw_affiliations, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS grants_fts_apart_vocab USING fts5vocab(grants_fts_apart, 'row');
INSERT INTO grants_fts_apart (rowid, raw_affiliations)
SELECT g.pk,
  coalesce((SELECT group_concat(t, ' ; ') FROM (
    SELECT r.value AS t FROM json_each(unpack_text(g.doc), '$.investigators') a, json_each(a.value, '$.raw_affiliation') r
      WHERE json_type(a.value, '$.raw_affiliation') = 'array'
    UNION SELECT CASE
        WHEN json_type(f.value, '$.raw_affiliation') = 'text' THEN json_extract(f.value, '$.raw_affiliation')
        WHEN coalesce(json_array_length(a.value, '$.raw_affiliation'), 0) = 0 THEN json_extract(f.value, '$.name')
      END
      FROM json_each(unpack_text(g.doc), '$.investigators') a, json_each(a.value, '$.affiliations') f
  ) WHERE t IS NOT NULL AND t <> ''), '')
FROM grants g
WHERE g.pk NOT IN (SELECT rowid FROM grants_fts_apart);
