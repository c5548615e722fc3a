-- name: bulk export jobs
-- Bulk exports (docs/exports.md): one row per job, with the last record key written and the
-- partial file's length at that point, so a restarted service resumes it.
CREATE TABLE export_jobs (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL,
  query TEXT NOT NULL,
  dsl_version INTEGER NOT NULL,
  sources TEXT,
  format TEXT NOT NULL,
  state TEXT NOT NULL,
  records BIGINT NOT NULL DEFAULT 0,
  total BIGINT,
  last_key TEXT,
  bytes BIGINT NOT NULL DEFAULT 0,
  columns TEXT,
  epoch TEXT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  error TEXT
);
CREATE INDEX export_jobs_account_state ON export_jobs (account_id, state);
CREATE INDEX export_jobs_state ON export_jobs (state, created_at);
