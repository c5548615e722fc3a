-- name: source_titles: what the merge of titles several lists share keeps
-- Records migration 25 (PostgreSQL): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS source_title_merges (id text PRIMARY KEY, into_id text NOT NULL, record text NOT NULL, merged text);
