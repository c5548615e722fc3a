-- name: grants: resulting_publication_ids read through publication_grants
-- Records migration 32 (SQLite): written by scripts/new-records-migration.ts from the declared layout, made rerunnable by hand.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
-- The view only when absent (rerunnable); it joins the source tables, so rewriting grants in
-- finish() renames with legacy_alter_table (src/store/sqlite/full-pages.ts).
CREATE VIEW IF NOT EXISTS grant_resulting_publications AS SELECT o.pk AS grant_pk, s.id AS publication_id FROM publication_grants l JOIN grants o ON o.id = l.grant_id JOIN publications s ON s.pk = l.publication_pk;
