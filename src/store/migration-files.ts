/**
 * Migrations kept as files, one folder per set: `<NNNN>-<slug>.<ext>`, numbered 1, 2, 3, ...
 * The name a migration is recorded under in `schema_migrations` is the file's first line
 * `-- name: <name>` when it has one (the records migrations keep the names they were first
 * recorded under, which no file name could hold), else its slug with spaces.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

/** One migration file of a set's folder. */
export interface MigrationFile {
  readonly version: number;
  /** The file's name in the folder (`0003-narrow-side-tables.sql`). */
  readonly file: string;
  /** The part between the number and the extension (`narrow-side-tables`). */
  readonly slug: string;
}

/** The migration files of a folder with one of `extensions` (`sql`, `ts`, ...), by version. */
export function migrationFiles(dir: URL, extensions: readonly string[]): MigrationFile[] {
  const pattern = new RegExp(`^(\\d+)-([\\w-]+)\\.(${extensions.join('|')})$`);
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.d.ts'))
    .flatMap((file) => {
      const match = pattern.exec(file);
      return match === null ? [] : [{ version: Number(match[1]), file, slug: match[2] as string }];
    })
    .sort((a, b) => a.version - b.version);
}

const NAME_LINE = /^-- name: (.+)$/m;

/** The name a migration file records: its `-- name:` first line, else its slug with spaces. */
export function migrationName(text: string, slug: string): string {
  const first = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  return NAME_LINE.exec(first)?.[1]?.trim() ?? slug.replace(/-/g, ' ');
}

/** `migrationName` of a file, reading only its start (a frozen file may hold megabytes of data). */
export function migrationNameOf(path: URL, slug: string): string {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const n = readSync(fd, head, 0, head.length, 0);
    return migrationName(head.toString('utf8', 0, n), slug);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first lines of a frozen migration file: its name, then what it is.
 *
 * @example frozenHeader('indexes for ...', ['Records migration 2 ...'])
 *   // "-- name: indexes for ...\n-- Records migration 2 ...\n"
 */
export function frozenHeader(name: string, lines: readonly string[]): string {
  if (name.includes('\n')) throw new Error(`a migration name is one line: ${name}`);
  return [`-- name: ${name}`, ...lines.map((l) => `-- ${l}`)].join('\n') + '\n';
}

/** A file name's slug for a migration name: its first words, lower case, joined by dashes. */
export function slugOf(name: string, words = 8): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, words)
    .join('-');
}
