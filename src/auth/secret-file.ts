/**
 * The token-signing secret kept in a file of its own (mode 600) beside the database rather
 * than inside it, so a copied or backed-up database does not carry it: generated on first
 * start, read on later ones. `QUARRY_JWT_SECRET` (tokens.jwtSecret) overrides it.
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { restrictToOwner } from '../owner-only.ts';
import { randomSecret } from './secrets.ts';

/** The secret file that belongs to a database: `<db>.jwt-secret`. */
export const secretFileFor = (dbPath: string): string => `${dbPath}.jwt-secret`;

/** The secret in `path`, created (random, 256 bits, mode 600) when the file does not exist yet, else restricted to mode 600. */
export function readOrCreateSecretFile(path: string): string {
  if (!existsSync(path)) {
    try {
      // 'wx': two instances starting at once cannot both write one; the loser reads the winner's.
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${randomSecret(32)}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  // One written by an older version, or copied in, may be readable by others.
  restrictToOwner(path);
  return readFileSync(path, 'utf8').trim();
}
