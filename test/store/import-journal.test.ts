// The SQLite import journal of an earlier Quarry (migration 1) is brought forward in place:
// its runs and checkpoints kept, the inputs still tied to their runs, and a run can then be
// discarded. An unfinished run under a later finished one is listed (the journal once only
// looked at the latest run).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { importJournal, unfinishedImports } from '../../src/store/sqlite/import-journal.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-journal-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The journal as migration 1 made it, with a killed run under a finished one. */
function journalV1(path: string): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE schema_migrations (
      migration_set TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL,
      PRIMARY KEY (migration_set, version));
    INSERT INTO schema_migrations VALUES ('imports', 1, 'import runs and their per-input checkpoints', '2025-01-01T00:00:00.000Z');
    CREATE TABLE import_runs (
      id INTEGER PRIMARY KEY,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      state TEXT NOT NULL CHECK (state IN ('running', 'done', 'stopped')),
      request TEXT NOT NULL
    );
    CREATE TABLE import_inputs (
      run_id INTEGER NOT NULL REFERENCES import_runs (id),
      position INTEGER NOT NULL,
      name TEXT NOT NULL,
      line INTEGER NOT NULL DEFAULT 0,
      done INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (run_id, position)
    );
    INSERT INTO import_runs VALUES (1, '2025-01-01T10:00:00.000Z', NULL, 'running', '{"paths":["/data/a"]}');
    INSERT INTO import_inputs VALUES (1, 0, '/data/a/one.jsonl', 0, 1), (1, 1, '/data/a/two.jsonl', 4000, 0);
    INSERT INTO import_runs VALUES (2, '2025-01-02T10:00:00.000Z', '2025-01-02T10:01:00.000Z', 'done', '{"paths":["/data/b.jsonl"]}');
    INSERT INTO import_inputs VALUES (2, 0, '/data/b.jsonl', 120, 1);`);
  db.close();
}

describe('the SQLite import journal', () => {
  test('lists an unfinished run that a later finished run follows', () => {
    const path = join(work, 'v1-listed.db');
    journalV1(path);
    const runs = unfinishedImports(path);
    assert.deepEqual(
      runs.map((r) => [r.id, r.state, r.inputs.map((i) => [i.name, i.line, i.done])]),
      [
        [
          1,
          'running',
          [
            ['/data/a/one.jsonl', 0, true],
            ['/data/a/two.jsonl', 4000, false],
          ],
        ],
      ],
    );
  });

  for (const foreignKeys of [true, false])
    test(`migration 2 keeps runs and checkpoints and allows discarding (foreign keys ${foreignKeys ? 'on' : 'off'})`, () => {
      const path = join(work, `v1-${String(foreignKeys)}.db`);
      journalV1(path);
      const db = new Database(path);
      try {
        db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
        const journal = importJournal(db);
        journal.end(1, 'discarded');
        const next = journal.begin({ paths: ['/data/c.jsonl'] }, ['/data/c.jsonl']);
        assert.equal(next, 3);
        assert.deepEqual(db.prepare('SELECT id, state FROM import_runs ORDER BY id').all(), [
          { id: 1, state: 'discarded' },
          { id: 2, state: 'done' },
          { id: 3, state: 'running' },
        ]);
        assert.deepEqual(
          db.prepare('SELECT run_id, position, name, line, done FROM import_inputs ORDER BY run_id, position').all(),
          [
            { run_id: 1, position: 0, name: '/data/a/one.jsonl', line: 0, done: 1 },
            { run_id: 1, position: 1, name: '/data/a/two.jsonl', line: 4000, done: 0 },
            { run_id: 2, position: 0, name: '/data/b.jsonl', line: 120, done: 1 },
            { run_id: 3, position: 0, name: '/data/c.jsonl', line: 0, done: 0 },
          ],
        );
        // The inputs still point at the runs table by its name, and every reference holds.
        assert.deepEqual(
          db
            .prepare<[], { table: string }>('PRAGMA foreign_key_list(import_inputs)')
            .all()
            .map((k) => k.table),
          ['import_runs'],
        );
        assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
        assert.throws(() => journal.end(2, 'lost' as 'done'), /CHECK constraint failed/);
        assert.deepEqual(
          unfinishedImports(path).map((r) => r.id),
          [3],
        );
      } finally {
        db.close();
      }
    });
});
