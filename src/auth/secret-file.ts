/**
 * The token-signing secret kept in a file rather than in the database, so a copied,
 * backed-up or merely read database does not carry it. Beside a SQLite database
 * (`<db>.jwt-secret`, mode 600) it is generated on first start and read on later ones; a
 * file named by `tokens.jwtSecretFile` (QUARRY_JWT_SECRET_FILE) is the operator's, given to
 * every instance alike, and is only read. `QUARRY_JWT_SECRET` (tokens.jwtSecret) overrides both.
 */
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { QuarryError } from '../errors/index.ts';
import { restrictToOwner } from '../owner-only.ts';
import { randomSecret } from './secrets.ts';

/** The shortest secret accepted, as for `tokens.jwtSecret`. */
const MIN_SECRET_LENGTH = 32;

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

/**
 * The secret in the operator's file `path` (its first line). A missing, unreadable or short
 * file is a configuration error naming the file, never its content. It is not created: an
 * instance that made its own would sign tokens no other instance accepts.
 */
export function readSecretFile(path: string): string {
  const invalid = (detail: string) =>
    QuarryError.of('SERVICE_CONFIG_INVALID', {
      params: { detail: `tokens.jwtSecretFile (QUARRY_JWT_SECRET_FILE): ${path} ${detail}` },
    });
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw invalid(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const secret = (text.split('\n')[0] ?? '').trim();
  if (secret.length < MIN_SECRET_LENGTH)
    throw invalid(
      `must hold a secret of at least ${MIN_SECRET_LENGTH} characters on its first line (\`quarry jwt-secret\` makes one)`,
    );
  return secret;
}
