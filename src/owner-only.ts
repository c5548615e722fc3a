/**
 * Files that hold account data, key hashes or a signing secret are readable by their owner
 * only (mode 600). Quarry creates them so; a file left group- or world-readable by an older
 * version (or copied in with 644) is tightened when it is next opened.
 */
import { chmodSync, statSync } from 'node:fs';

/**
 * Takes the group's and others' permissions off an existing file (644 becomes 600). A file
 * that does not exist is left alone, and so is one this process may not change (another
 * user's, or on a read-only medium): its owner chose that mode.
 */
export function restrictToOwner(path: string): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM' && code !== 'EROFS') throw err;
  }
}
