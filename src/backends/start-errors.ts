/**
 * The coded errors a back end gives when it cannot be opened, for every kind alike: an
 * operator reads what to do, and never a password.
 */
import { QuarryError } from '../errors/index.ts';
import { describeUnfinished, type ImportRun } from '../store/record-writer.ts';

/** A URL fit for messages and logs: the password replaced. */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** A SQLite file that should exist and does not: a mistyped path must not become an empty database. */
export function missingFile(path: string): QuarryError {
  return QuarryError.of('SERVICE_CONFIG_INVALID', {
    params: {
      detail: `the database ${path} does not exist; pass --db FILE (or a postgres:// URL), or create it with \`npm start\` or \`quarry import\``,
    },
  });
}

/** A back end that did not answer at start, as the coded error an operator can act on. */
export function unreachable(backend: string, url: string, cause: unknown): QuarryError {
  const reason = cause instanceof Error ? cause.message || cause.constructor.name : String(cause);
  return QuarryError.of('SERVICE_BACKEND_UNREACHABLE', { params: { backend, url: redactUrl(url), reason } }, { cause });
}

/** The imports that did not finish, as the coded start-up error. */
export function importUnfinished(db: string, runs: readonly ImportRun[]): QuarryError {
  return QuarryError.of('DATA_IMPORT_UNFINISHED', { params: { db, detail: describeUnfinished(runs) } });
}

/** A command that the database's kind does not serve, saying what to use instead. */
export function notForThisKind(detail: string): QuarryError {
  return QuarryError.of('SERVICE_CONFIG_INVALID', { params: { detail } });
}
