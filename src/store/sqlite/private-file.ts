/**
 * Database files are readable by their owner only (mode 600): they hold account data and
 * key hashes. SQLite gives the -wal and -shm files it creates the database file's mode, but
 * ones left by an older version keep theirs, so they are tightened with the database.
 */
import { closeSync, openSync } from 'node:fs';
import { restrictToOwner } from '../../owner-only.ts';

/** The files SQLite keeps beside a database. */
const SIBLINGS = ['-wal', '-shm', '-journal'];

/** In-memory and URI databases have no file of their own here. */
function isFile(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file:');
}

/** Creates `path` empty with mode 600, or restricts an existing one (and its siblings) to mode 600. */
export function createPrivateFile(path: string): void {
  if (!isFile(path)) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    restrictDatabaseFiles(path);
  }
}

/** Takes the group's and others' permissions off a database file and its -wal, -shm and -journal files. */
export function restrictDatabaseFiles(path: string): void {
  if (!isFile(path)) return;
  restrictToOwner(path);
  for (const suffix of SIBLINGS) restrictToOwner(`${path}${suffix}`);
}
