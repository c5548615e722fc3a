/**
 * Migrations kept as files, one folder per set: `<NNNN>-<slug>.<ext>`, numbered 1, 2, 3, ...
 * The name a migration is recorded under in `schema_migrations` is the file's first line
 * `-- name: <name>` when it has one (the records migrations keep the names they were first
 * recorded under, which no file name could hold), else its slug with spaces.
 *
 * The `records` set of each engine is spread over several folders: the store's own
 * (`src/store/<engine>/migrations/records/`, the tables of no source and migrations shared by
 * several sources) and one per source folder that brings its own tables
 * (`src/sources/<name>/migrations/<engine>/`), so that adding a source adds its migrations
 * inside its folder. The numbers stay one sequence across the folders: a version is the order
 * a migration runs in, whichever folder holds it, and two folders holding one number are
 * refused.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageFile } from '../package-root.ts';

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

/** A migration file and the folder holding it. */
export interface PlacedMigrationFile extends MigrationFile {
  readonly dir: URL;
  /** The file itself (`dir` + `file`). */
  readonly path: URL;
}

/** The engines whose records migrations source folders hold, each in `migrations/<engine>/`. */
export type MigrationEngine = 'sqlite' | 'postgres';

/** The folder of the source folders. Found from the package root: compiled, the code lives in a bundle chunk under dist/. */
export const SOURCES_DIR = pathToFileURL(packageFile('src/sources/'));

/**
 * The folders of an engine's records migrations that source folders hold:
 * `<sources>/<name>/migrations/<engine>/` of every source folder that has one, by name.
 * Found on disk, not from the registry: a database keeps a source's tables (and its recorded
 * migrations) whatever the code lists.
 */
export function sourceMigrationDirs(engine: MigrationEngine, sourcesDir: URL = SOURCES_DIR): URL[] {
  return readdirSync(sourcesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => new URL(`${name}/migrations/${engine}/`, sourcesDir))
    .filter((dir) => existsSync(dir));
}

/**
 * The migration files of several folders as one set, by version. Throws when two files hold
 * one version (in one folder or two): the numbers are the order migrations run in, shared by
 * every folder of the set.
 */
export function migrationFilesOf(dirs: readonly URL[], extensions: readonly string[]): PlacedMigrationFile[] {
  const files = dirs
    .flatMap((dir) => migrationFiles(dir, extensions).map((f) => ({ ...f, dir, path: new URL(f.file, dir) })))
    .sort((a, b) => a.version - b.version);
  files.forEach((f, i) => {
    const previous = files[i - 1];
    if (previous !== undefined && previous.version === f.version)
      throw new Error(
        `migration ${f.version} is numbered twice: ${fileURLToPath(previous.path)} and ${fileURLToPath(f.path)}; ` +
          'the folders of a set share one sequence, so a new migration takes the number after the highest of all of them',
      );
  });
  return files;
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
