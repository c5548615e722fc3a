-- name: source_titles: what the merge of titles several lists share keeps
-- Records migration 33 (SQLite): written by scripts/new-records-migration.ts from the declared layout.
-- Never edit it; a change of the layout is a new migration (docs/storage.md).
CREATE TABLE IF NOT EXISTS source_title_merges (id TEXT PRIMARY KEY, into_id TEXT NOT NULL, record TEXT NOT NULL, merged TEXT) WITHOUT ROWID;
