/**
 * An online, consistent copy of a Quarry database with SQLite's backup API: the service and
 * imports may keep reading and writing while it runs (pages changed meanwhile are copied
 * again), and the copy is one committed state of the whole file (records, accounts, the
 * import journal). The copy is created with mode 600, like the database.
 *
 * @example await backupDatabase('data/quarry.db', 'backups/quarry-2024-06-01.db');
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { QuarryError } from '../../errors/index.ts';
import { createPrivateFile } from './private-file.ts';

export interface BackupReport {
  /** Pages copied (the database's size in pages when the copy completed). */
  readonly pages: number;
  readonly ms: number;
}

/** Copies `dbPath` to `outPath` (which must not exist yet). */
export async function backupDatabase(
  dbPath: string,
  outPath: string,
  onProgress?: (done: number, total: number) => void,
): Promise<BackupReport> {
  const started = performance.now();
  if (!existsSync(dbPath))
    throw QuarryError.of('ENGINE_DATABASE_UNAVAILABLE', {
      params: { path: dbPath, reason: 'the file does not exist' },
    });
  if (existsSync(outPath)) throw QuarryError.of('DATA_BACKUP_EXISTS', { params: { path: outPath } });
  createPrivateFile(outPath);
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const result = await db.backup(outPath, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress?.(totalPages - remainingPages, totalPages);
        // Pages per step: large enough to be quick, small enough to let writers in between.
        return 1000;
      },
    });
    return { pages: result.totalPages, ms: Math.round(performance.now() - started) };
  } finally {
    db.close();
  }
}
