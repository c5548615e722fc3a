/**
 * Database files are created readable by their owner only (mode 600): they hold account
 * data and key hashes. SQLite gives the -wal and -shm files the database file's mode.
 */
import { closeSync, openSync } from 'node:fs';

/** Creates `path` empty with mode 600 unless it exists (an existing file keeps its mode). */
export function createPrivateFile(path: string): void {
  // In-memory and URI databases have no file to create.
  if (path === '' || path === ':memory:' || path.startsWith('file:')) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
