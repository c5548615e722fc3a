import type { Database } from 'better-sqlite3';

/** One schema change. Versions within a set start at 1 and only ever grow. */
export type Migration = CodedMigration | FrozenMigration;

/** A change written as code: the same SQL or function on every database (accounts, web, imports). */
export interface CodedMigration {
  readonly version: number;
  readonly name: string;
  /** SQL to run, or a function for changes SQL alone cannot express. */
  readonly up: string | ((db: Database) => void);
}

/**
 * A frozen change (records): the statements it runs on a new database are fixed in a file,
 * so a later change of the storage layout cannot change what it makes (docs/storage.md,
 * "Migrations are frozen").
 */
export interface FrozenMigration {
  readonly version: number;
  readonly name: string;
  /** The frozen statements, read when they are needed. */
  readonly sql: () => string;
  /**
   * What a database that already held the set when `migrate()` began runs instead of `sql`:
   * a step that transforms the rows it holds. Without it, `sql` runs on every database.
   */
  readonly upgrade?: (db: Database) => void;
  /** Registers the SQL functions the frozen statements call, before they run. */
  readonly functions?: (db: Database) => void;
}

/**
 * Applies the migrations of one named set (`records`, `accounts`, ...) that the database has
 * not seen yet, each in its own transaction, and records them in `schema_migrations`.
 * Sets are independent, so the record store and the account store evolve separately in one
 * database file.
 *
 * A frozen migration runs its SQL while the set is new to the database: it held none of the
 * set when this call began and every version since was applied by this call. Otherwise (an
 * older database, or another process applied versions in between) it runs its `upgrade`.
 *
 * @returns the versions applied by this call
 */
export function migrate(db: Database, set: string, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    migration_set TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (migration_set, version)
  )`);
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(
        `migration set '${set}' must number its versions 1, 2, 3, ...; found ${m.version} at position ${i + 1}`,
      );
  });
  const current = db.prepare<[string], { v: number | null }>(
    'SELECT MAX(version) AS v FROM schema_migrations WHERE migration_set = ?',
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (migration_set, version, name, applied_at) VALUES (?, ?, ?, ?)',
  );
  const applied: number[] = [];
  // The last version this call applied, and whether every version the database holds came
  // from this call, starting from none (the set is new to it).
  let own = 0;
  let newSet = true;
  for (const m of sorted) {
    // Under the write lock (IMMEDIATE), and the version read again there: two processes
    // opening one new file at once (two `quarry serve` on one database) must not both apply
    // a migration; the second waits for the lock and then finds it applied.
    const done = db
      .transaction(() => {
        const held = current.get(set)?.v ?? 0;
        if (m.version <= held) return false;
        if (held !== own) newSet = false;
        run(db, m, newSet);
        record.run(set, m.version, m.name, new Date().toISOString());
        return true;
      })
      .immediate();
    if (done) {
      applied.push(m.version);
      own = m.version;
    }
  }
  return applied;
}

function run(db: Database, m: Migration, onNewSet: boolean): void {
  if ('up' in m) {
    if (typeof m.up === 'string') db.exec(m.up);
    else m.up(db);
  } else if (!onNewSet && m.upgrade !== undefined) {
    m.upgrade(db);
  } else {
    m.functions?.(db);
    db.exec(m.sql());
  }
}

/** The migrations of a set the database has not applied yet (nothing is changed). */
export function pendingMigrations(db: Database, set: string, migrations: readonly Migration[]): Migration[] {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  const current =
    table === undefined
      ? 0
      : (db
          .prepare<[string], { v: number | null }>(
            'SELECT MAX(version) AS v FROM schema_migrations WHERE migration_set = ?',
          )
          .get(set)?.v ?? 0);
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => m.version > current);
}
