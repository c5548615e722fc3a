import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { QuarryError } from '../../errors/index.ts';
import { applyConnectionPragmas, type ConnectionTuning } from './pragmas.ts';
import { restrictDatabaseFiles } from './private-file.ts';
import { RECORD_MIGRATIONS } from './records-schema.ts';
import { registerPostingFunctions } from './posting-lists.ts';
import { registerUnpackText } from './text-dictionaries.ts';

/**
 * Opens an existing record database for queries only (the engine's workers use one each).
 * Writes through this connection fail; WAL lets it read while an import is writing.
 * Throws ENGINE_DATABASE_UNAVAILABLE when the file is missing, is not a Quarry database, or
 * was made by an older layout than this code reads.
 *
 * @example const db = openReadOnly('/var/lib/quarry/records.db'); db.prepare('SELECT COUNT(*) FROM publications').pluck().get();
 */
export function openReadOnly(dbPath: string, tuning: ConnectionTuning = {}): Database.Database {
  const unavailable = (reason: string, cause?: unknown): QuarryError =>
    QuarryError.of(
      'ENGINE_DATABASE_UNAVAILABLE',
      { params: { path: dbPath, reason } },
      cause === undefined ? undefined : { cause },
    );
  if (!existsSync(dbPath)) throw unavailable('the file does not exist');
  restrictDatabaseFiles(dbPath);
  let db: Database.Database;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw unavailable(err instanceof Error ? err.message : String(err), err);
  }
  try {
    applyConnectionPragmas(db, tuning);
    const version = recordSchemaVersion(db);
    const expected = RECORD_MIGRATIONS.length;
    if (version === 0) throw unavailable('it holds no Quarry record tables');
    if (version < expected)
      throw unavailable(
        `its record tables are at version ${version}, this Quarry reads version ${expected}; open it once with \`quarry serve\`, \`quarry query --db\` or \`quarry import\` to upgrade`,
      );
    // Compiled statements read packed columns (doc, abstracts) and posting lists through these.
    registerUnpackText(db);
    registerPostingFunctions(db);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof QuarryError) throw err;
    throw unavailable(err instanceof Error ? err.message : String(err), err);
  }
}

/** The version of the `records` migration set applied to the database (0: none). */
export function recordSchemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return 0;
  const row = db
    .prepare<[], { v: number | null }>(
      "SELECT MAX(version) AS v FROM schema_migrations WHERE migration_set = 'records'",
    )
    .get();
  return row?.v ?? 0;
}
