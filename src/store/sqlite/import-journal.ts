/**
 * The import journal, kept in the record database itself so it commits with the records:
 * each import run (what was asked, when, how it ended) and, per input, the last source line
 * whose records are committed. A run still `running` after its process is gone did not
 * finish: the service refuses the database until `quarry import --resume` completes the run
 * or `--discard-unfinished` gives it up. Every such run counts, not only the latest: a later
 * import that ended says nothing about the records an earlier one left half-written.
 *
 * Every batch of records and its checkpoint commit in one transaction, so after a crash the
 * checkpoint names exactly what is in the database.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { ImportRun, ImportRunState } from '../record-writer.ts';
import { migrate, type Migration } from './migrate.ts';

const IMPORT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'import runs and their per-input checkpoints',
    up: `CREATE TABLE import_runs (
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
    );`,
  },
  {
    // SQLite cannot change a CHECK constraint in place: both tables are copied into new ones
    // (the inputs too, so no row ever points at a dropped table, whether foreign keys are
    // enforced or not) and renamed, which carries the inputs' reference over to the new name.
    version: 2,
    name: 'a discarded state for imports given up unfinished',
    up: `CREATE TABLE import_runs_v2 (
      id INTEGER PRIMARY KEY,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      state TEXT NOT NULL CHECK (state IN ('running', 'done', 'stopped', 'discarded')),
      request TEXT NOT NULL
    );
    INSERT INTO import_runs_v2 (id, started_at, finished_at, state, request)
      SELECT id, started_at, finished_at, state, request FROM import_runs;
    CREATE TABLE import_inputs_v2 (
      run_id INTEGER NOT NULL REFERENCES import_runs_v2 (id),
      position INTEGER NOT NULL,
      name TEXT NOT NULL,
      line INTEGER NOT NULL DEFAULT 0,
      done INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (run_id, position)
    );
    INSERT INTO import_inputs_v2 (run_id, position, name, line, done)
      SELECT run_id, position, name, line, done FROM import_inputs;
    DROP TABLE import_inputs;
    DROP TABLE import_runs;
    ALTER TABLE import_runs_v2 RENAME TO import_runs;
    ALTER TABLE import_inputs_v2 RENAME TO import_inputs;`,
  },
];

export { describeUnfinished, type ImportRun, type ImportRunState, type InputCheckpoint } from '../record-writer.ts';

export interface ImportJournal {
  /** Starts a run over the inputs (in import order). */
  begin(request: unknown, inputs: readonly string[]): number;
  /** Records how far an input is committed; call inside the transaction that wrote the records. */
  checkpoint(run: number, position: number, line: number, done: boolean): void;
  end(run: number, state: Exclude<ImportRunState, 'running'>): void;
  /** The latest run, or undefined when nothing was ever imported with a journal. */
  last(): ImportRun | undefined;
}

/** The journal of a record database open for writing (its tables created on first use). */
export function importJournal(db: Database.Database): ImportJournal {
  migrate(db, 'imports', IMPORT_MIGRATIONS);
  const insertRun = db.prepare<[string, string]>(
    "INSERT INTO import_runs (started_at, state, request) VALUES (?, 'running', ?)",
  );
  const insertInput = db.prepare<[number, number, string]>(
    'INSERT INTO import_inputs (run_id, position, name) VALUES (?, ?, ?)',
  );
  const update = db.prepare<[number, number, number, number]>(
    'UPDATE import_inputs SET line = ?, done = ? WHERE run_id = ? AND position = ?',
  );
  const finish = db.prepare<[string, string, number]>('UPDATE import_runs SET state = ?, finished_at = ? WHERE id = ?');
  return {
    begin(request, inputs) {
      return db.transaction(() => {
        const id = Number(insertRun.run(new Date().toISOString(), JSON.stringify(request)).lastInsertRowid);
        inputs.forEach((name, position) => insertInput.run(id, position, name));
        return id;
      })();
    },
    checkpoint(run, position, line, done) {
      update.run(line, done ? 1 : 0, run, position);
    },
    end(run, state) {
      finish.run(state, new Date().toISOString(), run);
    },
    last() {
      return runsWhere(db, 'id = (SELECT MAX(id) FROM import_runs)')[0];
    },
  };
}

const UNFINISHED = "state = 'running'";

interface RunRow {
  id: number;
  started_at: string;
  state: ImportRunState;
  request: string;
}

/** The runs a fixed condition picks, by id, with their inputs. */
function runsWhere(db: Database.Database, condition: string): ImportRun[] {
  return db
    .prepare<[], RunRow>(`SELECT id, started_at, state, request FROM import_runs WHERE ${condition} ORDER BY id`)
    .all()
    .map((run) => withInputs(db, run));
}

function withInputs(db: Database.Database, run: RunRow): ImportRun {
  const inputs = db
    .prepare<[number], { position: number; name: string; line: number; done: number }>(
      'SELECT position, name, line, done FROM import_inputs WHERE run_id = ? ORDER BY position',
    )
    .all(run.id)
    .map((i) => ({ position: i.position, name: i.name, line: i.line, done: i.done === 1 }));
  return {
    id: run.id,
    startedAt: run.started_at,
    state: run.state,
    request: JSON.parse(run.request) as unknown,
    inputs,
  };
}

/**
 * Every import run of a database that did not end, oldest first (read-only; none for a
 * missing file or a database without a journal).
 */
export function unfinishedImports(dbPath: string): ImportRun[] {
  if (!existsSync(dbPath)) return [];
  let opened: Database.Database | undefined;
  try {
    opened = new Database(dbPath, { readonly: true, fileMustExist: true });
    opened.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  } catch {
    opened?.close();
    return []; // not a database: whoever opens it next says so with a coded error
  }
  const db = opened;
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'import_runs'").get();
    if (table === undefined) return [];
    return runsWhere(db, UNFINISHED);
  } finally {
    db.close();
  }
}
