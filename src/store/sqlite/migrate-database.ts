/**
 * `quarry migrate` on a SQLite file: the account and web tables get their pending
 * migrations, and record tables (when the file holds records) theirs. The stores apply the
 * same migrations when they open a file; this does it on purpose, or lists what it would do.
 */
import Database from 'better-sqlite3';
import { ACCOUNT_MIGRATIONS } from './account-store.ts';
import { migrate, pendingMigrations, type Migration } from './migrate.ts';
import { recordSchemaVersion } from './open.ts';
import { RECORD_MIGRATIONS } from './records-schema.ts';
import { WEB_MIGRATIONS } from './web-store.ts';

export interface SqliteMigrationStep {
  readonly set: string;
  readonly version: number;
  readonly name: string;
}

/** Applies (or with `dryRun` lists) the pending migrations of every set in the file. */
export function migrateSqliteDatabase(path: string, options: { dryRun?: boolean } = {}): SqliteMigrationStep[] {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const sets: Array<[string, readonly Migration[]]> = [
      ['accounts', ACCOUNT_MIGRATIONS],
      ['web', WEB_MIGRATIONS],
    ];
    // Record tables are made by the first import; an account-only file gets none.
    if (recordSchemaVersion(db) > 0) sets.push(['records', RECORD_MIGRATIONS]);
    const steps: SqliteMigrationStep[] = [];
    for (const [set, migrations] of sets) {
      const pending = pendingMigrations(db, set, migrations);
      steps.push(...pending.map((m) => ({ set, version: m.version, name: m.name })));
      if (options.dryRun !== true) migrate(db, set, migrations);
    }
    return steps;
  } finally {
    db.close();
  }
}
