-- A run given up unfinished (`quarry import --discard-unfinished`) ends as `discarded`: its
-- committed records stay, and it no longer holds the service back.
ALTER TABLE import_runs DROP CONSTRAINT import_runs_state_check;
ALTER TABLE import_runs
  ADD CONSTRAINT import_runs_state_check CHECK (state IN ('running', 'done', 'stopped', 'discarded'));
