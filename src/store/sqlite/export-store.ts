/**
 * The bulk-export jobs in SQLite (migration set 'exports', in the same file as records and
 * accounts). better-sqlite3 is synchronous; the methods wrap their answers in Promises to
 * meet the asynchronous `ExportJobStore`.
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { INSERT_COLUMNS, jobOfRow, progressAssignments, rowValues, type ExportRow } from '../export-rows.ts';
import type { ExportJob, ExportJobStore, ExportProgress, ExportState } from '../exports.ts';
import { migrate, type Migration } from './migrate.ts';
import { createPrivateFile } from './private-file.ts';

export const EXPORT_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'bulk export jobs',
    up: `
      CREATE TABLE export_jobs (
        id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL,
        query TEXT NOT NULL,
        dsl_version INTEGER NOT NULL,
        sources TEXT,
        format TEXT NOT NULL,
        state TEXT NOT NULL,
        records INTEGER NOT NULL DEFAULT 0,
        total INTEGER,
        last_key TEXT,
        bytes INTEGER NOT NULL DEFAULT 0,
        columns TEXT,
        epoch TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        error TEXT
      );
      CREATE INDEX export_jobs_account_state ON export_jobs (account_id, state);
      CREATE INDEX export_jobs_state ON export_jobs (state, created_at);
    `,
  },
];

/**
 * Opens (and migrates) the export jobs' table in the SQLite file at `dbPath`.
 *
 * @example const store = openSqliteExportStore('./data/quarry.db'); await store.get(id);
 */
export function openSqliteExportStore(dbPath: string): ExportJobStore {
  createPrivateFile(dbPath);
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  migrate(db, 'exports', EXPORT_MIGRATIONS);
  return new SqliteExportStore(db);
}

class SqliteExportStore implements ExportJobStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  insert(job: ExportJob): Promise<void> {
    const values = rowValues(job);
    this.#db
      .prepare(`INSERT INTO export_jobs (${INSERT_COLUMNS}) VALUES (${values.map(() => '?').join(', ')})`)
      .run(...values);
    return Promise.resolve();
  }

  get(id: string): Promise<ExportJob | undefined> {
    const row = this.#db.prepare<[string], ExportRow>('SELECT * FROM export_jobs WHERE id = ?').get(id);
    return Promise.resolve(row === undefined ? undefined : jobOfRow(row));
  }

  update(id: string, change: ExportProgress, from?: readonly ExportState[]): Promise<boolean> {
    const { sets, values } = progressAssignments(change, () => '?');
    if (sets.length === 0) return Promise.resolve(true);
    const guard = from === undefined ? '' : ` AND state IN (${from.map(() => '?').join(', ')})`;
    const { changes } = this.#db
      .prepare(`UPDATE export_jobs SET ${sets.join(', ')} WHERE id = ?${guard}`)
      .run(...values, id, ...(from ?? []));
    return Promise.resolve(changes > 0);
  }

  inStates(states: readonly ExportState[]): Promise<ExportJob[]> {
    const rows = this.#db
      .prepare<string[], ExportRow>(
        `SELECT * FROM export_jobs WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY created_at, id`,
      )
      .all(...states);
    return Promise.resolve(rows.map(jobOfRow));
  }

  activeCount(accountId: number): Promise<number> {
    const count = this.#db
      .prepare<[number], number>(
        "SELECT count(*) FROM export_jobs WHERE account_id = ? AND state IN ('queued', 'running')",
      )
      .pluck()
      .get(accountId);
    return Promise.resolve(count ?? 0);
  }

  finishedBefore(before: number): Promise<ExportJob[]> {
    const rows = this.#db
      .prepare<[number], ExportRow>(
        "SELECT * FROM export_jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < ?",
      )
      .all(before);
    return Promise.resolve(rows.map(jobOfRow));
  }

  remove(id: string): Promise<void> {
    this.#db.prepare('DELETE FROM export_jobs WHERE id = ?').run(id);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }
}
